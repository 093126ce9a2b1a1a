/**
 * What the event-stack reducer knows of an event document: a few numbers measured by the view (event-doc.ts), and the
 * key naming the document they measure. The key is a plain string of the document's inputs, so the reducer can tell
 * whether its numbers still describe the document on screen without ever building one.
 */
import type { FragmentWindow } from "../src/shared/types.js";
import type { EventData } from "./loaders.js";

/** What a document depends on besides the width and the wrap setting. */
export interface DocSource {
	data: EventData | null;
	highlights: string[];
	focusFragment: string | null;
	pages: Record<string, number>;
	pageWindows: Record<string, FragmentWindow>;
}

/** A run of consecutive document lines that show one fragment (its rule, text and gap lines). */
export interface FragmentRun {
	id: string;
	from: number;
	to: number;
}

/** The numbers of one event document the reducer scrolls, places and pages with. */
export interface DocMetrics {
	/** The document measured (docKey of its inputs). */
	key: string;
	lines: number;
	/** First line of each fragment. */
	anchors: Record<string, number>;
	/** Line of the first highlighted match. */
	matchLine: number | null;
	/** Which fragment each line shows, as runs in line order (paging acts on the fragment on screen). */
	runs: FragmentRun[];
}

/**
 * The document of a location at a width, named: everything besides the loaded data it depends on. The data of a
 * location never changes once loaded, and a location without data has no document (EMPTY_METRICS measures it).
 */
export function docKey(loc: DocSource, width: number, wrap: boolean): string {
	const windows = Object.entries(loc.pageWindows).map(([k, w]) => `${k}:${w.range[0]}`);
	return JSON.stringify([width, wrap, loc.highlights, loc.focusFragment, loc.pages, windows]);
}

/** The measure of no document (data not loaded, or unreadable): nothing to scroll. */
export const EMPTY_METRICS: Omit<DocMetrics, "key"> = { lines: 0, anchors: {}, matchLine: null, runs: [] };
