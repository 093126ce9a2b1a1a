/** The search screen as lines: title with scope and filter chips, the query line, hit rows, empty states, status. */

import { formatProgress, hitKind, markSegments, relativeTime, sessionWhere, stateMarks } from "../../src/present/text.js";
import { type Hit, type HitCount, type IndexStatus, refKey, type SearchOrder } from "../../src/shared/types.js";
import type { IndexingState } from "../core/explorer-service.js";
import { type Filters, filterChips, type Scope, type ScopeSession, scopeChip } from "../core/filters.js";
import { visibleRange } from "../core/list-window.js";
import { hitTotal, num } from "../core/numbers.js";
import { cwdTail, idTail, shortIds } from "../core/session-label.js";
import { fitLine, lineWidth, type StyledLine, seg, spread, type Tone } from "../core/styled.js";
import { clusters, clusterWidth, sanitizeLine, stringWidth, truncate, wrapLine } from "../core/text-width.js";

const WHITESPACE_RUNS = /\s+/g;

/**
 * A snippet on one line: whitespace runs become one space, control characters are made visible; marks follow.
 * Run by run, not character by character: the first frames of a fresh explorer run this unoptimized, for every hit.
 */
export function normalizeSnippet(snippet: string, marks: Array<[number, number]>): { text: string; marks: Array<[number, number]> } {
	// map[i]: where snippet[i] lands in the text (a whitespace run's characters after its first: after its one space).
	const map = new Array<number>(snippet.length + 1);
	let text = "";
	let from = 0;
	// sanitizeLine keeps the length of text without whitespace: one visible picture for each control character.
	const copy = (to: number) => {
		for (let i = from; i < to; i++) map[i] = text.length + i - from;
		text += sanitizeLine(snippet.slice(from, to));
	};
	WHITESPACE_RUNS.lastIndex = 0;
	for (let m = WHITESPACE_RUNS.exec(snippet); m; m = WHITESPACE_RUNS.exec(snippet)) {
		copy(m.index);
		const end = m.index + m[0].length;
		map[m.index] = text.length;
		// No space before the first word.
		if (m.index > 0) text += " ";
		for (let i = m.index + 1; i < end; i++) map[i] = text.length;
		from = end;
	}
	copy(snippet.length);
	map[snippet.length] = text.length;
	text = text.trimEnd();
	const out: Array<[number, number]> = [];
	for (const [a, b] of marks) {
		const na = map[Math.min(a, snippet.length)] ?? 0;
		// A mark may end in the trailing space that was trimmed: it stays within the text.
		const nb = Math.min(map[Math.min(b, snippet.length)] ?? 0, text.length);
		if (nb > na) out.push([na, nb]);
	}
	return { text, marks: out };
}

/**
 * Where a hit comes from: the session's name, else its short cwd, and the id part that tells its session apart
 * from the others on screen (`short`, from shortIds; a /clone and a --fork share name, cwd and time).
 */
export function hitWhere(h: Hit, short: string = idTail(h.sessionId)): string {
	// The id part first: it is what tells copies apart, and a narrow pane cuts the end of the line.
	return `#${short} ${sessionWhere(h.session)}`;
}

/** The flags that make a hit stand out: error, alternate branch, summarized, label. */
export function hitFlags(h: Hit): Array<{ text: string; tone: Tone }> {
	const out: Array<{ text: string; tone: Tone }> = [];
	if (h.isError) out.push({ text: "✗ error", tone: "error" });
	for (const m of stateMarks(h)) out.push({ text: m === "alternate branch" ? "⑂ alternate" : m, tone: m === "summarized" ? "dim" : "warn" });
	if (h.label) out.push({ text: `#${h.label}`, tone: "accent" });
	return out;
}

function snippetSegs(h: Hit): StyledLine {
	const { text, marks } = normalizeSnippet(h.snippet || "", h.marks);
	if (!text) return [seg("(no text: metadata event)", "dim")];
	return markSegments(text, marks).map((s) => seg(s.text, s.match ? "match" : "plain"));
}

