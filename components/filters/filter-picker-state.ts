/**
 * The filter picker's slice: which row is chosen, which value of a several-values row the cursor is on, the draft
 * (applied on Enter, dropped on Esc), and the text being typed into a free-text row, edited like the query line.
 */
import type { QueryAction } from "../core/actions.js";
import { cleanFilters, conflicts, FILTER_FIELDS, type FilterField, type Filters, invalidFields, withoutFilter } from "../core/filter-fields.js";
import { type QueryState, reduceQuery } from "../core/line-edit.js";
import { clampIndex } from "../core/list-window.js";

/** The picker while it is open. */
export interface PickerState {
	row: number;
	/** Index into a several-values row's values. */
	pick: number;
	draft: Filters;
	/** The text and cursor of the row being edited (null: not editing). */
	edit: QueryState | null;
}

/** What the picker's reducer does. */
export type PickerAction =
	| { type: "move"; by: number }
	| { type: "cycle"; dir: 1 | -1 }
	| { type: "toggle" }
	| { type: "edit-start" }
	| { type: "edit-text"; text: string }
	| { type: "edit-key"; action: QueryAction }
	| { type: "edit-commit" }
	| { type: "edit-cancel" }
	| { type: "clear-row" }
	| { type: "reset" };

/** A fresh picker over the filters in effect. */
export function openPicker(draft: Filters): PickerState {
	return { row: 0, pick: 0, draft, edit: null };
}

/** The row the picker is on. */
export function fieldAt(p: PickerState): FilterField {
	return FILTER_FIELDS[clampIndex(p.row, FILTER_FIELDS.length)] as FilterField;
}

/** A text row's value, ready to edit with the cursor at its end. */
function editOf(value: string | undefined): QueryState {
	return { text: value ?? "", cursor: (value ?? "").length };
}

function setField(f: Filters, key: keyof Filters, value: unknown): Filters {
	return cleanFilters({ ...f, [key]: value });
}

/** The picker's reducer. */
export function reducePicker(p: PickerState, a: PickerAction): PickerState {
	const field = fieldAt(p);
	if (p.edit !== null) {
		// While typing, only the text, Enter and Esc act (the keymap's filter-edit mode lets nothing else through).
		// Typed text is a person's, but a paste may carry controls: they never reach the screen.
		if (a.type === "edit-text") {
			const text = a.text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
			return { ...p, edit: { text, cursor: text.length } };
		}
		if (a.type === "edit-key") {
			const q = reduceQuery(p.edit, a.action);
			return { ...p, edit: { text: q.text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ""), cursor: Math.min(q.cursor, q.text.length) } };
		}
		if (a.type === "edit-cancel") return { ...p, edit: null };
		if (a.type === "edit-commit" && field.type === "text") return { ...p, edit: null, draft: setField(p.draft, field.key, p.edit.text.trim()) };
		return p;
	}
	switch (a.type) {
		case "move":
			return { ...p, row: clampIndex(p.row + a.by, FILTER_FIELDS.length), pick: 0 };
		case "cycle":
			if (field.type === "multi") return { ...p, pick: (p.pick + a.dir + field.values.length) % field.values.length };
			if (field.type === "choice") {
				const at = Math.max(0, field.values.indexOf(p.draft[field.key]));
				return { ...p, draft: setField(p.draft, field.key, field.values[(at + a.dir + field.values.length) % field.values.length]) };
			}
			return p;
		case "toggle": {
			if (field.type === "text") return { ...p, edit: editOf(p.draft[field.key]) };
			if (field.type === "choice") return reducePicker(p, { type: "cycle", dir: 1 });
			const value = field.values[p.pick] as string;
			const now = (p.draft[field.key] ?? []) as string[];
			const next = now.includes(value) ? now.filter((v) => v !== value) : [...now, value];
			// Kept in the row's order, so chips read the same whatever order they were chosen in.
			return {
				...p,
				draft: setField(
					p.draft,
					field.key,
					field.values.filter((v) => next.includes(v)),
				),
			};
		}
		case "edit-start":
			return field.type === "text" ? { ...p, edit: editOf(p.draft[field.key]) } : p;
		case "clear-row":
			return { ...p, draft: withoutFilter(p.draft, field.key) };
		case "reset":
			return { ...p, draft: {} };
		default:
			return p;
	}
}

/** Why the draft cannot be applied as it is (null: it can): its invalid values first, then what cannot match. */
export function applyProblem(draft: Filters, now: number): string | null {
	const bad = Object.entries(invalidFields(draft, now));
	if (bad.length > 0) return bad.map(([k, e]) => `${k}: ${e}`).join("; ");
	const c = conflicts(draft, now);
	return c.length > 0 ? `cannot match: ${c.join("; ")}` : null;
}
