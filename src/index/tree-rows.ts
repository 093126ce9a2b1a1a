/**
 * The rows of a session's whole tree for the tree view: one query for a session's entries, one for the entries of
 * every session forked from it (each flagged when it is a byte-identical copy of the parent's entry), one for the
 * entries of a set of sessions that match an FTS5 expression. Bounded by the session's size, never one read per entry.
 */

import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import { indexOfSorted, lowerBound } from "../shared/sorted.js";
import type { BranchState, SelectionState } from "../shared/types.js";
import { decodeFlags, decodeIds, decodeParents } from "./shape-codec.js";
import type { IndexStore } from "./store.js";
import { summaryOverlay } from "./summary-runs.js";
import { type KeptShape, PARENT_LATER, PARENT_NONE, readShape, SHAPE_CHUNK } from "./tree-shape-store.js";

const SLOTS = FRAGMENT_SLOTS;

/** The columns of an events row a tree row shows. */
export interface TreeRow {
	id: number;
	session_id: number;
	entry_id: string;
	parent_id: string | null;
	type: string;
	role: string | null;
	tool_name: string | null;
	/** The first fragment id (`tool.call:2`), or '' without fragments. */
	first_frag: string;
	preview: string;
	ts: string;
	branch_state: BranchState;
	selection_state: SelectionState;
	summarized_by: string | null;
	summarized_prov: string | null;
	msg_producing: number;
	edit_state: "replaced" | "omitted" | null;
	edit_by: string | null;
	is_error: number | null;
	cur_label: string | null;
	/** A tool result's call: the calling entry's preview when the call is that entry's first fragment. */
	call_preview: string | null;
}

const COLUMNS = `e.id, e.session_id, e.entry_id, e.parent_id, e.type, e.role, e.tool_name,
	CASE WHEN instr(e.frags, ' ') > 0 THEN substr(e.frags, 1, instr(e.frags, ' ') - 1) ELSE e.frags END AS first_frag,
	e.preview, e.ts, e.branch_state, e.selection_state, e.summarized_by, e.summarized_prov, e.msg_producing, e.edit_state, e.edit_by, e.is_error, e.cur_label,
	CASE WHEN e.role = 'toolResult' AND e.tool_call_id IS NOT NULL THEN (SELECT ce.preview FROM tool_calls tc JOIN events ce ON ce.id = tc.event_id
		WHERE tc.session_id = e.session_id AND tc.call_id = e.tool_call_id AND (ce.frags = tc.frag OR ce.frags LIKE tc.frag || ' %') LIMIT 1) END AS call_preview`;

/** Every entry of a session in file order (rowids grow in append order within a session). */
export function sessionTreeRows(store: IndexStore, session: number): TreeRow[] {
	return store.prepare<[number], TreeRow>(`SELECT ${COLUMNS} FROM events e WHERE e.session_id = ? ORDER BY e.id`).all(session).map(summaryOverlay(store));
}

/** Every entry of the sessions whose parent session is `parent`, in file order, `copied` = 1 for twins of the parent's. */
export function forkTreeRows(store: IndexStore, parent: number): Array<TreeRow & { copied: number }> {
	return store
		.prepare<[number, number], TreeRow & { copied: number }>(
			`SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM events p WHERE p.session_id = ? AND p.entry_id = e.entry_id AND p.line_hash = e.line_hash) AS copied
			FROM events e WHERE e.session_id IN (SELECT id FROM sessions WHERE parent_session = ?) ORDER BY e.session_id, e.id`,
		)
		.all(parent, parent)
		.map(summaryOverlay(store));
}

/** Row ids of the events of `sessions` with a fragment matching the MATCH expression (built by query-parse only). */
export function matchingEvents(store: IndexStore, match: string, sessions: number[]): Set<number> {
	if (sessions.length === 0) return new Set();
	const rows = store
		.prepare<[string, string], { eid: number }>(
			`SELECT DISTINCT rowid / ${SLOTS} AS eid FROM fts WHERE fts MATCH ?
			AND (rowid / ${SLOTS}) IN (SELECT id FROM events WHERE session_id IN (SELECT value FROM json_each(?)))`,
		)
		.all(match, JSON.stringify(sessions));
	return new Set(rows.map((r) => r.eid));
}

