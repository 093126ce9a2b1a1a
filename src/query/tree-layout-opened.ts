/**
 * The tree layout an open makes of a big lone session that has none kept (before the indexer's pass, or a filter typed
 * in its tree view): laid out a chunk at a time (tree-layout-spill.ts) into a scratch file, read as a kept layout is,
 * and held for the next windows of the same layout.
 */
import { dirname } from "node:path";
import type { IndexStore } from "../index/store.js";
import {
	type ChunkPut,
	type Column,
	columnOf,
	LAYOUT_CHUNK,
	LayoutGoneError,
	type LayoutHead,
	type LayoutPart,
	type LayoutValues,
} from "../index/tree-layout-store.js";
import type { TreeWindow, TreeWindowRequest } from "../shared/types.js";
import { Scratch } from "./scratch-file.js";
import { type LayoutCase, windowOf } from "./tree-layout.js";
import { layOut } from "./tree-layout-spill.js";
import { FRAMES_MAX } from "./tree-layout-stream.js";

/** A layout made at an open, its columns in a scratch file: read as a kept layout's (LayoutReader), each chunk once while held. */
class ScratchLayout implements LayoutValues {
	private readonly where = new Map<string, [number, number]>();
	private readonly held = new Map<string, Column>();
	private end = 0;

	constructor(private readonly file: Scratch) {}

	readonly put: ChunkPut = (part, chunk, values) => {
		this.file.write(values, this.end);
		this.where.set(`${part}:${chunk}`, [this.end, values.byteLength]);
		this.end += values.byteLength;
	};

	at(part: LayoutPart, i: number): number {
		const c = Math.floor(i / LAYOUT_CHUNK);
		const key = `${part}:${c}`;
		let a = this.held.get(key);
		if (!a) {
			const at = this.where.get(key);
			if (!at) throw new LayoutGoneError(`tree layout: chunk ${key} is missing`);
			const bytes = new Uint8Array(at[1]);
			this.file.read(bytes, at[0]);
			a = columnOf(part, bytes);
			if (this.held.size >= HELD_CHUNKS) this.held.clear();
			this.held.set(key, a);
		}
		const v = a[i - c * LAYOUT_CHUNK];
		if (v === undefined) throw new LayoutGoneError(`tree layout: ${part}[${i}] is out of range`);
		return v;
	}

	close(): void {
		this.file.close();
	}
}

/** Chunks a layout made at an open holds read at once (as the index's reader). */
const HELD_CHUNKS = 512;

/** The last layout an open made (one per process: a new one closes the old one's file), and what it was made for. */
let opened: { store: WeakRef<IndexStore>; session: number; key: string; head: LayoutHead; layout: ScratchLayout } | null = null;

/** Closes the layout an open made of this session (its kept layout now answers), freeing its scratch file. */
export function forgetSpilled(session: number): void {
	if (opened?.session === session) {
		opened.layout.close();
		opened = null;
	}
}

/**
 * A window of a lone session's tree that has no kept layout (none yet, or a filter typed: `words`), laid out here a
 * chunk at a time into a scratch file and kept for the next windows of the same layout: an open that only reads (the
 * explorer's query connection) of a session too big to lay out in memory. Throws ShapeTooBigError or ShapeChunksError
 * as keepSpilled.
 */
export function spilledWindow(
	store: IndexStore,
	lc: LayoutCase,
	request: TreeWindowRequest,
	words: readonly string[] = [],
	maxWaiting = FRAMES_MAX,
): TreeWindow {
	const key = JSON.stringify([lc.session.id, lc.filter, lc.sig, words]);
	if (opened?.store.deref() !== store || opened.key !== key) {
		opened?.layout.close();
		opened = null;
		const layout = new ScratchLayout(Scratch.open(dirname(store.path)));
		try {
			// One snapshot of the shape, as the indexer's write has; a typed filter's scan of the session's rows through a
			// small unmapped cache, as the indexer reads (through the search cache's map each page read would stay in RSS).
			const head = store.withSmallCache(() => store.db.transaction(() => layOut(store, lc, maxWaiting, layout.put, words))());
			opened = { store: new WeakRef(store), session: lc.session.id, key, head, layout };
		} catch (e) {
			layout.close();
			throw e;
		}
	}
	return windowOf(store, lc, request, opened.head, opened.layout);
}
