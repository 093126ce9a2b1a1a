/**
 * The tree view's slice: a stack of open trees, each above the event stack depth it was opened at (so Enter on a row
 * opens the event over the tree, Esc there comes back to the tree, and Esc on the tree back to where it was opened).
 * The rows are laid out where the index is (src/query/tree-window.ts); a tree holds only a window of them, the
 * cursor as a row number and the key of its row, and asks for another window when the cursor leaves the one it has
 * (treeLoad), or for the same key again when the folds, the filter or the index changed.
 */
import type { EventRef, TreeFilterMode, TreeRequest, TreeViewRow, TreeWindow, TreeWindowRequest } from "../../src/shared/types.js";
import { TREE_FILTER_MODES } from "../../src/shared/types.js";
import type { Message } from "../core/actions.js";
import type { Size } from "../core/explorer-service.js";
import { overlayLines } from "../core/layout.js";
import { clampIndex, windowTop } from "../core/list-window.js";
import { centredTop } from "./tree-layout.js";

/** One open tree. */
export interface TreeLoc {
	/** Identity of the request (and of its answer). */
	key: string;
	request: TreeRequest;
	/** Event stack depth under this tree: it is on screen while the event stack has exactly this many events. */
	depth: number;
	/** The window of rows last read (null until the first answer). */
	data: TreeWindow | null;
	error: string | null;
	/** Key of the row under the cursor (null until that row was read). */
	cursor: string | null;
	/** Row number of the cursor. */
	at: number;
	top: number;
	/** First-row keys of the stretches unfolded with →. */
	unfolded: string[];
	/** pi's /tree filter mode, and the typed filter words. */
	filter: TreeFilterMode;
	text: string;
	/** The filter line takes the typed keys (after `/`). */
	typing: boolean;
	/** Reads asked for (grows when the index, folds or filter changed) and the read the data answers. */
	want: number;
	have: number;
}

/** The tree slice: open trees, newest last. */
export interface TreeState {
	stack: TreeLoc[];
}

/** What the tree slice does. */
export type TreeAction =
	| { type: "tree-open"; request: TreeRequest; depth: number }
	| { type: "tree-done"; key: string; gen: number; data: TreeWindow | null; error: string | null; scroll?: boolean }
	| { type: "tree-stale" }
	| { type: "tree-move"; by: number }
	| { type: "tree-page"; dir: 1 | -1 }
	| { type: "tree-jump"; to: "first" | "last" }
	| { type: "tree-hit"; dir: 1 | -1 }
	| { type: "tree-fold"; unfold: boolean }
	| { type: "tree-filter"; mode: TreeFilterMode | "cycle" }
	| { type: "tree-type"; on: boolean }
	| { type: "tree-text"; text: string }
	| { type: "tree-pop" }
	| { type: "tree-resize" };

/** No tree open. */
export function initialTree(): TreeState {
	return { stack: [] };
}

/** Rows the tree view body shows at this terminal size (two header lines and the status bar take the rest). */
export function treeBodyLines(size: Size): number {
	return overlayLines(size);
}

/** The request key of a tree: the event it centres on and the query it marks. */
export function treeKey(r: TreeRequest): string {
	return JSON.stringify([r.sessionId, r.entryId ?? null, r.query ?? ""]);
}

/** The row at row number `i`, when the window holding it was read. */
export function rowAt(loc: TreeLoc, i: number): TreeViewRow | null {
	const d = loc.data;
	if (!d || i < d.start || i >= d.start + d.rows.length) return null;
	return d.rows[i - d.start] ?? null;
}

/** Rows of the whole laid-out tree (0 before the first answer). */
export function rowCount(loc: TreeLoc): number {
	return loc.data?.total ?? 0;
}

/** The cursor's row number. */
export function cursorIndex(loc: TreeLoc): number {
	return loc.at;
}

/** The row under the cursor (null while its window is being read). */
export function cursorRow(loc: TreeLoc): TreeViewRow | null {
	return rowAt(loc, loc.at);
}

/** The event a row shows (null for a fold row; a fork head's: null, it opens that session's tree). */
export function rowRef(row: TreeViewRow | null): EventRef | null {
	return row?.type === "entry" ? { sessionId: row.sessionId, entryId: row.entry.entryId } : null;
}

/** The top tree, when one is open. */
export function topTree(st: TreeState): TreeLoc | null {
	return st.stack.at(-1) ?? null;
}

