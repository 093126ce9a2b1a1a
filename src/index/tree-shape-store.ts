/**
 * A session's tree shape kept at ingest (table tree_shape): per entry in file order its row id, its parent link and the
 * flags that never change after insert, CHUNK entries per row (ids and links run-encoded, shape-codec.ts). The tree
 * view reads a 1,000,000-entry session's shape as a few hundred blobs instead of a million rows; what can change later (labels, context edits) is read through
 * partial indexes, and a parent that was not indexed yet when its child was is resolved at read time.
 */
import { decodeFlags, decodeIds, decodeParents, encodeFlags, encodeIds, encodeParents } from "./shape-codec.js";
import type { IndexStore } from "./store.js";

/** Entries per tree_shape row: an append rewrites at most one row of this size. */
export const SHAPE_CHUNK = 4096;

/** Parent links: the row above in file order, no parent in the session, not known at insert (resolved on read). */
export const PARENT_PREVIOUS = -1;
export const PARENT_NONE = 0;
export const PARENT_LATER = -2;

/** Flags of an entry that its insert fixes (the same bits as tree-rows.ts SHAPE). */
export const FIXED = {
	user: 1,
	summary: 4,
	error: 8,
	bookkeeping: 32,
	toolResult: 64,
	callsOnly: 128,
} as const;

const BOOKKEEPING = new Set(["label", "context_edit", "custom", "model_change", "thinking_level_change", "session_info"]);

/** What an inserted event tells the shape. */
export interface ShapeInput {
	eventId: number;
	entryId: string;
	parentId: string | null;
	type: string;
	role: string | null;
	isError: boolean | null;
	stopReason: string | null;
	frags: string;
}

/** The fixed flags of an event (tree-rows.ts SHAPE without the label and edit bits, which can change later). */
export function fixedFlags(e: ShapeInput): number {
	const message = e.type === "message";
	let f = 0;
	if (message && e.role === "user") f |= FIXED.user;
	if (e.type === "compaction" || e.type === "branch_summary") f |= FIXED.summary;
	if (e.isError === true) f |= FIXED.error;
	if (BOOKKEEPING.has(e.type)) f |= FIXED.bookkeeping;
	if (message && e.role === "toolResult") f |= FIXED.toolResult;
	const stop = e.stopReason ?? "stop";
	if (
		message &&
		e.role === "assistant" &&
		!e.frags.includes("assistant.text:") &&
		!e.frags.includes("assistant.error:") &&
		(stop === "stop" || stop === "toolUse")
	)
		f |= FIXED.callsOnly;
	return f;
}

interface ChunkRow {
	chunk: number;
	n: number;
	ids: Buffer;
	pars: Buffer;
	flags: Buffer;
	last_entry: string;
}

/** Adds a session's newly inserted events (file order, after every indexed one) to its shape. */
export function appendShape(store: IndexStore, session: number, events: readonly ShapeInput[]): void {
	if (events.length === 0) return;
	const tail = store
		.prepare<[number], ChunkRow>("SELECT chunk, n, ids, pars, flags, last_entry FROM tree_shape WHERE session_id = ? ORDER BY chunk DESC LIMIT 1")
		.get(session);
	let chunk = tail?.chunk ?? 0;
	let n = tail?.n ?? 0;
	// Columns as long as this chunk will get (a small session's are small): what is kept, what is added, one chunk at most.
	const room = (left: number) => Math.min(SHAPE_CHUNK, n + left);
	let ids = new Int32Array(room(events.length));
	let pars = new Int32Array(ids.length);
	let flags = new Uint16Array(ids.length);
	if (tail) {
		decodeIds(tail.ids, n, ids, 0);
		decodeParents(tail.pars, n, pars, 0);
		decodeFlags(tail.flags, n, flags, 0);
	}
	let previous: string | null = tail?.last_entry ?? null;
	const write = store.prepare(
		"INSERT INTO tree_shape (session_id, chunk, n, ids, pars, flags, last_entry) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, chunk) DO UPDATE SET n = excluded.n, ids = excluded.ids, pars = excluded.pars, flags = excluded.flags, last_entry = excluded.last_entry",
	);
	const parentRow = store.prepare<[number, string], { id: number }>("SELECT id FROM events WHERE session_id = ? AND entry_id = ?");
	const flush = () =>
		write.run(session, chunk, n, encodeIds(ids.subarray(0, n)), encodeParents(pars.subarray(0, n)), encodeFlags(flags.subarray(0, n)), previous ?? "");
	for (let k = 0; k < events.length; k++) {
		const e = events[k] as ShapeInput;
		if (n === SHAPE_CHUNK) {
			flush();
			chunk++;
			n = 0;
			ids = new Int32Array(room(events.length - k));
			pars = new Int32Array(ids.length);
			flags = new Uint16Array(ids.length);
		}
		let par: number = PARENT_NONE;
		if (e.parentId !== null) {
			if (e.parentId === previous) par = PARENT_PREVIOUS;
			else par = parentRow.get(session, e.parentId)?.id ?? PARENT_LATER;
		}
		ids[n] = e.eventId;
		pars[n] = par;
		flags[n] = fixedFlags(e);
		n++;
		previous = e.entryId;
	}
	flush();
}

/**
 * Rewrites the shape entry at `position` (file order) for an entry replaced under the same row id (session-writer.ts
 * replace): its parent link and fixed flags, in the one chunk that holds it. True when either changed.
 */
