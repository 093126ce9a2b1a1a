/** Pane sizes for every screen, from the terminal size alone (pure, so the reducer and the views agree). */
import type { Size } from "./explorer-service.js";

/** Below this the explorer shows a "make the terminal larger" line instead of a layout that cannot fit. */
export const MIN_SIZE: Size = { columns: 40, rows: 10 };

/** From this width on, panes sit side by side instead of stacked. */
export const WIDE_COLUMNS = 120;

/**
 * Lines the app may draw: one less than the terminal has. Ink 6.8 clears the whole screen and rewrites it on
 * every frame once a frame is as tall as the terminal (flicker, lost scrollback), so we always stay below.
 */
export function frameHeight(size: Size): number {
	return Math.max(1, size.rows - 1);
}

/** True when the terminal is too small for any layout. */
export function tooSmall(size: Size): boolean {
	return size.columns < MIN_SIZE.columns || size.rows < MIN_SIZE.rows;
}

/** Layout of the search screen: header and query line, hit list, preview, two status lines. */
export interface SearchLayout {
	width: number;
	height: number;
	side: boolean;
	listWidth: number;
	listLines: number;
	/** Lines per hit: two when there is room (meta line + snippet line), else one. */
	hitLines: 1 | 2;
	previewWidth: number;
	/** Preview text lines (its title line is extra: the separator when stacked, its own first line when side by side). */
	previewLines: number;
}

const SEARCH_FIXED = 4; // title + query, two status lines

/** Splits the screen for the search view. */
export function searchLayout(size: Size): SearchLayout {
	const width = Math.max(1, size.columns);
	const height = frameHeight(size);
	const side = width >= WIDE_COLUMNS;
	if (side) {
		const listWidth = Math.floor(width * 0.55);
		const body = Math.max(1, height - SEARCH_FIXED);
		return {
			width,
			height,
			side,
			listWidth,
			listLines: body,
			hitLines: body >= 6 ? 2 : 1,
			previewWidth: width - listWidth - 1,
			previewLines: Math.max(0, body - 1),
		};
	}
	const body = Math.max(2, height - SEARCH_FIXED - 1);
	let preview = Math.max(2, Math.floor(body * 0.4));
	let list = body - preview;
	const hitLines: 1 | 2 = list >= 6 ? 2 : 1;
	if (hitLines === 2 && list % 2 === 1) {
		list -= 1;
		preview += 1;
	}
	return { width, height, side, listWidth: width, listLines: Math.max(1, list), hitLines, previewWidth: width, previewLines: preview };
}

/** Hits that fit in the list. */
export function visibleHits(layout: SearchLayout): number {
	return Math.max(1, Math.floor(layout.listLines / layout.hitLines));
}

/** Layout of the event view: three header lines (event, classification, session file and lineage), the exact read, the trace panel, two status lines. */
export interface EventLayout {
	width: number;
	height: number;
	side: boolean;
	bodyWidth: number;
	bodyLines: number;
	panelWidth: number;
	/** Trace rows (the panel's title line is extra). */
	panelLines: number;
}

const EVENT_FIXED = 5; // three header lines, two status lines

/** Splits the screen for the event view and its trace panel. */
export function eventLayout(size: Size): EventLayout {
	const width = Math.max(1, size.columns);
	const height = frameHeight(size);
	if (width >= WIDE_COLUMNS) {
		// 40% of the width (the panel grows with the terminal: its path line and rows name entries and sessions).
		const panelWidth = Math.min(100, Math.floor(width * 0.4));
		const body = Math.max(1, height - EVENT_FIXED);
		return { width, height, side: true, bodyWidth: width - panelWidth - 1, bodyLines: body, panelWidth, panelLines: Math.max(1, body - 1) };
	}
	const rest = Math.max(3, height - EVENT_FIXED - 1);
	const panel = Math.max(2, Math.min(12, Math.floor(rest * 0.4)));
	return { width, height, side: false, bodyWidth: width, bodyLines: Math.max(1, rest - panel), panelWidth: width, panelLines: panel };
}

/**
 * Lines an overlay (help, filters, fork candidates) may use: everything between the header and the status lines
 * (the event view's header is a line taller than the search screen's).
 */
export function overlayLines(size: Size, event = false): number {
	return Math.max(1, frameHeight(size) - (event ? EVENT_FIXED : SEARCH_FIXED));
}

/** Whether a screen position (1-based column and row, as mouse reports give it) is over the event view's trace panel. */
export function overTracePanel(size: Size, at: { x: number; y: number }): boolean {
	const l = eventLayout(size);
	// Two header lines, then the body; stacked, the panel's title line and rows follow the body.
	return l.side ? at.x > l.bodyWidth + 1 : at.y > 2 + l.bodyLines;
}
