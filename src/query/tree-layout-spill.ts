/**
 * A big lone session's or fork family's tree layout made without holding its nodes, kept by the indexer (or made for
 * an open that finds none kept: tree-layout-opened.ts): the shape read a chunk at a time (tree-rows.ts ShapeChunks;
 * a family's root so, its forks' own entries held: tree-family-source.ts),
 * backwards for flatten's backward pass and forwards for the forward pass (tree-layout-stream.ts Placer); what one
 * pass leaves the next (per node, per shown node) goes to a scratch file, and the rows are made from it in display
 * order (RowMaker). It holds a few chunks, the nodes that wait for a child, and the display order's jumps.
 */
import { dirname } from "node:path";
import type { IndexStore } from "../index/store.js";
import { type ChunkPut, LAYOUT_CHUNK, type LayoutHead, writeLayoutChunks, writeLayoutModes } from "../index/tree-layout-store.js";
import { eventIdOf, SHAPE, ShapeChunks } from "../index/tree-rows.js";
import type { TreeFilterMode } from "../shared/types.js";
import { Scratch, Spilled } from "./scratch-file.js";
import { FamilySource } from "./tree-family-source.js";
import { FILTER_BITS, filterTable, shown } from "./tree-flatten.js";
import { type LayoutCase, MARKS_MAX } from "./tree-layout.js";
import { FRAMES_MAX, Frames, Placer, RowMaker, Sink } from "./tree-layout-stream.js";
import { type NodeSource, ShapeNodes } from "./tree-node-source.js";
import { type Col, i32, ShapeTooBigError } from "./tree-shape.js";

/**
 * Lone sessions (fork families: of entries, copies included) of this many entries or more are laid out a chunk at a time: by the indexer (its peak stays the
 * refresh's, where holding the nodes added about 25 bytes an entry), and by an open that finds no kept layout (the
 * layout goes to a scratch file instead of memory, where it took about 45 bytes an entry and more as modes changed).
 */
export const SPILL_FROM = 2_000_000;

/**
 * The most nodes of a family's forks a layout a chunk at a time holds (about 10 bytes each, and 14 more of the fork being
 * read): its root's are read a chunk at a time, however many. Past it, the family is left to an open in memory.
 */
export const FAMILY_HELD_MAX = 8_000_000;

/** Bits the backward pass leaves per node: shown, what hangs from it (two bits), children, last child not next, its parent's last. */
const SHOWN = 1;
const KIDS_SHIFT = 1;
const HAS_KIDS = 8;
const LAST_OF_PARENT = 16;
const LAST_FAR = 32;

/** Values read or written to the scratch file at a time. */
const PIECE = 65536;

/** A node waiting (in the backward pass) for itself: what its children met so far add up to, and its last child. */
interface Waiting {
	size: number;
	kids: number;
	last: number;
}

/** What the backward pass leaves besides its per-node columns. */
interface Backward {
	shown: number;
	hidden: number;
	rootKids: number;
	tailLast: boolean;
}

/**
 * A lone session's or family's layout in one mode (the caller's transaction: one snapshot of its shapes), its columns
 * handed to `put`; a family's head lists its sessions' stretches.
 */
export function layOut(store: IndexStore, lc: LayoutCase, maxWaiting: number, put: ChunkPut, words: readonly string[] = []): LayoutHead {
	if (lc.members > 1) return layOutFamily(store, lc, familySource(store, lc, words), maxWaiting, put, words.length > 0);
	const source = new ShapeNodes(new ShapeChunks(store, lc.session.id, words));
	const leafRow = lc.session.leaf_entry ? eventIdOf(store, lc.session.id, lc.session.leaf_entry) : undefined;
	const leafNode = leafRow === undefined ? -1 : source.nodeOfRow(leafRow);
	return { sig: lc.sig, ...spillLayout(source, leafNode, lc.filter, maxWaiting, put, words.length > 0, dirname(store.path)) };
}

