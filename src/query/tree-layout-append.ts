/**
 * A kept tree layout (tree-layout.ts) brought up to a session that grew at its leaf: only what follows the nearest
 * shown ancestor of the first new entry is read and written again, from a chunk boundary on.
 */
import type { IndexStore } from "../index/store.js";
import {
	type Column,
	LAYOUT_CHUNK,
	LAYOUT_PARTS,
	type LayoutHead,
	type LayoutPart,
	LayoutReader,
	type LayoutValues,
	layoutHead,
	writeLayoutTail,
} from "../index/tree-layout-store.js";
import { eventIdOf, SHAPE, shapeMarks } from "../index/tree-rows.js";
import { PARENT_PREVIOUS, readShapeFrom, SHAPE_CHUNK } from "../index/tree-shape-store.js";
import { BRANCH_CHILD, CONTINUES, LAST, shown } from "./tree-flatten.js";
import { type LayoutCase, MARKS_MAX } from "./tree-layout.js";
import { FOLD_MIN } from "./tree-shape.js";

/** Display positions, rows and node columns an append changes, read old and written back from a chunk boundary. */
class Tail {
	readonly values: Column;
	constructor(
		L: LayoutReader,
		part: LayoutPart,
		readonly from: number,
		oldLength: number,
		newLength: number,
	) {
		const kind = LAYOUT_PARTS[part];
		const len = Math.max(0, newLength - from);
		this.values = kind === "f64" ? new Float64Array(len) : kind === "i32" ? new Int32Array(len) : new Uint8Array(len);
		for (let i = from; i < Math.min(oldLength, newLength); i++) this.values[i - from] = L.at(part, i);
	}
	get(i: number): number {
		return this.values[i - this.from] as number;
	}
	set(i: number, v: number): void {
		this.values[i - this.from] = v;
	}
}

/** The node of an event row id in a kept layout (-1: none). */
export function nodeOfRow(L: LayoutValues, head: LayoutHead, id: number): number {
	let lo = 0;
	let hi = head.firsts.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if ((head.firsts[mid] as number) <= id) lo = mid;
		else hi = mid - 1;
	}
	return nodeInRows(L, lo * LAYOUT_CHUNK, Math.min(head.nodes, lo * LAYOUT_CHUNK + LAYOUT_CHUNK) - 1, id);
}

/** The node of an event row id among the nodes `from`..`to` of a kept layout, whose row ids ascend there (-1: none). */
export function nodeInRows(L: LayoutValues, from: number, to: number, id: number): number {
	let a = from;
	let b = to;
	while (a <= b) {
		const mid = (a + b) >> 1;
		const v = L.at("row", mid);
		if (v === id) return mid;
		if (v < id) a = mid + 1;
		else b = mid - 1;
	}
	return -1;
}

const KEEP_FLAGS = SHAPE.label | SHAPE.summary | SHAPE.error | SHAPE.edit | SHAPE.user;

/**
 * The kept layout brought up to the session after entries were appended under its last entry (pi's common case: a
 * session growing at its leaf), reading and rewriting only what follows the nearest shown ancestor of that entry.
 * Null when the change is another one (a branch off an older entry, a new label on an old one…): laid out whole;
 * also when more than `limit` values of a column would be rewritten.
 */
export function appendToLayout(store: IndexStore, lc: LayoutCase, was: LayoutHead, limit = Number.POSITIVE_INFINITY): LayoutHead | null {
	// A fork family's nodes are not in one session's file order: any change lays the family out whole.
	if (store.readonly || lc.members !== 1 || was.members) return null;
	try {
		return store.db
			.transaction(() => {
				const head = layoutHead(store, lc.session.id, lc.filter);
				if (!head) return null;
				if (head.sig === lc.sig) return head;
				const next = appendedLayout(store, lc, head, limit);
				if (next) writeLayoutTail(store, lc.session.id, lc.filter, next.head, next.tails);
				return next?.head ?? null;
			})
			.immediate();
	} catch {
		// Busy: laid out whole this time.
		return was.sig === lc.sig ? was : null;
	}
}

