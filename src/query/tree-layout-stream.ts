/**
 * A session's or fork family's kept layout (tree-layout.ts) written as it is laid out, for the indexer: the backward
 * pass of flatten (tree-flatten.ts shownNodes), then one forward pass that places each node from its parent's frame
 * (only a node whose children are still to come holds one) and writes the node columns a chunk at a time, then one
 * pass over the display positions for the rows and folds: tree-window.ts layRows with nothing unfolded and no focus.
 * It holds the family's nodes and about 15 bytes a node besides, not every column of the layout.
 */
import type { IndexStore } from "../index/store.js";
import { type ChunkPut, type Column, LAYOUT_CHUNK, LAYOUT_PARTS, type LayoutHead, type LayoutPart, writeLayoutChunks } from "../index/tree-layout-store.js";
import { SHAPE } from "../index/tree-rows.js";
import type { TreeFilterMode } from "../shared/types.js";
import { BRANCH_CHILD, connectorBits, lastInPreorder, POS, positionFlags, type Shown, shownNodes, type TreeNodes } from "./tree-flatten.js";
import { type LayoutCase, layoutMembers, MARKS_MAX } from "./tree-layout.js";
import { type FamilyNodes, FOLD_MIN, ShapeTooBigError } from "./tree-shape.js";

/**
 * Most frames held at once: nodes placed whose children are not all placed yet. pi's sessions hold a handful (the
 * branch points still to be returned to); only a crafted file nesting its branches inside each other holds more.
 */
export const FRAMES_MAX = 1_000_000;

/** One column written a chunk at a time. */
export class Sink {
	private buf: Column;
	private at = 0;
	private chunk = 0;
	constructor(
		private readonly put: ChunkPut,
		private readonly part: LayoutPart,
	) {
		const kind = LAYOUT_PARTS[part];
		this.buf = kind === "f64" ? new Float64Array(LAYOUT_CHUNK) : kind === "i32" ? new Int32Array(LAYOUT_CHUNK) : new Uint8Array(LAYOUT_CHUNK);
	}
	push(v: number): void {
		this.buf[this.at++] = v;
		if (this.at === LAYOUT_CHUNK) this.flush();
	}
	/** The values pushed since the last chunk, as a chunk (SQLite copies a bound blob, so the buffer is reused). */
	flush(): void {
		if (this.at === 0) return;
		this.put(this.part, this.chunk++, this.buf.subarray(0, this.at));
		this.at = 0;
	}
}

/**
 * What a placed node passes to its children: where the next child's stretch starts, and its nearest shown node (itself
 * when shown; -1 for none, the virtual root) as the children's connectors ask it. Slots in typed arrays, reused.
 */
export class Frames {
	next = new Int32Array(64);
	node = new Int32Array(64);
	bits = new Uint8Array(64);
	up = new Int32Array(64);
	flat = new Int32Array(64);
	size = new Int32Array(64);
	kids = new Uint8Array(64);
	depth = new Int32Array(64);
	private free: number[] = [];
	private used = 0;

	constructor(private readonly max: number) {}

	alloc(): number {
		const s = this.free.pop();
		if (s !== undefined) return s;
		if (this.used >= this.max) throw new ShapeTooBigError(`tree layout: more than ${this.max} nodes wait for a child`);
		if (this.used === this.next.length) this.grow();
		return this.used++;
	}

	release(s: number): void {
		this.free.push(s);
	}

	/** Slot `to` passes on what slot `from` does (a hidden node's children hang from its nearest shown ancestor). */
	copy(to: number, from: number, next: number): void {
		this.next[to] = next;
		this.node[to] = this.node[from] as number;
		this.bits[to] = this.bits[from] as number;
		this.up[to] = this.up[from] as number;
		this.flat[to] = this.flat[from] as number;
		this.size[to] = this.size[from] as number;
		this.kids[to] = this.kids[from] as number;
		this.depth[to] = this.depth[from] as number;
	}

