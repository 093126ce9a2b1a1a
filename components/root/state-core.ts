/**
 * The explorer's combined state: its slices (the query line in core/line-edit, search/hits-state, event/stack-state,
 * tree/tree-state, browser/browser-state, prompts/goto-state, the overlays in overlay-state, the task) and what spans
 * them (the mode, focus, message, the history of views left), with the small operations the top reducer in state.ts
 * composes: run one slice's reducer, edit the query, open an event, save and restore a view. The mode is stored: the
 * transitions that open or close a screen, an overlay or a prompt set it.
 */
import { type EventRef, type Hit, refKey } from "../../src/shared/types.js";
import type { BrowserState } from "../browser/browser-state.js";
import type { Message, QueryAction } from "../core/actions.js";
import type { Size } from "../core/explorer-service.js";
import type { Filters, Scope } from "../core/filters.js";
import { type QueryState, reduceQuery } from "../core/line-edit.js";
import type { Mode } from "../core/modes.js";
import { type EventLoc, initialStack, newLoc, reduceStack, type StackAction, type StackState, topOf } from "../event/stack-state.js";
import type { GotoState } from "../prompts/goto-state.js";
import type { Task } from "../prompts/task-loads.js";
import { type HitsAction, type HitsState, hitAt, initialHits, previewKeyOf, reduceHits } from "../search/hits-state.js";
import { initialRecall, type QueryRecall } from "../search/query-recall.js";
import { initialTree, reduceTree, type TreeAction, type TreeState, topTree } from "../tree/tree-state.js";
import { type Overlay, type OverlayAction, reduceOverlay } from "./overlay-state.js";

export type { Mode } from "../core/modes.js";
export type { Task } from "../prompts/task-loads.js";

/** A whole view left for another (a session's hits opened from a trace row, `/` from an event): Esc restores it. */
export interface SavedView {
	focus: "query" | "list";
	query: QueryState;
	hits: HitsState;
	events: StackState;
	tree: TreeState;
}

/** The whole explorer state: the slices and what spans them. */
export interface State {
	size: Size;
	/** Where keys go: the screen, overlay or prompt in front (set by the transitions that open and close them). */
	mode: Mode;
	focus: "query" | "list";
	query: QueryState;
	hits: HitsState;
	events: StackState;
	/** Open trees, each above the event stack depth it was opened at. */
	tree: TreeState;
	/** Views left behind, newest last: the back stack above the event stack. */
	history: SavedView[];
	overlay: Overlay | null;
	/** The session browser (F2), drawn over the search screen or the event it was opened from. */
	browser: BrowserState | null;
	/** The go-to-ref prompt (F3), over whatever screen is open. */
	goto: GotoState | null;
	/** Grows with every session listing wanted, so an answer for an earlier browser is never applied to a new one. */
	browseSeq: number;
	message: Message | null;
	copy: { seq: number; text: string } | null;
	/** A task on an event the launcher runs outside the explorer (App loads what it needs, then hands it over). */
	task: Task | null;
	/** Grows when the user asks to read new session lines now (the refresh key); the launcher runs the refresh. */
	refresh: number;
	exit: number | null;
	/** An event was opened in this run: Esc at the top then asks once before quitting, so a deep walk is not lost. */
	walked?: boolean;
	/** Grows when the user suspends the explorer (Ctrl+Z); the launcher stops the process until `fg`. */
	suspend?: number;
	/** Queries searched with, for ↑ and Ctrl+R on the query line (the launcher stores them). */
	recall?: QueryRecall;
}

/** Inputs of the first state. */
export interface InitOptions {
	size: Size;
	workspace?: string | null;
	scope?: Scope;
	query?: string;
	message?: string;
	filters?: Filters;
	/** An event to start on (`pi-history open <sessionId> <entryId>`); Esc from it goes to the search screen. */
	open?: EventRef & { fragmentId?: string };
	/** Earlier queries, newest first (the stored query history). */
	queryHistory?: readonly string[];
}

function openLoc(open: EventRef & { fragmentId?: string }): EventLoc {
	return newLoc({ ref: { sessionId: open.sessionId, entryId: open.entryId }, ...(open.fragmentId ? { focusFragment: open.fragmentId } : {}) });
}

/** The state the explorer starts in: the given query (empty: recent events), list not yet loaded. */
export function initialState(options: InitOptions): State {
	const text = options.query ?? "";
	const hits = initialHits(options.workspace ?? null, options.scope);
	return {
		size: options.size,
		mode: options.open ? "event" : "query",
		focus: "query",
		query: { text, cursor: text.length },
		hits: options.filters ? { ...hits, filters: options.filters } : hits,
		events: options.open ? { ...initialStack(), stack: [openLoc(options.open)] } : initialStack(),
		tree: initialTree(),
		history: [],
		overlay: null,
		browser: null,
		goto: null,
		browseSeq: 0,
		message: options.message ? { text: options.message, tone: "warn" } : null,
		copy: null,
		task: null,
		refresh: 0,
		exit: null,
		recall: initialRecall(options.queryHistory),
	};
}

/** Which keys apply now (hosts and tests read it by this name). */
export function modeOf(s: State): Mode {
	return s.mode;
}

/** The mode of the top event: its find prompt while typing, else the pane with focus. */
function eventMode(st: StackState, top: EventLoc): Mode {
	return st.finding !== null ? "find" : top.panel === "trace" ? "trace" : "event";
}

/**
 * Where the back stack lands once something on it closes (an event popped, a tree closed, a view restored): a tree
 * opened over the top event, else the top event, else the search screen's focus.
 */
function landing(s: State): Mode {
	if (topTree(s.tree)?.depth === s.events.stack.length) return "tree";
	const top = topOf(s.events);
	return top ? eventMode(s.events, top) : s.focus;
}