/** Starts a snippet shortly before its first match when the match would fall off the line. */
function snippetAround(line: StyledLine, width: number): StyledLine {
	const firstMatch = line.findIndex((s) => s.tone === "match");
	if (firstMatch <= 0) return line;
	const lead = lineWidth(line.slice(0, firstMatch));
	const matchWidth = stringWidth((line[firstMatch] as { text: string }).text);
	// Drop just enough leading cells for the match and a little text after it to fit, keeping text before it.
	const need = lead + Math.min(matchWidth, width / 2) + 12 - width;
	if (need <= 0) return line;
	let drop = Math.min(lead - 4, need + 1);
	if (drop <= 0) return line;
	const out: StyledLine = [seg("…", "dim")];
	for (const s of line) {
		if (drop <= 0) {
			out.push(s);
			continue;
		}
		const w = stringWidth(s.text);
		if (w <= drop) {
			drop -= w;
			continue;
		}
		let cut = 0;
		let text = s.text;
		for (const c of clusters(s.text)) {
			if (drop <= 0) break;
			drop -= clusterWidth(c);
			cut += c.length;
		}
		text = s.text.slice(cut);
		// Start at a word boundary when one is near, so the line does not begin with half a word.
		const space = /\s/.test(s.text[cut - 1] ?? " ") ? -1 : text.search(/\s/);
		if (space >= 0 && space < 12) text = text.slice(space + 1);
		out.push({ ...s, text });
		drop = 0;
	}
	return out;
}

/** Which of a fork family's copies of one entry a row is, once its copies are rows of their own (→). */
export type CopyRole = "original" | "copy";

/**
 * The screen lines of one hit: meta line and snippet line (or both on one line when `lines` is 1). A narrow pane
 * drops the time first, then the kind, then the folder's parents, so the id part and the folder that tell copies apart
 * stay (issue 31.7).
 */
export function hitRows(
	h: Hit,
	width: number,
	now: number,
	selected: boolean,
	lines: 1 | 2,
	short?: string,
	copies = 0,
	group = "",
	role?: CopyRole,
): StyledLine[] {
	const marker = selected ? seg("▌", "accent") : seg(" ");
	const id = short ?? idTail(h.sessionId);
	const time = seg(`${relativeTime(h.timestamp, now).padEnd(10)} `, "dim");
	const kind = seg(hitKind(h), "bold");
	const rest: StyledLine = [];
	if (role) rest.push(seg("  "), seg(role === "original" ? "original" : "copy (--fork or /clone)", "accent"));
	for (const f of hitFlags(h)) rest.push(seg("  "), seg(f.text, f.tone));
	if (copies > 0) rest.push(seg("  "), seg(`same entry in ${copies + 1} sessions`, "accent"));
	if (group) rest.push(seg("  "), seg(`best of ${group} hits in this session`, "accent"));
	const inverse = (line: StyledLine) => (selected ? line.map((s) => ({ ...s, inverse: true })) : line);
	const snippet = snippetSegs(h);
	if (lines === 1) {
		// No room for the session's name and cwd on one line, but its id part still tells a copy from its original.
		const tail = [seg("  "), seg(`#${id}`, "dim"), seg("  ")];
		const lead = [time, kind, ...rest];
		const meta =
			lineWidth([marker, ...lead, ...tail]) + 10 <= width ? lead : lineWidth([marker, kind, ...rest, ...tail]) + 10 <= width ? [kind, ...rest] : rest.slice(1);
		const row = [marker, ...meta, ...tail, ...snippet];
		return [fitLine(inverse(row), width, true, selected)];
	}
	const folder = seg(`#${id} ${h.session.name || cwdTail(h.session.cwd)}`, "dim");
	const where = seg(hitWhere(h, id), "dim");
	const tries: StyledLine[] = [
		[time, kind, ...rest, seg("  "), where],
		[kind, ...rest, seg("  "), where],
		[...rest.slice(1), seg("  "), where],
		[...rest.slice(1), seg("  "), folder],
	];
	// Nothing else fits beside them: the id part and the folder first, what is left after them.
	const meta = tries.find((t) => lineWidth([marker, ...t]) <= width) ?? [folder, ...rest];
	const metaLine = fitLine([marker, ...inverse(meta.length > 0 && meta[0]?.text === "  " ? meta.slice(1) : meta)], width, true, selected);
	const snippetLine = fitLine([marker, seg(" "), ...snippetAround(snippet, width - 2)], width);
	return [metaLine, snippetLine];
}

/** What the hit list pane shows (<HitList/>, and the launcher's first frame before React loads). */
export interface HitListInput {
	hits: Hit[];
	selected: number;
	top: number;
	width: number;
	height: number;
	hitLines: 1 | 2;
	now: number;
	/** Shown instead of hits when there are none. */
	empty: Array<{ text: string; tone: Tone }>;
	/** Ref key → other sessions holding a copy of the same entry (a fork family): shown as one row. */
	copies?: Record<string, Hit[]>;
	/** Grouped by session: session id → how many hits its row stands for, as written ("13", "2+"; groupCount). */
	groups?: Record<string, string>;
	/** Ref key → which of an entry's copies shown as rows of their own (→) is the original (copyRoles). */
	roles?: ReadonlyMap<string, "original" | "copy">;
}

