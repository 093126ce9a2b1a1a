/**
 * pi's `/tree` filter on a family's nodes, and the filtered tree flattened in display order with its connectors, as
 * typed arrays (tree-shape.ts reads the nodes; tree-layout.ts and tree-window.ts draw from what this returns).
 */
import { SHAPE } from "../index/tree-rows.js";
import { TREE_CLIP_MARK, type TreeFilterMode } from "../shared/types.js";

/** A node flag beside SHAPE's: the entry matches the query. */
export const HIT = 1 << 12;
/** Bits of a flattened node. */
export const CONTINUES = 1;
export const BRANCH_CHILD = 2;
export const LAST = 4;

/**
 * What the rows ask of a display position (Flattened.pos), known when its node is placed: kept whatever the focus and
 * the query (a fork's head, a branch, a node with other than one shown child, a label, summary, error, edit or hit);
 * continues its parent's column; a user message; a fork's head; a hit.
 */
export const POS = { keep: 1, continues: 2, user: 4, head: 8, hit: 16 } as const;
const KEEP_FLAGS = SHAPE.label | SHAPE.summary | SHAPE.error | SHAPE.edit | HIT;

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
	nodeRow: Int32Array;
	nodeParent: Int32Array;
	nodeFlags: Uint16Array;
	/** The forks' head nodes, when known: with none, no row id is read to find them (a lone session's million). */
	heads?: ReadonlyMap<number, unknown>;
}

/** What flattening adds to the nodes: the shown ones in display order, their connectors and depths. */
export interface Flattened {
	hits: number;
	hidden: number;
	/** Visible nodes in display order. */
	flat: Int32Array;
	/** Node → its position in `flat` (-1: hidden). */
	flatOf: Int32Array;
	/**
	 * Per shown node, the shown nodes that hang from it: 0, 1 or 2 for more (whether a node has only one is what the
	 * layout asks). A hidden node's value is what it passes on to its nearest shown ancestor.
	 */
	kids: Uint8Array;
	bits: Uint8Array;
	/** Nearest strict ancestor that is a branch child (its connector column), -1: none. */
	up: Int32Array;
	/** Per display position, POS bits. */
	pos: Uint8Array;
	/**
	 * Columns of at least one value per node that the flattening used and no longer needs: a later phase may take
	 * them (pop) instead of new ones, since memory written once costs no page faults the second time.
	 */
	spare: Int32Array[];
}

/** The filtered tree flattened: hidden entries' children hang from the nearest shown ancestor, in display order. */
export function flatten(b: TreeNodes, mode: TreeFilterMode, words: boolean, leafNode: number): Flattened {
	const n = b.nodeRow.length;
	// A node's parent always comes before it (file order, forks after) and siblings are in node order, so two passes
	// in node order do, with no stack and no sort: backwards, what shows and how much of each subtree; forwards, where
	// each shown node goes. Index n is the virtual root. Each pass is a function of its own: V8 optimizes a hot loop
	// on its own, and a later loop of the same function would throw that code away.
	const v = shownNodes(b, mode, words, leafNode);
	const placed = place(b, v);
	return { hits: v.hits, hidden: v.hidden, ...placed.flat, kids: v.kids.subarray(0, n), spare: [placed.next, v.vsize] };
}

/** The backward pass of flatten: which nodes show in a filter mode, each subtree's shown nodes, what hangs from each. */
export function shownNodes(b: TreeNodes, mode: TreeFilterMode, words: boolean, leafNode: number): Shown {
	const n = b.nodeRow.length;
	const decide = filterTable(mode, words);
	const leafShown = leafNode >= 0 && leafNode < n && shown(b.nodeFlags[leafNode] as number, mode, words, true) ? 1 : 0;
	return shownBelow(b, decide, leafNode, leafShown);
}

/** The bits of a node's flags pi's filter reads (SHAPE's, below HIT). */
export const FILTER_BITS = 1023;

/** Whether a node that is not the leaf shows, by its flags' FILTER_BITS: the filter reads only those, so it is decided once per value. */
export function filterTable(mode: TreeFilterMode, words: boolean): Uint8Array {
	const decide = new Uint8Array(FILTER_BITS + 1);
	for (let f = 0; f <= FILTER_BITS; f++) decide[f] = shown(f, mode, words, false) ? 1 : 0;
	return decide;
}

export interface Shown {
	visible: Uint8Array;
	/** Shown nodes in each node's subtree of the whole tree (itself included); index n: all of them. */
	vsize: Int32Array;
	/**
	 * Per shown node (and n, the virtual root), the shown nodes that hang from it, counted to 2: its shown children
	 * and those below hidden ones. Per hidden node, the same count, which its nearest shown ancestor adds up.
	 */
	kids: Uint8Array;
	hidden: number;
	hits: number;
}

