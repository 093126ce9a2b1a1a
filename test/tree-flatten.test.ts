/**
 * The tree view's flattening (src/query/tree-flatten.ts) against a plain recursive walk written here: on random trees
 * (chains, bushes, forests, fork heads, hidden runs), every filter mode, the shown nodes come in the whole tree's
 * pre-order with the connectors pi's /tree draws.
 */
import { describe, expect, it } from "vitest";
import { type ChunkPut, LAYOUT_CHUNK, type LayoutHead } from "../src/index/tree-layout-store.js";
import { SHAPE } from "../src/index/tree-rows.js";
import { BRANCH_CHILD, CONTINUES, flatten, HIT, LAST, lastInPreorder, prefixDrawer, shown, type TreeNodes } from "../src/query/tree-flatten.js";
import { spillLayout } from "../src/query/tree-layout-spill.js";
import { FRAMES_MAX, type LaidNodes, streamLayout } from "../src/query/tree-layout-stream.js";
import type { NodeSource } from "../src/query/tree-node-source.js";
import { ShapeTooBigError } from "../src/query/tree-shape.js";
import { TREE_FILTER_MODES, type TreeFilterMode } from "../src/shared/types.js";
import { randomTree } from "./support/random-tree.js";

/** The same answer by a plain walk: pre-order of the whole tree, the hidden left out, connectors per shown parent. */
function reference(b: TreeNodes, mode: TreeFilterMode, words: boolean, leaf: number) {
	const n = b.nodeRow.length;
	const visible = (i: number) => (b.nodeRow[i] as number) < 0 || shown(b.nodeFlags[i] as number, mode, words, i === leaf);
	const children: number[][] = Array.from({ length: n + 1 }, () => []);
	for (let i = 0; i < n; i++) (children[(b.nodeParent[i] as number) < 0 ? n : (b.nodeParent[i] as number)] as number[]).push(i);
	const order: number[] = [];
	// Depth-first from the virtual root, children in node order (a stack, so that a deep session fits).
	const stack = [n];
	while (stack.length > 0) {
		const i = stack.pop() as number;
		if (i < n) order.push(i);
		stack.push(...(children[i] as number[]).toReversed());
	}
	const shownParent = (i: number) => {
		for (let p = b.nodeParent[i] as number; p >= 0; p = b.nodeParent[p] as number) if (visible(p)) return p;
		return n;
	};
	const flat = order.filter(visible);
	const kidsOf = new Map<number, number[]>();
	for (const i of flat) kidsOf.set(shownParent(i), [...(kidsOf.get(shownParent(i)) ?? []), i]);
	const bits = new Array<number>(n).fill(0);
	const up = new Array<number>(n).fill(-1);
	const depth = new Array<number>(n).fill(0);
	for (const i of flat) {
		const p = shownParent(i);
		const siblings = kidsOf.get(p) as number[];
		const top = p === n;
		up[i] = top ? -1 : (bits[p] as number) & BRANCH_CHILD ? p : (up[p] as number);
		if (siblings.length === 1) {
			bits[i] = top ? 0 : CONTINUES;
			depth[i] = top ? 0 : (depth[p] as number);
		} else {
			bits[i] = BRANCH_CHILD | (siblings.at(-1) === i ? LAST : 0);
			depth[i] = (top ? 0 : (depth[p] as number)) + 1;
		}
	}
	const flatOf = new Array<number>(n).fill(-1);
	flat.forEach((i, at) => {
		flatOf[i] = at;
	});
	// Counted to 2: whether a node has exactly one shown child is all the layout asks.
	const kids = Array.from({ length: n }, (_, i) => Math.min(2, kidsOf.get(i)?.length ?? 0));
	let hits = 0;
	for (let i = 0; i < n; i++) if ((b.nodeRow[i] as number) >= 0 && (b.nodeFlags[i] as number) & HIT) hits++;
	return { hits, hidden: n - flat.length, flat, flatOf, kids, bits, up, depth, order };
}