export function replaceShapeEntry(store: IndexStore, session: number, position: number, e: ShapeInput): boolean {
	const chunk = Math.floor(position / SHAPE_CHUNK);
	const k = position % SHAPE_CHUNK;
	const rows = store
		.prepare<[number, number, number], ChunkRow>("SELECT chunk, n, ids, pars, flags, last_entry FROM tree_shape WHERE session_id = ? AND chunk IN (?, ?)")
		.all(session, chunk - 1, chunk);
	const row = rows.find((r) => r.chunk === chunk);
	const ids = new Int32Array(row?.n ?? 0);
	if (row) decodeIds(row.ids, row.n, ids, 0);
	if (!row || k >= row.n || ids[k] !== e.eventId) throw new Error(`tree shape of session ${session}: entry ${position} is not row ${e.eventId}`);
	const pars = new Int32Array(row.n);
	const flags = new Uint16Array(row.n);
	decodeParents(row.pars, row.n, pars, 0);
	decodeFlags(row.flags, row.n, flags, 0);
	// The row above in file order, for a PARENT_PREVIOUS link: this chunk's, or the last of the chunk before.
	let above: number | undefined = k > 0 ? ids[k - 1] : undefined;
	const before = rows.find((r) => r.chunk === chunk - 1);
	if (k === 0 && before) {
		const last = new Int32Array(before.n);
		decodeIds(before.ids, before.n, last, 0);
		above = last[before.n - 1];
	}
	let par = PARENT_NONE;
	if (e.parentId !== null) {
		// Not plucked: the store caches statements by their text, and appendShape reads this one as rows.
		const parent = store.prepare<[number, string], { id: number }>("SELECT id FROM events WHERE session_id = ? AND entry_id = ?").get(session, e.parentId)?.id;
		par = parent === undefined ? PARENT_LATER : parent === above ? PARENT_PREVIOUS : parent;
	}
	const flag = fixedFlags(e);
	if (pars[k] === par && flags[k] === flag) return false;
	pars[k] = par;
	flags[k] = flag;
	store.prepare("UPDATE tree_shape SET pars = ?, flags = ? WHERE session_id = ? AND chunk = ?").run(encodeParents(pars), encodeFlags(flags), session, chunk);
	return true;
}

/** A session's kept shape in file order: row ids, parent links (PARENT_*, else a row id) and fixed flags. */
export interface KeptShape {
	ids: Int32Array;
	parents: Int32Array;
	flags: Uint16Array;
	/** Positions whose parent link is not PARENT_PREVIOUS, ascending: pi's tree is mostly one path, so these are few. */
	links: number[];
}

/** The kept shape from chunk `from` on (entry `from * SHAPE_CHUNK` first): what an append changed, without the rest. */
export function readShapeFrom(store: IndexStore, session: number, from: number): KeptShape & { offset: number } {
	// The count first (each row's n is before its blobs): the columns are made once, and each chunk's blobs are
	// garbage once copied instead of all held until the end.
	const size = store
		.prepare<[number, number], { first: number | null; total: number }>(
			"SELECT min(chunk) AS first, total(n) AS total FROM tree_shape WHERE session_id = ? AND chunk >= ?",
		)
		.get(session, from) as { first: number | null; total: number };
	const ids = new Int32Array(size.total);
	const parents = new Int32Array(size.total);
	const flags = new Uint16Array(size.total);
	const rows = store
		.prepare<[number, number], [number, Buffer, Buffer, Buffer]>(
			"SELECT n, ids, pars, flags FROM tree_shape WHERE session_id = ? AND chunk >= ? ORDER BY chunk",
		)
		.raw();
	const links: number[] = [];
	let at = 0;
	for (const [n, a, p, f] of rows.iterate(session, from)) {
		decodeIds(a, n, ids, at);
		decodeParents(p, n, parents, at, links);
		decodeFlags(f, n, flags, at);
		at += n;
	}
	// Chunks are full but the last: a gap means the shape is not what this reader expects.
	const offset = size.first === from ? from * SHAPE_CHUNK : -1;
	return { offset, ids, parents, flags, links };
}

/** Chunks readingShapeIds decodes per step. */
const CHUNKS_PER_STEP = 16;

/**
 * The row ids of a session's kept shape, in file order, from index 0 of an array of `size` (at least `expected`): a few
 * run-encoded blobs, not a row per entry, CHUNKS_PER_STEP chunks per step. Null when the chunks do not hold exactly
 * `expected` ids.
 */
export function* readingShapeIds(store: IndexStore, session: number, expected: number, size = expected): Generator<void, Float64Array | null> {
	const ids = new Float64Array(size);
	const page = store
		.prepare<[number, number, number], [number, number, Buffer]>(
			"SELECT chunk, n, ids FROM tree_shape WHERE session_id = ? AND chunk >= ? ORDER BY chunk LIMIT ?",
		)
		.raw();
	let at = 0;
	for (let next = 0; ; yield) {
		const rows = page.all(session, next, CHUNKS_PER_STEP);
		for (const [chunk, n, b] of rows) {
			if (at + n > expected) return null;
			try {
				decodeIds(b, n, ids, at);
			} catch {
				// A chunk whose runs do not add up to its count.
				return null;
			}
			at += n;
			next = chunk + 1;
		}
		if (rows.length < CHUNKS_PER_STEP) break;
	}
	return at === expected ? ids : null;
}

/** A session's kept shape (KeptShape). */
export function readShape(store: IndexStore, session: number): KeptShape {
	const { offset: _offset, ...shape } = readShapeFrom(store, session, 0);
	return shape;
}
