/**
 * The explorer's state and its one reducer. Keys arrive as `key` actions and are mapped here through the keymap,
 * against the state they act on (two keys in one stdin chunk must not see a stale mode). Data arrives as `*-done`
 * actions from App's effects; side effects the reducer asks for (copy, exit) are fields App acts on.
 */

import { refOf } from "../src/present/text.js";
import { type EventRef, type FragmentWindow, type Hit, type IndexFreshness, type ReadResult, refKey, type SearchResult } from "../src/shared/types.js";
import type { Size } from "./explorer-service.js";
import { cycleFilter, type Filters, filterFields, nextScope, PAGE_SIZE, type Scope, type ScopeSession, toolsIn } from "./filters.js";
import { helpLines, type KeyInfo, keyToAction } from "./keymap.js";
import { eventLayout, overlayLines, searchLayout, visibleHits } from "./layout.js";
import { clampIndex, clampScroll, windowTop } from "./list-window.js";
import { type EventData, HEAD_CHARS, PAGE_CHARS, TAIL_CHARS } from "./loaders.js";
import { buildEventDoc, type EventDoc, hitHighlights, locateMatch, num } from "./read-view.js";
import { clusters } from "./text-width.js";
import { type Candidate, traceRows, type WalkOutcome, type WalkTarget, walkAppend, walkChild, walkForks, walkParent, walkSibling } from "./trace-rows.js";

/** Where keys go: the query line, the hit list, an event's text or trace panel, or an overlay. */
export type Mode = "query" | "list" | "event" | "trace" | "help" | "filters" | "fork";

/** Everything a key or a finished load can do. */
export type Action =
	| { type: "key"; input: string; key: KeyInfo }
	| { type: "resize"; size: Size }
	| { type: "insert"; text: string }
	| { type: "delete-back" }
	| { type: "delete-word" }
	| { type: "clear-query" }
	| { type: "cursor"; to: "left" | "right" | "home" | "end" }
	| { type: "focus"; to: "query" | "list" }
	| { type: "move"; by: number }
	| { type: "page"; dir: 1 | -1 | 0 }
	| { type: "jump"; to: "first" | "last" }
	| { type: "open" }
	| { type: "back" }
	| { type: "to-search" }
	| { type: "walk"; to: "parent" | "child" | "next-sibling" | "prev-sibling" | "append-prev" | "append-next" | "forks" | "fork-up" }
	| { type: "toggle-panel" }
	| { type: "page-fragment"; dir: 1 | -1 }
	| { type: "toggle-wrap" }
	| { type: "cycle-scope" }
	| { type: "open-filters" }
	| { type: "toggle-errors" }
	| { type: "clear-filters" }
	| { type: "filter-cycle"; dir: 1 | -1 }
	| { type: "filter-reset" }
	| { type: "help" }
	| { type: "copy-ref" }
	| { type: "pick"; index: number }
	| { type: "quit"; code: number }
	| { type: "search-done"; seq: number; more: number; result: SearchResult }
	| { type: "search-failed"; seq: number; error: string }
	| { type: "preview-done"; key: string; read: ReadResult | null; error: string | null }
	| { type: "event-done"; key: string; data: EventData | null; error: string | null }
	| { type: "page-done"; key: string; fragmentId: string; offset: number; window: FragmentWindow | null; error: string | null }
	| { type: "seek-done"; seq: number; target: { ref: EventRef; steps: number; branches: number } | null; error: string | null }
	| { type: "index-changed" };

/** The hits of the current search and what is being asked for. */
export interface Results {
	/** Grows with every new search (query, scope, filters, index change); stale answers are dropped. */
	seq: number;
	/** Whether the answer to `seq` is still pending; a failed search is answered too, with `error` set. */
	status: "loading" | "ready";
	hits: Hit[];
	notes: string[];
	error: string | null;
	/** No more pages after these hits. */
	exhausted: boolean;
	/** Grows when the next page is wanted; 0 means none asked yet. */
	moreSeq: number;
	loadingMore: boolean;
	index: IndexFreshness | null;
	/** Ref key to select again when the new hits arrive (after an index change). */
	keep: string | null;
}

