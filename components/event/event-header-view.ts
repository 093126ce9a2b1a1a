/**
 * The event view's three header lines, for every host: what the event is and where it lives; its type, time and
 * classification; the session file it was read from and that file's lineage (parent session, fork or clone).
 */
import { relativeTime, sessionWhere } from "../../src/present/text.js";
import { idTail, lineageText, sessionLabel } from "../core/session-label.js";
import { fitLine, type StyledLine, seg, spread } from "../core/styled.js";
import { stringWidth } from "../core/text-width.js";
import type { EventLoc } from "./stack-state.js";

/** The header lines of the event `loc` (`depth`: how deep the back stack is). */
export function eventHeaderLines(loc: EventLoc, depth: number, width: number, now: number, banner: string | null): StyledLine[] {
	const lines: StyledLine[] = [];
	const d = loc.data;
	const node = d?.trace.node;
	const where = node ? sessionWhere(node.session) : "";
	const left: StyledLine = [seg("◆ ", "accent"), seg(loc.ref.entryId, "title")];
	if (node) left.push(seg(`  ${node.kind ?? node.entryType}`, "bold"), seg(`  ${where}`, "dim"));
	if (banner && width >= 120) left.push(seg("  "), seg(banner, "banner"));
	lines.push(
		spread(left, [seg(`${node ? sessionLabel(node.session, loc.ref.sessionId) : `#${idTail(loc.ref.sessionId)}`} · back stack ${depth}`, "dim")], width),
	);
	if (loc.error) lines.push(fitLine([seg(`cannot read this event: ${loc.error}`, "error")], width));
	else if (!d || !node) lines.push([seg("reading…", "dim")]);
	else {
		const e = d.read.event;
		const msg = e.message as { role?: unknown; model?: unknown; stopReason?: unknown; toolName?: unknown; isError?: unknown } | undefined;
		const role = typeof msg?.role === "string" ? `/${msg.role}` : "";
		const meta: StyledLine = [seg(`${e.type}${role}`)];
		if (typeof msg?.toolName === "string") meta.push(seg(` ${msg.toolName}`, "bold"));
		if (typeof e.timestamp === "string") {
			const rel = relativeTime(e.timestamp, now);
			meta.push(seg(` · ${e.timestamp.replace("T", " ").replace(/\.\d+Z$/, "Z")}${e.timestamp.startsWith(rel) ? "" : ` (${rel})`}`, "dim"));
		}
		const c = d.read.classification;
		meta.push(seg(" · "), seg(c.branchState, c.branchState === "alternate" ? "warn" : c.branchState === "selected" ? "ok" : "dim"));
		meta.push(seg(" · "), seg(c.selectionState, c.selectionState === "summarized" || c.selectionState === "omitted" ? "warn" : "dim"));
		if (c.contextEdit) meta.push(seg(` (${c.contextEdit.state} by edit ${c.contextEdit.by})`, "warn"));
		if (msg?.isError === true || typeof (e as { message?: { errorMessage?: unknown } }).message?.errorMessage === "string")
			meta.push(seg(" · "), seg("✗ error", "error"));
		if (typeof msg?.model === "string") meta.push(seg(` · ${msg.model}`, "dim"));
		lines.push(fitLine(meta, width));
		// The file name ends with the session id: keep the end when the path is cut.
		const lineage = lineageText(d.trace.lineage);
		const room = Math.max(12, width - stringWidth(lineage) - 9);
		const file = d.read.session.file;
		const shown = stringWidth(file) <= room ? file : `…${file.slice(file.length - room + 1)}`;
		lines.push(
			fitLine([seg("file ", "dim"), seg(shown), ...(lineage ? [seg(" · ", "dim"), seg(lineage, d.trace.lineage?.parent ? "accent" : "dim")] : [])], width),
		);
	}
	return lines;
}
