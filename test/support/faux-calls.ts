/**
 * The "calls" script of the scripted test models, written once for every pi generation: each turn's tool calls in
 * one assistant message, then a reply naming every tool pi offered. The faux functions come from the pi-ai that
 * the running pi resolves (`@mariozechner/pi-ai` for 0.73.1, `@earendil-works/pi-ai/compat` for 1.6).
 */

/** One scripted tool call. */
export interface ScriptedCall {
	name: string;
	args: Record<string, unknown>;
	id: string;
}

/** The two faux helpers the script needs, as both pi-ai generations export them. */
export interface FauxHelpers<M, C> {
	fauxAssistantMessage(content: C[] | string, options?: { stopReason?: "toolUse" }): M;
	fauxToolCall(name: string, args: Record<string, unknown>, options?: { id?: string }): C;
}

/** The turns to play, from PES_E2E_CALLS (a JSON list of turns, each a list of calls). */
export function callsFromEnv(): ScriptedCall[][] {
	return JSON.parse(process.env.PES_E2E_CALLS ?? "[]") as ScriptedCall[][];
}

/** What the scripted model sees of a request: pi 0.73.1 passes the tools, pi 1.6 lists them in its system message. */
export interface FauxRequest {
	tools?: Array<{ name: string }>;
	messages?: Array<{ role: string; sections?: { tools?: string } }>;
}

/** Names of the tools pi offered in this request, sorted. */
export function offeredTools(context: FauxRequest): string[] {
	if (context.tools) return context.tools.map((t) => t.name).sort();
	const listed = context.messages?.find((m) => m.role === "system")?.sections?.tools ?? "";
	return [...listed.matchAll(/^- ([\w-]+):/gm)].map((m) => m[1] as string).sort();
}

/** Each turn as one assistant message of tool calls, then `done tools=<sorted names of the tools pi offered>`. */
export function callsScript<M, C>(faux: FauxHelpers<M, C>, turns: ScriptedCall[][]): Array<M | ((context: FauxRequest) => M)> {
	return [
		...turns.map((calls) =>
			faux.fauxAssistantMessage(
				calls.map((c) => faux.fauxToolCall(c.name, c.args, { id: c.id })),
				{ stopReason: "toolUse" },
			),
		),
		(context) => faux.fauxAssistantMessage(`done tools=${offeredTools(context).join(",")}`),
	];
}
