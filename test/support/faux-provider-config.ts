/** The provider every test-only faux-model extension registers: `faux` with model `faux-1`, served by pi-ai's faux API. */

/** pi.registerProvider's config for provider `faux` on the faux API registered as `api` (same shape in pi 0.73 and 1.6). */
export function fauxProviderConfig(api: string) {
	return {
		baseUrl: "http://localhost:0",
		apiKey: "faux-key",
		api,
		models: [
			{
				id: "faux-1",
				name: "Faux",
				reasoning: false,
				input: ["text" as const],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 128000,
				maxTokens: 4096,
			},
		],
	};
}
