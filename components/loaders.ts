/** The reads behind each screen: what the explorer asks the service for an event view, a page and a preview. */

import { errorText } from "../src/present/text.js";
import type { EventBrief, EventRef, ForkAbove, FragmentWindow, Hit, ReadResult, SearchRequest, SearchResult, TraceResult } from "../src/shared/types.js";
import type { ExplorerService } from "./explorer-service.js";

/** Characters of each fragment an event view shows first (the head). */
export const HEAD_CHARS = 4000;
/** Characters of the tail shown after the head of a fragment too large to show whole. */
export const TAIL_CHARS = 1500;
/** Characters per page when paging through a large fragment. */
export const PAGE_CHARS = 4000;
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

/** Reads one event for the event view: branch-order read with the path, trace, append neighbors, tails. */
export async function loadEvent(service: ExplorerService, ref: EventRef): Promise<EventData> {
	const [read, trace, append] = await Promise.all([
		service.read({ sessionId: ref.sessionId, entryId: ref.entryId, maxChars: HEAD_CHARS, before: PATH_DEPTH, after: 1 }),
		service.trace({ sessionId: ref.sessionId, entryId: ref.entryId }),
		service.read({ sessionId: ref.sessionId, entryId: ref.entryId, maxChars: 1, order: "append", before: 1, after: 1 }),
	]);
	const tails: Record<string, FragmentWindow> = {};
	for (const f of read.fragments) {
		if (f.range[1] >= f.totalChars) continue;
		const offset = Math.max(f.range[1], f.totalChars - TAIL_CHARS);
		const tail = (await service.read({ sessionId: ref.sessionId, entryId: ref.entryId, fragmentId: f.id, offset, maxChars: TAIL_CHARS, before: 0, after: 0 }))
			.fragments[0];
		if (tail) tails[f.id] = tail;
	}
	return { read, trace, appendBefore: append.neighbors.before.at(-1) ?? null, appendAfter: append.neighbors.after[0] ?? null, tails };
}

/** Reads one page of a large fragment. */
export async function loadPage(service: ExplorerService, ref: EventRef, fragmentId: string, offset: number): Promise<FragmentWindow> {
	const read = await service.read({ sessionId: ref.sessionId, entryId: ref.entryId, fragmentId, offset, maxChars: PAGE_CHARS, before: 0, after: 0 });
	const window = read.fragments[0];
	if (!window) throw new Error(`fragment ${fragmentId} is gone`);
	return window;
}

/** Reads what the preview pane shows for a hit: its matching fragment (or the bare event when it has none). */
export async function loadPreview(service: ExplorerService, hit: Hit): Promise<ReadResult> {
	const ref = { sessionId: hit.sessionId, entryId: hit.entryId, before: 0, after: 0 };
	return service.read(hit.fragmentId ? { ...ref, fragmentId: hit.fragmentId, maxChars: PREVIEW_CHARS } : { ...ref, maxChars: 2000 });
}

/** Runs a search, turning a throw into a message (a bad filter or a busy index must not end the session). */
export async function runSearch(service: ExplorerService, request: SearchRequest): Promise<{ result: SearchResult } | { error: string }> {
	try {
		return { result: await service.search(request) };
	} catch (error) {
		return { error: errorText(error) };
	}
}

/** The nearest fork above an event (the core walks it: time proportional to the path, off the input loop). */
export async function findForkAbove(service: ExplorerService, start: EventRef): Promise<ForkAbove | null> {
	return service.forkAbove(start);
}