/** The preview pane's content for one hit. */
export interface PreviewState {
	key: string;
	read: ReadResult | null;
	error: string | null;
}

/** One event on the back stack, with where the view was. */
export interface EventLoc {
	key: string;
	ref: EventRef;
	highlights: string[];
	focusFragment: string | null;
	scroll: number;
	panel: "body" | "trace";
	traceCursor: number;
	/** Fragment id → offset of the page shown instead of head and tail. */
	pages: Record<string, number>;
	pageWindows: Record<string, FragmentWindow>;
	data: EventData | null;
	error: string | null;
	/** The first scroll to the match was applied. */
	placed: boolean;
}

/** A panel drawn over the screen's body. */
export type Overlay =
	| { type: "help"; scroll: number }
	| { type: "filters"; row: number; draft: Filters }
	| { type: "fork"; title: string; candidates: Candidate[]; cursor: number };

/** A one-line message in the status bar. */
export interface Message {
	text: string;
	tone: "info" | "warn" | "error";
}

/** The whole explorer state. */
export interface State {
	size: Size;
	query: string;
	cursor: number;
	focus: "query" | "list";
	scope: Scope;
	workspace: string | null;
	scopeSession: ScopeSession | null;
	filters: Filters;
	results: Results;
	selected: number;
	top: number;
	preview: PreviewState | null;
	stack: EventLoc[];
	overlay: Overlay | null;
	wrap: boolean;
	message: Message | null;
	copy: { seq: number; text: string } | null;
	/** A walk that needs more than the loaded trace (up to the nearest fork): App runs it and answers seek-done. */
	seek: { seq: number; from: EventRef } | null;
	exit: number | null;
}

/** Inputs of the first state. */
export interface InitOptions {
	size: Size;
	workspace?: string | null;
	scope?: Scope;
	query?: string;
	message?: string;
}

/** The state the explorer starts in: empty query (recent events), list not yet loaded. */
export function initialState(options: InitOptions): State {
	const query = options.query ?? "";
	return {
		size: options.size,
		query,
		cursor: query.length,
		focus: "query",
		scope: options.scope === "workspace" && options.workspace ? "workspace" : "all",
		workspace: options.workspace ?? null,
		scopeSession: null,
		filters: {},
		results: { seq: 1, status: "loading", hits: [], notes: [], error: null, exhausted: false, moreSeq: 0, loadingMore: false, index: null, keep: null },
		selected: 0,
		top: 0,
		preview: null,
		stack: [],
		overlay: null,
		wrap: true,
		message: options.message ? { text: options.message, tone: "warn" } : null,
		copy: null,
		seek: null,
		exit: null,
	};
}

/** Which keys apply now. */
export function modeOf(s: State): Mode {
	if (s.overlay) return s.overlay.type;
	const top = s.stack.at(-1);
	if (top) return top.panel === "trace" ? "trace" : "event";
	return s.focus;
}

/** The hit under the cursor. */
export function selectedHit(s: State): Hit | null {
	return s.results.hits[s.selected] ?? null;
}

/** Key of the preview the selected hit needs (ref and fragment), or null without a hit. */
export function previewKey(s: State): string | null {
	const h = selectedHit(s);
	return h ? `${refKey(h)}#${h.fragmentId ?? ""}` : null;
}

/** The event on top of the back stack. */
export function topLoc(s: State): EventLoc | null {
	return s.stack.at(-1) ?? null;
}

const docCache = new WeakMap<EventData, Map<string, EventDoc>>();

/**
 * The event document of a location at a width (cached per loaded data; the view and the reducer share it). The key
 * holds everything besides the data that the document depends on: App reuses one EventData when the same event is
 * opened again from another search, whose highlights and match line differ.
 */
