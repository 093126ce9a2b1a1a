/**
 * The event document as a memoized selector, on the view side: the view draws it, and App measures it (docMetrics)
 * for the event-stack reducer, which gets only the numbers in a `measured` action. A document is built once per
 * location, width and wrap; the cache is keyed weakly by the loaded data, and no reducer reads or fills it.
 */

import type { Size } from "../core/explorer-service.js";
import { eventLayout } from "../core/layout.js";
import type { ViewAction } from "./actions.js";
import { type DocGap, type DocMetrics, type DocSource, docKey, type FragmentRun } from "./doc-metrics.js";
import type { EventData } from "./loaders.js";
import { buildEventDoc, type EventDoc } from "./read-view.js";
import type { EventLoc } from "./stack-state.js";

const cache = new WeakMap<EventData, Map<string, EventDoc>>();

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
	const runs: FragmentRun[] = [];
	const gaps: DocGap[] = [];
	doc.lines.forEach((l, i) => {
		if (l.fragmentId === undefined) return;
		if (l.gap) gaps.push({ id: l.fragmentId, line: i, from: l.gap[0], to: l.gap[1] });
		const last = runs.at(-1);
		if (last && last.id === l.fragmentId && last.to === i - 1) last.to = i;
		else runs.push({ id: l.fragmentId, from: i, to: i });
	});
	return { key: docKey(loc, width, wrap), lines: doc.lines.length, anchors: { ...doc.anchors }, matchLine: doc.matchLine, runs, gaps, findLine: doc.findLine };
}

/**
 * The `measured` action the top event needs: its document at the size and wrap setting given, when the numbers the
 * reducer holds are not that document's (null when they are, or before the data is loaded). App dispatches it while
 * rendering, like a resize, so no frame is drawn with a scroll the reducer could not place yet.
 */
export function measureTop(loc: EventLoc | null, size: Size, wrap: boolean): ViewAction | null {
	if (!loc?.data) return null;
	const width = eventLayout(size).bodyWidth;
	if (loc.metrics?.key === docKey(loc, width, wrap)) return null;
	const metrics = docMetrics(loc, width, wrap);
	return metrics ? { type: "measured", key: loc.key, metrics } : null;
}
