/**
 * The explorer as lines for a host that draws text (pi's TUI): the same pure views the Ink screens compose
 * (search-view, read-view's preview, tree-lines), laid out like pi-history's search and tree screens, every line
 * fitted to the width. Keys named in the last line are the in-pi ones (Enter lands pi, Alt+Q/Alt+R paste).
 */

import { partialLine } from "../../src/present/text.js";
import { type Hit, refKey } from "../../src/shared/types.js";
import { IDLE_INDEXING } from "../core/explorer-service.js";
import { eventLayout, searchLayout } from "../core/layout.js";
import { visibleRange } from "../core/list-window.js";
import { shortIds } from "../core/session-label.js";
import { fitLine, type StyledLine, seg, spread } from "../core/styled.js";
import { wrapLine } from "../core/text-width.js";
import { eventDoc } from "../event/event-doc.js";
import { eventHeaderLines } from "../event/event-header-view.js";
import { hitHighlights } from "../event/matches.js";
import { previewBody, previewTitle } from "../event/read-view.js";
import { tracePanelLines } from "../event/trace-view.js";
import { emptyListLines, searchTitle } from "../root/search-lines.js";
import { modeOf, previewKey, type State, selectedHit, topLoc } from "../root/state.js";
import { copyRoles, groupCount, listPosition } from "../search/hits-state.js";
import { hitRows, indexText, searchQueryLine } from "../search/search-view.js";
import { treeSubtitle, treeTitle, treeWindowLines } from "../tree/tree-header.js";
import { cursorIndex, topTree } from "../tree/tree-state.js";

/** The in-pi keys, as the last line names them. */
export const PI_HINTS: Array<[string, string]> = [
	["Enter", "go there in pi"],
	["Alt+Q", "paste quote"],
	["Alt+R", "paste ref"],
	["Alt+O", "exact text"],
	["Ctrl+T", "tree"],
	["Ctrl+S", "scope"],
	["Ctrl+O", "filters"],
	["Esc", "close"],
];

/** The event view's keys (pi-history's event keys work as they do there). */
const EVENT_HINTS: Array<[string, string]> = [
	["Enter", "go there in pi"],
	["↑↓", "scroll"],
	["t", "tree"],
	["Tab", "trace"],
	["Alt+Q", "paste quote"],
	["Esc", "back"],
];

function eventHints(width: number): StyledLine {
	const line: StyledLine = [];
	for (const [k, label] of EVENT_HINTS) line.push(seg(k, "key"), seg(` ${label}  `, "dim"));
	return fitLine(line, width, true);
}

function hintsLine(width: number, tree: boolean): StyledLine {
	const hints = tree
		? [["Enter", "go there in pi"] as [string, string], ["n/N", "next hit"] as [string, string], ["Esc", "back"] as [string, string]]
		: PI_HINTS;
	const line: StyledLine = [];
	for (const [k, label] of hints) line.push(seg(k, "key"), seg(` ${label}  `, "dim"));
	return fitLine(line, width, true);
}

/**
 * The rows last built for each hit and what they were built for: pi's TUI draws every frame from the whole state, and
 * a key typed, a selection moved or a preview read leaves most hits' rows as they were.
 */
const builtRows = new WeakMap<Hit, { key: string; rows: StyledLine[] }>();

function rowsOf(h: Hit, ...args: Parameters<typeof hitRows> extends [Hit, ...infer A] ? A : never): StyledLine[] {
	const key = args.map((a) => (a === undefined ? "\u0001" : String(a))).join("\u0000");
	const built = builtRows.get(h);
	if (built?.key === key) return built.rows;
	const rows = hitRows(h, ...args);
	builtRows.set(h, { key, rows });
	return rows;
}

function listLines(s: State, width: number, height: number, hitLinesPer: 1 | 2, now: number): StyledLine[] {
	const r = s.hits.results;
	const out: StyledLine[] = [];
	if (r.hits.length === 0) {
		out.push([]);
		const empty = emptyListLines(s, IDLE_INDEXING, null);
		for (const e of empty) for (const part of wrapLine(e.text, Math.max(1, width - 3))) out.push(fitLine([seg("  "), seg(part, e.tone)], width));
	} else {
		// A partial answer says so on a dimmed line above its hits (issue 28), as pi-history's list does.
		const partial = partialLine(r.notes);
		if (partial) out.push(fitLine([seg(partial, "dim")], width));
		const { from, to } = visibleRange(s.hits.top, Math.floor((partial ? height - 1 : height) / hitLinesPer), r.hits.length);
		const shown = r.hits.slice(from, to);
		const short = shortIds(shown.flatMap((h) => [h.sessionId, ...(r.copies[refKey(h)] ?? []).map((c) => c.sessionId)]));
		const roles = copyRoles(r.hits);
		for (let i = from; i < to; i++) {
			const h = r.hits[i] as Hit;
			const copies = r.copies[refKey(h)]?.length ?? 0;
			out.push(...rowsOf(h, width, now, i === s.hits.selected, hitLinesPer, short.get(h.sessionId), copies, groupCount(r, h.sessionId), roles.get(refKey(h))));
		}
	}
	return pad(out, height, width);
}

function previewLines(s: State, width: number, height: number, now: number, rule: boolean): StyledLine[] {
	const hit = selectedHit(s);
	const p = s.hits.preview;
	const current = p !== null && p.key === previewKey(s);
	let title: StyledLine = [seg("preview", "dim")];
	let lines: StyledLine[] = [];
	if (hit && (!current || !p)) title = [seg("preview", "dim"), seg(" · reading…", "dim")];
	else if (hit && p && (p.error || !p.read)) lines = [[seg(`cannot read this event: ${p.error ?? "unknown error"}`, "error")]];
	else if (hit && p?.read) {
		const body = previewBody(p.read, hitHighlights(hit), width, height);
		title = previewTitle(p.read, body.at, now);
		lines = body.lines.map((l) => fitLine(l, width));
	}
	const head = rule ? fitLine([seg("── ", "dim"), ...title, seg(" ", "dim"), seg("─".repeat(Math.max(0, width)), "dim")], width) : fitLine(title, width);
	return pad([head, ...lines], height + 1, width);
}

