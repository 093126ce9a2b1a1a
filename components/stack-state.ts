/**
 * The event stack's slice: every event opened, in order, each with where its view was (scroll, panel, trace row,
 * pages of large fragments); the wrap setting; a pending walk to the nearest fork. Measurements of the event document
 * (line count, anchors) come from a selector passed in, so this slice neither builds nor caches documents.
 */
import { type EventRef, type FragmentWindow, refKey } from "../src/shared/types.js";
import type { LoadAction, Message } from "./actions.js";
import type { DocSource } from "./event-doc.js";
import type { Size } from "./explorer-service.js";
import { eventLayout } from "./layout.js";
import { clampIndex, clampScroll } from "./list-window.js";
import { type EventData, HEAD_CHARS, PAGE_CHARS } from "./loaders.js";
import { type EventDoc, num } from "./read-view.js";
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
	data: EventData | null;
	error: string | null;
	/** The first scroll to the match was applied. */
	placed: boolean;
	/** Walks asked for before the data arrived (`hhh` in one burst): done in order when it does. */
	queued: WalkTo[];
}

/** Where a walk goes. */
export type WalkTo = "parent" | "child" | "next-sibling" | "prev-sibling" | "append-prev" | "append-next" | "forks" | "fork-up";

/** The event stack's state. */
export interface StackState {
	stack: EventLoc[];
	wrap: boolean;
	/** A walk that needs more than the loaded trace (up to the nearest fork): App runs it and answers seek-done. */
	seek: { seq: number; from: EventRef } | null;
}

/** What the stack's reducer needs from outside: the size, and the document selector it measures with. */
export interface StackContext {
	size: Size;
	doc: (loc: DocSource, width: number, wrap: boolean) => EventDoc | null;
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
export function newLoc(target: { ref: EventRef; highlights?: string[]; focusFragment?: string | null; pages?: Record<string, number> }): EventLoc {
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

function scrollTo(st: StackState, loc: EventLoc, scroll: number, ctx: StackContext): StackState {
	const layout = eventLayout(ctx.size);
	const lines = ctx.doc(loc, layout.bodyWidth, st.wrap)?.lines.length ?? 0;
	return replaceTop(st, { ...loc, scroll: clampScroll(scroll, layout.bodyLines, lines) });
}

function traceTo(st: StackState, loc: EventLoc, cursor: number): StackState {
	const rows = loc.data ? traceRows(loc.data) : [];
	return replaceTop(st, { ...loc, traceCursor: clampIndex(cursor, rows.length) });
}

/** Where a freshly loaded event view opens: at the first match, else at the hit's fragment, else at the top. */
function placed(loc: EventLoc, wrap: boolean, ctx: StackContext): EventLoc {
	const layout = eventLayout(ctx.size);
	const doc = ctx.doc(loc, layout.bodyWidth, wrap);
	if (!doc) return loc;
	const fragmentTop = loc.focusFragment ? doc.anchors[loc.focusFragment] : undefined;
	const anchor = doc.matchLine ?? fragmentTop ?? 0;
	// Keep the fragment's header line in view when the match is near it.
	const start = fragmentTop !== undefined && anchor - fragmentTop < layout.bodyLines - 2 ? fragmentTop : anchor - 2;
	return { ...loc, scroll: clampScroll(start, layout.bodyLines, doc.lines.length), placed: true };
}

function withDocScroll(st: StackState, loc: EventLoc, fid: string, note: string, ctx: StackContext): StackResult {
	const layout = eventLayout(ctx.size);
	const doc = ctx.doc(loc, layout.bodyWidth, st.wrap);
	const anchor = doc?.anchors[fid] ?? loc.scroll;
	return { stack: replaceTop(st, { ...loc, scroll: clampScroll(anchor, layout.bodyLines, doc?.lines.length ?? 0) }), note: info(note) };
}

function pageFragment(st: StackState, loc: EventLoc, dir: 1 | -1, ctx: StackContext): StackResult {
	if (!loc.data) return { stack: st, note: info("still loading…", "warn") };
	const layout = eventLayout(ctx.size);
	const doc = ctx.doc(loc, layout.bodyWidth, st.wrap);
	const large = new Map(loc.data.read.fragments.filter((f) => f.range[1] < f.totalChars || loc.pages[f.id] !== undefined).map((f) => [f.id, f]));
	if (large.size === 0) return { stack: st, note: info("nothing to page: every fragment is shown whole") };
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
	if (!f) return { stack: st };
	const current = loc.pages[fid];
	let offset: number;
	if (dir === 1) {
		offset = current === undefined ? Math.min(f.range[1], HEAD_CHARS) : current + PAGE_CHARS;
		if (offset >= f.totalChars) return { stack: st, note: info(`last page of ${fid}`) };
	} else {
		if (current === undefined) return { stack: st, note: info(`${fid} starts here; n pages forward`) };
		if (current === 0) {
			const { [fid]: _gone, ...pages } = loc.pages;
			const { [fid]: _w, ...windows } = loc.pageWindows;
			return withDocScroll(st, { ...loc, pages, pageWindows: windows }, fid, "head and tail again", ctx);
		}
		offset = Math.max(0, current - PAGE_CHARS);
	}
	const { [fid]: _old, ...windows } = loc.pageWindows;
	const note = `${fid}: chars ${num(offset)}–${num(Math.min(f.totalChars, offset + PAGE_CHARS))} of ${num(f.totalChars)}`;
	return withDocScroll(st, { ...loc, pages: { ...loc.pages, [fid]: offset }, pageWindows: windows }, fid, note, ctx);
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
			return { stack: loc ? scrollTo(next, loc, loc.scroll, ctx) : next };
		}
		case "resize":
			return { stack: loc ? scrollTo(st, loc, loc.scroll, ctx) : st };
		case "event-done": {
			const i = st.stack.findIndex((l) => l.key === a.key && l.data === null && l.error === null);
			if (i === -1) return { stack: st };
			const updated: EventLoc = { ...(st.stack[i] as EventLoc), data: a.data, error: a.error };
			const stack = [...st.stack];
			stack[i] = updated.placed || !a.data ? updated : placed(updated, st.wrap, ctx);
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
			return { stack: scrollTo(st, loc, loc.scroll + a.by, ctx) };
		case "scroll-page":
			return { stack: scrollTo(st, loc, loc.scroll + a.dir * Math.max(1, el.bodyLines - 2), ctx) };
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
			return pageFragment(st, loc, a.dir, ctx);
	}
}