/** Row flags of a tree shape (what folding and pi's /tree filters need of an entry, without its text). */
export const SHAPE = {
	user: 1,
	label: 2,
	summary: 4,
	error: 8,
	edit: 16,
	/** Bookkeeping: a label, context edit, custom entry, model or thinking change, session name (pi's /tree "settings"). */
	bookkeeping: 32,
	toolResult: 64,
	/** An assistant reply with only tool calls (no text, not failed): pi's /tree shows the call on its result instead. */
	callsOnly: 128,
	/** Holds every typed filter word. */
	text: 256,
	/** A copy of the parent session's entry (fork rows only). */
	copied: 512,
} as const;

/** Most typed filter words matched (the rest are ignored: a filter line is a few words). */
export const SHAPE_WORDS = 8;

/**
 * A session's tree shape in file order, as numbers only: row ids, each row's parent (-1: the row above in file
 * order, 0: none or not in this session, else the parent's row id) and flags, from the shape kept at ingest.
 * `words` (lower-case) set SHAPE.text on rows whose preview, label, tool or type holds all of them; `parent` (a
 * session row id) sets SHAPE.copied on byte-identical copies of that session's entries. Each mark is one range scan
 * of the session's rows that returns only the rows it marks.
 */
export function sessionShape(store: IndexStore, session: number, words: readonly string[], parent: number | null): KeptShape {
	const shape = keptShape(store, session);
	if (parent !== null) markCopied(store, session, parent, shape);
	if (words.length > 0) markText(store, session, words.slice(0, SHAPE_WORDS), shape);
	return shape;
}

/** Sets `bit` on the shape's rows among `ids` (both ascending). */
function markSorted(shape: { ids: Int32Array; flags: Uint16Array }, ids: Iterable<[number]>, bit: number): void {
	const { ids: all, flags } = shape;
	const n = all.length;
	let at = 0;
	for (const [id] of ids) {
		while (at < n && (all[at] as number) < id) at++;
		if (all[at] === id) flags[at] = (flags[at] as number) | bit;
	}
}

