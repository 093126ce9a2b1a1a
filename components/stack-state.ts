/**
 * The event stack's slice: every event opened, in order, each with where its view was (scroll, panel, trace row,
 * pages of large fragments); the wrap setting; a pending walk to the nearest fork. A pure data transform: it never
 * builds or caches an event document. The view measures the document on screen (event-doc.ts) and sends its numbers
 * in a `measured` action; a scroll, placement or page that needs numbers the slice does not have yet (the document
 * changed: data arrived, a page turned, wrap toggled, the width changed) waits on the location, in order, until they come.
 */
import { type EventRef, type FragmentWindow, refKey } from "../src/shared/types.js";
import type { LoadAction, Message, ViewAction } from "./actions.js";
import type { BrowserState } from "./browser-state.js";
import { type DocMetrics, type DocSource, docKey, EMPTY_METRICS } from "./doc-metrics.js";
import type { Size } from "./explorer-service.js";
import { type EventLayout, eventLayout } from "./layout.js";
import { clampIndex, clampScroll } from "./list-window.js";
import { type EventData, HEAD_CHARS, PAGE_CHARS, pageCut } from "./loaders.js";
import { num } from "./read-view.js";
import { traceRows } from "./trace-rows.js";

/** One event on the back stack, with where the view was. */
export interface EventLoc extends DocSource {
	key: string;
	ref: EventRef;
	scroll: number;
	panel: "body" | "trace";
	traceCursor: number;
	/** Fragment id → offset of the page shown instead of head and tail. */
	pages: Record<string, number>;
	pageWindows: Record<string, FragmentWindow>;
	/** Fragment id → the starts of the pages before this one (-1: the head and tail view), so p goes back exactly. */
	pageBack?: Record<string, number[]>;
	data: EventData | null;
	error: string | null;
	/** The first scroll to the match was applied. */
	placed: boolean;
	/** Walks asked for before the data arrived (`hhh` in one burst): done in order when it does. */
	queued: WalkTo[];
	/** The numbers of the document last measured (null: never measured); current when their key is the document's. */
	metrics: DocMetrics | null;
	/** Steps that need the numbers of the document as it is now, waiting for them in order. */
	pending: DocStep[];
	/** The session browser this event was opened from: going back from the event shows it again. */
	returnTo?: BrowserState;
}

/**
 * What the slice does with a document's numbers: open at the match, keep the scroll in range (after wrap or a
 * resize), scroll, page a large fragment, or go to a fragment's first line (after a page turned).
 */
export type DocStep = { step: "place" } | { step: "clamp" } | { step: "scroll"; by: number } | { step: "page"; dir: 1 | -1 } | { step: "anchor"; fid: string };

/** Where a walk goes. */
export type WalkTo = "parent" | "child" | "next-sibling" | "prev-sibling" | "append-prev" | "append-next" | "forks" | "fork-up";

/** The event stack's state. */
export interface StackState {
	stack: EventLoc[];
	wrap: boolean;
	/** A walk that needs more than the loaded trace (up to the nearest fork): App runs it and answers seek-done. */
	seek: { seq: number; from: EventRef } | null;
}

/** What the stack's reducer needs from outside: the terminal size (the document's numbers come in `measured`). */
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
	| { type: "page-fragment"; dir: 1 | -1 }
	| { type: "seek" }
	| { type: "queue"; to: WalkTo }
	| { type: "dequeue" }
	| { type: "seek-clear" }
	| { type: "resize" }
	| ViewAction
	| Extract<LoadAction, { type: "event-done" | "page-done" }>;

/** The stack's reducer answer: the new state and, for some actions, a line for the status bar. */
export interface StackResult {
	stack: StackState;
	note?: Message;
}

/** The first stack: empty, lines wrapped. */
export function initialStack(): StackState {
	return { stack: [], wrap: true, seek: null };
}

