/** The event view: header with the event's identity and classification, the exact read, and the trace panel. */
import { Box } from "ink";
import { relativeTime, sessionWhere } from "../../src/present/text.js";
import type { EventLayout } from "../core/layout.js";
import { idTail, lineageText, sessionLabel } from "../core/session-label.js";
import { fitLine, type StyledLine, seg, spread } from "../core/styled.js";
import { stringWidth } from "../core/text-width.js";
import { eventDoc } from "../event/event-doc.js";
import type { EventLoc } from "../event/stack-state.js";
import { Lines } from "./Line.js";
import { SplitPane } from "./SplitPane.js";
import { TracePanel } from "./TracePanel.js";

/** Props of <EventHeader/>. */
export interface EventHeaderProps {
	loc: EventLoc;
	depth: number;
	width: number;
	now: number;
	color: boolean;
	banner: string | null;
}

/** Lines of the event header (the layout's EVENT_FIXED counts them with the two status lines). */
export const EVENT_HEADER_LINES = 3;

/**
 * Three header lines: what the event is and where it lives; its type, time and classification; the session file it
 * was read from and that file's lineage (parent session, fork or clone, sessions forked from it).
 */
export function EventHeader({ loc, depth, width, now, color, banner }: EventHeaderProps) {
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
	return (
		<Box flexDirection="column" width={width} height={EVENT_HEADER_LINES}>
			<Lines lines={lines} color={color} height={EVENT_HEADER_LINES} />
		</Box>
	);
}

/** Props of <EventBody/>. */
export interface EventBodyProps {
	loc: EventLoc;
	layout: EventLayout;
	wrap: boolean;
	color: boolean;
}

/** The exact read (scrolled window of the document) and the trace panel. */
export function EventBody({ loc, layout, wrap, color }: EventBodyProps) {
	const doc = eventDoc(loc, layout.bodyWidth, wrap);
	let lines: StyledLine[];
	if (loc.error) lines = [[seg(loc.error, "error")], [seg("Esc goes back", "dim")]];
	else if (!doc) lines = [[seg("reading the event from its session file…", "dim")]];
	// buildEventDoc fitted every line to the body width already.
	else lines = doc.lines.slice(loc.scroll, loc.scroll + layout.bodyLines).map((l) => l.line);
	const text = (
		<Box flexDirection="column" width={layout.bodyWidth} height={layout.bodyLines}>
			<Lines lines={lines} color={color} height={layout.bodyLines} />
		</Box>
	);
	const panel = (
		<TracePanel
			data={loc.data}
			cursor={loc.traceCursor}
			focused={loc.panel === "trace"}
			width={layout.panelWidth}
			height={layout.panelLines}
			color={color}
			rule={!layout.side}
		/>
	);
	return (
		<SplitPane
			side={layout.side}
			width={layout.width}
			firstLines={layout.bodyLines}
			secondLines={layout.panelLines}
			color={color}
			first={text}
			second={panel}
		/>
	);
}

/** "line 12–24 of 80" for the status bar. */
export function scrollText(loc: EventLoc, layout: EventLayout, wrap: boolean): string {
	const doc = eventDoc(loc, layout.bodyWidth, wrap);
	if (!doc) return "";
	const n = doc.lines.length;
	if (n <= layout.bodyLines) return `${n} lines`;
	const end = Math.min(n, loc.scroll + layout.bodyLines);
	return `lines ${loc.scroll + 1}–${end} of ${n}${end < n ? " ↓" : ""}`;
}