/** SHAPE.text on the rows whose preview, label, tool name or type holds every word (pi's /tree filter text). */
function markText(store: IndexStore, session: number, words: readonly string[], shape: { ids: Int32Array; flags: Uint16Array }, chunk = false): void {
	const n = shape.ids.length;
	if (n === 0) return;
	// LIKE folds ASCII case as lower() does, without building a lower-case copy of every row's text (a word holds no
	// space, so it is in one of the fields or in none).
	const field = (c: string) => `${c} LIKE ? ESCAPE '\\'`;
	const holds = words.map(() => `(${["e.preview", "e.cur_label", "e.tool_name", "e.type"].map(field).join(" OR ")})`);
	const patterns = words.flatMap((w) => {
		const p = `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
		return [p, p, p, p];
	});
	// A chunk's rows by their rowid range (NOT INDEXED): by the session's index, the planner's choice, each chunk's
	// scan would read every row of the session.
	const rows = store
		.prepare<unknown[], [number]>(
			`SELECT e.id FROM events e ${chunk ? "NOT INDEXED " : ""}WHERE e.id BETWEEN ? AND ? AND e.session_id = ? AND ${holds.join(" AND ")} ORDER BY e.id`,
		)
		.raw();
	markSorted(shape, rows.iterate(shape.ids[0] as number, shape.ids[n - 1] as number, session, ...patterns), SHAPE.text);
}

/** sessionShape without words or a parent: the shape kept at ingest, with today's labels and context edits. */
function keptShape(store: IndexStore, session: number): KeptShape {
	const shape = readShape(store, session);
	const { ids, parents, flags } = shape;
	const mark = (rows: Array<{ id: number }>, bit: number) => {
		for (const r of rows) {
			const at = indexOfSorted(ids, r.id);
			if (at >= 0) flags[at] = (flags[at] as number) | bit;
		}
	};
	mark(
		store
			.prepare<[number], { id: number }>("SELECT id FROM events INDEXED BY events_label WHERE cur_label IS NOT NULL AND cur_label <> '' AND session_id = ?")
			.all(session),
		SHAPE.label,
	);
	mark(
		store
			.prepare<[number], { id: number }>("SELECT id FROM events INDEXED BY events_edit WHERE edit_by IS NOT NULL AND session_id = ? AND edit_state IS NOT NULL")
			.all(session),
		SHAPE.edit,
	);
	const later = store.prepare<[number], { id: number }>(
		"SELECT p.id FROM events e JOIN events p ON p.session_id = e.session_id AND p.entry_id = e.parent_id WHERE e.id = ?",
	);
	for (const k of shape.links) if (parents[k] === PARENT_LATER) parents[k] = later.get(ids[k] as number)?.id ?? PARENT_NONE;
	return shape;
}

/** Row ids of a session's entries that match one of keptShape's marks, ascending, as numbers. */
function markedIds(store: IndexStore, sql: string, session: number): Int32Array {
	let out = new Int32Array(64);
	let n = 0;
	for (const id of store.prepare<[number], number>(sql).pluck().iterate(session)) {
		if (n === out.length) {
			const more = new Int32Array(n * 2);
			more.set(out);
			out = more;
		}
		out[n++] = id;
	}
	return out.subarray(0, n).sort();
}

/** A session's kept shape is not what appendShape writes (a chunk missing or short): it is not read a chunk at a time. */
export class ShapeChunksError extends Error {}

/**
 * sessionShape a chunk at a time, for a session too big to hold whole (query/tree-layout-spill.ts): each chunk's row
 * ids, parent links (a link not known at insert resolved to a row id) and flags with today's labels and context edits,
 * and SHAPE.text on the rows holding every typed `word`.
 * Throws ShapeChunksError when the chunks are not what appendShape writes (numbered from 0, all full but the last).
 */
export class ShapeChunks {
	/** Chunks and entries. */
	readonly count: number;
	readonly entries: number;
	private readonly labels: Int32Array;
	private readonly edits: Int32Array;

	constructor(
		private readonly store: IndexStore,
		private readonly session: number,
		private readonly words: readonly string[] = [],
		/** The session a fork was made from: its entries copied from it get SHAPE.copied (sessionShape's `parent`). */
		private readonly parent: number | null = null,
	) {
		const size = store
			.prepare<[number], { chunks: number; last: number | null; entries: number }>(
				"SELECT count(*) AS chunks, max(chunk) AS last, total(n) AS entries FROM tree_shape WHERE session_id = ?",
			)
			.get(session) as { chunks: number; last: number | null; entries: number };
		if (size.chunks > 0 && size.last !== size.chunks - 1) throw new ShapeChunksError("tree shape: chunks are missing");
		this.count = size.chunks;
		this.entries = size.entries;
		this.labels = markedIds(store, "SELECT id FROM events INDEXED BY events_label WHERE cur_label IS NOT NULL AND cur_label <> '' AND session_id = ?", session);
		this.edits = markedIds(
			store,
			"SELECT id FROM events INDEXED BY events_edit WHERE edit_by IS NOT NULL AND session_id = ? AND edit_state IS NOT NULL",
			session,
		);
	}

	/** Chunk `c` (entries `c * SHAPE_CHUNK` on): `links` as in KeptShape, positions within the chunk. */
	read(c: number): KeptShape {
		const row = this.store
			.prepare<[number, number], [number, Buffer, Buffer, Buffer]>("SELECT n, ids, pars, flags FROM tree_shape WHERE session_id = ? AND chunk = ?")
			.raw()
			.get(this.session, c);
		if (!row || (c < this.count - 1 && row[0] !== SHAPE_CHUNK)) throw new ShapeChunksError("tree shape: a chunk is missing or not full");
		const [n, a, p, f] = row;
		const ids = new Int32Array(n);
		const parents = new Int32Array(n);
		const flags = new Uint16Array(n);
		const links: number[] = [];
		decodeIds(a, n, ids, 0);
		decodeParents(p, n, parents, 0, links);
		decodeFlags(f, n, flags, 0);
		if (n > 0) {
			this.mark(ids, flags, this.labels, SHAPE.label);
			this.mark(ids, flags, this.edits, SHAPE.edit);
			if (this.parent !== null) markCopied(this.store, this.session, this.parent, { ids, flags }, true);
			// A typed filter's words (sessionShape's mark), one range scan of the chunk's rows.
			if (this.words.length > 0) markText(this.store, this.session, this.words.slice(0, SHAPE_WORDS), { ids, flags }, true);
		}
		const later = this.store.prepare<[number], { id: number }>(
			"SELECT p.id FROM events e JOIN events p ON p.session_id = e.session_id AND p.entry_id = e.parent_id WHERE e.id = ?",
		);
		for (const k of links) if (parents[k] === PARENT_LATER) parents[k] = later.get(ids[k] as number)?.id ?? PARENT_NONE;
		return { ids, parents, flags, links };
	}

	/** Sets `bit` on the chunk's rows among `marked` (both ascending). */
	private mark(ids: Int32Array, flags: Uint16Array, marked: Int32Array, bit: number): void {
		let at = lowerBound(marked, ids[0] as number);
		const last = ids[ids.length - 1] as number;
		for (; at < marked.length && (marked[at] as number) <= last; at++) {
			const k = indexOfSorted(ids, marked[at] as number);
			if (k >= 0) flags[k] = (flags[k] as number) | bit;
		}
	}
}

/**
 * SHAPE.copied on a fork's entries that are byte-identical copies of its parent's, streamed in row id order beside the
 * shape (a query flagging every row would buffer a --fork copy of a 1,000,000-entry session for its window function).
 */
function markCopied(store: IndexStore, session: number, parent: number, shape: { ids: Int32Array; flags: Uint16Array }, chunk = false): void {
	const n = shape.ids.length;
	if (n === 0) return;
	// A chunk's rows by their rowid range (NOT INDEXED), as markText's: by the session's index each chunk's scan read
	// every row of the session (a --fork copy of 1,000,000 entries: 16 s instead of 1).
	const copies = store
		.prepare<[number, number, number, number], [number]>(
			`SELECT e.id FROM events e ${chunk ? "NOT INDEXED " : ""}WHERE e.id BETWEEN ? AND ? AND e.session_id = ?
			AND EXISTS (SELECT 1 FROM events p WHERE p.session_id = ? AND p.entry_id = e.entry_id AND p.line_hash = e.line_hash) ORDER BY e.id`,
		)
		.raw();
	markSorted(shape, copies.iterate(shape.ids[0] as number, shape.ids[n - 1] as number, session, parent), SHAPE.copied);
}

/** Row ids of a session's entries with a label and with a context edit in effect (what SHAPE.label and SHAPE.edit say). */
export function shapeMarks(store: IndexStore, session: number): { labels: number[]; edits: number[] } {
	const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);
	return {
		labels: ids(
			store
				.prepare<[number], { id: number }>("SELECT id FROM events INDEXED BY events_label WHERE cur_label IS NOT NULL AND cur_label <> '' AND session_id = ?")
				.all(session),
		),
		edits: ids(
			store
				.prepare<[number], { id: number }>(
					"SELECT id FROM events INDEXED BY events_edit WHERE edit_by IS NOT NULL AND session_id = ? AND edit_state IS NOT NULL",
				)
				.all(session),
		),
	};
}

/** The tree rows of the given event ids (any order; the caller places them). */
export function treeRowsByIds(store: IndexStore, ids: readonly number[]): TreeRow[] {
	if (ids.length === 0) return [];
	return store
		.prepare<[string], TreeRow>(`SELECT ${COLUMNS} FROM events e WHERE e.id IN (SELECT value FROM json_each(?))`)
		.all(JSON.stringify(ids))
		.map(summaryOverlay(store));
}

/** The row id of an entry of a session (undefined: not indexed). */
export function eventIdOf(store: IndexStore, session: number, entryId: string): number | undefined {
	return store.prepare<[number, string], { id: number }>("SELECT id FROM events WHERE session_id = ? AND entry_id = ?").get(session, entryId)?.id;
}

/** The entry ids of the given row ids, by row id. */
export function entryIdsOf(store: IndexStore, ids: readonly number[]): Map<number, { entry: string; parent: string | null }> {
	if (ids.length === 0) return new Map();
	const rows = store
		.prepare<[string], { id: number; entry_id: string; parent_id: string | null }>(
			"SELECT id, entry_id, parent_id FROM events WHERE id IN (SELECT value FROM json_each(?))",
		)
		.all(JSON.stringify(ids));
	return new Map(rows.map((r) => [r.id, { entry: r.entry_id, parent: r.parent_id }]));
}

/** What changes when any file of the fork family below `root` changed: sessions, entries, leaves, indexed bytes. */
export function familySignature(store: IndexStore, root: number): string {
	const row = store
		.prepare<[number], { sig: string | null }>(
			`WITH RECURSIVE fam(id, d) AS (SELECT ?, 0 UNION SELECT s.id, fam.d + 1 FROM sessions s JOIN fam ON s.parent_session = fam.id WHERE fam.d < 32)
			SELECT group_concat(s.id || ':' || s.entries || ':' || coalesce(s.leaf_entry, '') || ':' || f.indexed_bytes || ':' || f.size || ':' || f.mtime_ms, ',') AS sig
			FROM fam JOIN sessions s ON s.id = fam.id JOIN files f ON f.id = s.file_id`,
		)
		.get(root);
	return row?.sig ?? "";
}