/** The hit list pane's lines: the visible hits' rows, or the empty list's explanation. */
export function hitListLines({ hits, selected, top, width, height, hitLines, now, empty, copies = {}, groups = {}, roles }: HitListInput): StyledLine[] {
	const lines: StyledLine[] = [];
	if (hits.length === 0) {
		lines.push([]);
		// The list pane is narrower than the screen (55% side by side): wrap, so no explanation is cut off.
		for (const e of empty) for (const part of wrapLine(e.text, Math.max(1, width - 3))) lines.push(fitLine([seg("  "), seg(part, e.tone)], width));
		return lines;
	}
	const { from, to } = visibleRange(top, Math.floor(height / hitLines), hits.length);
	const shown = hits.slice(from, to);
	// The id part that tells apart the sessions on screen (and the copies' sessions, named in the preview).
	const short = shortIds(shown.flatMap((h) => [h.sessionId, ...(copies[refKey(h)] ?? []).map((c) => c.sessionId)]));
	for (let i = from; i < to; i++) {
		const h = hits[i] as Hit;
		const count = copies[refKey(h)]?.length ?? 0;
		lines.push(...hitRows(h, width, now, i === selected, hitLines, short.get(h.sessionId), count, groups[h.sessionId] ?? "", roles?.get(refKey(h))));
	}
	return lines;
}

/** A pane's title line: a rule across the width when the panes are stacked (the preview below the hit list). */
export function paneTitle(title: StyledLine, width: number, rule: boolean): StyledLine {
	const t: StyledLine = rule ? [seg("── ", "dim"), ...title, seg(" ", "dim")] : title;
	return rule ? fitLine([...t, seg("─".repeat(Math.max(0, width)), "dim")], width) : fitLine(t, width);
}

/** Placeholder of an empty query line. */
export const QUERY_PLACEHOLDER = "search as you type · ↓ hits · Ctrl+X errors only · F1 help (letters are always text here)";

/**
 * Where the visible part of a long query starts (a UTF-16 offset), like a shell's line editor: the window stays where
 * it was (`prev`) while the cursor moves inside it and scrolls only when the cursor would leave it, so ← moves the
 * cursor over still text instead of the text under a fixed cursor. `room`: columns for the text and the cursor cell.
 */
export function queryWindow(text: string, cursor: number, room: number, prev = 0): number {
	const parts = clusters(text);
	const offsets: number[] = [];
	let at = 0;
	for (const p of parts) {
		offsets.push(at);
		at += p.length;
	}
	offsets.push(at);
	const widthOf = (from: number, to: number) => stringWidth(text.slice(from, to));
	// Columns the text may use: one is the cursor cell at the end, one the "…" when the start is cut.
	const fits = (start: number, end: number) => widthOf(start, end) <= room - 1 - (start > 0 ? 1 : 0);
	let start = Math.min(Math.max(0, prev), cursor);
	if (!offsets.includes(start)) start = offsets.filter((o) => o <= start).at(-1) ?? 0;
	// The cursor went past the right edge: scroll so it sits at the edge.
	let i = offsets.indexOf(start);
	while (i < offsets.length - 1 && !fits(start, cursor)) start = offsets[++i] as number;
	// Text was deleted: show more of the start while everything up to the end still fits.
	while (i > 0 && fits(offsets[i - 1] as number, text.length)) start = offsets[--i] as number;
	return start;
}

/**
 * The query line: prompt, text with an inverse cursor cell when focused, from `start` (see queryWindow) so the cursor
 * stays on screen.
 */
