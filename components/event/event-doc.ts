/**
 * The event document as a memoized selector: the view draws it (EventView, the pi host), and the event-stack reducer
 * reads its numbers (docMetrics) to scroll, place and load chunks, so both see the same document and the render
 * never feeds numbers back into the state. A document is built once per location, width and wrap; the cache is keyed
 * weakly by the loaded data.
 */

import { type DocGap, type DocMetrics, type DocSource, docKey } from "./doc-metrics.js";
import type { EventData } from "./event-data.js";
import { buildEventDoc, type EventDoc } from "./read-view.js";

const cache = new WeakMap<EventData, Map<string, EventDoc>>();
const measures = new WeakMap<EventDoc, DocMetrics>();

/**
 * The event document of a location at a width. The key holds everything besides the data that the document depends
 * on: App reuses one EventData when the same event is opened again from another search, whose highlights differ.
 */
export function eventDoc(loc: DocSource, width: number, wrap: boolean): EventDoc | null {
	if (!loc.data) return null;
	const key = docKey(loc, width, wrap);
	let byKey = cache.get(loc.data);
	if (!byKey) {
		byKey = new Map();
		cache.set(loc.data, byKey);
	}
	let doc = byKey.get(key);
	if (!doc) {
		doc = buildEventDoc(loc.data, {
			chunks: loc.chunks,
			find: loc.find,
			highlights: loc.highlights,
			focusFragment: loc.focusFragment,
			width,
			wrap,
		});
		if (byKey.size > 8) byKey.clear();
		byKey.set(key, doc);
	}
	return doc;
}

/** The numbers the event-stack reducer needs of a location's document at a width (null before the data is loaded). */
export function docMetrics(loc: DocSource, width: number, wrap: boolean): DocMetrics | null {
	const doc = eventDoc(loc, width, wrap);
	if (!doc) return null;
	// Every key that scrolls asks again: the gaps are found once per document.
	const known = measures.get(doc);
	if (known) return known;
	const gaps: DocGap[] = [];
	doc.lines.forEach((l, i) => {
		if (l.fragmentId !== undefined && l.gap) gaps.push({ id: l.fragmentId, line: i, from: l.gap[0], to: l.gap[1] });
	});
	const metrics: DocMetrics = { lines: doc.lines.length, anchors: { ...doc.anchors }, matchLine: doc.matchLine, gaps, findLine: doc.findLine };
	measures.set(doc, metrics);
	return metrics;
}
