/**
 * A big session's or fork family's tree view laid out and kept (table tree_layout, under the family's root), per
 * filter mode: the columns of the layout (query/tree-shape.ts flatten, query/tree-window.ts layRows with nothing
 * unfolded) in chunks of LAYOUT_CHUNK, so a window reads the few chunks it shows instead of the sessions. A cache of
 * what the rows say: written by the indexer or the first open after the family changed, told stale by a signature of
 * its files, dropped with the root's rows.
 */
import type { TreeForkHead } from "../shared/types.js";
import type { IndexStore } from "./store.js";

/** Values per chunk: a window of a hundred rows touches one or two chunks of each column. */
export const LAYOUT_CHUNK = 4096;

/** Columns of a kept layout: per node, per shown node (display order) and per row. */
export const LAYOUT_PARTS = {
	/** Node → its event row id. */
	row: "f64",
	/** Node → parent node (-1: none). */
	parent: "i32",
	/** Node → display position of itself, or (hidden by the filter) of its nearest shown ancestor; -1: none. */
	near: "i32",
	/** Node → connector bits, strict ancestor that is a branch child, indent depth. */
	bits: "u8",
	up: "i32",
	depth: "i32",
	/** Display position → node, the row showing it, and 1 when it is never folded (tree-window.ts isKept). */
	flat: "i32",
	rowOfFlat: "i32",
	kept: "u8",
	/** Row → its first display position, kind (0 entry, 2 fold) and count of entries. */
	rowStart: "i32",
	rowType: "u8",
	rowCount: "i32",
} as const;
export type LayoutPart = keyof typeof LAYOUT_PARTS;
export type Column = Float64Array | Int32Array | Uint8Array;

/** What a kept layout says as a whole. */
export interface LayoutHead {
	/** Signature of the session's files when it was laid out. */
	sig: string;
	nodes: number;
	shown: number;
	total: number;
	hidden: number;
	leafNode: number;
	/** The event row id of every LAYOUT_CHUNK-th node: a row id's node is found reading one chunk. */
	firsts: number[];
	/** The last node is the last of the whole tree's pre-order (entries appended under it go last). */
	tailLast: boolean;
	/** Row ids with a label and with a context edit when laid out (null: too many to keep here). */
	labels: number[] | null;
	edits: number[] | null;
	/**
	 * A fork family's layout (absent: one session, whose nodes are its entries): each session's nodes are one stretch,
	 * the root's first, each fork's from its head node, in node order.
	 */
	members?: LayoutMember[];
}

/** One session of a fork family's kept layout. */
export interface LayoutMember {
	/** Session row id and public id. */
	id: number;
	publicId: string;
	/** Node of its fork head (-1: the root), its first own entry's node and how many own entries follow it. */
	head: number;
	first: number;
	count: number;
	/** The fork head's row (null: the root). */
	fork: TreeForkHead | null;
}

const HEAD = "head";

/** Writes one chunk of a column: values `chunk * LAYOUT_CHUNK` on (as many as the column holds there). */
export type ChunkPut = (part: LayoutPart, chunk: number, values: Column) => void;

/**
 * Replaces a session's kept layout for one filter mode with columns written a chunk at a time as `fill` makes them
 * (a layout too big to hold whole), and the head `fill` returns; nothing is kept when `fill` throws.
 */
export function writeLayoutChunks(store: IndexStore, session: number, filter: string, fill: (put: ChunkPut) => LayoutHead): void {
	writeLayoutModes(store, session, (write) => write(filter, fill));
}

/**
 * writeLayoutChunks for the filter modes `each` writes, in one transaction (what `each` reads first is of the same
 * snapshot): nothing is kept when one throws. No savepoint per mode: rolling one back would hold the pages it replaced
 * (the old layout's) in memory, the connection's temporary store.
 */
