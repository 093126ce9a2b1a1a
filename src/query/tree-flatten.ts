/**
 * pi's `/tree` filter on a family's nodes, and the filtered tree flattened in display order with its connectors, as
 * typed arrays (tree-shape.ts reads the nodes; tree-layout.ts and tree-window.ts draw from what this returns).
 */
import { SHAPE } from "../index/tree-rows.js";
import type { TreeFilterMode } from "../shared/types.js";

/** A node flag beside SHAPE's: the entry matches the query. */
export const HIT = 1 << 12;
/** Bits of a flattened node. */
export const CONTINUES = 1;
export const BRANCH_CHILD = 2;
export const LAST = 4;

/** Whether pi's `/tree` filter shows an entry with these flags (`leaf`: the root session's leaf always shows). */
export function shown(flags: number, mode: TreeFilterMode, words: boolean, leaf: boolean): boolean {
	if (words && (flags & SHAPE.text) === 0) return false;
	const quiet = (flags & SHAPE.bookkeeping) === 0 && ((flags & SHAPE.callsOnly) === 0 || leaf);
	switch (mode) {
		case "all":
			return true;
		case "no-tools":
			return quiet && (flags & SHAPE.toolResult) === 0;
		case "user-only":
			return (flags & SHAPE.user) !== 0;
		case "labeled-only":
			return (flags & SHAPE.label) !== 0;
		default:
			return quiet;
	}
}

/** A family's nodes as the shape builder read them: row ids (negative: a fork's head), parents and flags. */
export interface TreeNodes {
	nodeRow: Float64Array;
	nodeParent: Int32Array;
	nodeFlags: Uint16Array;
}

/** What flattening adds to the nodes: the shown ones in display order, their connectors and depths. */
export interface Flattened {
	hits: number;
	hidden: number;
	/** Visible nodes in display order. */
	flat: Int32Array;
	/** Node → its position in `flat` (-1: hidden). */
	flatOf: Int32Array;
	kids: Int32Array;
	bits: Uint8Array;
	/** Nearest strict ancestor that is a branch child (its connector column), -1: none. */
	up: Int32Array;
	depth: Int32Array;
}

/** The filtered tree flattened: hidden entries' children hang from the nearest shown ancestor, in display order. */
export function flatten(b: TreeNodes, mode: TreeFilterMode, words: boolean, leafNode: number): Flattened {
	const n = b.nodeRow.length;
	const visible = new Uint8Array(n);
	let hidden = 0;
	let hits = 0;
	for (let i = 0; i < n; i++) {
		const f = b.nodeFlags[i] as number;
		const head = (b.nodeRow[i] as number) < 0;
		if (!head && f & HIT) hits++;
		visible[i] = head || shown(f, mode, words, i === leafNode) ? 1 : 0;
		if (!visible[i]) hidden++;
	}
	// A node's parent always comes before it (file order, forks after), and siblings are in node order: subtree sizes
	// in one pass backwards, pre-order positions in one pass forwards, no stack. Index n is the virtual root.
	const parentOf = (i: number) => ((b.nodeParent[i] as number) < 0 ? n : (b.nodeParent[i] as number));
	const size = new Int32Array(n + 1).fill(1);
	for (let i = n - 1; i >= 0; i--) {
		const p = parentOf(i);
		size[p] = (size[p] as number) + (size[i] as number);
	}
	const slot = new Int32Array(n + 1);
	const order = new Int32Array(n);
	for (let i = 0; i < n; i++) {
		const p = parentOf(i);
		const at = slot[p] as number;
		slot[p] = at + (size[i] as number);
		slot[i] = at + 1;
		order[at] = i;
	}
	// The shown nodes in the whole tree's pre-order are pi's /tree order; each hangs from its nearest shown ancestor.
	const vpar = new Int32Array(n);
	for (let i = 0; i < n; i++) {
		const p = b.nodeParent[i] as number;
		vpar[i] = p < 0 ? n : visible[p] ? p : (vpar[p] as number);
	}
	const shownCount = n - hidden;
	const flat = new Int32Array(shownCount);
	const flatOf = new Int32Array(n).fill(-1);
	const kids = new Int32Array(n + 1);
	const lastKid = new Int32Array(n + 1).fill(-1);
	let at = 0;
	for (let k = 0; k < n; k++) {
		const i = order[k] as number;
		if (!visible[i]) continue;
		flat[at] = i;
		flatOf[i] = at++;
		const p = vpar[i] as number;
		kids[p] = (kids[p] as number) + 1;
		lastKid[p] = i;
	}
	// Connectors: a only child continues its parent's column, siblings branch one level deeper.
	const bits = new Uint8Array(n);
	const up = new Int32Array(n).fill(-1);
	const depth = new Int32Array(n);
	for (let f = 0; f < shownCount; f++) {
		const c = flat[f] as number;
		const p = vpar[c] as number;
		const top = p === n;
		const parentUp = top ? -1 : (bits[p] as number) & BRANCH_CHILD ? p : (up[p] as number);
		const parentDepth = top ? 0 : (depth[p] as number);
		up[c] = parentUp;
		if (kids[p] === 1) {
			bits[c] = top ? 0 : CONTINUES;
			depth[c] = parentDepth;
		} else {
			bits[c] = BRANCH_CHILD | (lastKid[p] === c ? LAST : 0);
			depth[c] = parentDepth + 1;
		}
	}
	return {
		hits,
		hidden,
		flat,
		flatOf,
		kids: kids.subarray(0, n),
		bits,
		up,
		depth,
	};
}
