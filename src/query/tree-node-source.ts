/**
 * Nodes read a chunk at a time for a layout that does not hold them (tree-layout-spill.ts): the interface, and a lone
 * session's (or a family root's) nodes from its kept shape.
 */
import type { ShapeChunks } from "../index/tree-rows.js";
import { SHAPE_CHUNK } from "../index/tree-shape-store.js";
import { indexOfSorted } from "../shared/sorted.js";

/** A chunk of nodes in node order: row ids, parent nodes (-1: none, always before the node) and flags. */
export interface NodeChunk {
	ids: Int32Array;
	parents: Int32Array;
	flags: Uint16Array;
}

/** Nodes read a chunk at a time: all chunks hold `size` nodes but the last. */
export interface NodeSource {
	nodes: number;
	size: number;
	chunk(c: number): NodeChunk;
}

/** Chunks decoded at most at once (a parent link's chunk, the chunk being read). */
const CACHED = 4;

/** A lone session's nodes read from its kept shape a chunk at a time (tree-shape.ts root() when every entry shows). */
export class ShapeNodes implements NodeSource {
	readonly nodes: number;
	readonly size = SHAPE_CHUNK;
	/** Each chunk's first row id, once read (NaN: not yet). */
	private readonly firsts: Float64Array;
	private readonly cache = new Map<number, ReturnType<ShapeChunks["read"]>>();

	constructor(private readonly chunks: ShapeChunks) {
		this.nodes = chunks.entries;
		this.firsts = new Float64Array(chunks.count).fill(Number.NaN);
	}

	chunk(c: number): NodeChunk {
		const s = this.shape(c);
		const base = c * SHAPE_CHUNK;
		const parents = new Int32Array(s.ids.length);
		for (let k = 0; k < parents.length; k++) parents[k] = base + k - 1;
		for (const k of s.links) {
			const par = s.parents[k] as number;
			// A parent later in the file is not attached (tree-shape.ts parentNodes).
			const at = par > 0 ? this.nodeOfRow(par) : -1;
			parents[k] = at >= 0 && at < base + k ? at : -1;
		}
		return { ids: s.ids, parents, flags: s.flags };
	}

	/** The node of an event row id (-1: not in this session). */
	nodeOfRow(id: number): number {
		let lo = 0;
		let hi = this.chunks.count - 1;
		let found = -1;
		while (lo <= hi) {
			const mid = (lo + hi) >> 1;
			if (this.first(mid) <= id) {
				found = mid;
				lo = mid + 1;
			} else hi = mid - 1;
		}
		if (found < 0) return -1;
		const k = indexOfSorted(this.shape(found).ids, id);
		return k < 0 ? -1 : found * SHAPE_CHUNK + k;
	}

	private first(c: number): number {
		const f = this.firsts[c] as number;
		return Number.isNaN(f) ? (this.shape(c).ids[0] ?? Number.POSITIVE_INFINITY) : f;
	}

	private shape(c: number): ReturnType<ShapeChunks["read"]> {
		let s = this.cache.get(c);
		if (s === undefined) {
			s = this.chunks.read(c);
			this.firsts[c] = s.ids[0] ?? Number.POSITIVE_INFINITY;
			if (this.cache.size >= CACHED) this.cache.delete(this.cache.keys().next().value as number);
			this.cache.set(c, s);
		}
		return s;
	}
}