/**
 * The read a tree needs now, if any: the first window or the same cursor key again after a change (`want` > `have`),
 * else the window around the visible rows when they are not all read. `key` identifies the read for the loader.
 */
export function treeLoad(loc: TreeLoc, height: number): { key: string; gen: number; scroll: boolean; request: TreeWindowRequest } | null {
	const base = {
		...loc.request,
		...(loc.unfolded.length > 0 ? { unfolded: loc.unfolded } : {}),
		filter: loc.filter,
		...(loc.text.trim() ? { text: loc.text } : {}),
	};
	const count = Math.max(3 * height, 30);
	if (loc.have < loc.want) {
		const request: TreeWindowRequest = { ...base, ...(loc.data ? { cursor: loc.cursor } : {}), count };
		return { key: `${loc.key}#${loc.want}:find`, gen: loc.want, scroll: false, request };
	}
	const d = loc.data;
	if (!d) return null;
	const end = Math.min(d.total, loc.top + height);
	if (loc.top >= d.start && end <= d.start + d.rows.length) return null;
	const top = Math.max(0, loc.top - height);
	return { key: `${loc.key}#${loc.want}:${top}`, gen: loc.want, scroll: true, request: { ...base, top, count } };
}

function replaceTop(st: TreeState, loc: TreeLoc): TreeState {
	return { stack: [...st.stack.slice(0, -1), loc] };
}

/** Moves the cursor to row `index`, scrolling the window only when the cursor leaves it. */
function moveTo(loc: TreeLoc, index: number, height: number): TreeLoc {
	const n = rowCount(loc);
	const i = clampIndex(index, n);
	return { ...loc, at: i, cursor: rowAt(loc, i)?.key ?? null, top: windowTop(i, loc.top, height, n) };
}

/** A change that lays the rows out again: read the cursor's key again. */
function again(loc: TreeLoc, change: Partial<TreeLoc>): TreeLoc {
	return { ...loc, ...change, want: loc.want + 1 };
}

function filterNote(loc: TreeLoc): Message {
	const words = loc.text.trim() ? ` · rows holding "${loc.text.trim()}"` : "";
	return { text: `filter: ${loc.filter}${words}`, tone: "info" };
}

function done(st: TreeState, a: Extract<TreeAction, { type: "tree-done" }>, height: number): { tree: TreeState; note?: Message } {
	const i = st.stack.findIndex((l) => l.key === a.key && l.want === a.gen && (a.scroll ? l.have === a.gen : l.have < a.gen));
	if (i === -1) return { tree: st };
	const stack = [...st.stack];
	const before = stack[i] as TreeLoc;
	if (!a.data) {
		stack[i] = { ...before, error: a.error, have: a.gen };
		return { tree: { stack }, note: { text: `cannot read the tree: ${a.error ?? "unknown error"}`, tone: "error" } };
	}
	let loc: TreeLoc = { ...before, data: a.data, error: null, have: a.gen };
	const total = a.data.total;
	if (a.scroll) {
		// Another window of the same layout: the cursor's key is known once its row is read.
		stack[i] = { ...loc, cursor: loc.cursor ?? rowAt(loc, loc.at)?.key ?? null };
		return { tree: { stack } };
	}
	const first = before.data === null;
	const at = a.data.cursor >= 0 ? a.data.cursor : clampIndex(before.at, total);
	// First open: centred on the event asked for (or the leaf); a read again keeps the window where it was.
	const top = first ? centredTop(at, height, total) : windowTop(at, before.top, height, total);
	loc = { ...loc, at, top };
	loc = { ...loc, cursor: rowAt(loc, at)?.key ?? null };
	stack[i] = loc;
	if (!first) return { tree: { stack } };
	const q = loc.request.query?.trim();
	const hits = q ? ` · ${a.data.hits} hit(s) for "${q}"${a.data.hits > 0 ? ": n/N step through them" : ""}` : "";
	const hidden = a.data.hidden > 0 ? ` · ${a.data.hidden} hidden by the filter (Ctrl+A shows all)` : "";
	const notes = a.data.notes.length > 0 ? ` · ${a.data.notes.join("; ")}` : "";
	return { tree: { stack }, note: { text: `${a.data.entries} entries${hits}${hidden}${notes}`, tone: a.data.notes.length > 0 ? "warn" : "info" } };
}