export function queryLine(
	query: string,
	cursor: number,
	focused: boolean,
	width: number,
	placeholder: string,
	start = queryWindow(query, cursor, Math.max(4, width - 2)),
): StyledLine {
	const prompt = seg("❯ ", focused ? "accent" : "dim");
	const room = Math.max(4, width - 3);
	if (query === "") {
		const ph = truncate(placeholder, room - 1);
		return focused ? [prompt, seg(ph.slice(0, 1) || " ", "dim", true), seg(ph.slice(1), "dim")] : [prompt, seg(ph, "dim")];
	}
	// The window is counted on the raw text; sanitizing keeps lengths (controls become one symbol each).
	const clean = sanitizeLine(query);
	const before = clean.slice(start, cursor);
	const atCursor = clusters(clean.slice(cursor))[0] ?? " ";
	const after = clean.slice(cursor + (atCursor === " " && cursor >= clean.length ? 0 : atCursor.length));
	const lead: StyledLine = start > 0 ? [seg("…", "dim"), seg(before)] : [seg(before)];
	if (!focused) return fitLine([prompt, ...lead, seg(atCursor === " " && cursor >= clean.length ? "" : atCursor), seg(after)], width);
	return fitLine([prompt, ...lead, seg(atCursor, "plain", true), seg(after)], width);
}

/** Inputs of the title line. */
export interface TitleInput {
	banner: string | null;
	scope: Scope;
	workspace: string | null;
	session: ScopeSession | null;
	filters: Filters;
	order?: SearchOrder;
	group?: boolean;
	count: number;
	more: boolean;
	/** The core's count of every match (null until it came). */
	total?: HitCount | null;
	/** Grouped by session: the rows (sessions) loaded; `count` is then the hits they were grouped from. */
	sessions?: number;
	loading: boolean;
	query: string;
}

/** The filter chips at the end of the query line ("" when none): removable one by one with Backspace on an empty query. */
export function chipLine(filters: Filters, now: number): StyledLine {
	const out: StyledLine = [];
	for (const c of filterChips(filters, now)) out.push(seg(" "), seg(`[${c.text}]`, "warn"));
	return out;
}

/** Placeholder beside filter chips. */
export const QUERY_PLACEHOLDER_SHORT = "search as you type · Backspace removes the last chip";

/**
 * The search screen's query line: the query from its window start (see queryWindow; `prevStart` is the view's memory
 * of it) and the filter chips at its end, which take at most half the width. Also the first frame's (first-frame.ts).
 */
export function searchQueryLine(
	q: { text: string; cursor: number; focused: boolean; filters: Filters; now: number },
	width: number,
	prevStart = 0,
): { line: StyledLine; start: number } {
	const chips = fitLine(chipLine(q.filters, q.now), Math.floor(width / 2));
	const chipsWidth = lineWidth(chips);
	const start = queryWindow(q.text, q.cursor, Math.max(4, width - chipsWidth - 2), prevStart);
	const placeholder = chipsWidth > 0 ? QUERY_PLACEHOLDER_SHORT : QUERY_PLACEHOLDER;
	return { line: [...queryLine(q.text, q.cursor, q.focused, width - chipsWidth, placeholder, start), ...chips], start };
}

/** The first line: name, demo banner, scope, order and grouping chips, hit count. */
export function titleLine(t: TitleInput, width: number): StyledLine {
	const left: StyledLine = [seg("pi-history", "title")];
	if (t.banner) left.push(seg("  "), seg(t.banner, "banner"));
	const chips: StyledLine = [seg(`[${scopeChip(t.scope, t.workspace, t.session)}]`, t.scope === "all" ? "dim" : "accent")];
	if (t.order === "newest") chips.push(seg(" "), seg("[newest first]", "accent"));
	if (t.group) chips.push(seg(" "), seg("[by session]", "accent"));
	const hitsText = `${hitTotal(t.count, !t.more, t.total ?? null)} ${t.query.trim() ? (t.count === 1 && !t.more ? "hit" : "hits") : "recent events"}`;
	// Grouped, the rows are sessions: the title still counts hits, and says how many sessions the rows are.
	const sessionsText = t.sessions === undefined ? "" : ` in ${num(t.sessions)}${t.more ? "+" : ""} session${t.sessions === 1 && !t.more ? "" : "s"}`;
	const count = t.loading ? "searching…" : `${hitsText}${sessionsText}`;
	const right: StyledLine = [...chips, seg("  "), seg(count, "dim")];
	return spread(left, right, width);
}

/** The keys an empty list's lines name. */
export interface EmptyKeys {
	clearFilters: string;
	cycleScope: string;
	openFilters: string;
}

