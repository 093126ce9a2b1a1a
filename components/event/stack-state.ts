/**
 * The event stack's slice: every event opened, in order, each with where its view was (scroll, panel, trace row,
 * chunks of large fragments loaded, the find); the wrap setting; a pending walk to the nearest fork; the find prompt.
 * Scrolls and placements read the numbers of the event document (line count, fragment anchors, match lines, gaps)
 * from the memoized selector the view draws with (event-doc.ts docMetrics), so every step acts at once on the document
 * as it is now and the render never sends numbers back. Scrolling near text not loaded yet asks for it (continuous
 * scrolling).
 */
import { type EventRef, type FragmentWindow, refKey } from "../../src/shared/types.js";
import type { Message, QueryAction } from "../core/actions.js";
import type { Size } from "../core/explorer-service.js";
import { type EventLayout, eventLayout } from "../core/layout.js";
import { type QueryState, reduceQuery } from "../core/line-edit.js";
import { clampIndex, clampScroll } from "../core/list-window.js";
import { num } from "../core/numbers.js";
import type { EventLoadAction, WalkTo } from "./actions.js";
import { type DocMetrics, type DocSource, EMPTY_METRICS, type FindMark } from "./doc-metrics.js";
import type { EventData } from "./event-data.js";
import { docMetrics } from "./event-doc.js";
import { chunkAround, chunkFor, covers, fragmentLayout } from "./fragment-windows.js";
import { traceRows } from "./trace-rows.js";

/** One event on the back stack, with where the view was. */
export interface EventLoc extends DocSource {
	key: string;
	ref: EventRef;
	scroll: number;
	panel: "body" | "trace";
	traceCursor: number;
	/** Fragment id → windows of a large fragment loaded besides its head and tail. */
	chunks: Record<string, FragmentWindow[]>;
	/** Chunks asked for and not loaded yet; `shift`: the document's length when a chunk above the screen was asked for. */
	wanted: Want[];
	/** The find: its text and current match (the document highlights it). */
	find: FindMark | null;
	/** A find step App runs against the whole fragment texts; answered by find-done with the same seq. */
	findSeek: FindSeek | null;
	data: EventData | null;
	error: string | null;
	/** The first scroll to the match was applied. */
	placed: boolean;
	/** Walks asked for before the data arrived (`hhh` in one burst): done in order when it does. */
	queued: WalkTo[];
	/**
	 * The screen this event was opened from, shown again when it is popped (the session browser's state: the stack
	 * keeps it without reading it, so the event feature does not depend on the browser feature; the root restores it).
	 */
	returnTo?: unknown;
}

/** A chunk of a large fragment asked for: what to do once it is shown (reveal the find's match, keep the view). */
export interface Want {
	fid: string;
	offset: number;
	onLoad: "none" | "reveal" | "shift" | "match";
	/** Lines of the document when asked (for `shift`: lines added above the screen move the scroll down). */
	lines: number;
}

/** A find step: from the current match (or the top), forward or back, through every fragment of the event. */
export interface FindSeek {
	seq: number;
	text: string;
	dir: 1 | -1;
	from: { fid: string; at: number } | null;
}

/**
 * What the slice does with a document's numbers: open at the match, keep the scroll in range (after wrap or a
 * resize), scroll, bring the find's match into view, or keep the view still after text came in above it.
 */
export type DocStep =
	| { step: "place" }
	| { step: "clamp" }
	| { step: "scroll"; by: number }
	| { step: "reveal" }
	| { step: "match" }
	| { step: "shift"; lines: number };

export type { WalkTo } from "./actions.js";

/** The event stack's state. */
export interface StackState {
	stack: EventLoc[];
	wrap: boolean;
	/** A walk that needs more than the loaded trace (up to the nearest fork): App runs it and answers seek-done. */
	seek: { seq: number; from: EventRef } | null;
	/** The find prompt's text and cursor while typing (null: closed). */
	finding: QueryState | null;
}

/** What the stack's reducer needs from outside: the terminal size (the document's width and page sizes). */
export interface StackContext {
	size: Size;
}