/** A family's nodes for its layout: ShapeTooBigError past `maxHeld` forks' nodes, or when a session of the case is not attached. */
function familySource(store: IndexStore, lc: LayoutCase, words: readonly string[], maxHeld = FAMILY_HELD_MAX): FamilySource {
	const family = new FamilySource(store, lc.session, words, maxHeld);
	// A layout kept of fewer sessions would answer for the missing ones.
	if (family.members.length !== lc.members) throw new ShapeTooBigError("tree layout: a session of the family is not attached");
	return family;
}

/** One mode's layout of a family's nodes. */
function layOutFamily(store: IndexStore, lc: LayoutCase, family: FamilySource, maxWaiting: number, put: ChunkPut, words: boolean): LayoutHead {
	const laid = spillLayout(family, family.leafNode, lc.filter, maxWaiting, put, words, dirname(store.path), true);
	return { sig: lc.sig, ...laid, members: family.members };
}

/**
 * Keeps the layouts of a lone session or a family (`units`: its stale filter modes) without holding its nodes (nothing on
 * a read-only index); a family's nodes are found once for every mode, in one transaction. Throws ShapeTooBigError,
 * keeping nothing, when more than `maxWaiting` nodes wait for a child or the display order jumps more often than that
 * (or a family's forks hold more than `maxHeld` nodes), and ShapeChunksError when a kept shape is not in whole chunks.
 */
export function keepSpilled(store: IndexStore, units: readonly LayoutCase[], maxWaiting = FRAMES_MAX, maxHeld = FAMILY_HELD_MAX): void {
	const lc = units[0];
	if (store.readonly || !lc) return;
	// Read inside the write's transaction: a refresh by another process cannot change the shape between two chunks.
	if (lc.members === 1) {
		for (const u of units) writeLayoutChunks(store, u.session.id, u.filter, (put) => layOut(store, u, maxWaiting, put));
		return;
	}
	writeLayoutModes(store, lc.session.id, (write) => {
		const family = familySource(store, lc, [], maxHeld);
		for (const u of units) write(u.filter, (put) => layOutFamily(store, u, family, maxWaiting, put, false));
	});
}

/**
 * The layout of a lone session's nodes in one mode (`words`: only nodes holding a typed filter's words show, as
 * SHAPE.text marks them), read a chunk at a time, its columns handed to `put` as made (streamLayout's); its scratch
 * file in the folder `scratchNear` when it can be.
 */
export function spillLayout(
	source: NodeSource,
	leafNode: number,
	mode: TreeFilterMode,
	maxWaiting: number,
	put: ChunkPut,
	words = false,
	scratchNear?: string,
	forks = false,
): Omit<LayoutHead, "sig" | "members"> {
	const file = Scratch.open(scratchNear);
	try {
		const n = source.nodes;
		const back = backward(source, leafNode, mode, words, maxWaiting, file, forks);
		const marks = { firsts: [] as number[], labels: [] as number[], edits: [] as number[] };
		const runs = forward(source, back, new Frames(maxWaiting), maxWaiting, file, put, marks, forks);
		const total = rowsInOrder(runs, back.shown, n, file, put);
		return {
			nodes: n,
			shown: back.shown,
			total,
			hidden: back.hidden,
			leafNode,
			firsts: marks.firsts,
			tailLast: back.tailLast,
			labels: marks.labels.length <= MARKS_MAX ? marks.labels : null,
			edits: marks.edits.length <= MARKS_MAX ? marks.edits : null,
		};
	} finally {
		file.close();
	}
}

/**
 * flatten's backward pass (tree-flatten.ts shownBelow), a chunk at a time from the last: a node's children come after
 * it, so when it is met they all were, and what they add up to waits beside it (the next node's, in a variable). Also
 * each node's last child, and whether the last node is last in pre-order (tree-flatten.ts lastInPreorder): each node on
 * its path has that path's node as its last child, and no root comes after the path's. Writes per node its shown
 * count (4 bytes, from 0) and bits (a byte, from 4 per node) to the scratch file.
 */
