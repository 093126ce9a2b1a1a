/**
 * The explorer's first frames as plain terminal text, drawn by the launcher before React and Ink are loaded (loading
 * them takes several times longer than starting Node). The placeholder is the search screen <App/> draws first —
 * title, query line, "searching…", status and key hints; the listed frame is the search screen of a state the
 * launcher reduced itself (the recent events, keys typed meanwhile), the one <App/> then starts from. Both are built
 * by the same line builders as <App/>'s panes, so nothing moves when Ink takes over. This module imports no React
 * and no Ink; the listed frame's builders are in ./state-frame.ts (they load the reducer's modules).
 */
import type { Size } from "../core/explorer-service.js";
import type { Filters, Scope } from "../core/filters.js";
import { frameHeight, searchLayout } from "../core/layout.js";
import { fitLine, lineWidth, type StyledLine, seg } from "../core/styled.js";
import { lineAnsi } from "../core/theme.js";
import { hintsFor } from "../root/help.js";
import { hintLine, searchQueryLine, titleLine } from "../search/search-view.js";
import { statusLines } from "../search/status-lines.js";

/** What the first frame shows. */
export interface FirstFrameInput {
	size: Size;
	color: boolean;
	banner: string | null;
	/** The status line's text (the launcher's notice, else that the index is opening). */
	notice: string | null;
	query: string;
	scope: Scope;
	workspace: string | null;
	filters: Filters;
}

/** The first frame's lines (each fitted to the width), as <App/> lays out its first search screen. */
export function firstFrameLines(input: FirstFrameInput): StyledLine[] {
	const { size } = input;
	const width = size.columns;
	const layout = searchLayout(size);
	const title = titleLine(
		{
			banner: input.banner,
			scope: input.scope,
			workspace: input.workspace,
			session: null,
			filters: input.filters,
			count: 0,
			more: false,
			loading: true,
			query: input.query,
		},
		width,
	);
	const query = searchQueryLine({ text: input.query, cursor: input.query.length, focused: true, filters: input.filters, now: Date.now() }, width);
	const lines: StyledLine[] = [title, query.line];
	const listRow = (i: number): StyledLine => fitLine(i === 1 ? [seg("  "), seg("searching…", "dim")] : [], layout.listWidth, true);
	const bodyRows = frameHeight(size) - 4;
	for (let i = 0; i < bodyRows; i++) {
		if (layout.side) {
			const preview: StyledLine = i === 0 ? [seg("preview", "dim")] : [];
			lines.push([...listRow(i), seg("│", "dim"), ...fitLine(preview, layout.previewWidth)]);
		} else if (i === layout.listLines) lines.push(fitLine([seg("── ", "dim"), seg("preview", "dim"), seg(` ${"─".repeat(width)}`, "dim")], width));
		else lines.push(listRow(i));
	}
	// As the status bar draws it: a notice too long for its line takes the hints' line too, never cut at its end.
	const status = input.notice ? { text: input.notice, tone: "warn" as const } : { text: "opening the index…", tone: "dim" as const };
	lines.push(...statusLines(status, "query", hintLine(hintsFor("query"), width), width));
	return lines;
}

/**
 * Lines as one string for the terminal, from the cursor on, each line narrower than `width` cleared to its end (a
 * full line is not: with autowrap off the cursor stays on its last cell, which the erase would take).
 */
export function frameText(lines: StyledLine[], color: boolean, width: number): string {
	return lines.map((l) => `${lineAnsi(l, color)}${lineWidth(l) < width ? "\u001b[K" : ""}`).join("\r\n");
}

/** The first frame as one string for the terminal: from the top left, each line cleared to its end. */
export function firstFrameText(input: FirstFrameInput): string {
	return frameText(firstFrameLines(input), input.color, input.size.columns);
}
