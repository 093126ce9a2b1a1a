/**
 * The event document as a memoized selector: the view draws it and the event-stack reducer measures it (line count,
 * anchors, match line) through the same function, so a document is built once per location, width and wrap. The
 * cache lives here, on the view side, keyed weakly by the loaded data: reducers never hold or fill it themselves.
 */
import type { FragmentWindow } from "../src/shared/types.js";
import type { EventData } from "./loaders.js";
import { buildEventDoc, type EventDoc } from "./read-view.js";

/** What a document depends on besides the loaded data. */
export interface DocSource {
	data: EventData | null;
	highlights: string[];
	focusFragment: string | null;
	pages: Record<string, number>;
	pageWindows: Record<string, FragmentWindow>;
}

const cache = new WeakMap<EventData, Map<string, EventDoc>>();

/**
 * The event document of a location at a width. The key holds everything besides the data that the document depends
 * on: App reuses one EventData when the same event is opened again from another search, whose highlights differ.
 */
export function eventDoc(loc: DocSource, width: number, wrap: boolean): EventDoc | null {
	if (!loc.data) return null;
	const windows = Object.entries(loc.pageWindows).map(([k, w]) => `${k}:${w.range[0]}`);
	const key = JSON.stringify([width, wrap, loc.highlights, loc.focusFragment, loc.pages, windows]);
	let byKey = cache.get(loc.data);
	if (!byKey) {
		byKey = new Map();
		cache.set(loc.data, byKey);
	}
	let doc = byKey.get(key);
	if (!doc) {
		doc = buildEventDoc(loc.data, {
			pages: loc.pages,
			pageWindows: loc.pageWindows,
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
