/**
 * Test-only pi 1.6 extension: a scripted model (pi-ai's faux provider, through the `@earendil-works/pi-ai` name pi
 * 1.6 resolves for extensions: its compat entry). Script "plant" fails once with a retryable error, so pi itself retries and writes
 * the context edit that omits the failed reply; "tools" searches for it and reads and traces the omitted reply;
 * "search" only searches; "echo" answers every prompt "ok N". Env: PES_E2E_SCRIPT, PES_E2E_NEEDLE.
 */

import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "@earendil-works/pi-ai/compat";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callsFromEnv, callsScript } from "./faux-calls.js";
import { fauxProviderConfig } from "./faux-provider-config.js";

/** Tool call ids, so the test finds each result in the session file pi writes. */
export const CALL_IDS_16 = { search: "call16_search", read: "call16_read", trace: "call16_trace", installed: "call16_installed", bad: "call16_bad" } as const;

type Step = Parameters<ReturnType<typeof registerFauxProvider>["setResponses"]>[0][number];
type Ctx = { messages: Array<{ role: string; toolCallId?: string; content?: unknown }> };

function resultText(context: Ctx, toolCallId: string): string {
	for (const m of context.messages) {
		if (m.role === "toolResult" && m.toolCallId === toolCallId && Array.isArray(m.content))
			return (m.content as Array<{ type: string; text?: string }>).map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("\n");
	}
	throw new Error(`no tool result for ${toolCallId} in the context`);
}

function script(name: string, needle: string): Step[] {
	// Every prompt answered "ok N" (an interactive session of several prompts).
	if (name === "echo") return Array.from({ length: 20 }, (_, i) => fauxAssistantMessage(`ok ${i + 1}`));
	if (name === "calls") return callsScript({ fauxAssistantMessage, fauxToolCall }, callsFromEnv()) as Step[];
	if (name === "plant") {
		return [
			fauxAssistantMessage("", { stopReason: "error", errorMessage: `overloaded_error: upstream overloaded while explaining ${needle}` }),
			fauxAssistantMessage(`After a retry: the deploy failed with ${needle}; roll back the migration.`),
		];
	}
	if (name === "search") {
		return [
			fauxAssistantMessage(
				[
					fauxToolCall("event_search", { query: needle }, { id: CALL_IDS_16.installed }),
					fauxToolCall("event_search", { query: needle, after: "last tuesday" }, { id: CALL_IDS_16.bad }),
				],
				{ stopReason: "toolUse" },
			),
			fauxAssistantMessage("searched"),
		];
	}
	return [
		fauxAssistantMessage([fauxText("Searching the history."), fauxToolCall("event_search", { query: needle }, { id: CALL_IDS_16.search })], {
			stopReason: "toolUse",
		}),
		(context: unknown) => {
			// Like a model: look closely at the hit the model never saw (the failed reply pi omitted).
			const text = resultText(context as Ctx, CALL_IDS_16.search);
			const ref = /selectionState=omitted[^\n]*\n {3}sessionId=(\S+) entryId=(\S+)/.exec(text);
			if (!ref) return fauxAssistantMessage(`no omitted hit in: ${text.slice(0, 300)}`);
			const sessionId = ref[1] as string;
			const entryId = ref[2] as string;
			return fauxAssistantMessage(
				[
					fauxToolCall("event_read", { sessionId, entryId }, { id: CALL_IDS_16.read }),
					fauxToolCall("event_trace", { sessionId, entryId }, { id: CALL_IDS_16.trace }),
				],
				{ stopReason: "toolUse" },
			);
		},
		fauxAssistantMessage("done"),
	];
}

/** Registers the faux provider `faux` with model `faux-1`. */
export default function fauxModel16(pi: ExtensionAPI): void {
	const faux = registerFauxProvider({ api: "pes-faux-16", provider: "faux", models: [{ id: "faux-1", reasoning: false }] });
	faux.setResponses(script(process.env.PES_E2E_SCRIPT ?? "tools", process.env.PES_E2E_NEEDLE ?? "needle"));
	pi.registerProvider("faux", fauxProviderConfig("pes-faux-16"));
}
