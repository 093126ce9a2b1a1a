/** The event view: header with the event's identity and classification, the exact read, and the trace panel. */
import { Box } from "ink";
import type { EventLayout } from "../core/layout.js";
import { type StyledLine, seg } from "../core/styled.js";
import { eventDoc } from "../event/event-doc.js";
import { eventHeaderLines } from "../event/event-header-view.js";
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
	const lines = eventHeaderLines(loc, depth, width, now, banner);
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