/** A fresh location for an event, before its data is loaded. */
export function newLoc(target: {
	ref: EventRef;
	highlights?: string[];
	focusFragment?: string | null;
	pages?: Record<string, number>;
	returnTo?: BrowserState;
}): EventLoc {
	return {
		key: refKey(target.ref),
		ref: target.ref,
		highlights: target.highlights ?? [],
		focusFragment: target.focusFragment ?? null,
		scroll: 0,
		panel: "body",
		traceCursor: 0,
		pages: target.pages ?? {},
		pageWindows: {},
		data: null,
		error: null,
		placed: false,
		queued: [],
		metrics: null,
		pending: [],
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

function traceTo(st: StackState, loc: EventLoc, cursor: number): StackState {
	const rows = loc.data ? traceRows(loc.data) : [];
	return replaceTop(st, { ...loc, traceCursor: clampIndex(cursor, rows.length) });
}

/** The numbers of a location's document as it is now, or null until the view has measured them. */
function metricsOf(loc: EventLoc, layout: EventLayout, wrap: boolean): Omit<DocMetrics, "key"> | null {
	// Without data there is no document: nothing to scroll, known without measuring.
	if (!loc.data) return EMPTY_METRICS;
	return loc.metrics?.key === docKey(loc, layout.bodyWidth, wrap) ? loc.metrics : null;
}

/** What one step did: the location, a line for the status bar, and steps it asks for on the changed document. */
interface StepResult {
	loc: EventLoc;
	note?: Message;
	then?: DocStep[];
}

/** Where a freshly loaded event view opens: at the first match, else at the hit's fragment, else at the top. */
function place(loc: EventLoc, m: Omit<DocMetrics, "key">, layout: EventLayout): EventLoc {
	if (loc.placed) return loc;
	const fragmentTop = loc.focusFragment ? m.anchors[loc.focusFragment] : undefined;
	const anchor = m.matchLine ?? fragmentTop ?? 0;
	// Keep the fragment's header line in view when the match is near it.
	const start = fragmentTop !== undefined && anchor - fragmentTop < layout.bodyLines - 2 ? fragmentTop : anchor - 2;
	return { ...loc, scroll: clampScroll(start, layout.bodyLines, m.lines), placed: true };
}

/** The large fragment on screen (or the nearest one above it), else the first line of one below the top. */
function fragmentOnScreen(loc: EventLoc, m: Omit<DocMetrics, "key">, layout: EventLayout, large: Map<string, unknown>): string | undefined {
	const bottom = Math.min(loc.scroll + layout.bodyLines - 1, m.lines - 1);
	let fid: string | undefined;
	// From the bottom of the screen up: the last large fragment met, stopping at the first met at or above the top.
	for (let r = m.runs.length - 1; r >= 0; r--) {
		const run = m.runs[r] as (typeof m.runs)[number];
		if (run.from > bottom || !large.has(run.id)) continue;
		fid = run.id;
		if (run.from <= loc.scroll) break;
	}
	return fid;
}

function pageFragment(loc: EventLoc, dir: 1 | -1, m: Omit<DocMetrics, "key">, layout: EventLayout): StepResult {
	if (!loc.data) return { loc, note: info("still loading…", "warn") };
	const large = new Map(loc.data.read.fragments.filter((f) => f.range[1] < f.totalChars || loc.pages[f.id] !== undefined).map((f) => [f.id, f]));
	if (large.size === 0) return { loc, note: info("nothing to page: every fragment is shown whole") };
	const fid = fragmentOnScreen(loc, m, layout, large) ?? ([...large.keys()][0] as string);
	const f = large.get(fid);
	if (!f) return { loc };
	const current = loc.pages[fid];
	// The page turned changes the document: its first line is found once the view has measured the new one.
	const then: DocStep[] = [{ step: "anchor", fid }];
	let offset: number;
	const back = loc.pageBack?.[fid] ?? [];
	let nextBack = back;
	if (dir === 1) {
		// The next page starts where this one's shown text ends: at a line or word (pageCut), never inside one.
		const w = current === undefined ? f : loc.pageWindows[fid];
		offset =
			current === undefined
				? Math.min(f.range[0] + pageCut(f.text, false), HEAD_CHARS)
				: w
					? w.range[0] + pageCut(w.text, w.range[1] >= f.totalChars)
					: current + PAGE_CHARS;
		if (offset >= f.totalChars) return { loc, note: info(`last page of ${fid}`) };
		nextBack = [...back, current ?? -1];
	} else {
		if (current === undefined) return { loc, note: info(`${fid} starts here; n pages forward`) };
		const prev = back.at(-1);
		nextBack = back.slice(0, -1);
		if (current === 0 || prev === -1) {
			const { [fid]: _gone, ...pages } = loc.pages;
			const { [fid]: _w, ...windows } = loc.pageWindows;
			return { loc: { ...loc, pages, pageWindows: windows, pageBack: { ...loc.pageBack, [fid]: [] } }, note: info("head and tail again"), then };
		}
		offset = prev ?? Math.max(0, current - PAGE_CHARS);
	}
	const { [fid]: _old, ...windows } = loc.pageWindows;
	const note = `${fid}: chars ${num(offset)}–${num(Math.min(f.totalChars, offset + PAGE_CHARS))} of ${num(f.totalChars)}`;
	return {
		loc: { ...loc, pages: { ...loc.pages, [fid]: offset }, pageWindows: windows, pageBack: { ...loc.pageBack, [fid]: nextBack } },
		note: info(note),
		then,
	};
}

function applyStep(loc: EventLoc, s: DocStep, m: Omit<DocMetrics, "key">, layout: EventLayout): StepResult {
	const clamp = (scroll: number): EventLoc => ({ ...loc, scroll: clampScroll(scroll, layout.bodyLines, m.lines) });
	switch (s.step) {
		case "place":
			return { loc: place(loc, m, layout) };
		case "clamp":
			return { loc: clamp(loc.scroll) };
		case "scroll":
			return { loc: clamp(loc.scroll + s.by) };
		case "anchor":
			return { loc: clamp(m.anchors[s.fid] ?? loc.scroll) };
		case "page":
			return pageFragment(loc, s.dir, m, layout);
	}
}

/** Runs a location's waiting steps while its document's numbers are current; the rest wait for the next measure. */
function settle(loc: EventLoc, layout: EventLayout, wrap: boolean): { loc: EventLoc; note?: Message } {
	let cur = loc;
	let note: Message | undefined;
	const todo = [...loc.pending];
	while (todo.length > 0) {
		const m = metricsOf(cur, layout, wrap);
		if (!m) break;
		const out = applyStep(cur, todo.shift() as DocStep, m, layout);
		cur = out.loc;
		note = out.note ?? note;
		if (out.then) todo.unshift(...out.then);
	}
	return { loc: { ...cur, pending: todo }, ...(note ? { note } : {}) };
}

/** Does `step` on the top location now if its document's numbers are current, else after the steps already waiting. */
function withStep(st: StackState, loc: EventLoc, step: DocStep, ctx: StackContext): StackResult {
	const out = settle({ ...loc, pending: [...loc.pending, step] }, eventLayout(ctx.size), st.wrap);
	return { stack: replaceTop(st, out.loc), ...(out.note ? { note: out.note } : {}) };
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
		case "pop":
			return { stack: { ...st, stack: st.stack.slice(0, -1) } };
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
		case "measured": {
			// Numbers of another document than the top's as it is now (it changed since) are dropped; the view measures again.
			if (!loc || loc.key !== a.key || a.metrics.key !== docKey(loc, el.bodyWidth, st.wrap)) return { stack: st };
			const out = settle({ ...loc, metrics: a.metrics }, el, st.wrap);
			return { stack: replaceTop(st, out.loc), ...(out.note ? { note: out.note } : {}) };
		}
		case "event-done": {
			const i = st.stack.findIndex((l) => l.key === a.key && l.data === null && l.error === null);
			if (i === -1) return { stack: st };
			const updated: EventLoc = { ...(st.stack[i] as EventLoc), data: a.data, error: a.error };
			const stack = [...st.stack];
			// The view opens at the match once the view has measured the document (the next render).
			stack[i] = updated.placed || !a.data ? updated : { ...updated, pending: [{ step: "place" }, ...updated.pending] };
			return { stack: { ...st, stack } };
		}
		case "page-done": {
			const i = st.stack.findIndex((l) => l.key === a.key && l.pages[a.fragmentId] === a.offset);
			if (i === -1) return { stack: st };
			if (!a.window) return { stack: st, note: info(`cannot read that page: ${a.error ?? "unknown error"}`, "error") };
			const l = st.stack[i] as EventLoc;
			const stack = [...st.stack];
			stack[i] = { ...l, pageWindows: { ...l.pageWindows, [a.fragmentId]: a.window } };
			return { stack: { ...st, stack } };
		}
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
		case "page-fragment":
			return withStep(st, loc, { step: "page", dir: a.dir }, ctx);
	}
}
