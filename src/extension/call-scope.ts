/** Who is calling a Pi tool and how much its answer may weigh: the invoking entry (I17) and bounded `details`. */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { MODEL_OUTPUT_LIMITS } from "../present/model-text.js";
import type { SearchResult } from "../shared/types.js";

/**
 * The assistant message holding the calling tool call: the cutoff of the caller's own session (I17). pi's leaf is
 * not it when tools run sequentially (the leaf is then a sibling tool result); undefined before pi persisted it.
 */
export function invokingEntry(sm: Pick<ExtensionContext["sessionManager"], "getEntries">, toolCallId: string | undefined): string | undefined {
	if (!toolCallId) return undefined;
	const entries = sm.getEntries() as Array<{ id: string; type: string; message?: { role?: string; content?: unknown } }>;
	for (let i = entries.length - 1; i >= 0; i--) {
		const e = entries[i];
		if (e?.type !== "message" || e.message?.role !== "assistant" || !Array.isArray(e.message.content)) continue;
		if ((e.message.content as Array<{ type?: string; id?: string }>).some((b) => b?.type === "toolCall" && b.id === toolCallId)) return e.id;
	}
	return undefined;
}

/** The most `details` may weigh in the session file, like the text the model gets (DESIGN §5). */
const DETAILS_MAX_BYTES = MODEL_OUTPUT_LIMITS.maxBytes;

/** Search details within DETAILS_MAX_BYTES: the last hits go first, and a note says how many were left out. */
export function boundSearchDetails(result: SearchResult): SearchResult {
	const size = (r: SearchResult) => Buffer.byteLength(JSON.stringify(r));
	if (size(result) <= DETAILS_MAX_BYTES) return result;
	const hits = [...result.hits];
	const total = hits.length;
	const bounded = { ...result, hits, notes: [...result.notes] };
	while (hits.length > 0 && size(bounded) > DETAILS_MAX_BYTES - 200) hits.pop();
	bounded.notes.push(`details list ${hits.length} of ${total} hits to stay within ${DETAILS_MAX_BYTES / 1024} KB`);
	return bounded;
}
