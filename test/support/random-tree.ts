/** Random family trees for the tree view's layout tests: parents before children, a seed naming each tree. */
import { SHAPE } from "../../src/index/tree-rows.js";
import { HIT, type TreeNodes } from "../../src/query/tree-flatten.js";

/** A seeded generator, so a failure names the tree that broke. */
export function random(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

/** The flags a random node may carry. */
const FLAG_BITS = [SHAPE.user, SHAPE.label, SHAPE.summary, SHAPE.bookkeeping, SHAPE.toolResult, SHAPE.callsOnly, SHAPE.text, HIT];

/** A tree of 1 to 80 nodes, from a chain to a bush; with `heads`, a few nodes are fork heads (row id -1). */
export function randomTree(seed: number, heads = true): { nodes: TreeNodes; leaf: number } {
	const rnd = random(seed);
	const n = 1 + Math.floor(rnd() * 80);
	const branchy = rnd();
	const nodeRow = new Int32Array(n);
	const nodeParent = new Int32Array(n);
	const nodeFlags = new Uint16Array(n);
	for (let i = 0; i < n; i++) {
		nodeRow[i] = heads && rnd() < 0.05 ? -1 : i + 1;
		const r = rnd();
		// Parents always come first: the entry above, any earlier one, or none (a new root).
		nodeParent[i] = i === 0 || r < 0.05 ? -1 : r < 1 - branchy * 0.6 ? i - 1 : Math.floor(rnd() * i);
		let f = 0;
		for (const bit of FLAG_BITS) if (rnd() < 0.25) f |= bit;
		nodeFlags[i] = f;
	}
	return { nodes: { nodeRow, nodeParent, nodeFlags }, leaf: Math.floor(rnd() * n) };
}
