/** The overlays' slice: help (scrolled), the filter picker (a draft applied on Enter), the fork picker (candidates). */
import type { Size } from "../core/explorer-service.js";
import type { Filters } from "../core/filter-fields.js";
import { overlayLines } from "../core/layout.js";
import { clampIndex, clampScroll } from "../core/list-window.js";
import type { Candidate } from "../event/trace-rows.js";
import { openPicker, type PickerAction, type PickerState, reducePicker } from "../filters/filter-picker-state.js";

/** A panel drawn over the screen's body. */
export type Overlay =
	| { type: "help"; scroll: number }
	| ({ type: "filters" } & PickerState)
	| { type: "fork"; title: string; candidates: Candidate[]; cursor: number };

/** What the overlay reducer does. */
export type OverlayAction =
	| { type: "open-help" }
	| { type: "open-filters"; draft: Filters }
	| { type: "open-fork"; title: string; candidates: Candidate[] }
	| { type: "close" }
	// `helpLength`: the help text's lines at the current width (the root measures it with the help view's builder).
	| { type: "move"; by: number; helpLength: number }
	| { type: "page"; dir: 1 | -1; helpLength: number }
	| { type: "picker"; action: PickerAction };

/** Scrolls help, clamped like the overlay draws it (so ↑ after holding ↓ past the end moves at once). */
function helpScroll(scroll: number, size: Size, length: number): number {
	return clampScroll(scroll, overlayLines(size), length);
}

/** The overlay reducer (null: no overlay). */
export function reduceOverlay(o: Overlay | null, a: OverlayAction, size: Size): Overlay | null {
	switch (a.type) {
		case "open-help":
			return { type: "help", scroll: 0 };
		case "open-filters":
			return { type: "filters", ...openPicker(a.draft) };
		case "open-fork":
			// Start on the branch toward the materialized leaf, where l would have gone.
			return {
				type: "fork",
				title: a.title,
				candidates: a.candidates,
				cursor: Math.max(
					0,
					a.candidates.findIndex((c) => c.towardLeaf),
				),
			};
		case "close":
			return null;
	}
	if (!o) return o;
	switch (a.type) {
		case "move":
			if (o.type === "help") return { ...o, scroll: helpScroll(o.scroll + a.by, size, a.helpLength) };
			if (o.type === "filters") return { ...o, ...reducePicker(o, { type: "move", by: a.by }) };
			return { ...o, cursor: clampIndex(o.cursor + a.by, o.candidates.length) };
		case "page":
			return o.type === "help" ? { ...o, scroll: helpScroll(o.scroll + a.dir * 10, size, a.helpLength) } : o;
		case "picker":
			return o.type === "filters" ? { ...o, ...reducePicker(o, a.action) } : o;
	}
}