/** What the event stack's reducer does. */
export type StackAction =
	| { type: "push"; loc: EventLoc }
	| { type: "pop" }
	| { type: "clear" }
	| { type: "scroll"; by: number }
	| { type: "scroll-page"; dir: 1 | -1 }
	| { type: "trace-move"; by: number }
	| { type: "trace-page"; dir: 1 | -1 }
	| { type: "toggle-panel" }
	| { type: "toggle-wrap" }
	| { type: "find-open" }
	| { type: "find-key"; action: QueryAction }
	| { type: "find-cancel" }
	| { type: "find-submit" }
	| { type: "find-step"; dir: 1 | -1 }
	| { type: "find-done"; seq: number; match: { fid: string; at: number } | null; wrapped: boolean; error: string | null }
	| { type: "seek" }
	| { type: "queue"; to: WalkTo }
	| { type: "dequeue" }
	| { type: "seek-clear" }
	| { type: "resize" }
	| Extract<EventLoadAction, { type: "event-done" | "page-done" }>;

/** The stack's reducer answer: the new state and, for some actions, a line for the status bar. */
export interface StackResult {
	stack: StackState;
	note?: Message;
}

/** The first stack: empty, lines wrapped. */
export function initialStack(): StackState {
	return { stack: [], wrap: true, seek: null, finding: null };
}

/** A fresh location for an event, before its data is loaded. */
export function newLoc(target: {
	ref: EventRef;
	highlights?: string[];
	focusFragment?: string | null;
	at?: { fid: string; offset: number };
	returnTo?: unknown;
}): EventLoc {
	return {
		key: refKey(target.ref),
		ref: target.ref,
		highlights: target.highlights ?? [],
		focusFragment: target.focusFragment ?? null,
		scroll: 0,
		panel: "body",
		traceCursor: 0,
		chunks: {},
		// A large fragment opens at its match: the chunk holding it is asked for with the event.
		wanted: target.at ? [{ fid: target.at.fid, offset: target.at.offset, onLoad: "match", lines: 0 }] : [],
		find: null,
		findSeek: null,
		data: null,
		error: null,
		placed: false,
		queued: [],
		...(target.returnTo ? { returnTo: target.returnTo } : {}),
	};
}

/** The event on top of the stack. */
export function topOf(st: StackState): EventLoc | null {
	return st.stack.at(-1) ?? null;
}

const info = (text: string, tone: Message["tone"] = "info"): Message => ({ text, tone });

function replaceTop(st: StackState, loc: EventLoc): StackState {
	return { ...st, stack: [...st.stack.slice(0, -1), loc] };
}

function replaceAt(st: StackState, i: number, loc: EventLoc): StackState {
	const stack = [...st.stack];
	stack[i] = loc;
	return { ...st, stack };
}

/** A find step answered: on the match now (its chunk asked for when not loaded), or why there is none. */
function findDone(st: StackState, a: Extract<StackAction, { type: "find-done" }>, el: EventLayout): StackResult {
	const loc = topOf(st);
	if (!loc?.find || a.seq !== loc.findSeek?.seq) return { stack: st };
	const text = loc.find.text;
	if (a.error) return { stack: replaceTop(st, { ...loc, findSeek: null }), note: info(`find failed: ${a.error}`, "error") };
	if (!a.match) return { stack: replaceTop(st, { ...loc, findSeek: null }), note: info(`“${text}” is not in this event`, "warn") };
	const find = { text, fid: a.match.fid, at: a.match.at };
	const f = loc.data?.read.fragments.find((x) => x.id === a.match?.fid);
	const windows = f ? [f, ...(loc.chunks[f.id] ?? []), ...(loc.data?.tails[f.id] ? [loc.data.tails[f.id] as FragmentWindow] : [])] : [];
	const loaded = f ? covers(fragmentLayout(windows, f.totalChars), a.match.at, text.length) : true;
	// Short: it shares the status line with the scroll position (the fragment is the one on screen).
	const note = info(`“${text}” at char ${num(a.match.at)}${a.wrapped ? " · wrapped" : ""}`);
	let next: EventLoc = { ...loc, find, findSeek: null };
	if (!loaded) next = { ...next, wanted: [...next.wanted, { fid: a.match.fid, offset: chunkAround(a.match.at), onLoad: "reveal", lines: 0 }] };
	return { stack: replaceTop(st, settle(next, loaded ? [{ step: "reveal" }] : [], el, st.wrap)), note };
}

function traceTo(st: StackState, loc: EventLoc, cursor: number): StackState {
	const rows = loc.data ? traceRows(loc.data) : [];
	return replaceTop(st, { ...loc, traceCursor: clampIndex(cursor, rows.length) });
}

/** The numbers of a location's document as it is now (the view draws the same document). */
function metricsOf(loc: EventLoc, layout: EventLayout, wrap: boolean): DocMetrics {
	return docMetrics(loc, layout.bodyWidth, wrap) ?? EMPTY_METRICS;
}