function backward(source: NodeSource, leafNode: number, mode: TreeFilterMode, words: boolean, maxWaiting: number, file: Scratch, forks: boolean): Backward {
	const n = source.nodes;
	const decide = filterTable(mode, words);
	const chunks = Math.ceil(n / source.size);
	let leafShown = 0;
	if (leafNode >= 0 && leafNode < n) {
		const c = source.chunk(Math.floor(leafNode / source.size));
		leafShown = shown(c.flags[leafNode % source.size] as number, mode, words, true) ? 1 : 0;
	}
	const waiting = new Map<number, Waiting>();
	let carry: Waiting | null = null;
	let rootSize = 0;
	let rootKids = 0;
	let hidden = 0;
	let tailLast = n > 0;
	let pathChild = -1;
	let nextPath = n - 1;
	let pathRoot = -1;
	let lastRoot = -1;
	for (let c = chunks - 1; c >= 0; c--) {
		const { ids, parents, flags } = source.chunk(c);
		const base = c * source.size;
		const m = parents.length;
		const sizes = new Int32Array(m);
		const bits = new Uint8Array(m);
		for (let k = m - 1; k >= 0; k--) {
			const i = base + k;
			let size = 0;
			let kids = 0;
			let last = -1;
			// The next node's contribution, when it is this node's child; the rest of its children wait in the map.
			if (carry !== null) {
				size = carry.size;
				kids = carry.kids;
				last = carry.last;
				carry = null;
			}
			const w = waiting.get(i);
			if (w !== undefined) {
				size += w.size;
				kids = Math.min(2, kids + w.kids);
				last = w.last;
				waiting.delete(i);
			}
			const f = flags[k] as number;
			// A fork's head (row -1) always shows, as flatten's.
			const s = forks && (ids[k] as number) < 0 ? 1 : i === leafNode ? leafShown : (decide[f & FILTER_BITS] as number);
			hidden += 1 - s;
			size += s;
			const passes = s ? 1 : kids;
			const p = parents[k] as number;
			let lastOfParent = false;
			if (p < 0) {
				rootSize += size;
				rootKids = Math.min(2, rootKids + passes);
				if (lastRoot < 0) lastRoot = i;
			} else {
				const pw = waiting.get(p);
				if (pw !== undefined) {
					pw.size += size;
					pw.kids = Math.min(2, pw.kids + passes);
				} else if (p === i - 1) {
					carry = { size, kids: passes, last: i };
					lastOfParent = true;
				} else {
					if (waiting.size >= maxWaiting) throw new ShapeTooBigError(`tree layout: more than ${maxWaiting} nodes wait for a child`);
					waiting.set(p, { size, kids: passes, last: i });
					lastOfParent = true;
				}
			}
			if (i === nextPath) {
				if (pathChild >= 0 && last !== pathChild) tailLast = false;
				pathChild = i;
				nextPath = p;
				if (p < 0) pathRoot = i;
			}
			sizes[k] = size;
			bits[k] = s | (kids << KIDS_SHIFT) | (last >= 0 ? HAS_KIDS : 0) | (last > i + 1 ? LAST_FAR : 0) | (lastOfParent ? LAST_OF_PARENT : 0);
		}
		file.write(sizes, base * 4);
		file.write(bits, n * 4 + base);
	}
	return { shown: rootSize, hidden, rootKids, tailLast: tailLast && lastRoot === pathRoot };
}

/** Where the display order jumps: the display position and the shown node's ordinal (in node order) a run starts at. */
interface Runs {
	start: Col<Int32Array>;
	ordinal: Col<Int32Array>;
}

