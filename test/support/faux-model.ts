/**
 * Test-only pi extension: a scripted model (pi-ai's faux provider) that drives our tools the way a model would,
 * reading refs out of the previous tool results' text. Env: PES_E2E_SCRIPT (plant | tools | calls | echo), PES_E2E_NEEDLE,
 * PES_E2E_CALLS (for "calls": a JSON list of turns, each a list of tool calls `{name, args, id}`).
 */

import { type Context, type FauxResponseStep, fauxAssistantMessage, fauxText, fauxToolCall, getApiProvider, registerFauxProvider } from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { callsFromEnv, callsScript } from "./faux-calls.js";
import { fauxProviderConfig } from "./faux-provider-config.js";

/** Tool call ids of the "tools" script, so the test can find each result in the session file. */
export const CALL_IDS = {
	search: "call_search_default",
	read: "call_read_ref",
	trace: "call_trace_ref",
	searchOwn: "call_search_own",
	badDate: "call_bad_date",
	emptyQuery: "call_empty_query",
} as const;

function resultText(context: Context, toolCallId: string): string {
	for (const m of context.messages) {
		if (m.role === "toolResult" && m.toolCallId === toolCallId) return m.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
	}
	throw new Error(`no tool result for ${toolCallId} in the context`);
}

function script(name: string, needle: string): FauxResponseStep[] {
	// Every prompt answered "ok N" (an interactive session of several prompts).
	if (name === "echo") return Array.from({ length: 20 }, (_, i) => fauxAssistantMessage(`ok ${i + 1}`));
	if (name === "calls") return callsScript({ fauxAssistantMessage, fauxToolCall }, callsFromEnv()) as FauxResponseStep[];
	if (name === "plant") {
		return [fauxAssistantMessage(`Noted: the nightly build failed with ${needle}; I will keep it in mind.`)];
	}
	return [
		fauxAssistantMessage([fauxText("Searching the history."), fauxToolCall("event_search", { query: needle }, { id: CALL_IDS.search })], {
			stopReason: "toolUse",
		}),
		(context) => {
			// Like a model: take the first ref of the answer and look at it closely.
			const text = resultText(context, CALL_IDS.search);
			const ref = /sessionId=(\S+) entryId=(\S+)(?: fragmentId=(\S+))?/.exec(text);
			if (!ref) return fauxAssistantMessage(`no ref in: ${text.slice(0, 200)}`);
			const [, sessionId, entryId, fragmentId] = ref;
			return fauxAssistantMessage(
				[
					fauxToolCall("event_read", { sessionId, entryId, ...(fragmentId ? { fragmentId } : {}) }, { id: CALL_IDS.read }),
					fauxToolCall("event_trace", { sessionId, entryId }, { id: CALL_IDS.trace }),
				],
				{ stopReason: "toolUse" },
			);
		},
		(context) => {
			const own = /your current session (\S+) is excluded/.exec(resultText(context, CALL_IDS.search));
			if (!own) return fauxAssistantMessage("the search result did not name my session");
			return fauxAssistantMessage([fauxToolCall("event_search", { query: needle, sessionId: own[1], limit: 50 }, { id: CALL_IDS.searchOwn })], {
				stopReason: "toolUse",
			});
		},
		fauxAssistantMessage(
			[
				fauxToolCall("event_search", { query: needle, after: "last tuesday" }, { id: CALL_IDS.badDate }),
				fauxToolCall("event_search", { query: "   " }, { id: CALL_IDS.emptyQuery }),
			],
			{ stopReason: "toolUse" },
		),
		(context) => {
			const tools = (context.tools ?? []).map((t) => t.name).filter((n) => n.startsWith("event_"));
			const prompt = context.systemPrompt ?? "";
			const taught = prompt.includes("event_search") && prompt.includes("event_read") && prompt.includes("event_trace");
			return fauxAssistantMessage(`done tools=${tools.sort().join(",")} prompt-teaches-tools=${taught}`);
		},
	];
}

/** Registers the faux provider `faux` with model `faux-1`. */
export default function fauxModel(pi: ExtensionAPI): void {
	const faux = registerFauxProvider({ api: "pes-faux", provider: "faux", models: [{ id: "faux-1", reasoning: false }] });
	faux.setResponses(script(process.env.PES_E2E_SCRIPT ?? "tools", process.env.PES_E2E_NEEDLE ?? "needle"));
	// pi's interactive mode refreshes its model registry after extensions load, which drops API handlers registered
	// straight with pi-ai: handing the faux stream to pi makes pi register it again on every refresh.
	const streamSimple = getApiProvider("pes-faux")?.streamSimple;
	pi.registerProvider("faux", { ...fauxProviderConfig("pes-faux"), ...(streamSimple ? { streamSimple } : {}) });
}
