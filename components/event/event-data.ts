/** What an event view holds once loaded, and the sizes of the reads behind it (the loads are loaders.ts). */
import type { EventBrief, FragmentWindow, ReadResult, TraceResult } from "../../src/shared/types.js";

/** Characters of each fragment an event view shows first (the head). */
export const HEAD_CHARS = 4000;
/** Characters of the tail shown after the head of a fragment too large to show whole. */
export const TAIL_CHARS = 1500;
/** Ancestors read for the "path from the root" line (the core's neighbor maximum). */
export const PATH_DEPTH = 50;
/** Characters of a fragment the preview reads to find the match (large results are previewed around it). */
export const PREVIEW_CHARS = 200_000;

/**
 * How much of a window a page shows: up to its last line break (or, without one in its second half, its last space),
 * so the next page starts at a line or a word, never inside one; all of it when it reaches the fragment's end.
 */
export function pageCut(text: string, reachesEnd: boolean): number {
	if (reachesEnd) return text.length;
	const half = Math.floor(text.length / 2);
	const nl = text.lastIndexOf("\n");
	if (nl >= half) return nl + 1;
	const sp = Math.max(text.lastIndexOf(" "), text.lastIndexOf("\t"));
	return sp >= half ? sp + 1 : text.length;
}

/** Where the tail window's shown text starts: after its first line break or space (within 200 chars), so at a word. */
export function tailSkip(text: string): number {
	const lead = text.slice(0, 200);
	const nl = lead.indexOf("\n");
	if (nl !== -1) return nl + 1;
	const sp = lead.search(/[ \t]/);
	return sp === -1 ? 0 : sp + 1;
}

/** Everything an event view shows: the exact read, its trace, its append-order neighbors and fragment tails. */
export interface EventData {
	read: ReadResult;
	trace: TraceResult;
	appendBefore: EventBrief | null;
	appendAfter: EventBrief | null;
	/** Tail windows of fragments whose head did not reach the end. */
	tails: Record<string, FragmentWindow>;
}
