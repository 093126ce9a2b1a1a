/**
 * The tree view's flattening (src/query/tree-flatten.ts) against a plain recursive walk written here: on random trees
 * (chains, bushes, forests, fork heads, hidden runs), every filter mode, the shown nodes come in the whole tree's
 * pre-order with the connectors pi's /tree draws.
 */
import { describe, expect, it } from "vitest";
import { SHAPE } from "../src/index/tree-rows.js";
import { BRANCH_CHILD, CONTINUES, depths, flatten, HIT, LAST, lastInPreorder, prefixDrawer, shown, type TreeNodes } from "../src/query/tree-flatten.js";
import { TREE_FILTER_MODES, type TreeFilterMode } from "../src/shared/types.js";

/** A seeded generator, so a failure names the tree that broke. */
function random(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

const FLAG_BITS = [SHAPE.user, SHAPE.label, SHAPE.summary, SHAPE.bookkeeping, SHAPE.toolResult, SHAPE.callsOnly, SHAPE.text, HIT];

function randomTree(seed: number): { nodes: TreeNodes; leaf: number } {
	const rnd = random(seed);
	const n = 1 + Math.floor(rnd() * 80);
	const branchy = rnd();
	const nodeRow = new Int32Array(n);
	const nodeParent = new Int32Array(n);
	const nodeFlags = new Uint16Array(n);
	for (let i = 0; i < n; i++) {
		nodeRow[i] = rnd() < 0.05 ? -1 : i + 1;
		const r = rnd();
		// Parents always come first: the entry above, any earlier one, or none (a new root).
		nodeParent[i] = i === 0 || r < 0.05 ? -1 : r < 1 - branchy * 0.6 ? i - 1 : Math.floor(rnd() * i);
		let f = 0;
		for (const bit of FLAG_BITS) if (rnd() < 0.25) f |= bit;
		nodeFlags[i] = f;
	}
	return { nodes: { nodeRow, nodeParent, nodeFlags }, leaf: Math.floor(rnd() * n) };
}

/** The same answer by a recursive walk: pre-order of the whole tree, the hidden left out, connectors per shown parent. */
function reference(b: TreeNodes, mode: TreeFilterMode, words: boolean, leaf: number) {
	const n = b.nodeRow.length;
	const visible = (i: number) => (b.nodeRow[i] as number) < 0 || shown(b.nodeFlags[i] as number, mode, words, i === leaf);
	const children: number[][] = Array.from({ length: n + 1 }, () => []);
	for (let i = 0; i < n; i++) (children[(b.nodeParent[i] as number) < 0 ? n : (b.nodeParent[i] as number)] as number[]).push(i);
	const order: number[] = [];
	const walk = (i: number) => {
		if (i < n) order.push(i);
		for (const c of children[i] as number[]) walk(c);
	};
	walk(n);
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
				const plain = {
					hits: got.hits,
					hidden: got.hidden,
					flat: [...got.flat],
					flatOf: [...got.flatOf],
					// A hidden node's count is what it passes on: only a shown node's is its own.
					kids: Array.from(got.kids, (k, i) => ((got.flatOf[i] as number) >= 0 ? k : 0)),
					bits: [...got.bits],
					up: [...got.up],
					depth: [...depths(got)],
				};
				expect(plain, `seed ${seed}`).toEqual({ ...want, order: undefined });
				// A window draws a shown node's depth alone.
				const draw = prefixDrawer(
					(i) => got.up[i] as number,
					(i) => got.bits[i] as number,
				);
				expect(
					Array.from(got.flat, (i) => draw(i).depth),
					`seed ${seed}`,
				).toEqual(want.flat.map((i) => want.depth[i]));
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
		expect(depths(got)[n - 1]).toBe(0);
		expect(got.bits[n - 1]).toBe(CONTINUES);
	});
});