	private grow(): void {
		const n = this.next.length * 2;
		const more = <T extends Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
			const b = make(n);
			b.set(a);
			return b;
		};
		const i32 = (k: number) => new Int32Array(k);
		const u8 = (k: number) => new Uint8Array(k);
		this.next = more(this.next, i32);
		this.node = more(this.node, i32);
		this.bits = more(this.bits, u8);
		this.up = more(this.up, i32);
		this.flat = more(this.flat, i32);
		this.size = more(this.size, i32);
		this.kids = more(this.kids, u8);
		this.depth = more(this.depth, i32);
	}
}

/**
 * Keeps a family's layout in one filter mode (no write on a read-only index, nor for nodes that are not each session's
 * entries in one stretch). Throws ShapeTooBigError, keeping nothing, when more than `maxFrames` nodes wait for a child.
 */
export function keepStreamed(store: IndexStore, lc: LayoutCase, nodes: FamilyNodes, maxFrames = FRAMES_MAX): void {
	if (store.readonly) return;
	const members = layoutMembers(nodes);
	const n = nodes.nodeRow.length;
	// Only when every session's nodes are its shown entries in file order, one stretch each (tree-shape.ts).
	if (!members || members.length !== lc.members || (members.length === 1 && (nodes.members[0]?.rows ?? -1) !== n)) return;
	try {
		writeLayoutChunks(store, lc.session.id, lc.filter, (put) => ({
			sig: lc.sig,
			...streamLayout(nodes, lc.filter, maxFrames, put),
			...(members.length > 1 ? { members } : {}),
		}));
	} catch (e) {
		// Busy or read-only underneath: nothing is kept, and the next open lays the family out itself.
		if (e instanceof ShapeTooBigError) throw e;
	}
}

/** The nodes a layout is made of: a family's (tree-shape.ts familyNodes), with its root's leaf. */
export type LaidNodes = TreeNodes & { leafNode: number };

/** The layout of a family's nodes in one mode, its columns handed to `put` as made; returns its head but the signature and members. */
export function streamLayout(nodes: LaidNodes, mode: TreeFilterMode, maxFrames: number, put: ChunkPut): Omit<LayoutHead, "sig" | "members"> {
	const { nodeRow, nodeParent, nodeFlags, leafNode } = nodes;
	const n = nodeRow.length;
	const v = shownNodes(nodes, mode, false, leafNode);
	const shown = v.vsize[n] as number;
	const flat = new Int32Array(shown);
	const pos = new Uint8Array(shown);
	placeNodes(nodes, v, new Frames(maxFrames), { flat, pos }, put);
	for (let c = 0; c * LAYOUT_CHUNK < shown; c++) put("flat", c, flat.subarray(c * LAYOUT_CHUNK, Math.min(shown, (c + 1) * LAYOUT_CHUNK)));
	const total = rowsOf(pos, put);
	const firsts: number[] = [];
	for (let k = 0; k < n; k += LAYOUT_CHUNK) firsts.push(nodeRow[k] as number);
	const labels: number[] = [];
	const edits: number[] = [];
	for (let k = 0; k < n; k++) {
		const f = nodeFlags[k] as number;
		if (f & SHAPE.label && labels.length <= MARKS_MAX) labels.push(nodeRow[k] as number);
		if (f & SHAPE.edit && edits.length <= MARKS_MAX) edits.push(nodeRow[k] as number);
	}
	return {
		nodes: n,
		shown,
		total,
		hidden: v.hidden,
		leafNode,
		firsts,
		tailLast: lastInPreorder(nodeParent),
		labels: labels.length <= MARKS_MAX ? labels : null,
		edits: edits.length <= MARKS_MAX ? edits : null,
	};
}

const lastOf = new WeakMap<Int32Array, Int32Array>();

/** Each node's last child (-1: none): its frame is released once that child is placed. Made once for a family's modes. */
function lastChildren(nodeParent: Int32Array): Int32Array {
	let last = lastOf.get(nodeParent);
	if (last) return last;
	last = new Int32Array(nodeParent.length).fill(-1);
	for (let i = nodeParent.length - 1; i >= 0; i--) {
		const p = nodeParent[i] as number;
		if (p >= 0 && (last[p] as number) < 0) last[p] = i;
	}
	lastOf.set(nodeParent, last);
	return last;
}