export function docOf(loc: EventLoc, width: number, wrap: boolean): EventDoc | null {
	if (!loc.data) return null;
	const windows = Object.entries(loc.pageWindows).map(([k, w]) => `${k}:${w.range[0]}`);
	const key = JSON.stringify([width, wrap, loc.highlights, loc.focusFragment, loc.pages, windows]);
	let byKey = docCache.get(loc.data);
	if (!byKey) {
		byKey = new Map();
		docCache.set(loc.data, byKey);
	}
	let doc = byKey.get(key);
	if (!doc) {
		doc = buildEventDoc(loc.data, {
			pages: loc.pages,
			pageWindows: loc.pageWindows,
			highlights: loc.highlights,
			focusFragment: loc.focusFragment,
			width,
			wrap,
		});
		if (byKey.size > 8) byKey.clear();
		byKey.set(key, doc);
	}
	return doc;
}

function info(s: State, text: string, tone: Message["tone"] = "info"): State {
	return { ...s, message: { text, tone } };
}

function newSearch(s: State, keep: string | null = null): State {
	return { ...s, results: { ...s.results, seq: s.results.seq + 1, status: "loading", error: null, loadingMore: false, keep } };
}

function withSelection(s: State, selected: number): State {
	const layout = searchLayout(s.size);
	const sel = clampIndex(selected, s.results.hits.length);
	const top = windowTop(sel, s.top, visibleHits(layout), s.results.hits.length);
	return maybeMore({ ...s, selected: sel, top });
}

/** Asks for the next page of hits when the cursor comes within a page of the end. */
function maybeMore(s: State): State {
	const r = s.results;
	if (r.exhausted || r.loadingMore || r.status !== "ready" || r.hits.length === 0) return s;
	const page = visibleHits(searchLayout(s.size));
	if (s.selected < r.hits.length - page - 5) return s;
	return { ...s, results: { ...r, moreSeq: r.moreSeq + 1, loadingMore: true } };
}

function newLoc(target: { ref: EventRef; highlights?: string[]; focusFragment?: string | null }): EventLoc {
	return {
		key: refKey(target.ref),
		ref: target.ref,
		highlights: target.highlights ?? [],
		focusFragment: target.focusFragment ?? null,
		scroll: 0,
		panel: "body",
		traceCursor: 0,
		pages: {},
		pageWindows: {},
		data: null,
		error: null,
		placed: false,
	};
}

function push(s: State, loc: EventLoc, note?: string): State {
	// Going on from a trace row keeps the panel focused, so a walk through the panel stays in the panel.
	const from = topLoc(s);
	const panel = from?.panel === "trace" ? "trace" : "body";
	const next: State = { ...s, stack: [...s.stack, { ...loc, panel }], overlay: null, message: note ? { text: note, tone: "info" } : null };
	return next;
}

function replaceTop(s: State, loc: EventLoc): State {
	return { ...s, stack: [...s.stack.slice(0, -1), loc] };
}

function openHit(s: State): State {
	const hit = selectedHit(s);
	if (!hit)
		return info(s, s.results.status === "loading" ? "still searching…" : "no hit to open: type a query, or press s / F to widen the scope and filters", "warn");
	const highlights = hitHighlights(hit);
	const loc = newLoc({ ref: { sessionId: hit.sessionId, entryId: hit.entryId }, highlights, focusFragment: hit.fragmentId });
	return push({ ...s, focus: "list" }, { ...loc, pages: matchPage(s, highlights) });
}

/**
 * A large fragment opens at its match: when the preview (which read the fragment) places the match outside the
 * head and tail the event view shows first, the view starts with a page just before the match instead.
 */
function matchPage(s: State, highlights: string[]): Record<string, number> {
	const f = s.preview && s.preview.key === previewKey(s) ? s.preview.read?.fragments[0] : undefined;
	if (!f || highlights.length === 0) return {};
	const local = locateMatch(f.text, highlights);
	const at = f.range[0] + local;
	if (at < HEAD_CHARS - 200 || at > f.totalChars - TAIL_CHARS) return {};
	// Start two lines above the match (at most 300 characters above it), so the page opens with the match in view.
	let start = local;
	for (let i = 0; i < 3 && start > 0; i++) start = f.text.lastIndexOf("\n", start - 2) + 1;
	return { [f.id]: f.range[0] + Math.max(start, local - 300) };
}

