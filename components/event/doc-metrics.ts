/**
 * What the event-stack reducer knows of an event document: a few numbers measured by the view (event-doc.ts), and the
 * key naming the document they measure. The key is a plain string of the document's inputs, so the reducer can tell
 * whether its numbers still describe the document on screen without ever building one.
 */
import type { FragmentWindow } from "../../src/shared/types.js";
import type { EventData } from "./loaders.js";

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

/** A run of consecutive document lines that show one fragment (its rule, text and gap lines). */
export interface FragmentRun {
	id: string;
	from: number;
	to: number;
}

/** The numbers of one event document the reducer scrolls, places and loads chunks with. */
export interface DocMetrics {
	/** The document measured (docKey of its inputs). */
	key: string;
	lines: number;
	/** First line of each fragment. */
	anchors: Record<string, number>;
	/** Line of the first highlighted match. */
	matchLine: number | null;
	/** Which fragment each line shows, as runs in line order. */
	runs: FragmentRun[];
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
export const EMPTY_METRICS: Omit<DocMetrics, "key"> = { lines: 0, anchors: {}, matchLine: null, runs: [], gaps: [], findLine: null };