function pad(lines: StyledLine[], height: number, width: number): StyledLine[] {
	const out = lines.slice(0, height).map((l) => fitLine(l, width, true));
	while (out.length < height) out.push(fitLine([], width, true));
	return out;
}

function treeScreen(s: State, width: number, height: number): StyledLine[] {
	const loc = topTree(s.tree);
	if (!loc) return [];
	const d = loc.data;
	const bodyHeight = Math.max(1, height - 4);
	const body = treeWindowLines(loc, width, bodyHeight);
	const where = d && d.total > 0 ? `row ${cursorIndex(loc) + 1} of ${d.total}` : "";
	const status = s.message ? [seg(s.message.text, s.message.tone === "info" ? "accent" : s.message.tone)] : [seg("")];
	return [
		spread(treeTitle(loc), [], width),
		fitLine(treeSubtitle(loc, width, false), width, true),
		...pad(body, bodyHeight, width),
		spread(status, [seg(where, "dim")], width),
		hintsLine(width, true),
	];
}

/** The event view (pi-history's, by the same views): header, the exact text scrolled, the trace panel. */
function eventScreen(s: State, width: number, height: number, now: number): StyledLine[] {
	const loc = topLoc(s);
	if (!loc) return [];
	const layout = eventLayout({ columns: width, rows: height + 1 });
	const header = eventHeaderLines(loc, s.events.stack.length, width, now, null).map((l) => fitLine(l, width, true));
	const doc = eventDoc(loc, layout.bodyWidth, s.events.wrap);
	const text: StyledLine[] = loc.error
		? [[seg(loc.error, "error")]]
		: doc
			? doc.lines.slice(loc.scroll, loc.scroll + layout.bodyLines).map((l) => l.line)
			: [[seg("reading the event from its session file…", "dim")]];
	const body = pad(text, layout.bodyLines, layout.bodyWidth);
	const panel = tracePanelLines({
		data: loc.data,
		cursor: loc.traceCursor,
		focused: loc.panel === "trace",
		width: layout.panelWidth,
		height: layout.panelLines,
		rule: !layout.side,
	});
	const main: StyledLine[] = [];
	if (layout.side) {
		const right = pad(panel, layout.bodyLines, layout.panelWidth);
		for (let i = 0; i < layout.bodyLines; i++) main.push([...(body[i] ?? []), seg("│", "dim"), ...(right[i] ?? [])]);
	} else main.push(...body, ...pad(panel, layout.panelLines + 1, width));
	const n = doc?.lines.length ?? 0;
	const end = Math.min(n, loc.scroll + layout.bodyLines);
	const where = !doc ? "" : n <= layout.bodyLines ? `${n} lines` : `lines ${loc.scroll + 1}–${end} of ${n}${end < n ? " ↓" : ""}`;
	const status = s.message ? [seg(s.message.text, s.message.tone === "info" ? "accent" : s.message.tone)] : [seg("")];
	return [...header, ...pad(main, height - header.length - 2, width), spread(status, [seg(where, "dim")], width), eventHints(width)];
}

/** The whole overlay for `s`: `height` lines of exactly `width` cells (the search screen, the event or the tree view). */
export function explorerLines(
	s: State,
	width: number,
	height: number,
	now: number,
	queryStart = 0,
	note: string | null = null,
): { lines: StyledLine[]; queryStart: number } {
	if (modeOf(s) === "tree") return { lines: pad(treeScreen(s, width, height), height, width), queryStart };
	if (s.events.stack.length > 0 && topLoc(s)) return { lines: pad(eventScreen(s, width, height, now), height, width), queryStart };
	const h = s.hits;
	const r = h.results;
	const title = searchTitle(s, null, width);
	const focused = s.focus === "query" && s.overlay === null;
	const q = searchQueryLine({ text: s.query.text, cursor: s.query.cursor, focused, filters: h.filters, now }, width, queryStart);
	// The layout of pi-history's search screen for a frame of `height` lines (its frame is one less than the rows).
	const layout = searchLayout({ columns: width, rows: height + 1 });
	const body: StyledLine[] = [];
	if (layout.side) {
		const list = listLines(s, layout.listWidth, layout.listLines, layout.hitLines, now);
		const prev = previewLines(s, layout.previewWidth, layout.listLines - 1, now, false);
		for (let i = 0; i < layout.listLines; i++) body.push([...(list[i] ?? []), seg("│", "dim"), ...(prev[i] ?? [])]);
	} else {
		body.push(...listLines(s, width, layout.listLines, layout.hitLines, now), ...previewLines(s, width, layout.previewLines, now, true));
	}
	const where = r.hits.length > 0 ? listPosition(h) : "";
	const msg = s.message;
	const status = msg
		? { text: msg.text, tone: msg.tone === "error" ? ("error" as const) : msg.tone === "warn" ? ("warn" as const) : ("accent" as const) }
		: note
			? { text: note, tone: "dim" as const }
			: indexText(IDLE_INDEXING, r.index, now);
	const statusLine = where ? spread([seg(status.text, status.tone)], [seg(where, "dim")], width) : fitLine([seg(status.text, status.tone)], width, true);
	const lines = pad([title, q.line, ...pad(body, height - 4, width), statusLine, hintsLine(width, false)], height, width);
	return { lines, queryStart: q.start };
}
