/**
 * The filter picker: one row per typed filter. Several-values rows show what is chosen and the value under the
 * cursor; text rows show their value, or the text being typed with its cursor; an invalid value says why in its row, and
 * a combination that cannot match says so under the rows. Keys: the status bar (generated from the keymap).
 */
import { Box } from "ink";
import { choiceText, conflicts, FILTER_FIELDS, type FilterField, type Filters, textError } from "../core/filter-fields.js";
import type { QueryState } from "../core/line-edit.js";
import { fitLine, lineWidth, type StyledLine, seg } from "../core/styled.js";
import { queryLine } from "../search/search-view.js";
import { Line, Lines } from "./Line.js";

/** Props of <FilterPicker/>. */
export interface FilterPickerProps {
	width: number;
	height: number;
	color: boolean;
	draft: Filters;
	row: number;
	pick: number;
	/** The text being typed into the chosen row, and its cursor (null: not typing). */
	edit: QueryState | null;
	now: number;
}

const LABEL = 11;

/** The value part of one row, as styled text (the row being typed into is drawn as an edit line instead). */
export function rowValue(field: FilterField, draft: Filters, selected: boolean, pick: number, now: number): StyledLine {
	if (field.type === "multi") {
		const chosen = (draft[field.key] ?? []) as string[];
		const out: StyledLine = [seg(chosen.length ? chosen.join(", ") : "any", chosen.length ? "warn" : "dim")];
		if (selected) {
			const v = field.values[pick] as string;
			out.push(seg("   ‹ ", "dim"), seg(`${chosen.includes(v) ? "☑" : "☐"} ${v}`, "bold", true), seg(" ›", "dim"));
		}
		return out;
	}
	if (field.type === "choice") {
		const v = draft[field.key];
		return [seg("‹ ", "dim"), seg(choiceText(field.key, v), v === undefined ? "dim" : "warn", selected), seg(" ›", "dim")];
	}
	const v = draft[field.key]?.trim() ?? "";
	if (v === "") return [seg(selected ? field.hint : "any", "dim")];
	const error = textError(field.key, v, now);
	return error ? [seg(v, "error"), seg(`  ✗ ${error}`, "error")] : [seg(v, "warn")];
}

/** The picker. */
export function FilterPicker({ width, height, color, draft, row, pick, edit, now }: FilterPickerProps) {
	const head: StyledLine[] = [[seg("Filters", "title"), seg("  every filter narrows the hits; the query line still applies", "dim")], []];
	const problems = conflicts(draft, now);
	const foot: StyledLine[] = [[]];
	for (const p of problems) foot.push(fitLine([seg("⚠ cannot match: ", "error"), seg(p, "error")], width));
	if (edit !== null) {
		const field = FILTER_FIELDS[row];
		const error = field?.type === "text" ? textError(field.key, edit.text, now) : null;
		foot.push(fitLine(error ? [seg(`✗ ${error}`, "error")] : [seg(field?.type === "text" ? field.hint : "", "dim")], width));
	}
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Lines lines={head} color={color} />
			{FILTER_FIELDS.map((field, i) => {
				const selected = i === row;
				const lead: StyledLine = [seg(selected ? "▌ " : "  ", "accent"), seg(field.label.padEnd(LABEL), selected ? "bold" : "dim")];
				if (selected && edit !== null) {
					const input = queryLine(edit.text, edit.cursor, true, width - lineWidth(lead), "").slice(1);
					return <Line key={field.key} line={fitLine([...lead, ...input], width)} color={color} />;
				}
				return <Line key={field.key} line={fitLine([...lead, ...rowValue(field, draft, selected, pick, now)], width)} color={color} />;
			})}
			<Lines lines={foot} color={color} />
		</Box>
	);
}