describe("flattening a family's tree for the tree view", () => {
	const seeds = Array.from({ length: 300 }, (_, k) => k + 1);
	it.each(TREE_FILTER_MODES.flatMap((mode) => [false, true].map((words) => [mode, words] as const)))(
		"mode %s, typed words %s: 300 random trees equal the recursive walk",
		(mode, words) => {
			for (const seed of seeds) {
				const { nodes, leaf } = randomTree(seed);
				const got = flatten(nodes, mode, words, leaf);
				const want = reference(nodes, mode, words, leaf);
				// A window draws a shown node's depth alone.
				const draw = prefixDrawer(
					(i) => got.up[i] as number,
					(i) => got.bits[i] as number,
				);
				const plain = {
					hits: got.hits,
					hidden: got.hidden,
					flat: [...got.flat],
					flatOf: [...got.flatOf],
					// A hidden node's count is what it passes on: only a shown node's is its own.
					kids: Array.from(got.kids, (k, i) => ((got.flatOf[i] as number) >= 0 ? k : 0)),
					bits: [...got.bits],
					up: [...got.up],
					depth: Array.from(got.flatOf, (f, i) => (f >= 0 ? draw(i).depth : 0)),
				};
				expect(plain, `seed ${seed}`).toEqual({ ...want, order: undefined });
			}
		},
	);

	it("tells whether the last node is the last of the whole tree's pre-order, as the recursive walk orders them", () => {
		let last = 0;
		for (const seed of seeds) {
			const { nodes } = randomTree(seed);
			const n = nodes.nodeParent.length;
			const want = reference(nodes, "all", false, -1).order.at(-1) === n - 1;
			if (want) last++;
			expect(lastInPreorder(nodes.nodeParent), `seed ${seed}`).toBe(want);
		}
		// Both answers are met among the random trees.
		expect(last).toBeGreaterThan(20);
		expect(last).toBeLessThan(280);
	});

	it.each([
		{ parents: [-1, 0, 1], last: true },
		{ parents: [-1, 0, 0], last: true },
		{ parents: [-1, 0, 1, 0], last: true },
		{ parents: [-1, 0, 0, 1], last: false },
		{ parents: [-1, -1, 1], last: true },
		{ parents: [-1, 0, -1, 1], last: false },
		{ parents: [-1], last: true },
		{ parents: [], last: false },
	])("parents $parents: last in pre-order $last", ({ parents, last }) => {
		expect(lastInPreorder(Int32Array.from(parents))).toBe(last);
	});

	it("a chain deeper than any call stack flattens in order", () => {
		const n = 200_000;
		const nodeParent = Int32Array.from({ length: n }, (_, i) => i - 1);
		const got = flatten({ nodeRow: Int32Array.from({ length: n }, (_, i) => i + 1), nodeParent, nodeFlags: new Uint16Array(n) }, "all", false, n - 1);
		expect(got.flat[n - 1]).toBe(n - 1);
		expect(got.bits[n - 1]).toBe(CONTINUES);
	});
});

/** A layout written a chunk at a time, as the indexer keeps it. */
type Layout = (nodes: LaidNodes, mode: TreeFilterMode, maxFrames: number, put: ChunkPut) => Omit<LayoutHead, "sig" | "members">;

/** spillLayout over nodes held here, handed to it `size` at a time as a session's kept shape would be. */
function spilledBy(size: number, words = false): Layout {
	return (nodes, mode, maxFrames, put) => {
		const slice = <T extends Int32Array | Uint16Array>(a: T, c: number) => a.subarray(c * size, (c + 1) * size) as T;
		const source: NodeSource = {
			nodes: nodes.nodeRow.length,
			size,
			chunk: (c) => ({ ids: slice(nodes.nodeRow, c), parents: slice(nodes.nodeParent, c), flags: slice(nodes.nodeFlags, c) }),
		};
		return spillLayout(source, nodes.leafNode, mode, maxFrames, put, words);
	};
}

