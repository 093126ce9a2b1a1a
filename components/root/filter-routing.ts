/**
 * The search screen's filter, sort and group actions on the whole state: the picker's keys (routed to its slice),
 * applying its draft (refused, with the reason, while a value is invalid or the combination cannot match), chips
 * removed one by one, errors only, the hit order and the grouping by session.
 */
import type { FilterAction, OverlayKeyAction } from "../core/actions.js";
import { cleanFilters, type Filters, filterChips, withoutFilter } from "../core/filter-fields.js";
import { applyProblem, fieldAt } from "../filters/filter-picker-state.js";
import { keyFor } from "./help.js";
import { hits, info, overlay, type State, uncover } from "./state-core.js";

/** The actions this module owns. */
export type FilterStateAction =
	| FilterAction
	| Extract<
			OverlayKeyAction,
			{
				type: "filter-cycle" | "filter-toggle" | "filter-clear-row" | "filter-reset" | "apply-filters" | "filter-edit-commit" | "filter-edit-cancel";
			}
	  >;

/** Applies the picker's draft, or says why it cannot (the picker stays open on the problem). */
export function applyFilters(s: State, now: number = Date.now()): State {
	if (s.overlay?.type !== "filters") return s;
	const draft = cleanFilters(s.overlay.draft);
	const problem = applyProblem(draft, now);
	if (problem) return info(s, problem, "warn");
	const n = filterChips(draft, now).length;
	return info(hits(uncover({ ...s, overlay: null }), { type: "set-filters", filters: draft }), n === 0 ? "no filters" : `${n} filter(s) on`);
}

/** Enter in the picker: a text row starts typing; any other row applies. */
export function pickerEnter(s: State): State {
	if (s.overlay?.type !== "filters") return s;
	return fieldAt(s.overlay).type === "text" ? overlay(s, { type: "picker", action: { type: "edit-start" } }) : applyFilters(s);
}

/** Removes the last chip of the query line (Backspace on an empty query). */
export function removeLastChip(s: State): State {
	const chips = filterChips(s.hits.filters);
	const last = chips.at(-1);
	if (!last) return s;
	const filters = withoutFilter(s.hits.filters, last.key);
	return info(hits(s, { type: "set-filters", filters }), `removed ${last.text}${chips.length > 1 ? ` · ${chips.length - 1} left` : ""}`);
}

/** The reducer for this module's actions. */
export function reduceFilterAction(s: State, a: FilterStateAction): State {
	switch (a.type) {
		case "open-filters":
			return overlay(s, { type: "open-filters", draft: s.hits.filters });
		case "apply-filters":
			return applyFilters(s);
		case "filter-cycle":
			return overlay(s, { type: "picker", action: { type: "cycle", dir: a.dir } });
		case "filter-toggle":
			return overlay(s, { type: "picker", action: { type: "toggle" } });
		case "filter-clear-row":
			return overlay(s, { type: "picker", action: { type: "clear-row" } });
		case "filter-reset":
			return overlay(s, { type: "picker", action: { type: "reset" } });
		case "filter-edit-commit":
			return overlay(s, { type: "picker", action: { type: "edit-commit" } });
		case "filter-edit-cancel":
			return overlay(s, { type: "picker", action: { type: "edit-cancel" } });
		case "remove-last-chip":
			return removeLastChip(s);
		case "toggle-errors": {
			const filters: Filters = { ...s.hits.filters };
			if (filters.error === true) delete filters.error;
			else filters.error = true;
			return info(
				hits(s, { type: "set-filters", filters }),
				filters.error ? `errors only (${keyFor("list", "toggle-errors")} again to show all)` : "errors and non-errors",
			);
		}
		case "clear-filters":
			return Object.keys(s.hits.filters).length === 0 ? info(s, "no filters set") : info(hits(s, { type: "set-filters", filters: {} }), "filters cleared");
		case "toggle-order": {
			const order = s.hits.order === "newest" ? "relevance" : "newest";
			return info(hits(s, { type: "set-order", order }), order === "newest" ? "newest first" : "best match first");
		}
		case "toggle-group": {
			const group = !s.hits.group;
			return info(hits(s, { type: "set-group", group }), group ? "one row per session: its strongest hit" : "every hit");
		}
		case "expand-copies":
		case "cycle-scope":
			return s;
	}
}