function appendedLayout(
	store: IndexStore,
	lc: LayoutCase,
	head: LayoutHead,
	limit: number,
): { head: LayoutHead; tails: Partial<Record<LayoutPart, { from: number; values: Column }>> } | null {
	const session = lc.session;
	const n0 = head.nodes;
	const X = n0 - 1;
	if (!head.tailLast || head.labels === null || head.edits === null || n0 === 0 || head.leafNode !== X) return null;
	const L = new LayoutReader(store, session.id, lc.filter);
	let s = readShapeFrom(store, session.id, Math.floor(X / SHAPE_CHUNK));
	if (s.offset < 0) return null;
	const n = s.offset + s.ids.length;
	if (n < n0 || s.ids[X - s.offset] !== L.at("row", X)) return null;
	for (let k = n0 + 1; k < n; k++) if (s.parents[k - s.offset] !== PARENT_PREVIOUS) return null;
	const leafId = session.leaf_entry ? eventIdOf(store, session.id, session.leaf_entry) : undefined;
	if (leafId === undefined || leafId !== s.ids[n - 1 - s.offset]) return null;
	const firstNew = n > n0 ? (s.ids[n0 - s.offset] as number) : Number.POSITIVE_INFINITY;
	const marks = shapeMarks(store, session.id);
	const same = (now: number[], then: number[]) => {
		const old = now.filter((id) => id < firstNew);
		return old.length === then.length && old.every((id, i) => id === then[i]);
	};
	if (!same(marks.labels, head.labels) || !same(marks.edits, head.edits)) return null;
	// The files changed, the entries did not (a line not yet complete, a touch): the same layout.
	if (n === n0) return { head: { ...head, sig: lc.sig }, tails: {} };
	const labels = new Set(marks.labels);
	const edits = new Set(marks.edits);
	const mode = lc.filter;
	const flatOfOld = (node: number) => {
		const f = L.at("near", node);
		return f >= 0 && L.at("flat", f) === node ? f : -1;
	};
	const shown0 = head.shown;
	const xWas = flatOfOld(X) >= 0;
	if (xWas && flatOfOld(X) !== shown0 - 1) return null;
	const flagsAt = (k: number) => {
		if (k < s.offset) s = readShapeFrom(store, session.id, Math.floor(k / SHAPE_CHUNK));
		const id = s.ids[k - s.offset] as number;
		return (s.flags[k - s.offset] as number) | (labels.has(id) ? SHAPE.label : 0) | (edits.has(id) ? SHAPE.edit : 0);
	};
	// The first appended entry hangs under X or (pi's /tree back up the path, then a new prompt) an ancestor of X: X is
	// last in pre-order, so is every ancestor's last child, and the appended entries go last.
	let P = X;
	if (n > n0) {
		const par = s.parents[n0 - s.offset] as number;
		if (par !== PARENT_PREVIOUS) {
			if (par <= 0) return null;
			P = nodeOfRow(L, head, par);
			if (P < 0) return null;
			let a = X;
			while (a > P) a = L.at("parent", a);
			if (a !== P) return null;
		}
	}
	const xIs = shown(flagsAt(X), mode, false, false);
	if (xIs && !xWas) return null;
	const removeX = xWas && !xIs;
	// X no longer shows (it showed as the leaf): the row of its nearest shown ancestor loses its only child.
	const px = L.at("parent", X);
	const xUnder = removeX && px >= 0 ? L.at("near", px) : -1;
	if (removeX && (L.at("bits", X) & BRANCH_CHILD || xUnder < 0)) return null;
	const nearOf = (node: number) => (node === X ? (xIs ? shown0 - 1 : xUnder >= 0 ? xUnder : L.at("near", X)) : L.at("near", node));
	const vFlat = nearOf(P);
	const V = vFlat >= 0 ? L.at("flat", vFlat) : -1;
	const fresh: number[] = [];
	for (let k = n0; k < n; k++) if (shown(flagsAt(k), mode, false, k === n - 1)) fresh.push(k);
	if (fresh.length > 0 && V < 0) return null;
	const last0 = shown0 - (removeX ? 1 : 0);
	const shownNew = last0 + fresh.length;
	// Node columns from V's chunk (its subtree's nodes follow it), display columns from where the rows change.
	const nodeFrom = Math.floor(Math.min(X, P, V >= 0 ? V : X) / LAYOUT_CHUNK) * LAYOUT_CHUNK;
	// More to rewrite than the caller may spend (a branch far up the path re-indents all below it): not done here.
	if (n - nodeFrom > limit) return null;
	const nt = (part: LayoutPart) => new Tail(L, part, nodeFrom, n0, n);
	const row = nt("row");
	const parent = nt("parent");
	const near = nt("near");
	const bits = nt("bits");
	const up = nt("up");
	const depth = nt("depth");
	for (let k = n0; k < n; k++) {
		row.set(k, s.ids[k - s.offset] as number);
		parent.set(k, k === n0 ? P : k - 1);
		up.set(k, -1);
	}
	// The first display position whose kept flag may change; the rows are laid out again from the run holding it.
	let changedAt = last0;
	const keptSet = new Map<number, number>();
	const placed = new Map<number, number>();
	const keepOf = (node: number, b: number, kids: number) => (b & BRANCH_CHILD || !(b & CONTINUES) || kids !== 1 || flagsAt(node) & KEEP_FLAGS ? 1 : 0);
	if (removeX && xUnder !== vFlat && L.at("kept", xUnder) !== 1) {
		keptSet.set(xUnder, 1);
		changedAt = Math.min(changedAt, xUnder);
	}
	if (fresh.length > 0) {
		const bV = L.at("bits", V);
		const upV = bV & BRANCH_CHILD ? V : L.at("up", V);
		// V's shown children before: none, one (its first shown descendant continues its column), or more.
		const kidsOld = vFlat === shown0 - 1 ? 0 : L.at("bits", L.at("flat", vFlat + 1)) & CONTINUES ? 1 : 2;
		const kidsBefore = removeX && xUnder === vFlat ? kidsOld - 1 : kidsOld;
		const N1 = fresh[0] as number;
		if (kidsBefore === 0) {
			bits.set(N1, CONTINUES);
			depth.set(N1, L.at("depth", V));
			up.set(N1, upV);
		} else {
			bits.set(N1, BRANCH_CHILD | LAST);
			depth.set(N1, L.at("depth", V) + 1);
			up.set(N1, upV);
			if (kidsBefore === 1) {
				// V's only child K becomes the first of two: K's subtree is indented once more.
				const K = L.at("flat", vFlat + 1);
				const upK = L.at("up", K);
				for (let g = vFlat + 1; g < last0; g++) {
					const c = L.at("flat", g);
					depth.set(c, depth.get(c) + 1);
					if (c !== K && up.get(c) === upK) up.set(c, K);
				}
				bits.set(K, BRANCH_CHILD);
				if (L.at("kept", vFlat + 1) !== 1) {
					keptSet.set(vFlat + 1, 1);
					changedAt = Math.min(changedAt, vFlat + 1);
				}
			} else {
				// The last of V's children is no longer last.
				let c = L.at("flat", last0 - 1);
				while (L.at("near", L.at("parent", c)) !== vFlat) c = L.at("flat", L.at("near", L.at("parent", c)));
				bits.set(c, bits.get(c) & ~LAST);
			}
		}
		const keptV = keepOf(V, L.at("bits", V), kidsBefore + 1);
		if (keptV !== L.at("kept", vFlat)) {
			keptSet.set(vFlat, keptV);
			changedAt = Math.min(changedAt, vFlat);
		}
		const chainUp = bits.get(N1) & BRANCH_CHILD ? N1 : upV;
		let f = last0;
		for (let i = 0; i < fresh.length; i++) {
			const c = fresh[i] as number;
			if (i > 0) {
				bits.set(c, CONTINUES);
				depth.set(c, depth.get(N1));
				up.set(c, chainUp);
			}
			placed.set(c, f);
			keptSet.set(f, keepOf(c, bits.get(c), i === fresh.length - 1 ? 0 : 1));
			f++;
		}
	} else if (removeX && xUnder === vFlat && L.at("kept", vFlat) !== 1) {
		keptSet.set(vFlat, 1);
		changedAt = Math.min(changedAt, vFlat);
	}
	if (removeX) {
		bits.set(X, 0);
		up.set(X, -1);
		depth.set(X, 0);
	}
	near.set(X, nearOf(X));
	let nearPrev = near.get(P);
	for (let k = n0; k < n; k++) {
		const at = placed.get(k);
		nearPrev = at ?? nearPrev;
		near.set(k, nearPrev);
	}
	// Rows: from the start of the run of unkept positions before the first change.
	let s0 = changedAt;
	while (s0 > 0 && s0 - 1 < shown0 && L.at("kept", s0 - 1) === 0) s0 = L.at("rowStart", L.at("rowOfFlat", s0 - 1));
	const r0 = s0 < shown0 ? L.at("rowOfFlat", s0) : head.total;
	const flatFrom = Math.floor(s0 / LAYOUT_CHUNK) * LAYOUT_CHUNK;
	if (shownNew - flatFrom > limit) return null;
	const flat = new Tail(L, "flat", flatFrom, shown0, shownNew);
	const kept = new Tail(L, "kept", flatFrom, shown0, shownNew);
	const rowOfFlat = new Tail(L, "rowOfFlat", flatFrom, shown0, shownNew);
	for (const [k, at] of placed) flat.set(at, k);
	for (const [at, v] of keptSet) kept.set(at, v);
	const rowFrom = Math.floor(r0 / LAYOUT_CHUNK) * LAYOUT_CHUNK;
	const starts: number[] = [];
	const types: number[] = [];
	const counts: number[] = [];
	let r = r0;
	for (let i = s0; i < shownNew; ) {
		if (kept.get(i)) {
			rowOfFlat.set(i, r++);
			starts.push(i);
			types.push(0);
			counts.push(1);
			i++;
			continue;
		}
		let j = i + 1;
		while (j < shownNew && !kept.get(j)) j++;
		if (j - i < FOLD_MIN)
			for (let k = i; k < j; k++) {
				rowOfFlat.set(k, r++);
				starts.push(k);
				types.push(0);
				counts.push(1);
			}
		else {
			for (let k = i; k < j; k++) rowOfFlat.set(k, r);
			r++;
			starts.push(i);
			types.push(2);
			counts.push(j - i);
		}
		i = j;
	}
	const total = r;
	const rowStart = new Tail(L, "rowStart", rowFrom, head.total, total);
	const rowType = new Tail(L, "rowType", rowFrom, head.total, total);
	const rowCount = new Tail(L, "rowCount", rowFrom, head.total, total);
	for (let i = 0; i < starts.length; i++) {
		rowStart.set(r0 + i, starts[i] as number);
		rowType.set(r0 + i, types[i] as number);
		rowCount.set(r0 + i, counts[i] as number);
	}
	const firsts = head.firsts.slice(0, Math.ceil(n0 / LAYOUT_CHUNK));
	for (let c = firsts.length; c * LAYOUT_CHUNK < n; c++) firsts.push(row.get(c * LAYOUT_CHUNK));
	const tails: Partial<Record<LayoutPart, { from: number; values: Column }>> = {};
	for (const [part, t] of Object.entries({ row, parent, near, bits, up, depth, flat, kept, rowOfFlat, rowStart, rowType, rowCount }))
		tails[part as LayoutPart] = { from: t.from, values: t.values };
	return {
		head: {
			sig: lc.sig,
			nodes: n,
			shown: shownNew,
			total,
			hidden: n - shownNew,
			leafNode: n - 1,
			firsts,
			tailLast: true,
			labels: marks.labels.length <= MARKS_MAX ? marks.labels : null,
			edits: marks.edits.length <= MARKS_MAX ? marks.edits : null,
		},
		tails,
	};
}