describe("the indexer's layout, written as it is made (src/query/tree-layout-stream.ts, tree-layout-spill.ts)", () => {
	const seeds = Array.from({ length: 300 }, (_, k) => k + 1);
	/** Every column streamLayout hands out, put back together from its chunks (which come in order, full but the last). */
	const streamed = (nodes: TreeNodes, mode: TreeFilterMode, leaf: number, maxFrames = FRAMES_MAX, layout: Layout = streamLayout) => {
		const parts = new Map<string, number[]>();
		const head = layout({ ...nodes, leafNode: leaf }, mode, maxFrames, (part, chunk, values) => {
			const list = parts.get(part) ?? [];
			expect(list.length % LAYOUT_CHUNK).toBe(0);
			expect(chunk * LAYOUT_CHUNK).toBe(list.length);
			list.push(...values);
			parts.set(part, list);
		});
		return { head, col: (part: string) => parts.get(part) ?? [] };
	};
	/** The rows of the reference: a run of three or more plain shown nodes (continuing, one shown child, nothing to keep) folds. */
	const foldedRows = (nodes: TreeNodes, want: ReturnType<typeof reference>) => {
		const keepBits = SHAPE.user | SHAPE.label | SHAPE.summary | SHAPE.error | SHAPE.edit | HIT;
		const plain = want.flat.map(
			(i) => (nodes.nodeRow[i] as number) >= 0 && want.bits[i] === CONTINUES && want.kids[i] === 1 && ((nodes.nodeFlags[i] as number) & keepBits) === 0,
		);
		const rows = { start: [] as number[], type: [] as number[], count: [] as number[], of: [] as number[] };
		for (let f = 0; f < want.flat.length; ) {
			let g = f;
			while (g < want.flat.length && plain[g]) g++;
			const runs = g - f >= 3 ? [[f, g, 2]] : g > f ? Array.from({ length: g - f }, (_, k) => [f + k, f + k + 1, 0]) : [];
			if (g === f) runs.push([f, f + 1, (nodes.nodeRow[want.flat[f] as number] as number) < 0 ? 1 : 0]);
			for (const [a, b, type] of runs as Array<[number, number, number]>) {
				for (let q = a; q < b; q++) rows.of.push(rows.start.length);
				rows.start.push(a);
				rows.type.push(type);
				rows.count.push(b - a);
			}
			f = g === f ? f + 1 : g;
		}
		return { rows, kept: plain.map((p) => (p ? 0 : 1)) };
	};

	// The families' layout in memory, and a lone session's read a chunk at a time (tree-layout-spill.ts): chunks of one
	// node, of a few, and of more than most trees hold; and with a filter typed (only nodes holding its words show).
	// A layout a chunk at a time makes a scratch file per tree: the costlier variants take the first 100 trees.
	const layouts: Array<[string, Layout, boolean, number]> = [
		["in memory", streamLayout, true, 300],
		["read 5 nodes at a time", spilledBy(5), false, 300],
		["read 1 node at a time", spilledBy(1), false, 100],
		["read 64 nodes at a time", spilledBy(64), false, 100],
		["read 5 nodes at a time, a filter typed", spilledBy(5, true), false, 100],
	];
	const cases = TREE_FILTER_MODES.flatMap((mode) => layouts.map(([name, layout, heads, count]) => [mode, name, count, layout, heads] as const));
	it.each(cases)("mode %s, %s: %i random trees' columns, rows and folds equal the recursive walk's", (mode, name, count, layout, heads) => {
		const words = name.endsWith("a filter typed");
		for (const seed of seeds.slice(0, count)) {
			const { nodes, leaf } = randomTree(seed, heads);
			const n = nodes.nodeRow.length;
			const want = reference(nodes, mode, words, leaf);
			const { head, col } = streamed(nodes, mode, leaf, FRAMES_MAX, layout);
			// Where a node shows: itself, else its nearest shown ancestor (-1: none).
			const near = Array.from({ length: n }, (_, i) => {
				for (let k = i; k >= 0; k = nodes.nodeParent[k] as number) if ((want.flatOf[k] as number) >= 0) return want.flatOf[k] as number;
				return -1;
			});
			const { rows, kept } = foldedRows(nodes, want);
			expect(
				{
					flat: col("flat"),
					bits: col("bits"),
					up: col("up"),
					depth: col("depth"),
					near: col("near"),
					row: col("row"),
					parent: col("parent"),
					kept: col("kept"),
					start: col("rowStart"),
					type: col("rowType"),
					count: col("rowCount"),
					of: col("rowOfFlat"),
					head: [head.shown, head.hidden, head.total, head.tailLast],
				},
				`seed ${seed}`,
			).toEqual({
				flat: want.flat,
				bits: want.bits,
				up: want.up,
				depth: want.depth,
				near,
				row: [...nodes.nodeRow],
				parent: [...nodes.nodeParent],
				kept,
				...rows,
				head: [want.flat.length, n - want.flat.length, rows.start.length, want.order.at(-1) === n - 1],
			});
		}
	});

	it("columns longer than a chunk come in chunks, in order", () => {
		const n = 3 * LAYOUT_CHUNK + 5;
		const nodeParent = Int32Array.from({ length: n }, (_, i) => (i % 7 === 0 ? i - 3 : i - 1));
		const nodes = { nodeRow: Int32Array.from({ length: n }, (_, i) => i + 1), nodeParent, nodeFlags: new Uint16Array(n) };
		const { col } = streamed(nodes, "all", n - 1);
		expect(col("flat")).toEqual(reference(nodes, "all", false, n - 1).flat);
	});

	it.each(layouts.slice(0, 2))("branches nested in each other, %s: past the bound on nodes waiting for a child, nothing is laid out", (_name, layout) => {
		// A chain of 100, then a child for each of them, the deepest first: all wait while the chain is placed.
		const n = 200;
		const nodeParent = Int32Array.from({ length: n }, (_, i) => (i < 100 ? i - 1 : 199 - i));
		const nodes = { nodeRow: Int32Array.from({ length: n }, (_, i) => i + 1), nodeParent, nodeFlags: new Uint16Array(n) };
		expect(() => streamed(nodes, "all", n - 1, 50, layout)).toThrow(ShapeTooBigError);
		expect(streamed(nodes, "all", n - 1, 120, layout).col("flat")).toEqual(reference(nodes, "all", false, n - 1).flat);
	});

	it("a session read a chunk at a time: more shown nodes than the scratch file is read at once, in many runs of display order", () => {
		// 100,000 entries: a branch off an older entry every 500, each branch's first entry hidden by the default filter.
		const n = 100_000;
		const nodeParent = Int32Array.from({ length: n }, (_, i) => (i > 0 && i % 500 === 0 ? i - 250 : i - 1));
		const nodeFlags = Uint16Array.from({ length: n }, (_, i) => (i % 500 === 0 ? SHAPE.bookkeeping : i % 3 === 0 ? SHAPE.user : 0));
		const nodes = { nodeRow: Int32Array.from({ length: n }, (_, i) => 10 * i + 7), nodeParent, nodeFlags };
		for (const mode of ["default", "user-only"] as const) {
			const want = reference(nodes, mode, false, n - 1);
			const got = streamed(nodes, mode, n - 1, FRAMES_MAX, spilledBy(LAYOUT_CHUNK));
			expect(got.col("flat")).toEqual(want.flat);
			expect(got.col("depth").filter((_, i) => want.flatOf[i] !== -1)).toEqual(want.depth.filter((_, i) => want.flatOf[i] !== -1));
			expect(got.head.tailLast).toBe(want.order.at(-1) === n - 1);
		}
	});
});