/** Where a freshly loaded event view opens: at the first match, else at the hit's fragment, else at the top. */
function place(loc: EventLoc, m: DocMetrics, layout: EventLayout): EventLoc {
	// The match's chunk may come before the event itself: placing then would settle on an empty document for good.
	if (loc.placed || !loc.data) return loc;
	const fragmentTop = loc.focusFragment ? m.anchors[loc.focusFragment] : undefined;
	const anchor = m.matchLine ?? fragmentTop ?? 0;
	// Keep the fragment's header line in view when the match is near it.
	const start = fragmentTop !== undefined && anchor - fragmentTop < layout.bodyLines - 2 ? fragmentTop : anchor - 2;
	return { ...loc, scroll: clampScroll(start, layout.bodyLines, m.lines), placed: true };
}

/** Asks for the chunks that fill the gaps on screen or just off it: below from their start, above from their end. */
function wantNearby(loc: EventLoc, m: DocMetrics, layout: EventLayout): EventLoc {
	const top = loc.scroll;
	const bottom = loc.scroll + layout.bodyLines;
	let wanted = loc.wanted;
	for (const g of m.gaps) {
		if (g.line < top - 2 || g.line > bottom + 2) continue;
		if (wanted.some((w) => w.fid === g.id && w.offset >= g.from && w.offset < g.to)) continue;
		const above = g.line < top;
		wanted = [...wanted, { fid: g.id, offset: chunkFor([g.from, g.to], above ? "end" : "start"), onLoad: above ? "shift" : "none", lines: m.lines }];
	}
	return wanted === loc.wanted ? loc : { ...loc, wanted };
}

function applyStep(loc: EventLoc, s: DocStep, m: DocMetrics, layout: EventLayout): EventLoc {
	const clamp = (scroll: number): EventLoc => ({ ...loc, scroll: clampScroll(scroll, layout.bodyLines, m.lines) });
	switch (s.step) {
		case "place":
			return place(loc, m, layout);
		case "clamp":
			return clamp(loc.scroll);
		case "scroll":
			return clamp(loc.scroll + s.by);
		case "reveal":
			// The match two lines below the top, unless it is on screen already.
			if (m.findLine === null) return loc;
			if (m.findLine >= loc.scroll && m.findLine < loc.scroll + layout.bodyLines - 1) return loc;
			return clamp(m.findLine - 2);
		case "shift":
			return clamp(loc.scroll + Math.max(0, m.lines - s.lines));
		case "match":
			return m.matchLine === null ? loc : clamp(m.matchLine - 2);
	}
}

/** Does the steps on a location's document as it is now, in order, then asks for the text near the screen not loaded yet. */
function settle(loc: EventLoc, steps: DocStep[], layout: EventLayout, wrap: boolean): EventLoc {
	// A step only scrolls: the document, and so its numbers, stay the same through the steps.
	const m = metricsOf(loc, layout, wrap);
	const done = steps.reduce((cur, step) => applyStep(cur, step, m, layout), loc);
	return wantNearby(done, m, layout);
}

/** Does `step` on the top location. */
function withStep(st: StackState, loc: EventLoc, step: DocStep, ctx: StackContext): StackResult {
	return { stack: replaceTop(st, settle(loc, [step], eventLayout(ctx.size), st.wrap)) };
}

