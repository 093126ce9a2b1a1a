/**
 * The explorer's combined state: the four slices (query-state, hits-state, stack-state, overlay-state) and what
 * spans them (focus, mode, message, the history of views left), with the small operations the top reducer in
 * state.ts composes: run one slice's reducer, edit the query, open an event, save and restore a view.
 */
import { type Hit, refKey } from "../src/shared/types.js";
import type { Message, QueryAction } from "./actions.js";
import type { Size } from "./explorer-service.js";
import type { Filters, Scope } from "./filters.js";
import { type HitsAction, type HitsState, hitAt, initialHits, previewKeyOf, reduceHits } from "./hits-state.js";
import { type Overlay, type OverlayAction, reduceOverlay } from "./overlay-state.js";
import { type QueryState, reduceQuery } from "./query-state.js";
import { type EventLoc, initialStack, reduceStack, type StackAction, type StackState, topOf } from "./stack-state.js";

/** Where keys go: the query line, the hit list, an event's text or trace panel, or an overlay. */
export type Mode = "query" | "list" | "event" | "trace" | "help" | "filters" | "filter-edit" | "find" | "fork";

/** A whole view left for another (a session's hits opened from a trace row, `/` from an event): Esc restores it. */
export interface SavedView {
	focus: "query" | "list";
	query: QueryState;
	hits: HitsState;
	events: StackState;
}

/** The whole explorer state: the four slices and what spans them. */
export interface State {
	size: Size;
	focus: "query" | "list";
	query: QueryState;
	hits: HitsState;
	events: StackState;
	/** Views left behind, newest last: the back stack above the event stack. */
	history: SavedView[];
	overlay: Overlay | null;
	message: Message | null;
	copy: { seq: number; text: string } | null;
	/** Grows when the user asks to read new session lines now (the refresh key); the launcher runs the refresh. */
	refresh: number;
	exit: number | null;
}

/** Inputs of the first state. */
export interface InitOptions {
	size: Size;
	workspace?: string | null;
	scope?: Scope;
	query?: string;
	message?: string;
	filters?: Filters;
}

/** The state the explorer starts in: the given query (empty: recent events), list not yet loaded. */
export function initialState(options: InitOptions): State {
	const text = options.query ?? "";
	const hits = initialHits(options.workspace ?? null, options.scope);
	return {
		size: options.size,
		focus: "query",
		query: { text, cursor: text.length },
		hits: options.filters ? { ...hits, filters: options.filters } : hits,
		events: initialStack(),
		history: [],
		overlay: null,
		message: options.message ? { text: options.message, tone: "warn" } : null,
		copy: null,
		refresh: 0,
		exit: null,
	};
}

/** Which keys apply now. */
export function modeOf(s: State): Mode {
	if (s.overlay) return s.overlay.type === "filters" && s.overlay.edit !== null ? "filter-edit" : s.overlay.type;
	const top = topOf(s.events);
	if (top && s.events.finding !== null) return "find";
	if (top) return top.panel === "trace" ? "trace" : "event";
	return s.focus;
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
export const overlay = (s: State, a: OverlayAction): State => ({ ...s, overlay: reduceOverlay(s.overlay, a, s.size) });

/** Runs the event stack's reducer and shows its note. */
export function stack(s: State, a: StackAction): State {
	const out = reduceStack(s.events, a, { size: s.size });
	return { ...s, events: out.stack, ...(out.note ? { message: out.note } : {}) };
}

/**
 * A last word of one letter or digit matches nearly everything as a prefix and says little: typing `retry l` keeps
 * the hits of `retry` on screen instead of flashing a slow, useless list; the next letter searches.
 */
export function searchesFor(text: string): boolean {
	return !/(^|\s)[a-z0-9]$/i.test(text);
}

/** Edits the query (from the hit list too, which moves focus there) and searches when the text changed. */
export function editQuery(s: State, a: QueryAction): State {
	// Edits from the hit list go to the query line, and focus follows them there.
	const from = modeOf(s) === "list" ? { ...s, focus: "query" as const } : s;
	const query = reduceQuery(s.query, a);
	if (query === s.query) return from;
	const next = { ...from, query };
	return query.text === s.query.text || !searchesFor(query.text) ? next : hits(next, { type: "search" });
}

/** Opens an event on top of the stack, closing any overlay. */
export function push(s: State, loc: EventLoc, note?: string): State {
	return { ...stack(s, { type: "push", loc }), overlay: null, message: note ? { text: note, tone: "info" } : null };
}

const HISTORY_MAX = 50;

/** Leaves the current view for another: keeps it on the history, so Esc comes back to it exactly. */
export function saveView(s: State): State {
	const view: SavedView = { focus: s.focus, query: s.query, hits: s.hits, events: s.events };
	return { ...s, history: [...s.history, view].slice(-HISTORY_MAX) };
}

/** Comes back to the last view left: its query and cursor, hits and selection, and event stack as they were. */
export function restoreView(s: State): State {
	const view = s.history.at(-1) as SavedView;
	const h = view.hits;
	const selected = h.results.hits[h.selected];
	// The hits come back on screen at once; a fresh search (a new sequence number) refreshes them, keeping the selection.
	const results = { ...h.results, seq: s.hits.results.seq + 1, keep: selected ? refKey(selected) : null, loadingMore: false };
	return { ...s, focus: view.focus, query: view.query, hits: { ...h, results }, events: view.events, history: s.history.slice(0, -1), overlay: null };
}
