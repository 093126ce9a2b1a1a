/** The trace panel's lines: the path from the root, a trace row, a fork candidate (the rows are trace-rows' data). */
import { briefKind } from "../../src/present/text.js";
import { num } from "../core/numbers.js";
import { idTail } from "../core/session-label.js";
import { fitLine, type StyledLine, seg } from "../core/styled.js";
import { oneLine } from "../core/text-width.js";
import { type EventData, PATH_DEPTH } from "./event-data.js";
import { type Candidate, type TraceRow, traceRows } from "./trace-rows.js";

/** The collapsed path from the root: root › … n › grandparent › parent › here. */
export function pathLine(data: EventData): StyledLine {
	const up = data.read.neighbors.before;
	const out: StyledLine = [seg("path ", "dim")];
	if (up.length === 0) return [...out, seg("● root (this event)", "bold")];
	const reachedRoot = up.length < PATH_DEPTH;
	const tail = up.slice(-2);
	const hidden = up.length - tail.length - (reachedRoot ? 1 : 0);
	if (reachedRoot) {
		out.push(seg(`⌂ ${up[0]?.entryId ?? ""}`, "dim"));
		if (hidden > 0) out.push(seg(` › … ${hidden}`, "dim"));
	} else {
		// The read reaches PATH_DEPTH ancestors; beyond them the root is further up than we looked.
		const known = data.trace.depth;
		out.push(seg(`⌂ … ${known !== undefined ? `${num(known - tail.length)}${data.trace.depthAtLeast ? "+" : ""}` : `${hidden}+`}`, "dim"));
	}
	for (const b of tail) {
		if (reachedRoot && b === up[0]) continue;
		out.push(seg(` › ${b.entryId}`, b.branchState === "alternate" ? "warn" : "plain"));
	}
	out.push(seg(" › ● here", "bold"));
	// The trace counts the whole path; the read's ancestors stop at PATH_DEPTH.
	const depth = data.trace.depth !== undefined ? `${num(data.trace.depth)}${data.trace.depthAtLeast ? "+" : ""}` : reachedRoot ? up.length : `${up.length}+`;
	out.push(seg(` (depth ${depth})`, "dim"));
	return out;
}

/** A trace row as a styled line (icon, relation, id, kind and preview, marks). */
export function traceRowLine(r: TraceRow): StyledLine {
	const line: StyledLine = [seg(`${r.icon} `, r.target ? "accent" : "dim"), seg(`${r.rel.padEnd(12)} `, "dim")];
	if (r.id) line.push(seg(`${r.id} `, r.target ? "bold" : "dim"));
	for (const m of r.marks) line.push(seg(`[${m}] `, m === "leaf path" ? "ok" : m === "alternate" ? "warn" : "dim"));
	line.push(seg(r.text, r.tone));
	if (r.note) line.push(seg(`  (${r.note})`, "dim"));
	return line;
}

/** A fork candidate as a styled line. */
export function candidateLine(c: Candidate, index: number): StyledLine {
	const b = c.brief;
	const marks: StyledLine = [];
	if (c.towardLeaf) marks.push(seg("[leaf path] ", "ok"));
	if (b?.branchState === "alternate") marks.push(seg("[alternate] ", "warn"));
	if (c.via === "forked session") marks.push(seg(`[forked session #${idTail(c.ref.sessionId)}] `, "accent"));
	return [
		seg(`${index < 9 ? index + 1 : " "} `, "key"),
		seg(`${c.ref.entryId} `, "bold"),
		...marks,
		seg(`${b ? briefKind(b) : ""}  `, "dim"),
		seg(oneLine(b?.preview ?? "")),
	];
}

/** First visible row: the cursor sits in the upper third of the window when the list is longer than it. */
export function panelTop(cursor: number, height: number, count: number): number {
	if (count <= height) return 0;
	return Math.max(0, Math.min(cursor - Math.floor(height / 3), count - height));
}

/** The trace panel's lines: the path as its title (a rule when stacked), then the rows, the cursor's marked. */
export function tracePanelLines(p: { data: EventData | null; cursor: number; focused: boolean; width: number; height: number; rule: boolean }): StyledLine[] {
	const { data, cursor, focused, width, height, rule } = p;
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
	return lines;
}
