/** Who is calling a Pi tool and how much its answer may weigh: the invoking entry (I17) and bounded `details`. */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { MODEL_OUTPUT_LIMITS } from "../present/model-text.js";
import { type FragmentWindow, type ReadResult, refKey, type SearchResult, type TraceEdge, type TraceResult } from "../shared/types.js";

/**
 * The assistant message holding the calling tool call: the cutoff of the caller's own session (I17). pi's leaf is
 * not it when tools run sequentially (the leaf is then a sibling tool result); undefined before pi persisted it.
 */
export function invokingEntry(sm: Pick<ExtensionContext["sessionManager"], "getEntries">, toolCallId: string | undefined): string | undefined {
	if (!toolCallId) return undefined;
	const entries = sm.getEntries() as Array<{ id: string; type: string; message?: { role?: string; content?: unknown } }>;
	// A call from a codemode script (pi ≥ 0.99) has the id `<parent id>/<n>` (nested deeper: `<parent>/<n>/<m>`) and
	// is in no transcript entry: the cutoff is the assistant message holding the model-issued call it came from.
	for (let id: string | undefined = toolCallId; id; id = id.includes("/") ? id.slice(0, id.lastIndexOf("/")) : undefined) {
		for (let i = entries.length - 1; i >= 0; i--) {
			const e = entries[i];
			if (e?.type !== "message" || e.message?.role !== "assistant" || !Array.isArray(e.message.content)) continue;
			if ((e.message.content as Array<{ type?: string; id?: string }>).some((b) => b?.type === "toolCall" && b.id === id)) return e.id;
		}
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

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Read details within DETAILS_MAX_BYTES: neighbor lists are shortened first (fork candidates, then the far ends of
 * after and before), then the longest fragment window is cut (its range ends where it was cut, so `offset` = range
 * end continues it); notes say what went. The model's text is formatted from the same bounded result.
 */
export function boundReadDetails(result: ReadResult): ReadResult {
	const limit = DETAILS_MAX_BYTES - 512;
	if (jsonBytes(result) <= DETAILS_MAX_BYTES) return result;
	const n = result.neighbors;
	const neighbors = { ...n, before: [...n.before], after: [...n.after], forkCandidates: [...n.forkCandidates] };
	const fragments = result.fragments.map((f) => ({ ...f, range: [...f.range] as [number, number] }));
	const bounded: ReadResult = { ...result, neighbors, fragments, notes: [...result.notes] };
	const listed = () => neighbors.before.length + neighbors.after.length + neighbors.forkCandidates.length;
	const neighborsBefore = listed();
	for (const list of [neighbors.forkCandidates, neighbors.after]) while (list.length > 0 && jsonBytes(bounded) > limit) list.pop();
	while (neighbors.before.length > 0 && jsonBytes(bounded) > limit) neighbors.before.shift();
	if (listed() < neighborsBefore) bounded.notes.push(`details list ${listed()} of ${neighborsBefore} neighbors to stay within ${DETAILS_MAX_BYTES / 1024} KB`);
	let excess = jsonBytes(bounded) - limit;
	if (excess <= 0) return bounded;
	while (excess > 0) {
		const longest = fragments.reduce<FragmentWindow | undefined>((a, f) => (a && a.text.length >= f.text.length ? a : f), undefined);
		if (!longest || longest.text.length === 0) break;
		// JSON spends 1 to 6 bytes on a character (\u escapes): cut by the bytes over, at least one, then measure again.
		const keep = Math.max(0, longest.text.length - Math.max(1, Math.ceil(excess / 2)));
		// Never end the window inside a surrogate pair.
		const end = keep > 0 && /[\uD800-\uDBFF]/.test(longest.text.charAt(keep - 1)) ? keep - 1 : keep;
		longest.text = longest.text.slice(0, end);
		longest.range[1] = longest.range[0] + end;
		longest.truncated = true;
		excess = jsonBytes(bounded) - limit;
	}
	bounded.notes.push(`fragment text cut to stay within ${DETAILS_MAX_BYTES / 1024} KB; continue with fragmentId and offset = the range end`);
	return bounded;
}

/** Trace details within DETAILS_MAX_BYTES: the last edges (and nodes only they named) go first, with a note. */
export function boundTraceDetails(result: TraceResult): TraceResult {
	if (jsonBytes(result) <= DETAILS_MAX_BYTES) return result;
	const edges = [...result.edges];
	const total = edges.length;
	const bounded: TraceResult = { ...result, edges, nodes: { ...result.nodes }, notes: [...result.notes] };
	const keyOf = (e: TraceEdge) => ("entryId" in e.to && e.to.entryId ? refKey(e.to) : null);
	while (edges.length > 0 && jsonBytes(bounded) > DETAILS_MAX_BYTES - 256) {
		const dropped = edges.pop() as TraceEdge;
		const key = keyOf(dropped);
		if (key && !edges.some((e) => keyOf(e) === key)) delete bounded.nodes[key];
	}
	bounded.notes.push(`details list ${edges.length} of ${total} edges to stay within ${DETAILS_MAX_BYTES / 1024} KB`);
	return bounded;
}