function goTarget(s: State, target: WalkTarget, note?: string): State {
	if (target.kind === "session") {
		const session = { id: target.sessionId, label: target.sessionId.slice(0, 8) };
		return newSearch(
			{
				...s,
				stack: [],
				overlay: null,
				scope: "session",
				scopeSession: session,
				query: "",
				cursor: 0,
				focus: "list",
				selected: 0,
				top: 0,
				message: { text: `showing session ${target.sessionId}; s changes the scope`, tone: "info" },
			},
			null,
		);
	}
	const from = topLoc(s);
	return push(s, newLoc({ ref: target.ref, highlights: from?.highlights ?? [] }), note);
}

function applyWalk(s: State, outcome: WalkOutcome): State {
	if ("go" in outcome) return goTarget(s, outcome.go, outcome.note);
	if ("choose" in outcome)
		return {
			...s,
			overlay: {
				type: "fork",
				title: outcome.title,
				candidates: outcome.choose,
				cursor: Math.max(
					0,
					outcome.choose.findIndex((c) => c.towardLeaf),
				),
			},
		};
	return info(s, outcome.message, "warn");
}

function scrollBy(s: State, loc: EventLoc, by: number): State {
	const layout = eventLayout(s.size);
	const doc = docOf(loc, layout.bodyWidth, s.wrap);
	const count = doc?.lines.length ?? 0;
	return replaceTop(s, { ...loc, scroll: clampScroll(loc.scroll + by, layout.bodyLines, count) });
}

/** Scrolls help, clamped like the overlay draws it (so ↑ after holding ↓ past the end moves at once). */
function helpScroll(s: State, scroll: number): State {
	if (s.overlay?.type !== "help") return s;
	return { ...s, overlay: { ...s.overlay, scroll: clampScroll(scroll, overlayLines(s.size), helpLines(s.size.columns).length) } };
}

function traceBy(s: State, loc: EventLoc, by: number): State {
	const rows = loc.data ? traceRows(loc.data) : [];
	return replaceTop(s, { ...loc, traceCursor: clampIndex(loc.traceCursor + by, rows.length) });
}

/** Where a freshly loaded event view opens: at the first match, else at the hit's fragment, else at the top. */
function placed(s: State, loc: EventLoc): EventLoc {
	const layout = eventLayout(s.size);
	const doc = docOf(loc, layout.bodyWidth, s.wrap);
	if (!doc) return loc;
	const anchor = doc.matchLine ?? (loc.focusFragment ? doc.anchors[loc.focusFragment] : undefined) ?? 0;
	// Keep the fragment's header line in view when the match is near it.
	const start =
		loc.focusFragment && doc.anchors[loc.focusFragment] !== undefined && anchor - (doc.anchors[loc.focusFragment] as number) < layout.bodyLines - 2
			? (doc.anchors[loc.focusFragment] as number)
			: anchor - 2;
	return { ...loc, scroll: clampScroll(start, layout.bodyLines, doc.lines.length), placed: true };
}