/** The forward pass over nodes held in memory (Placer), their display positions into `at`. */
function placeNodes(nodes: TreeNodes, v: Shown, F: Frames, at: { flat: Int32Array; pos: Uint8Array }, put: ChunkPut): void {
	const { nodeRow, nodeParent, nodeFlags } = nodes;
	const { visible, vsize, kids } = v;
	const { flat, pos } = at;
	const n = nodeRow.length;
	const last = lastChildren(nodeParent);
	// As flatten: with no heads named, a node of row id -1 is one.
	const forks = nodes.heads === undefined || nodes.heads.size > 0;
	const placer = new Placer(F, put, forks, flat.length, kids[n] as number, (start, i, flags) => {
		flat[start] = i;
		pos[start] = flags;
	});
	for (let i = 0; i < n; i++) {
		const p = nodeParent[i] as number;
		const l = last[i] as number;
		placer.place(
			i,
			p,
			nodeRow[i] as number,
			nodeFlags[i] as number,
			visible[i] as number,
			vsize[i] as number,
			kids[i] as number,
			l >= 0,
			l > i + 1,
			p >= 0 && last[p] === i,
		);
	}
	placer.end();
}

/**
 * The forward pass (tree-flatten.ts place), a node at a time in node order: each node's display position is the next
 * stretch of its parent's frame; a shown node's connectors come from its nearest shown ancestor's, which the frame
 * carries. Writes the node columns; hands each shown node's display position and POS flags to `shownAt`.
 */
export class Placer {
	private readonly out: Record<"row" | "parent" | "near" | "bits" | "up" | "depth", Sink>;
	private readonly root: number;
	// Frames of nodes whose children are not all next to them; the node just placed is held apart (pi's tree is
	// mostly one path: most nodes' only child is the next node).
	private readonly held = new Map<number, number>();
	private prevNode = -1;
	private prevSlot = -1;

	constructor(
		private readonly F: Frames,
		put: ChunkPut,
		private readonly forks: boolean,
		private readonly shown: number,
		rootKids: number,
		private readonly shownAt: (start: number, node: number, pos: number) => void,
	) {
		this.out = {
			row: new Sink(put, "row"),
			parent: new Sink(put, "parent"),
			near: new Sink(put, "near"),
			bits: new Sink(put, "bits"),
			up: new Sink(put, "up"),
			depth: new Sink(put, "depth"),
		};
		this.root = F.alloc();
		F.next[this.root] = 0;
		F.node[this.root] = -1;
		F.kids[this.root] = rootKids;
	}

	/**
	 * Places node `i` (parent `p`, -1: none) as the backward pass left it: shown or not, its subtree's shown nodes, what
	 * hangs from it; whether it has children, whether its last child is not the next node, whether it is its parent's last.
	 */
	place(
		i: number,
		p: number,
		row: number,
		flags: number,
		visible: number,
		size: number,
		kids: number,
		hasKids: boolean,
		lastFar: boolean,
		lastOfParent: boolean,
	): void {
		const F = this.F;
		const fromHeld = p >= 0 && p !== this.prevNode;
		const s = p < 0 ? this.root : fromHeld ? (this.held.get(p) as number) : this.prevSlot;
		const start = F.next[s] as number;
		F.next[s] = start + size;
		const top = (F.node[s] as number) < 0;
		const t = hasKids ? F.alloc() : -1;
		let bits = 0;
		let up = -1;
		let depth = 0;
		let near = top ? -1 : (F.flat[s] as number);
		if (visible) {
			const vkids = F.kids[s] as number;
			up = top ? -1 : (F.bits[s] as number) & BRANCH_CHILD ? (F.node[s] as number) : (F.up[s] as number);
			bits = connectorBits(vkids, top, start + size, top ? this.shown : (F.flat[s] as number) + (F.size[s] as number));
			depth = (bits & BRANCH_CHILD ? 1 : 0) + (top ? 0 : (F.depth[s] as number));
			near = start;
			// A fork's head: a node of its own, row id -1.
			this.shownAt(start, i, positionFlags(this.forks && row < 0, kids, vkids === 1 && !top, flags));
			if (t >= 0) {
				F.next[t] = start + 1;
				F.node[t] = i;
				F.bits[t] = bits;
				F.up[t] = up;
				F.flat[t] = start;
				F.size[t] = size;
				F.kids[t] = kids;
				F.depth[t] = depth;
			}
		} else if (t >= 0) F.copy(t, s, start);
		const out = this.out;
		out.row.push(row);
		out.parent.push(p);
		out.near.push(near);
		out.bits.push(bits);
		out.up.push(up);
		out.depth.push(depth);
		if (lastOfParent) {
			F.release(s);
			// Only a parent whose last child is not next to it was held (its frame came from there).
			if (fromHeld) this.held.delete(p);
		}
		if (t >= 0) {
			if (lastFar) this.held.set(i, t);
			this.prevNode = i;
			this.prevSlot = t;
		} else this.prevNode = -1;
	}

