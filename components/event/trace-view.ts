/** The trace panel's lines: the path from the root, a trace row, a fork candidate (the rows are trace-rows' data). */
import { briefKind } from "../../src/present/text.js";
import { idTail } from "../core/session-label.js";
import { type StyledLine, seg } from "../core/styled.js";
import { oneLine } from "../core/text-width.js";
import { type EventData, PATH_DEPTH } from "./loaders.js";
import type { Candidate, TraceRow } from "./trace-rows.js";

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
		out.push(seg(`⌂ … ${known !== undefined ? `${(known - tail.length).toLocaleString("en-US")}${data.trace.depthAtLeast ? "+" : ""}` : `${hidden}+`}`, "dim"));
	}
	for (const b of tail) {
		if (reachedRoot && b === up[0]) continue;
		out.push(seg(` › ${b.entryId}`, b.branchState === "alternate" ? "warn" : "plain"));
	}
	out.push(seg(" › ● here", "bold"));
	// The trace counts the whole path; the read's ancestors stop at PATH_DEPTH.
	const depth =
		data.trace.depth !== undefined
			? `${data.trace.depth.toLocaleString("en-US")}${data.trace.depthAtLeast ? "+" : ""}`
			: reachedRoot
				? up.length
				: `${up.length}+`;
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