export function writeLayoutModes(
	store: IndexStore,
	session: number,
	each: (write: (filter: string, fill: (put: ChunkPut) => LayoutHead) => void) => void,
): void {
	const insert = store.prepare("INSERT INTO tree_layout (session_id, filter, part, chunk, data) VALUES (?, ?, ?, ?, ?)");
	store.db.transaction(() => {
		// A session hidden meanwhile (session-removal.ts) gets no rows its removal would not find again.
		if (store.prepare<[number], number>("SELECT 1 FROM sessions WHERE id = ?").pluck().get(session) === undefined) return;
		each((filter, fill) => {
			store.prepare("DELETE FROM tree_layout WHERE session_id = ? AND filter = ?").run(session, filter);
			const head = fill((part, chunk, v) => insert.run(session, filter, part, chunk, Buffer.from(v.buffer, v.byteOffset, v.byteLength)));
			insert.run(session, filter, HEAD, 0, Buffer.from(JSON.stringify(head)));
		});
	})();
}

/** Replaces the columns of a kept layout from a chunk boundary on (`from` a multiple of LAYOUT_CHUNK), and its head. */
export function writeLayoutTail(
	store: IndexStore,
	session: number,
	filter: string,
	head: LayoutHead,
	tails: Partial<Record<LayoutPart, { from: number; values: Column }>>,
): void {
	const insert = store.prepare("INSERT INTO tree_layout (session_id, filter, part, chunk, data) VALUES (?, ?, ?, ?, ?)");
	const drop = store.prepare("DELETE FROM tree_layout WHERE session_id = ? AND filter = ? AND part = ? AND chunk >= ?");
	store.db.transaction(() => {
		// As writeLayoutChunks: a session hidden meanwhile (session-removal.ts) gets no rows its removal would not find again.
		if (store.prepare<[number], number>("SELECT 1 FROM sessions WHERE id = ?").pluck().get(session) === undefined) return;
		drop.run(session, filter, HEAD, 0);
		insert.run(session, filter, HEAD, 0, Buffer.from(JSON.stringify(head)));
		for (const [part, tail] of Object.entries(tails) as Array<[LayoutPart, { from: number; values: Column }]>) {
			if (tail.from % LAYOUT_CHUNK !== 0) throw new Error("tree layout: a tail starts at a chunk boundary");
			const first = tail.from / LAYOUT_CHUNK;
			drop.run(session, filter, part, first);
			const a = tail.values;
			const per = a.BYTES_PER_ELEMENT;
			const bytes = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
			for (let c = 0; c * LAYOUT_CHUNK < a.length; c++)
				insert.run(session, filter, part, first + c, bytes.subarray(c * LAYOUT_CHUNK * per, Math.min(a.length, (c + 1) * LAYOUT_CHUNK) * per));
		}
	})();
}

/** Forgets a session's kept layouts: without a head a layout is not read, and the next one written replaces its chunks. */
export function dropLayoutHeads(store: IndexStore, session: number): void {
	store.prepare("DELETE FROM tree_layout WHERE session_id = ? AND part = ?").run(session, HEAD);
}

/** The head of a session's kept layout for a filter mode (null: none kept). */
export function layoutHead(store: IndexStore, session: number, filter: string): LayoutHead | null {
	const row = store
		.prepare<[number, string, string], { data: Buffer }>("SELECT data FROM tree_layout WHERE session_id = ? AND filter = ? AND part = ? AND chunk = 0")
		.get(session, filter, HEAD);
	return row ? (JSON.parse(row.data.toString("utf8")) as LayoutHead) : null;
}

/**
 * Row ids of the family roots (sessions without a parent session) whose family — the root and the sessions forked
 * from it, as familySignature walks them — has at least `min` entries, newest first. One pass over the sessions: a
 * correlated look-up of children per session would scan the table once per session (parent_session has no index).
 */
