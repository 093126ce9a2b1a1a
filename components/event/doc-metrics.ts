/**
 * What the event-stack reducer reads of an event document: a few numbers (event-doc.ts measures them), and the key
 * naming a document by its inputs, which the memoized selector caches it under.
 */
import type { FragmentWindow } from "../../src/shared/types.js";
import type { EventData } from "./event-data.js";

/** The find in an event: its text and the match the view is on (fragment and character), if any. */
export interface FindMark {
	text: string;
	fid: string | null;
	at: number | null;
}

/** What a document depends on besides the width and the wrap setting. */
export interface DocSource {
	data: EventData | null;
	highlights: string[];
	focusFragment: string | null;
	/** Fragment id → windows of a large fragment loaded besides its head and tail. */
	chunks: Record<string, FragmentWindow[]>;
	find: FindMark | null;
}

/** A line standing for text not loaded yet: which fragment, and which characters. */
export interface DocGap {
	id: string;
	line: number;
	from: number;
	to: number;
}

/** The numbers of one event document the reducer scrolls, places and loads chunks with. */
export interface DocMetrics {
	lines: number;
	/** First line of each fragment. */
	anchors: Record<string, number>;
	/** Line of the first highlighted match. */
	matchLine: number | null;
	/** Lines of text not loaded yet, in line order: scrolling near one loads it. */
	gaps: DocGap[];
	/** Line of the find's current match. */
	findLine: number | null;
}

/**
 * The document of a location at a width, named: everything besides the loaded data it depends on. The data of a
 * location never changes once loaded, and a location without data has no document (EMPTY_METRICS measures it).
 */
export function docKey(loc: DocSource, width: number, wrap: boolean): string {
	const chunks = Object.entries(loc.chunks).map(([k, ws]) => `${k}:${ws.map((w) => w.range[0]).join(",")}`);
	return JSON.stringify([width, wrap, loc.highlights, loc.focusFragment, chunks, loc.find]);
}

/** The measure of no document (data not loaded, or unreadable): nothing to scroll. */
export const EMPTY_METRICS: DocMetrics = { lines: 0, anchors: {}, matchLine: null, gaps: [], findLine: null };