/**
 * Backwards (children before their parent): which nodes show, how many shown nodes each subtree holds, and how many
 * shown nodes hang from each node.
 */
function shownBelow(b: TreeNodes, decide: Uint8Array, leafNode: number, leafShown: number): Shown {
	const { nodeParent, nodeFlags, nodeRow } = b;
	const forks = b.heads === undefined || b.heads.size > 0;
	const n = nodeRow.length;
	const visible = new Uint8Array(n);
	const vsize = new Int32Array(n + 1);
	const kids = new Uint8Array(n + 1);
	let hidden = 0;
	let hits = 0;
	for (let i = n - 1; i >= 0; i--) {
		const f = nodeFlags[i] as number;
		const head = forks && (nodeRow[i] as number) < 0;
		if (!head && f & HIT) hits++;
		const s = head ? 1 : i === leafNode ? leafShown : (decide[f & FILTER_BITS] as number);
		visible[i] = s;
		hidden += 1 - s;
		const p = nodeParent[i] as number;
		const at = p < 0 ? n : p;
		const size = (vsize[i] as number) + s;
		vsize[i] = size;
		vsize[at] = (vsize[at] as number) + size;
		// A shown node hangs from its parent's nearest shown node; a hidden one passes on what hangs from it.
		const k = (kids[at] as number) + (s ? 1 : (kids[i] as number));
		kids[at] = k > 2 ? 2 : k;
	}
	return { visible, vsize, kids, hidden, hits };
}

/**
 * The shown nodes in the whole tree's pre-order (pi's /tree order) with their connectors: each subtree's shown nodes
 * take the next stretch of its parent's, so a node's position is known when it is met.
 */
function place(b: TreeNodes, v: Shown): { flat: Pick<Flattened, "flat" | "flatOf" | "bits" | "up" | "pos">; next: Int32Array } {
	const { nodeParent, nodeRow, nodeFlags } = b;
	const forks = b.heads === undefined || b.heads.size > 0;
	const { visible, vsize, kids } = v;
	const n = visible.length;
	const shownCount = vsize[n] as number;
	// Where each node's next child's stretch starts (slot n: the virtual root's).
	const next = new Int32Array(n + 1);
	// A hidden node's nearest shown ancestor, for its children: written for hidden nodes only, so the pages of a stretch
	// that all shows are never touched.
	const above = new Int32Array(n);
	const flat = new Int32Array(shownCount);
	const flatOf = new Int32Array(n);
	const bits = new Uint8Array(n);
	const up = new Int32Array(n);
	const pos = new Uint8Array(shownCount);
	for (let i = 0; i < n; i++) {
		const p = nodeParent[i] as number;
		const at = p < 0 ? n : p;
		const start = next[at] as number;
		const size = vsize[i] as number;
		next[at] = start + size;
		const vp = p < 0 ? n : visible[p] ? p : (above[p] as number);
		if (visible[i] === 0) {
			next[i] = start;
			above[i] = vp;
			flatOf[i] = -1;
			up[i] = -1;
			continue;
		}
		next[i] = start + 1;
		flat[start] = i;
		flatOf[i] = start;
		const top = vp === n;
		up[i] = top ? -1 : (bits[vp] as number) & BRANCH_CHILD ? vp : (up[vp] as number);
		bits[i] = connectorBits(kids[vp] as number, top, start + size, top ? shownCount : (flatOf[vp] as number) + (vsize[vp] as number));
		pos[start] = positionFlags(forks && (nodeRow[i] as number) < 0, kids[i] as number, kids[vp] === 1 && !top, nodeFlags[i] as number);
	}
	return { flat: { flat, flatOf, bits, up, pos }, next };
}

/**
 * A window whose shallowest row is deeper than this many levels leaves out its rows' columns above that row but
 * CLIP_KEEP, and draws TREE_CLIP_MARK in their place (pi's /tree scrolls sideways there): a row two thousand branches deep
 * would be all connectors, and drawing them reads every branch above it. A window whose rows drop more than CLIP_DROP
 * levels below its first row (the end of a deep branch, then a branch off an old entry) is clipped from its first row
 * instead, and rows left of the clip show only the mark and their connector: each row's walk then stays within the
 * window's size, since the next row is at most one level deeper than the row before.
 */
export const CLIP_FROM = 48;
export const CLIP_KEEP = 8;
export const CLIP_DROP = 64;

