/** The reads behind each screen: what the explorer asks the service for an event view, a page and a preview. */

import { errorText } from "../../src/present/text.js";
import type { EventBrief, EventRef, ForkAbove, FragmentWindow, Hit, ReadResult, SearchRequest, SearchResult, TraceResult } from "../../src/shared/types.js";
import type { ExplorerService } from "../core/explorer-service.js";
import { CHUNK_CHARS } from "./fragment-windows.js";

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

/** Reads one chunk of a large fragment (continuous scrolling, a find's match). */
export async function loadChunk(service: ExplorerService, ref: EventRef, fragmentId: string, offset: number): Promise<FragmentWindow> {
	const read = await service.read({ sessionId: ref.sessionId, entryId: ref.entryId, fragmentId, offset, maxChars: CHUNK_CHARS, before: 0, after: 0 });
	const window = read.fragments[0];
	if (!window) throw new Error(`fragment ${fragmentId} is gone`);
	return window;
}

/** Characters per read when a find reads a fragment's whole text (the core's read maximum). */
const FIND_READ_CHARS = 1_000_000;

/** A fragment's whole text, read window by window from the service (a find must see all of it, not the loaded part). */
export async function fragmentText(service: ExplorerService, ref: EventRef, fragmentId: string): Promise<string> {
	let text = "";
	for (let offset = 0; ; ) {
		const read = await service.read({ sessionId: ref.sessionId, entryId: ref.entryId, fragmentId, offset, maxChars: FIND_READ_CHARS, before: 0, after: 0 });
		const w = read.fragments[0];
		if (!w) break;
		text += w.text;
		if (w.range[1] >= w.totalChars || w.range[1] <= offset) break;
		offset = w.range[1];
	}
	return text;
}

/** Where a find lands: the fragment and character of the match, and whether it wrapped past the end (or start). */
export interface FindResult {
	match: { fid: string; at: number } | null;
	wrapped: boolean;
}

/**
 * The next (dir 1) or previous (dir -1) match of `text` in the event's fragments (in document order, any case),
 * after or before `from` (null: from the top), wrapping around once. `texts` reads a fragment's whole text.
 */
export async function findInEvent(
	fragmentIds: readonly string[],
	texts: (fid: string) => Promise<string>,
	text: string,
	dir: 1 | -1,
	from: { fid: string; at: number } | null,
): Promise<FindResult> {
	const needle = text.toLowerCase();
	const n = fragmentIds.length;
	if (n === 0 || needle === "") return { match: null, wrapped: false };
	const start = from ? Math.max(0, fragmentIds.indexOf(from.fid)) : dir === 1 ? 0 : n - 1;
	// Visit the start fragment after (or before) the match, the others in order, then the start fragment again from its other end.
	for (let step = 0; step <= n; step++) {
		const i = (((start + dir * step) % n) + n) % n;
		const fid = fragmentIds[i] as string;
		const hay = (await texts(fid)).toLowerCase();
		const wrapped = step > 0 && (dir === 1 ? i <= start : i >= start);
		let at: number;
		if (step === 0 && from) at = dir === 1 ? hay.indexOf(needle, from.at + 1) : from.at > 0 ? hay.lastIndexOf(needle, from.at - 1) : -1;
		else if (step === n && from) at = dir === 1 ? hay.indexOf(needle) : hay.lastIndexOf(needle);
		else if (step === n) break;
		else at = dir === 1 ? hay.indexOf(needle) : hay.lastIndexOf(needle);
		if (step === n && from && at !== -1 && (dir === 1 ? at > from.at : at < from.at)) at = -1;
		if (at !== -1) return { match: { fid, at }, wrapped: wrapped || (step === n && from !== null) };
	}
	return { match: null, wrapped: false };
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
