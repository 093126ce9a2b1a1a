/** The compact trace panel: the path from the root as its title, then parent, children, siblings and links. */
import { Box } from "ink";
import { fitLine, type StyledLine, seg } from "../core/styled.js";
import type { EventData } from "../event/loaders.js";
import { traceRows } from "../event/trace-rows.js";
import { pathLine, traceRowLine } from "../event/trace-view.js";
import { Lines } from "./Line.js";

/** Props of <TracePanel/>. */
export interface TracePanelProps {
	data: EventData | null;
	cursor: number;
	focused: boolean;
	width: number;
	/** Rows below the title line. */
	height: number;
	color: boolean;
	/** Draw the title as a rule across the width (stacked layout). */
	rule: boolean;
}

/** First visible row: the cursor sits in the upper third of the window when the list is longer than it. */
export function panelTop(cursor: number, height: number, count: number): number {
	if (count <= height) return 0;
	return Math.max(0, Math.min(cursor - Math.floor(height / 3), count - height));
}

/** The trace panel. */
export function TracePanel({ data, cursor, focused, width, height, color, rule }: TracePanelProps) {
	const lines: StyledLine[] = [];
	if (!data) {
		lines.push(fitLine([seg("── trace ", "dim"), seg("─".repeat(width), "dim")], width));
		lines.push([seg("reading…", "dim")]);
	} else {
		const path = pathLine(data);
		const focusMark = focused ? seg(" [Tab: back to text]", "accent") : seg(" [Tab: choose a row]", "dim");
		lines.push(fitLine(rule ? [seg("── ", "dim"), ...path, focusMark, seg(" ", "dim"), seg("─".repeat(width), "dim")] : [...path, focusMark], width));
		const rows = traceRows(data);
		const top = panelTop(cursor, height, rows.length);
		for (let i = top; i < Math.min(rows.length, top + height); i++) {
			const r = rows[i];
			if (!r) continue;
			const selected = i === cursor;
			const marker = selected ? seg(focused ? "▌" : "›", focused ? "accent" : "dim") : seg(" ");
			const line = traceRowLine(r);
			lines.push(
				fitLine([marker, ...(selected && focused ? line.map((s) => ({ ...s, inverse: true })) : line)], width, selected && focused, selected && focused),
			);
		}
		if (rows.length > height && height > 0) {
			const last = lines.length - 1;
			const more = `${rows.length - Math.min(rows.length, top + height)} more ↓`;
			if (top + height < rows.length && lines[last])
				lines[last] = fitLine([...(lines[last] as StyledLine)], width - more.length - 1, true).concat(seg(` ${more}`, "dim"));
		}
	}
	return (
		<Box flexDirection="column" width={width} height={height + 1}>
			<Lines lines={lines} color={color} height={height + 1} />
		</Box>
	);
}