/** The columns a window of rows at these depths (in row order) leaves out: 0 for all but deep windows. */
export function clipOf(rowDepths: readonly number[]): number {
	if (rowDepths.length === 0) return 0;
	let min = rowDepths[0] as number;
	for (const d of rowDepths) if (d < min) min = d;
	const from = Math.max(min, (rowDepths[0] as number) - CLIP_DROP);
	return from > CLIP_FROM ? from - CLIP_KEEP : 0;
}

/**
 * A shown node's connector bits: an only child continues its parent's column (at the top, none), siblings branch one
 * level deeper, and the last sibling's shown subtree ends (`end`) where its parent's does (`parentEnd`).
 */
export function connectorBits(parentKids: number, top: boolean, end: number, parentEnd: number): number {
	if (parentKids === 1) return top ? 0 : CONTINUES;
	return BRANCH_CHILD | (end === parentEnd ? LAST : 0);
}

/** What the rows ask of a shown node's display position (POS), from its flags and whether it continues its parent's column. */
export function positionFlags(head: boolean, kids: number, continues: boolean, flags: number): number {
	return (
		(head || kids !== 1 || !continues || flags & KEEP_FLAGS ? POS.keep : 0) |
		(continues ? POS.continues : 0) |
		(flags & SHAPE.user ? POS.user : 0) |
		(head ? POS.head : flags & HIT ? POS.hit : 0)
	);
}

/**
 * The connector prefix and indent depth of shown nodes (`up` and `bits` as in Flattened, read through functions so a
 * kept layout's chunks serve too). The columns drawn for a branch child's descendants are made once per branch child,
 * since the rows of a window share their ancestors (a deep tree's rows would each walk every level). With `clip`
 * (clipOf), the first `clip` columns are left out and each row's walk stops there; `depthOf` then gives a row's depth.
 */
export function prefixDrawer(
	up: (node: number) => number,
	bits: (node: number) => number,
	clip = 0,
	depthOf: (node: number) => number = () => 0,
): (node: number) => { prefix: string; depth: number } {
	const columns = new Map<number, { text: string; depth: number }>();
	const base = clip > 0 ? { text: TREE_CLIP_MARK, depth: clip } : { text: "", depth: 0 };
	// The columns of branch ancestor `a` and those above it, `levels` of them drawn.
	const columnsBelow = (a: number, levels: number): { text: string; depth: number } => {
		if (a < 0 || levels <= 0) return base;
		let c = columns.get(a);
		if (c === undefined) {
			const chain: number[] = [];
			let top = a;
			while (top >= 0 && !columns.has(top)) {
				chain.push(top);
				top = chain.length < levels ? up(top) : -1;
			}
			c = top >= 0 ? (columns.get(top) as { text: string; depth: number }) : base;
			for (let k = chain.length - 1; k >= 0; k--) {
				const x = chain[k] as number;
				c = { text: c.text + (bits(x) & LAST ? "   " : "│  "), depth: c.depth + 1 };
				columns.set(x, c);
			}
		}
		return c;
	};
	return (node) => {
		const b = bits(node);
		const branch = b & BRANCH_CHILD ? 1 : 0;
		const connector = branch ? (b & LAST ? "└─ " : "├─ ") : "";
		if (clip === 0) {
			const above = columnsBelow(up(node), Number.POSITIVE_INFINITY);
			return { prefix: above.text + connector, depth: above.depth + branch };
		}
		// A row left of the clip (clipOf) shows the mark and its connector, at its own depth.
		const depth = depthOf(node);
		return { prefix: columnsBelow(up(node), depth - branch - clip).text + connector, depth };
	};
}

/**
 * Whether the last node is the last of the whole tree's pre-order (siblings in node order, parents first), so that
 * entries appended under it go last. Its path is marked in a bitmap (an eighth of a byte a node), then one pass in
 * node order finds any node that follows the path's node it branches beside: a later sibling of it, or a later root.
 */
export function lastInPreorder(nodeParent: Int32Array): boolean {
	const n = nodeParent.length;
	if (n === 0) return false;
	const onPath = new Uint8Array((n >> 3) + 1);
	const on = (k: number) => ((onPath[k >> 3] as number) & (1 << (k & 7))) !== 0;
	for (let k = n - 1; k >= 0; k = nodeParent[k] as number) onPath[k >> 3] = (onPath[k >> 3] as number) | (1 << (k & 7));
	// The deepest path node met so far (-1: none yet). A node off the path whose parent is a path node above it (or
	// which is a root, once the path's root was met) comes after that node's own child on the path.
	let deepest = -1;
	for (let k = 0; k < n; k++) {
		const p = nodeParent[k] as number;
		if (on(k)) deepest = k;
		else if (deepest >= 0 && (p < 0 || (p < deepest && on(p)))) return false;
	}
	return true;
}