export function layoutSessions(store: IndexStore, min: number): number[] {
	const rows = store
		.prepare<[number], { id: number; parent: number | null; entries: number }>(
			`SELECT id, parent_session AS parent, entries FROM sessions WHERE parent_session IS NOT NULL OR entries >= ?
			OR id IN (SELECT parent_session FROM sessions WHERE parent_session IS NOT NULL)`,
		)
		.all(min);
	const kids = new Map<number, number[]>();
	const entries = new Map<number, number>();
	for (const r of rows) {
		entries.set(r.id, r.entries);
		if (r.parent === null) continue;
		const list = kids.get(r.parent);
		if (list) list.push(r.id);
		else kids.set(r.parent, [r.id]);
	}
	const out: number[] = [];
	for (const r of rows) {
		if (r.parent !== null) continue;
		let total = 0;
		let level = [r.id];
		for (let d = 0; d <= 32 && level.length > 0 && total < min; d++) {
			const next: number[] = [];
			for (const id of level) {
				total += entries.get(id) ?? 0;
				for (const k of kids.get(id) ?? []) next.push(k);
			}
			level = next;
		}
		if (total >= min) out.push(r.id);
	}
	return out.sort((a, b) => b - a);
}

/** The sessions below `root` as familySignature walks them (tree-rows.ts: 32 levels deep), at most `limit` + 1 of them. */
export function familyBelow(store: IndexStore, root: number, limit: number): Array<{ id: number; entries: number; depth: number }> {
	return store
		.prepare<[number, number], { id: number; entries: number; depth: number }>(
			`WITH RECURSIVE fam(id, d) AS (SELECT ?, 0 UNION SELECT s.id, fam.d + 1 FROM sessions s JOIN fam ON s.parent_session = fam.id WHERE fam.d < 32)
			SELECT s.id, s.entries, fam.d AS depth FROM fam JOIN sessions s ON s.id = fam.id WHERE fam.d > 0 LIMIT ?`,
		)
		.all(root, limit + 1);
}

/** A kept layout lacks a chunk it says it has (written by another build, or cut short): it is laid out again. */
export class LayoutGoneError extends Error {}

/** Chunks one reader holds at most (a few megabytes); past it, it starts over. */
const READER_CHUNKS = 512;

/** Values of a layout's columns, wherever the layout is (kept in the index, or made at an open: query/tree-layout-spill.ts). */
export interface LayoutValues {
	/** Value `i` of a column. */
	at(part: LayoutPart, i: number): number;
}

/** A chunk's bytes (aligned, owned) as its column's values. */
export function columnOf(part: LayoutPart, bytes: Uint8Array): Column {
	const kind = LAYOUT_PARTS[part];
	return kind === "f64" ? new Float64Array(bytes.buffer) : kind === "i32" ? new Int32Array(bytes.buffer) : bytes;
}

/** Reads values of a kept layout, each chunk once while held. */
export class LayoutReader implements LayoutValues {
	private readonly chunks = new Map<string, Column>();
	private readonly read;

	constructor(
		store: IndexStore,
		private readonly session: number,
		private readonly filter: string,
	) {
		this.read = store.prepare<[number, string, string, number], { data: Buffer }>(
			"SELECT data FROM tree_layout WHERE session_id = ? AND filter = ? AND part = ? AND chunk = ?",
		);
	}

	/** Value `i` of a column. */
	at(part: LayoutPart, i: number): number {
		const c = Math.floor(i / LAYOUT_CHUNK);
		const key = `${part}:${c}`;
		let a = this.chunks.get(key);
		if (!a) {
			const b = this.read.get(this.session, this.filter, part, c)?.data;
			if (!b) throw new LayoutGoneError(`tree layout: chunk ${key} is missing`);
			if (this.chunks.size >= READER_CHUNKS) this.chunks.clear();
			// A copy: a blob's bytes need not be aligned for a typed array view.
			a = columnOf(part, new Uint8Array(b));
			this.chunks.set(key, a);
		}
		const v = a[i - c * LAYOUT_CHUNK];
		if (v === undefined) throw new LayoutGoneError(`tree layout: ${part}[${i}] is out of range`);
		return v;
	}
}
