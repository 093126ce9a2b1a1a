/**
 * The tree view's slice: a stack of open trees, each above the event stack depth it was opened at (so Enter on a row
 * opens the event over the tree, Esc there comes back to the tree, and Esc on the tree back to where it was opened).
 * Each tree keeps its cursor by row key (rows change as stretches fold and unfold), its window top and its unfolded
 * stretches. Rows are computed by tree-layout.ts from the data, memoized per tree, never stored.
 */
import type { EventRef, TreeRequest, TreeResult } from "../../src/shared/types.js";
import type { Message } from "../core/actions.js";
import type { Size } from "../core/explorer-service.js";
import { overlayLines } from "../core/layout.js";
import { clampIndex, windowTop } from "../core/list-window.js";
import { centredTop, entryKey, rowIndex, stepHit, type TreeRow, treeRows } from "./tree-layout.js";

/** One open tree. */
export interface TreeLoc {
	/** Identity of the request (and of its answer). */
	key: string;
	request: TreeRequest;
	/** Event stack depth under this tree: it is on screen while the event stack has exactly this many events. */
	depth: number;
	data: TreeResult | null;
	error: string | null;
	/** Key of the row under the cursor (null until the data came). */
	cursor: string | null;
	top: number;
	/** First-row keys of the stretches unfolded with →. */
	unfolded: string[];
	/** Reads asked for (grows when the index changed) and the read the data answers: a newer one is due when they differ. */
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
	| { type: "tree-done"; key: string; gen: number; data: TreeResult | null; error: string | null }
	| { type: "tree-stale" }
	| { type: "tree-move"; by: number }
	| { type: "tree-page"; dir: 1 | -1 }
	| { type: "tree-jump"; to: "first" | "last" }
	| { type: "tree-hit"; dir: 1 | -1 }
	| { type: "tree-fold"; unfold: boolean }
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

const memo = new WeakMap<TreeResult, { sig: string; rows: TreeRow[] }>();

/** The rows of an open tree (empty before its data came); memoized on the data, folds and focus. */
export function rowsOf(loc: TreeLoc): TreeRow[] {
	if (!loc.data) return [];
	const keep = loc.data.focus ? entryKey(loc.data.focus.sessionId, loc.data.focus.entryId) : null;
	const searching = (loc.request.query ?? "").trim() !== "";
	const sig = JSON.stringify([loc.unfolded, searching, keep]);
	const hit = memo.get(loc.data);
	if (hit?.sig === sig) return hit.rows;
	const rows = treeRows(loc.data, { unfolded: new Set(loc.unfolded), searching, keep });
	memo.set(loc.data, { sig, rows });
	return rows;
}

/** The cursor's row index in an open tree (0 when its key is gone). */
export function cursorIndex(loc: TreeLoc, rows: readonly TreeRow[] = rowsOf(loc)): number {
	return Math.max(0, rowIndex(rows, loc.cursor));
}

/** The row under the cursor. */
export function cursorRow(loc: TreeLoc): TreeRow | null {
	const rows = rowsOf(loc);
	return rows[cursorIndex(loc, rows)] ?? null;
}

/** The event a row shows (null for a fold row; a fork head's: null, it opens that session's tree). */
export function rowRef(row: TreeRow | null): EventRef | null {
	return row?.type === "entry" ? { sessionId: row.sessionId, entryId: row.entry.entryId } : null;
}

/** The top tree, when one is open. */
export function topTree(st: TreeState): TreeLoc | null {
	return st.stack.at(-1) ?? null;
}

function replaceTop(st: TreeState, loc: TreeLoc): TreeState {
	return { stack: [...st.stack.slice(0, -1), loc] };
}

/** Moves the cursor to row `index`, scrolling the window only when the cursor leaves it. */
function moveTo(loc: TreeLoc, rows: readonly TreeRow[], index: number, height: number): TreeLoc {
	const i = clampIndex(index, rows.length);
	return { ...loc, cursor: rows[i]?.key ?? null, top: windowTop(i, loc.top, height, rows.length) };
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
			top: 0,
			unfolded: [],
			want: 1,
			have: 0,
		};
		return { tree: { stack: [...st.stack, loc] } };
	}
	if (a.type === "tree-stale") return { tree: { stack: st.stack.map((l) => ({ ...l, want: l.want + 1 })) } };
	if (a.type === "tree-done") {
		const i = st.stack.findIndex((l) => l.key === a.key && l.have < a.gen && l.want === a.gen);
		if (i === -1) return { tree: st };
		const stack = [...st.stack];
		const before = stack[i] as TreeLoc;
		let loc: TreeLoc = { ...before, data: a.data, error: a.error, have: a.gen };
		const again = before.data !== null && a.data !== null && before.cursor !== null && rowIndex(rowsOf(loc), before.cursor) >= 0;
		if (again) {
			// New lines in the index: the same tree read again keeps its row and window (the window clamped to the rows).
			const rows = rowsOf(loc);
			loc = { ...loc, top: windowTop(rowIndex(rows, before.cursor), before.top, height, rows.length) };
			stack[i] = loc;
			return { tree: { stack } };
		}
		if (a.data) {
			// Open centred on the event it was asked for (or the row that shows it), else on the root session's leaf.
			const rows = rowsOf(loc);
			const f = a.data.focus;
			const want = f ? entryKey(f.sessionId, f.entryId) : a.data.leafId ? entryKey(a.data.session.id, a.data.leafId) : null;
			const at = Math.max(0, rowIndex(rows, want));
			loc = { ...loc, cursor: rows[at]?.key ?? null, top: centredTop(at, height, rows.length) };
		}
		stack[i] = loc;
		if (!a.data) return { tree: { stack }, note: { text: `cannot read the tree: ${a.error ?? "unknown error"}`, tone: "error" } };
		const q = loc.request.query?.trim();
		const hits = q ? ` · ${a.data.hits} hit(s) for "${q}"${a.data.hits > 0 ? ": n/N step through them" : ""}` : "";
		const notes = a.data.notes.length > 0 ? ` · ${a.data.notes.join("; ")}` : "";
		return { tree: { stack }, note: { text: `${a.data.entries.length} entries${hits}${notes}`, tone: a.data.notes.length > 0 ? "warn" : "info" } };
	}
	const loc = topTree(st);
	if (!loc) return { tree: st };
	if (a.type === "tree-pop") return { tree: { stack: st.stack.slice(0, -1) } };
	const rows = rowsOf(loc);
	const at = cursorIndex(loc, rows);
	switch (a.type) {
		case "tree-resize":
			return { tree: replaceTop(st, moveTo(loc, rows, at, height)) };
		case "tree-move":
			return { tree: replaceTop(st, moveTo(loc, rows, at + a.by, height)) };
		case "tree-page":
			return { tree: replaceTop(st, moveTo(loc, rows, at + a.dir * Math.max(1, height - 1), height)) };
		case "tree-jump":
			return { tree: replaceTop(st, moveTo(loc, rows, a.to === "first" ? 0 : rows.length - 1, height)) };
		case "tree-hit": {
			if (!(loc.request.query ?? "").trim())
				return { tree: st, note: { text: "no query: the tree marks the hits of the search it was opened from", tone: "warn" } };
			const step = stepHit(rows, at, a.dir);
			if (!step) return { tree: st, note: { text: `no hits for "${loc.request.query}" in this fork family`, tone: "warn" } };
			const hits = rows.filter((r) => r.type === "entry" && r.entry.hit).length;
			const nth = rows.slice(0, step.index + 1).filter((r) => r.type === "entry" && r.entry.hit).length;
			const moved = { ...loc, cursor: rows[step.index]?.key ?? null, top: centredTop(step.index, height, rows.length) };
			const text = `hit ${nth} of ${hits}${step.wrapped ? (a.dir === 1 ? " (from the top)" : " (from the bottom)") : ""}`;
			return { tree: replaceTop(st, moved), note: { text, tone: "info" } };
		}
		case "tree-fold": {
			const row = rows[at];
			if (!row) return { tree: st };
			if (a.unfold) {
				if (row.type !== "fold") return { tree: st, note: { text: "nothing folded here", tone: "info" } };
				const unfolded = { ...loc, unfolded: [...loc.unfolded, row.stretch] };
				// The cursor goes to the stretch's first row, which takes the fold row's place.
				return {
					tree: replaceTop(st, moveTo({ ...unfolded, cursor: row.stretch }, rowsOf(unfolded), at, height)),
					note: { text: `${row.count} entries unfolded`, tone: "info" },
				};
			}
			if (!row.stretch || row.type === "fold") return { tree: st, note: { text: "not in an unfolded stretch", tone: "info" } };
			const folded = { ...loc, unfolded: loc.unfolded.filter((k) => k !== row.stretch) };
			const foldRows = rowsOf(folded);
			return { tree: replaceTop(st, moveTo(folded, foldRows, rowIndex(foldRows, `fold:${row.stretch}`), height)) };
		}
	}
}