/** What the list shows when it has no hits: why, and what to do next. */
export function emptyLines(input: {
	loading: boolean;
	error: string | null;
	query: string;
	notes: string[];
	scope: Scope;
	filters: Filters;
	indexEvents: number | null;
	indexing: IndexingState;
	status: IndexStatus | null;
	/** How the keys these lines name are written (the keymap is the root's: the caller looks them up). */
	keys: EmptyKeys;
}): Array<{ text: string; tone: Tone }> {
	if (input.error)
		return [
			{ text: `search failed: ${input.error}`, tone: "error" },
			{ text: `change the query, or press ${input.keys.clearFilters} to clear the filters`, tone: "dim" },
		];
	if (input.loading && input.indexEvents === null) return [{ text: "searching…", tone: "dim" }];
	if ((input.indexEvents ?? 0) === 0 && input.query.trim() === "" && Object.keys(input.filters).length === 0 && input.scope === "all") {
		if (input.indexing.phase === "indexing" || input.indexing.phase === "idle") {
			return [
				{ text: "Indexing your Pi history…", tone: "bold" },
				{ text: "hits appear as soon as the first files are indexed; you can type a query now", tone: "dim" },
			];
		}
		const roots = input.status?.roots.map((r) => r.path) ?? [];
		return [
			{ text: "No Pi sessions are indexed.", tone: "bold" },
			{ text: `Pi keeps sessions under ${roots.join(", ") || "~/.pi/agent/sessions"}; none were found.`, tone: "dim" },
			{ text: "Run pi once, pass --sessions-dir DIR, or start with --demo to explore the sample history.", tone: "dim" },
		];
	}
	const out: Array<{ text: string; tone: Tone }> = [
		{ text: input.query.trim() ? `No hits for “${input.query.trim()}”.` : "No events match the scope and filters.", tone: "bold" },
	];
	// The core names filters as the CLI does; here the cwd and session filters are the scope.
	for (const n of input.notes)
		out.push({ text: n.replace("the cwd filter", "this workspace scope").replace("the session filter", "this session scope"), tone: "warn" });
	if (input.query.trim()) out.push({ text: "Try other or shorter words (the last one is read as a prefix).", tone: "dim" });
	if (input.scope !== "all") out.push({ text: `${input.keys.cycleScope} widens the scope to all sessions.`, tone: "dim" });
	if (Object.keys(input.filters).length > 0)
		out.push({
			text: `Backspace on an empty query removes the last filter chip; ${input.keys.clearFilters} clears them all; ${input.keys.openFilters} changes them.`,
			tone: "dim",
		});
	if (input.indexing.phase === "indexing") out.push({ text: "Indexing is still running: more hits may appear.", tone: "dim" });
	return out;
}

/** The index part of the status line: progress while indexing, else counts and freshness. */
export function indexText(
	indexing: IndexingState,
	index: { sessions: number; events: number; freshAt: string | null } | null,
	now: number,
): { text: string; tone: Tone } {
	if (indexing.phase === "indexing" && indexing.progress) return { text: formatProgress(indexing.progress, now), tone: "accent" };
	if (indexing.phase === "indexing") return { text: "indexing: looking for session files…", tone: "accent" };
	if (indexing.phase === "failed") return { text: `indexing failed: ${indexing.error ?? "unknown error"} (searching what is indexed)`, tone: "error" };
	if (!index) return { text: "opening the index…", tone: "dim" };
	const fresh = index.freshAt ? `fresh ${relativeTime(index.freshAt, now)}` : "never refreshed";
	return { text: `${index.sessions} sessions · ${num(index.events)} events · ${fresh}${indexing.summary ? ` · ${indexing.summary}` : ""}`, tone: "dim" };
}

function hintSegs(hints: ReadonlyArray<[string, string]>): StyledLine {
	const out: StyledLine = [];
	for (const [k, label] of hints) {
		if (out.length) out.push(seg(" · ", "dim"));
		out.push(seg(k, "key"), seg(` ${label}`, "dim"));
	}
	return out;
}

/**
 * The key hints line: "key label" pairs separated by dots. When they do not all fit, whole hints are left out from
 * the end, never cut in half, and the help hint always stays, last: it is where the others are.
 */
export function hintLine(hints: Array<[string, string]>, width: number): StyledLine {
	const all = hintSegs(hints);
	if (lineWidth(all) <= width) return all;
	const helpAt = hints.findIndex(([, label]) => label === "help");
	const help = helpAt >= 0 ? [hints[helpAt] as [string, string]] : [];
	const kept: Array<[string, string]> = [];
	for (const [i, h] of hints.entries()) {
		if (i === helpAt) continue;
		if (lineWidth(hintSegs([...kept, h, ...help])) > width) break;
		kept.push(h);
	}
	return fitLine(hintSegs([...kept, ...help]), width);
}