/**
 * The forward pass (Placer), a chunk at a time from the first, with what the backward pass left: writes the node
 * columns, and each shown node (node order) to the scratch file, from 5 bytes per node: its node (4 bytes) and its POS
 * flags (a byte, from 4 per shown node further). Returns the runs of consecutive display positions they make.
 */
function forward(
	source: NodeSource,
	back: Backward,
	frames: Frames,
	maxRuns: number,
	file: Scratch,
	put: ChunkPut,
	marks: { firsts: number[]; labels: number[]; edits: number[] },
	forks: boolean,
): Runs {
	const n = source.nodes;
	const shownNode = new Spilled(file, n * 5, new Int32Array(PIECE));
	const shownPos = new Spilled(file, n * 5 + back.shown * 4, new Uint8Array(PIECE));
	const runs: Runs = { start: i32(), ordinal: i32() };
	let ordinal = 0;
	let next = -1;
	const placer = new Placer(frames, put, forks, back.shown, back.rootKids, (start, node, pos) => {
		if (start !== next) {
			if (runs.start.length === maxRuns) throw new ShapeTooBigError(`tree layout: the display order jumps more than ${maxRuns} times`);
			runs.start.push(start);
			runs.ordinal.push(ordinal);
		}
		next = start + 1;
		ordinal++;
		shownNode.push(node);
		shownPos.push(pos);
	});
	const chunks = Math.ceil(n / source.size);
	for (let c = 0; c < chunks; c++) {
		const { ids, parents, flags } = source.chunk(c);
		const base = c * source.size;
		const m = ids.length;
		const sizes = new Int32Array(m);
		const bits = new Uint8Array(m);
		file.read(sizes, base * 4);
		file.read(bits, n * 4 + base);
		for (let k = 0; k < m; k++) {
			const i = base + k;
			const b = bits[k] as number;
			const f = flags[k] as number;
			const row = ids[k] as number;
			if (i % LAYOUT_CHUNK === 0) marks.firsts.push(row);
			if (f & SHAPE.label && marks.labels.length <= MARKS_MAX) marks.labels.push(row);
			if (f & SHAPE.edit && marks.edits.length <= MARKS_MAX) marks.edits.push(row);
			placer.place(
				i,
				parents[k] as number,
				row,
				f,
				b & SHOWN,
				sizes[k] as number,
				(b >> KIDS_SHIFT) & 3,
				(b & HAS_KIDS) !== 0,
				(b & LAST_FAR) !== 0,
				(b & LAST_OF_PARENT) !== 0,
			);
		}
	}
	placer.end();
	shownNode.flush();
	shownPos.flush();
	return runs;
}

/** The shown nodes in display order (the runs sorted by position), written as the flat column and made into rows. */
function rowsInOrder(runs: Runs, shownCount: number, n: number, file: Scratch, put: ChunkPut): number {
	const starts = runs.start.view;
	const ordinals = runs.ordinal.view;
	const order = Array.from({ length: starts.length }, (_, r) => r).sort((a, b) => (starts[a] as number) - (starts[b] as number));
	const flat = new Sink(put, "flat");
	const rows = new RowMaker(put);
	const nodes = new Int32Array(PIECE);
	const pos = new Uint8Array(PIECE);
	let expected = 0;
	for (const r of order) {
		if (starts[r] !== expected) throw new Error("tree layout: display positions do not follow each other");
		const from = ordinals[r] as number;
		const to = r + 1 < ordinals.length ? (ordinals[r + 1] as number) : shownCount;
		for (let at = from; at < to; at += PIECE) {
			const len = Math.min(PIECE, to - at);
			file.read(nodes.subarray(0, len), n * 5 + at * 4);
			file.read(pos.subarray(0, len), n * 5 + shownCount * 4 + at);
			for (let q = 0; q < len; q++) {
				flat.push(nodes[q] as number);
				rows.push(pos[q] as number);
			}
		}
		expected += to - from;
	}
	if (expected !== shownCount) throw new Error("tree layout: display positions are missing");
	flat.flush();
	return rows.end();
}