	/** Writes what the node columns hold past their last full chunk. */
	end(): void {
		for (const sink of Object.values(this.out)) sink.flush();
	}
}

/** The rows with nothing unfolded of display positions held in memory (RowMaker); returns the rows' count. */
function rowsOf(pos: Uint8Array, put: ChunkPut): number {
	const rows = new RowMaker(put);
	for (let f = 0; f < pos.length; f++) rows.push(pos[f] as number);
	return rows.end();
}

/**
 * The rows with nothing unfolded (tree-window.ts positionsOf and layRows, no focus, not searching), a display position
 * at a time in display order: kept positions a row each (a fork's head its own kind), runs of foldable ones a fold
 * when long enough. Writes the position and row columns.
 */
export class RowMaker {
	private readonly kept: Sink;
	private readonly rowStart: Sink;
	private readonly rowType: Sink;
	private readonly rowCount: Sink;
	private readonly rowOfFlat: Sink;
	private rows = 0;
	private from = -1;
	private rowFrom = 0;
	private f = 0;

	constructor(put: ChunkPut) {
		this.kept = new Sink(put, "kept");
		this.rowStart = new Sink(put, "rowStart");
		this.rowType = new Sink(put, "rowType");
		this.rowCount = new Sink(put, "rowCount");
		this.rowOfFlat = new Sink(put, "rowOfFlat");
	}

	/** The next display position's POS flags. */
	push(p: number): void {
		const f = this.f++;
		if (p & (POS.keep | POS.user)) {
			this.kept.push(1);
			this.close(f);
			this.rowAt(f, p & POS.head ? 1 : 0);
			return;
		}
		this.kept.push(0);
		if (this.from < 0 || !(p & POS.continues)) {
			this.close(f);
			this.from = f;
		}
	}

	/** Ends the last row and writes what the columns hold; returns the rows' count. */
	end(): number {
		const len = this.f;
		this.close(len);
		if (this.rows > 0) {
			this.rowCount.push(len - this.rowFrom);
			for (let q = this.rowFrom; q < len; q++) this.rowOfFlat.push(this.rows - 1);
		}
		for (const sink of [this.kept, this.rowStart, this.rowType, this.rowCount, this.rowOfFlat]) sink.flush();
		return this.rows;
	}

	/** A row starts: the one before it ends there, its positions and count known. */
	private rowAt(start: number, type: number): void {
		if (this.rows > 0) {
			this.rowCount.push(start - this.rowFrom);
			for (let q = this.rowFrom; q < start; q++) this.rowOfFlat.push(this.rows - 1);
		}
		this.rowStart.push(start);
		this.rowType.push(type);
		this.rowFrom = start;
		this.rows++;
	}

	/** Ends the run of foldable positions open before `to`: a fold when long enough, else a row each. */
	private close(to: number): void {
		const from = this.from;
		if (from < 0) return;
		if (to - from >= FOLD_MIN) this.rowAt(from, 2);
		else for (let q = from; q < to; q++) this.rowAt(q, 0);
		this.from = -1;
	}
}