/**
 * Shows a screen (the search's focus, an event, a tree) in `mode`. A prompt or the browser over it keeps the keys
 * (a walk's answer may land while one is open); an overlay is closed by whoever opens a screen.
 */
export function show(s: State, mode: Mode): State {
	return { ...s, mode: s.goto || s.browser || s.overlay ? s.mode : mode };
}

/** An overlay's mode: the filter picker's while a value is typed is its own. */
function overlayMode(o: Overlay): Mode {
	return o.type === "filters" && o.edit !== null ? "filter-edit" : o.type;
}

/**
 * Closes the browser, an overlay or a prompt: the keys go back to what it covered (an overlay a walk's answer opened
 * under the go-to prompt, the browser, or the back stack's top).
 */
export function uncover(s: State): State {
	return { ...s, mode: s.goto ? "goto" : s.overlay ? overlayMode(s.overlay) : s.browser ? "sessions" : landing(s) };
}

/** Moves focus on the search screen. */
export function focusOn(s: State, focus: State["focus"]): State {
	return show({ ...s, focus }, focus);
}

/** The hit under the cursor. */
export function selectedHit(s: State): Hit | null {
	return hitAt(s.hits);
}

/** Key of the preview the selected hit needs (ref and fragment), or null without a hit. */
export function previewKey(s: State): string | null {
	return previewKeyOf(s.hits);
}

/** The event on top of the back stack. */
export function topLoc(s: State): EventLoc | null {
	return topOf(s.events);
}

export const info = (s: State, text: string, tone: Message["tone"] = "info"): State => ({ ...s, message: { text, tone } });
export const hits = (s: State, a: HitsAction): State => ({ ...s, hits: reduceHits(s.hits, a, s.size) });
/**
 * Runs the overlay slice's reducer: an overlay opened (or its value being typed) takes the keys, unless the go-to
 * prompt is over it (a walk's answer may open one meanwhile); a closed one gives them back.
 */
export function overlay(s: State, a: OverlayAction): State {
	const o = reduceOverlay(s.overlay, a, s.size);
	if (!o) return uncover({ ...s, overlay: null });
	return { ...s, overlay: o, mode: s.goto ? s.mode : overlayMode(o) };
}

/** Runs the tree slice's reducer and shows its note; an opened tree takes the keys, a closed one lands on the back stack. */
export function tree(s: State, a: TreeAction): State {
	const out = reduceTree(s.tree, a, s.size);
	const next = { ...s, tree: out.tree, ...(out.note ? { message: out.note } : {}) };
	if (a.type === "tree-open") return show(next, "tree");
	return a.type === "tree-pop" ? uncover(next) : next;
}

/** Runs the event stack's reducer and shows its note; opening, closing and switching panes or the find set the mode. */
export function stack(s: State, a: StackAction): State {
	const out = reduceStack(s.events, a, { size: s.size });
	const next = { ...s, events: out.stack, ...(out.note ? { message: out.note } : {}) };
	const top = topOf(out.stack);
	switch (a.type) {
		case "push":
		case "toggle-panel":
		case "find-open":
		case "find-cancel":
		case "find-submit":
			return top ? show(next, eventMode(out.stack, top)) : next;
		case "pop":
		case "clear":
			return show(next, landing(next));
		default:
			return next;
	}
}

/**
 * A last word of one letter or digit matches nearly everything as a prefix and says little: typing `retry l` keeps
 * the hits of `retry` on screen instead of flashing a slow, useless list; the next letter searches.
 */
export function searchesFor(text: string): boolean {
	return !/(^|\s)[a-z0-9]$/i.test(text);
}

/**
 * The text a search runs with: the query without a one-letter last word (searchesFor), so a search that runs after
 * such a word arrived in the same burst as the key that asked for it (` l` pasted) finds what the typed keys find.
 */
export function searchedText(text: string): string {
	return searchesFor(text) ? text : text.slice(0, -1);
}

/** Edits the query (from the hit list too, which moves focus there) and searches when the text changed. */
export function editQuery(s: State, a: QueryAction): State {
	// Edits from the hit list go to the query line, and focus follows them there.
	const from = s.mode === "list" ? focusOn(s, "query") : s;
	const query = reduceQuery(s.query, a);
	if (query === s.query) return from;
	const next = { ...from, query };
	return query.text === s.query.text || !searchesFor(query.text) ? next : hits(next, { type: "search" });
}

/** Opens an event on top of the stack, closing any overlay. */
export function push(s: State, loc: EventLoc, note?: string): State {
	return { ...stack(uncover({ ...s, overlay: null }), { type: "push", loc }), message: note ? { text: note, tone: "info" } : null };
}

const HISTORY_MAX = 50;

/** Leaves the current view for another: keeps it on the history, so Esc comes back to it exactly. */
export function saveView(s: State): State {
	const view: SavedView = { focus: s.focus, query: s.query, hits: s.hits, events: s.events, tree: s.tree };
	return { ...s, history: [...s.history, view].slice(-HISTORY_MAX) };
}

/** Comes back to the last view left: its query and cursor, hits and selection, and event stack as they were. */
export function restoreView(s: State): State {
	const view = s.history.at(-1) as SavedView;
	const h = view.hits;
	const selected = h.results.hits[h.selected];
	// The hits come back on screen at once; a fresh search (a new sequence number) refreshes them, keeping the selection.
	const results = { ...h.results, seq: s.hits.results.seq + 1, keep: selected ? refKey(selected) : null, loadingMore: false };
	return uncover({
		...s,
		focus: view.focus,
		query: view.query,
		hits: { ...h, results },
		events: view.events,
		tree: view.tree,
		history: s.history.slice(0, -1),
		overlay: null,
	});
}
