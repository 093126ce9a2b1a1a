/**
 * The search screen of an explorer state as lines, the way <App/>'s panes lay it out (title, query line, hit list,
 * preview title, status bar), while the selected hit's preview is still being read. The launcher draws it from the
 * recent events it read itself and the keys typed before React and Ink are loaded; <App/> then starts from the same
 * state, so its first frame is this one. Imports no React and no Ink.
 */
import { partialLine } from "../../src/present/text.js";
import type { IndexingState } from "../core/explorer-service.js";
import { frameHeight, overlayLines, searchLayout, tooSmall } from "../core/layout.js";
import { hitTotal } from "../core/numbers.js";
import { fitLine, type StyledLine, seg, spread } from "../core/styled.js";
import { hintsFor, MODE_NAMES } from "../root/help.js";
import { emptyListLines, searchTitle } from "../root/search-lines.js";
import { modeOf, previewKey, type State, selectedHit } from "../root/state.js";
import { copyRoles, groupLabels } from "../search/hits-state.js";
import { hintLine, hitListLines, indexText, paneTitle, searchQueryLine } from "../search/search-view.js";

/** What besides the state the screen shows. */
export interface StateFrameInput {
	banner: string | null;
	indexing: IndexingState;
	/** The clock the ages are shown against (whole seconds, as <App/> renders them). */
	now: number;
}

function padTo(lines: StyledLine[], height: number): StyledLine[] {
	return [...lines.slice(0, height), ...Array.from({ length: Math.max(0, height - lines.length) }, () => [] as StyledLine)];
}

/**
 * The search screen of `s`, each line fitted to the width; null when `s` shows anything else (an event, an overlay,
 * a loaded preview, an empty index's explanation) or the terminal is too small: the launcher then leaves it to <App/>.
 */
export function searchFrameLines(s: State, input: StateFrameInput): StyledLine[] | null {
	const mode = modeOf(s);
	if ((mode !== "query" && mode !== "list") || tooSmall(s.size)) return null;
	const h = s.hits;
	const r = h.results;
	const hit = selectedHit(s);
	if (r.index?.events === 0 || (hit !== null && h.preview !== null && h.preview.key === previewKey(s))) return null;
	const { now, indexing } = input;
	const width = s.size.columns;
	const title = searchTitle(s, input.banner, width);
	const query = searchQueryLine({ text: s.query.text, cursor: s.query.cursor, focused: s.focus === "query", filters: h.filters, now }, width).line;

	const layout = searchLayout(s.size);
	const empty = r.hits.length > 0 ? [] : emptyListLines(s, indexing, null);
	const partial = r.hits.length > 0 ? partialLine(r.notes) : null;
	const listHeight = partial ? Math.max(1, layout.listLines - 1) : layout.listLines;
	const rows = hitListLines({
		hits: r.hits,
		selected: h.selected,
		top: h.top,
		width: layout.listWidth,
		height: listHeight,
		hitLines: layout.hitLines,
		now,
		empty,
		copies: r.copies,
		...(h.group ? { groups: groupLabels(r) } : {}),
		roles: copyRoles(r.hits),
	});
	const list = [...(partial ? [fitLine([seg(partial, "dim")], layout.listWidth)] : []), ...padTo(rows, listHeight)];
	const previewHead: StyledLine = hit ? [seg("preview", "dim"), seg(" · reading…", "dim")] : [seg("preview", "dim")];
	const preview = padTo([paneTitle(previewHead, layout.previewWidth, !layout.side)], layout.previewLines + 1);
	const body: StyledLine[] = layout.side
		? padTo(list, layout.listLines).map((l, i) => [...fitLine(l, layout.listWidth, true), seg("│", "dim"), ...(preview[i] ?? [])])
		: [...padTo(list, layout.listLines), ...preview];

	const where =
		r.hits.length > 0 ? `${MODE_NAMES[mode]} · hit ${h.selected + 1} of ${hitTotal(r.hits.length, r.exhausted, h.group ? null : r.total)}` : MODE_NAMES[mode];
	const status = s.message
		? { text: s.message.text, tone: s.message.tone === "error" ? ("error" as const) : s.message.tone === "warn" ? ("warn" as const) : ("accent" as const) }
		: indexText(indexing, r.index, now);
	const bar = where ? spread([seg(status.text, status.tone)], [seg(where, "dim")], width) : fitLine([seg(status.text, status.tone)], width);
	return padTo([title, query, ...padTo(body, overlayLines(s.size)), bar, hintLine(hintsFor(mode), width)], frameHeight(s.size));
}