/** The tree slice's reducer: the new state and, for some actions, a line for the status bar. */
export function reduceTree(st: TreeState, a: TreeAction, size: Size): { tree: TreeState; note?: Message } {
	const height = treeBodyLines(size);
	if (a.type === "tree-open") {
		const loc: TreeLoc = {
			key: treeKey(a.request),
			request: a.request,
			depth: a.depth,
			data: null,
			error: null,
			cursor: null,
			at: 0,
			top: 0,
			unfolded: [],
			filter: "default",
			text: "",
			typing: false,
			want: 1,
			have: 0,
		};
		return { tree: { stack: [...st.stack, loc] } };
	}
	if (a.type === "tree-stale") return { tree: { stack: st.stack.map((l) => ({ ...l, want: l.want + 1 })) } };
	if (a.type === "tree-done") return done(st, a, height);
	const loc = topTree(st);
	if (!loc) return { tree: st };
	if (a.type === "tree-pop") return { tree: { stack: st.stack.slice(0, -1) } };
	const at = loc.at;
	switch (a.type) {
		case "tree-resize":
			return { tree: replaceTop(st, moveTo(loc, at, height)) };
		case "tree-move":
			return { tree: replaceTop(st, moveTo(loc, at + a.by, height)) };
		case "tree-page":
			return { tree: replaceTop(st, moveTo(loc, at + a.dir * Math.max(1, height - 1), height)) };
		case "tree-jump":
			return { tree: replaceTop(st, moveTo(loc, a.to === "first" ? 0 : rowCount(loc) - 1, height)) };
		case "tree-hit": {
			if (!(loc.request.query ?? "").trim())
				return { tree: st, note: { text: "no query: the tree marks the hits of the search it was opened from", tone: "warn" } };
			const hits = loc.data?.hitRows ?? [];
			if (hits.length === 0) return { tree: st, note: { text: `no hits for "${loc.request.query}" in this fork family`, tone: "warn" } };
			let k = a.dir === 1 ? hits.findIndex((h) => h > at) : -1;
			if (a.dir === -1) for (let j = hits.length - 1; j >= 0 && k === -1; j--) if ((hits[j] as number) < at) k = j;
			const wrapped = k === -1;
			if (wrapped) k = a.dir === 1 ? 0 : hits.length - 1;
			const index = hits[k] as number;
			const moved = { ...loc, at: index, cursor: rowAt(loc, index)?.key ?? null, top: centredTop(index, height, rowCount(loc)) };
			const text = `hit ${k + 1} of ${hits.length}${wrapped ? (a.dir === 1 ? " (from the top)" : " (from the bottom)") : ""}`;
			return { tree: replaceTop(st, moved), note: { text, tone: "info" } };
		}
		case "tree-fold": {
			const row = cursorRow(loc);
			if (!row) return { tree: st };
			if (a.unfold) {
				if (row.type !== "fold") return { tree: st, note: { text: "nothing folded here", tone: "info" } };
				// The cursor goes to the stretch's first row, which takes the fold row's place.
				return {
					tree: replaceTop(st, again(loc, { unfolded: [...loc.unfolded, row.stretch], cursor: row.stretch })),
					note: { text: `${row.count} entries unfolded`, tone: "info" },
				};
			}
			if (!row.stretch || row.type === "fold") return { tree: st, note: { text: "not in an unfolded stretch", tone: "info" } };
			return { tree: replaceTop(st, again(loc, { unfolded: loc.unfolded.filter((k) => k !== row.stretch), cursor: `fold:${row.stretch}` })) };
		}
		case "tree-filter": {
			const i = TREE_FILTER_MODES.indexOf(loc.filter);
			// A mode's key again goes back to the default view (pi's /tree toggles).
			const mode = a.mode === "cycle" ? (TREE_FILTER_MODES[(i + 1) % TREE_FILTER_MODES.length] as TreeFilterMode) : a.mode === loc.filter ? "default" : a.mode;
			const next = again(loc, { filter: mode });
			return { tree: replaceTop(st, next), note: filterNote(next) };
		}
		case "tree-type":
			return {
				tree: replaceTop(st, { ...loc, typing: a.on }),
				note: a.on ? { text: "filter rows: type words · Enter keeps · Esc clears", tone: "info" } : filterNote(loc),
			};
		case "tree-text": {
			if (a.text === loc.text) return { tree: st };
			return { tree: replaceTop(st, again(loc, { text: a.text })) };
		}
	}
}