function pageFragment(s: State, loc: EventLoc, dir: 1 | -1): State {
	if (!loc.data) return info(s, "still loading…", "warn");
	const layout = eventLayout(s.size);
	const doc = docOf(loc, layout.bodyWidth, s.wrap);
	const large = new Map(loc.data.read.fragments.filter((f) => f.range[1] < f.totalChars || loc.pages[f.id] !== undefined).map((f) => [f.id, f]));
	if (large.size === 0) return info(s, "nothing to page: every fragment is shown whole");
	// The large fragment on screen (or the nearest one above it), else the first large fragment.
	let fid: string | undefined;
	for (let i = Math.min(loc.scroll + layout.bodyLines - 1, (doc?.lines.length ?? 1) - 1); i >= 0 && doc; i--) {
		const id = doc.lines[i]?.fragmentId;
		if (id && large.has(id)) {
			fid = id;
			if (i <= loc.scroll) break;
		}
	}
	fid ??= [...large.keys()][0] as string;
	const f = large.get(fid);
	if (!f) return s;
	const current = loc.pages[fid];
	let offset: number | undefined;
	if (dir === 1) {
		offset = current === undefined ? Math.min(f.range[1], HEAD_CHARS) : current + PAGE_CHARS;
		if (offset >= f.totalChars) return info(s, `last page of ${fid}`);
	} else {
		if (current === undefined) return info(s, `${fid} starts here; n pages forward`);
		if (current === 0) {
			const { [fid]: _gone, ...pages } = loc.pages;
			const { [fid]: _w, ...windows } = loc.pageWindows;
			return withDocScroll(s, { ...loc, pages, pageWindows: windows }, fid, "head and tail again");
		}
		offset = Math.max(0, current - PAGE_CHARS);
	}
	const { [fid]: _old, ...windows } = loc.pageWindows;
	return withDocScroll(
		s,
		{ ...loc, pages: { ...loc.pages, [fid]: offset }, pageWindows: windows },
		fid,
		`${fid}: chars ${num(offset)}–${num(Math.min(f.totalChars, offset + PAGE_CHARS))} of ${num(f.totalChars)}`,
	);
}

function withDocScroll(s: State, loc: EventLoc, fid: string, note: string): State {
	const layout = eventLayout(s.size);
	const doc = docOf(loc, layout.bodyWidth, s.wrap);
	const anchor = doc?.anchors[fid] ?? loc.scroll;
	return info(replaceTop(s, { ...loc, scroll: clampScroll(anchor, layout.bodyLines, doc?.lines.length ?? 0) }), note);
}

function copyRef(s: State, ref: EventRef | null): State {
	if (!ref) return info(s, "nothing selected to copy", "warn");
	const text = refOf(ref);
	return { ...s, copy: { seq: (s.copy?.seq ?? 0) + 1, text }, message: { text: `copied ref ${text}  (pi-history read ${text})`, tone: "info" } };
}

function insertText(s: State, text: string): State {
	const clean = text.replace(/[\r\n\t]+/g, " ");
	if (!clean) return s;
	const query = s.query.slice(0, s.cursor) + clean + s.query.slice(s.cursor);
	return newSearch({ ...s, query, cursor: s.cursor + clean.length });
}

function prevBoundary(q: string, at: number): number {
	const parts = clusters(q.slice(0, at));
	return at - (parts.at(-1)?.length ?? 0);
}

function nextBoundary(q: string, at: number): number {
	const first = clusters(q.slice(at))[0];
	return at + (first?.length ?? 0);
}

function reduceKey(s: State, input: string, key: KeyInfo): State {
	const action = keyToAction(modeOf(s), input, key);
	if (!action) return s;
	// A key clears the last message unless the action sets a new one.
	return reduce({ ...s, message: null }, action);
}