/** The event stack's reducer. */
export function reduceStack(st: StackState, a: StackAction, ctx: StackContext): StackResult {
	const loc = topOf(st);
	const el = eventLayout(ctx.size);
	switch (a.type) {
		case "push": {
			// Going on from a trace row keeps the panel focused, so a walk through the panel stays in the panel.
			const panel = loc?.panel === "trace" ? "trace" : "body";
			return { stack: { ...st, stack: [...st.stack, { ...a.loc, panel }] } };
		}
		case "pop": {
			// The event shown again asks for the text near its screen, like a scroll (its document may have changed meanwhile).
			const popped = { ...st, stack: st.stack.slice(0, -1) };
			const under = topOf(popped);
			return { stack: under ? replaceTop(popped, settle(under, [], el, st.wrap)) : popped };
		}
		case "clear":
			return { stack: { ...st, stack: [] } };
		case "seek":
			return loc ? { stack: { ...st, seek: { seq: (st.seek?.seq ?? 0) + 1, from: loc.ref } } } : { stack: st };
		case "seek-clear":
			return { stack: { ...st, seek: null } };
		case "toggle-wrap": {
			const next = { ...st, wrap: !st.wrap };
			return loc ? withStep(next, loc, { step: "clamp" }, ctx) : { stack: next };
		}
		case "resize":
			return loc ? withStep(st, loc, { step: "clamp" }, ctx) : { stack: st };
		case "event-done": {
			const i = st.stack.findIndex((l) => l.key === a.key && l.data === null && l.error === null);
			if (i === -1) return { stack: st };
			const updated: EventLoc = { ...(st.stack[i] as EventLoc), data: a.data, error: a.error };
			// The view opens at the match (place waits for the data: a match's chunk may have come first).
			return { stack: replaceAt(st, i, updated.placed || !a.data ? updated : settle(updated, [{ step: "place" }], el, st.wrap)) };
		}
		case "page-done": {
			const i = st.stack.findIndex((l) => l.key === a.key && l.wanted.some((w) => w.fid === a.fragmentId && w.offset === a.offset));
			if (i === -1) return { stack: st };
			const l = st.stack[i] as EventLoc;
			const want = l.wanted.find((w) => w.fid === a.fragmentId && w.offset === a.offset) as Want;
			const wanted = l.wanted.filter((w) => w !== want);
			if (!a.window)
				return { stack: replaceAt(st, i, { ...l, wanted }), note: info(`cannot read more of ${a.fragmentId}: ${a.error ?? "unknown error"}`, "error") };
			const chunks = { ...l.chunks, [a.fragmentId]: [...(l.chunks[a.fragmentId] ?? []), a.window] };
			const step: DocStep[] =
				want.onLoad === "reveal"
					? [{ step: "reveal" }]
					: want.onLoad === "shift"
						? [{ step: "shift", lines: want.lines }]
						: want.onLoad === "match"
							? [{ step: "match" }]
							: [];
			const steps: DocStep[] = [...step, ...(l.placed ? [] : [{ step: "place" } as DocStep])];
			return { stack: replaceAt(st, i, settle({ ...l, chunks, wanted }, steps, el, st.wrap)) };
		}
		case "find-open":
			return loc ? { stack: { ...st, finding: { text: "", cursor: 0 } } } : { stack: st };
		case "find-key": {
			if (st.finding === null) return { stack: st };
			const q = reduceQuery(st.finding, a.action);
			// A paste may carry controls: they never reach the screen.
			const text = q.text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
			return { stack: { ...st, finding: { text, cursor: Math.min(q.cursor, text.length) } } };
		}
		case "find-cancel":
			return { stack: { ...st, finding: null } };
		case "find-submit": {
			const text = (st.finding?.text ?? "").trim();
			const closed = { ...st, finding: null };
			if (!loc) return { stack: closed };
			if (text === "") return { stack: replaceTop(closed, { ...loc, find: null, findSeek: null }), note: info("find cleared") };
			const find = { text, fid: null, at: null };
			return {
				stack: replaceTop(closed, { ...loc, find, findSeek: { seq: (loc.findSeek?.seq ?? 0) + 1, text, dir: 1, from: null } }),
				note: info(`finding “${text}”…`),
			};
		}
		case "find-step": {
			if (!loc) return { stack: st };
			if (!loc.find) return { stack: st, note: info("nothing to find yet: / types what to find", "warn") };
			const from = loc.find.fid !== null && loc.find.at !== null ? { fid: loc.find.fid, at: loc.find.at } : null;
			return { stack: replaceTop(st, { ...loc, findSeek: { seq: (loc.findSeek?.seq ?? 0) + 1, text: loc.find.text, dir: a.dir, from } }) };
		}
		case "find-done":
			return findDone(st, a, el);
	}
	if (!loc) return { stack: st };
	switch (a.type) {
		case "scroll":
			return withStep(st, loc, { step: "scroll", by: a.by }, ctx);
		case "scroll-page":
			return withStep(st, loc, { step: "scroll", by: a.dir * Math.max(1, el.bodyLines - 2) }, ctx);
		case "trace-move":
			return { stack: traceTo(st, loc, loc.traceCursor + a.by) };
		case "trace-page":
			return { stack: traceTo(st, loc, loc.traceCursor + a.dir * Math.max(1, el.panelLines - 1)) };
		case "toggle-panel":
			return { stack: replaceTop(st, { ...loc, panel: loc.panel === "body" ? "trace" : "body" }) };
		case "queue":
			return { stack: replaceTop(st, { ...loc, queued: [...loc.queued, a.to] }) };
		case "dequeue":
			return { stack: replaceTop(st, { ...loc, queued: [] }) };
	}
}