/** The reducer. */
export function reduce(s: State, a: Action): State {
	const mode = modeOf(s);
	const loc = topLoc(s);
	switch (a.type) {
		case "key":
			return reduceKey(s, a.input, a.key);
		case "resize": {
			const next = { ...s, size: a.size };
			const layout = searchLayout(a.size);
			const top = windowTop(s.selected, s.top, visibleHits(layout), s.results.hits.length);
			const l = topLoc(next);
			if (!l) return { ...next, top };
			const el = eventLayout(a.size);
			const doc = docOf(l, el.bodyWidth, s.wrap);
			return replaceTop({ ...next, top }, { ...l, scroll: clampScroll(l.scroll, el.bodyLines, doc?.lines.length ?? 0) });
		}
		case "insert":
			return mode === "query" ? insertText(s, a.text) : s;
		case "delete-back": {
			if (s.cursor === 0) return s;
			const at = prevBoundary(s.query, s.cursor);
			return newSearch({ ...s, query: s.query.slice(0, at) + s.query.slice(s.cursor), cursor: at });
		}
		case "delete-word": {
			const before = s.query.slice(0, s.cursor).replace(/\S+\s*$/, "");
			if (before.length === s.cursor) return s;
			return newSearch({ ...s, query: before + s.query.slice(s.cursor), cursor: before.length });
		}
		case "clear-query":
			return s.query === "" ? s : newSearch({ ...s, query: "", cursor: 0 });
		case "cursor": {
			const to = a.to === "home" ? 0 : a.to === "end" ? s.query.length : a.to === "left" ? prevBoundary(s.query, s.cursor) : nextBoundary(s.query, s.cursor);
			return { ...s, cursor: to };
		}
		case "focus":
			if (a.to === "list" && s.results.hits.length === 0) return info({ ...s, focus: "list" }, "no hits yet: Tab or / goes back to the query", "warn");
			return { ...s, focus: a.to };
		case "move": {
			if (mode === "list") {
				if (a.by < 0 && s.selected === 0) return { ...s, focus: "query" };
				return withSelection(s, s.selected + a.by);
			}
			if (mode === "event" && loc) return scrollBy(s, loc, a.by);
			if (mode === "trace" && loc) return traceBy(s, loc, a.by);
			if (s.overlay?.type === "help") return helpScroll(s, s.overlay.scroll + a.by);
			if (s.overlay?.type === "filters") return { ...s, overlay: { ...s.overlay, row: clampIndex(s.overlay.row + a.by, filterFields().length) } };
			if (s.overlay?.type === "fork") return { ...s, overlay: { ...s.overlay, cursor: clampIndex(s.overlay.cursor + a.by, s.overlay.candidates.length) } };
			return s;
		}
		case "page": {
			const dir = a.dir === 0 ? 1 : a.dir;
			if (mode === "query") return withSelection({ ...s, focus: "list" }, s.selected + dir * Math.max(1, visibleHits(searchLayout(s.size)) - 1));
			if (mode === "list") return withSelection(s, s.selected + dir * Math.max(1, visibleHits(searchLayout(s.size)) - 1));
			const el = eventLayout(s.size);
			if (mode === "event" && loc) return scrollBy(s, loc, dir * Math.max(1, el.bodyLines - 2));
			if (mode === "trace" && loc) return traceBy(s, loc, dir * Math.max(1, el.panelLines - 1));
			if (s.overlay?.type === "help") return helpScroll(s, s.overlay.scroll + dir * 10);
			return s;
		}
		case "jump": {
			const first = a.to === "first";
			if (mode === "list") {
				const moved = withSelection(s, first ? 0 : s.results.hits.length - 1);
				return !first && !s.results.exhausted ? info(moved, "loading more hits…") : moved;
			}
			if (mode === "event" && loc) return scrollBy(s, loc, first ? -Number.MAX_SAFE_INTEGER / 2 : Number.MAX_SAFE_INTEGER / 2);
			if (mode === "trace" && loc) return traceBy(s, loc, first ? -1e9 : 1e9);
			return s;
		}
		case "open": {
			if (mode === "query" || mode === "list") return openHit(s);
			if (mode === "trace" && loc) {
				const rows = loc.data ? traceRows(loc.data) : [];
				const row = rows[loc.traceCursor];
				if (!row) return s;
				if (!row.target) return info(s, `${row.rel}: nothing to go to from this row`, "warn");
				return goTarget(s, row.target);
			}
			if (s.overlay?.type === "fork") return reduce(s, { type: "pick", index: s.overlay.cursor });
			if (s.overlay?.type === "filters") return newSearch({ ...s, filters: s.overlay.draft, overlay: null, selected: 0, top: 0 });
			return s;
		}
		case "pick": {
			if (s.overlay?.type !== "fork") return s;
			const c = s.overlay.candidates[a.index];
			if (!c) return info(s, `there is no branch ${a.index + 1}`, "warn");
			return goTarget(
				{ ...s, overlay: null },
				{ kind: "event", ref: c.ref, brief: c.brief },
				c.via === "forked session" ? "crossed into the forked session" : undefined,
			);
		}
		case "back": {
			if (s.overlay) return { ...s, overlay: null };
			if (s.stack.length > 0) return { ...s, stack: s.stack.slice(0, -1) };
			if (s.focus === "list") return { ...s, focus: "query" };
			if (s.query !== "") return newSearch({ ...s, query: "", cursor: 0 });
			return info(s, "q quits from the hit list (Tab goes there); Ctrl+C quits from anywhere");
		}
		case "to-search":
			return { ...s, stack: [], overlay: null, focus: "query" };
		case "walk": {
			if (!loc) return s;
			if (!loc.data) return info(s, loc.error ? `cannot walk: ${loc.error}` : "still loading…", "warn");
			const d = loc.data;
			switch (a.to) {
				case "parent":
					return applyWalk(s, walkParent(d));
				case "child":
					return applyWalk(s, walkChild(d));
				case "forks":
					return applyWalk(s, walkForks(d));
				case "next-sibling":
					return applyWalk(s, walkSibling(d, 1));
				case "prev-sibling":
					return applyWalk(s, walkSibling(d, -1));
				case "append-next":
					return applyWalk(s, walkAppend(d, 1));
				case "append-prev":
					return applyWalk(s, walkAppend(d, -1));
				case "fork-up":
					return info({ ...s, seek: { seq: (s.seek?.seq ?? 0) + 1, from: loc.ref } }, "looking for the nearest fork above…");
			}
		}
		case "toggle-panel":
			return loc ? replaceTop(s, { ...loc, panel: loc.panel === "body" ? "trace" : "body" }) : s;
		case "page-fragment":
			return loc ? pageFragment(s, loc, a.dir) : s;
		case "toggle-wrap": {
			const next = { ...s, wrap: !s.wrap };
			return loc ? scrollBy(info(next, next.wrap ? "long lines wrap" : "long lines are cut with …"), loc, 0) : next;
		}
		case "cycle-scope": {
			// "This session" is the selected hit's session, remembered from the moment there was one (the
			// workspace step in between may have no hits at all).
			const hit = selectedHit(s);
			const session =
				s.scope === "session" && s.scopeSession
					? s.scopeSession
					: hit
						? { id: hit.sessionId, label: hit.session.name ?? hit.sessionId.slice(0, 8) }
						: s.scopeSession;
			const scope = nextScope(s.scope, s.workspace !== null, session !== null);
			const next = { ...s, scope, scopeSession: session, selected: 0, top: 0 };
			const what = scope === "all" ? "all sessions" : scope === "workspace" ? `sessions under ${s.workspace}` : `session ${session?.id ?? ""}`;
			return info(newSearch(next), `scope: ${what}`);
		}
		case "open-filters":
			return { ...s, overlay: { type: "filters", row: 0, draft: s.filters } };
		case "toggle-errors": {
			const filters: Filters = { ...s.filters };
			if (filters.error === true) delete filters.error;
			else filters.error = true;
			return info(newSearch({ ...s, filters, selected: 0, top: 0 }), filters.error ? "errors only (e again to show all)" : "errors and non-errors");
		}
		case "clear-filters":
			return Object.keys(s.filters).length === 0 ? info(s, "no filters set") : info(newSearch({ ...s, filters: {}, selected: 0, top: 0 }), "filters cleared");
		case "filter-cycle": {
			if (s.overlay?.type !== "filters") return s;
			const field = filterFields(toolsIn(s.results.hits))[s.overlay.row];
			return field ? { ...s, overlay: { ...s.overlay, draft: cycleFilter(s.overlay.draft, field, a.dir) } } : s;
		}
		case "filter-reset":
			return s.overlay?.type === "filters" ? { ...s, overlay: { ...s.overlay, draft: {} } } : s;
		case "help":
			return { ...s, overlay: { type: "help", scroll: 0 } };
		case "copy-ref": {
			if (mode === "list") {
				const h = selectedHit(s);
				return copyRef(s, h ? { sessionId: h.sessionId, entryId: h.entryId } : null);
			}
			if (mode === "trace" && loc?.data) {
				const row = traceRows(loc.data)[loc.traceCursor];
				if (row?.target?.kind === "event") return copyRef(s, row.target.ref);
			}
			return copyRef(s, loc?.ref ?? null);
		}
		case "quit":
			return { ...s, exit: a.code };
		case "search-done": {
			const r = s.results;
			if (a.seq !== r.seq) return s;
			if (a.more > 0) {
				if (a.more !== r.moreSeq) return s;
				const seen = new Set(r.hits.map((h) => refKey(h)));
				const fresh = a.result.hits.filter((h) => !seen.has(refKey(h)));
				return maybeMore({
					...s,
					results: { ...r, hits: [...r.hits, ...fresh], exhausted: a.result.hits.length < PAGE_SIZE || fresh.length === 0, loadingMore: false },
				});
			}
			const hits = a.result.hits;
			const keepAt = r.keep ? hits.findIndex((h) => refKey(h) === r.keep) : -1;
			const results: Results = {
				...r,
				status: "ready",
				hits,
				notes: a.result.notes,
				error: null,
				exhausted: hits.length < PAGE_SIZE,
				loadingMore: false,
				index: a.result.index,
				keep: null,
			};
			const sel = keepAt >= 0 ? keepAt : r.keep ? Math.min(s.selected, Math.max(0, hits.length - 1)) : 0;
			const layout = searchLayout(s.size);
			return {
				...s,
				results,
				selected: clampIndex(sel, hits.length),
				top: windowTop(clampIndex(sel, hits.length), keepAt >= 0 || r.keep ? s.top : 0, visibleHits(layout), hits.length),
			};
		}
		case "search-failed":
			if (a.seq !== s.results.seq) return s;
			return { ...s, results: { ...s.results, status: "ready", error: a.error, loadingMore: false, exhausted: true } };
		case "preview-done":
			if (a.key !== previewKey(s)) return s;
			return { ...s, preview: { key: a.key, read: a.read, error: a.error } };
		case "event-done": {
			const i = s.stack.findIndex((l) => l.key === a.key && l.data === null && l.error === null);
			if (i === -1) return s;
			const updated: EventLoc = { ...(s.stack[i] as EventLoc), data: a.data, error: a.error };
			const stack = [...s.stack];
			stack[i] = updated.placed || !a.data ? updated : placed(s, updated);
			return { ...s, stack };
		}
		case "page-done": {
			const i = s.stack.findIndex((l) => l.key === a.key && l.pages[a.fragmentId] === a.offset);
			if (i === -1) return s;
			const l = s.stack[i] as EventLoc;
			if (!a.window) return info(s, `cannot read that page: ${a.error ?? "unknown error"}`, "error");
			const stack = [...s.stack];
			stack[i] = { ...l, pageWindows: { ...l.pageWindows, [a.fragmentId]: a.window } };
			return { ...s, stack };
		}
		case "seek-done": {
			if (a.seq !== s.seek?.seq) return s;
			const done = { ...s, seek: null };
			if (a.error) return info(done, `cannot walk up: ${a.error}`, "error");
			if (!a.target) return info(done, "no fork above: the path from the root to here has no other branch", "warn");
			const note = `fork ${a.target.steps} step(s) up: ${a.target.branches} branches continue here (f lists them, l follows the leaf path)`;
			return goTarget(done, { kind: "event", ref: a.target.ref, brief: null }, note);
		}
		case "index-changed": {
			const h = selectedHit(s);
			return newSearch(s, h ? refKey(h) : null);
		}
	}
}
