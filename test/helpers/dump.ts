/** Dumps an index's logical contents (no row ids), so an incrementally refreshed index can be compared to a fresh build. */
import Database from "better-sqlite3";
import { expect } from "vitest";
import { decodeFlags, decodeIds, decodeParents } from "../../src/index/shape-codec.js";
import { FRAGMENT_SLOTS } from "../../src/shared/bounds.js";
import { openService } from "./corpus.js";

/** Every session, event (with its fragments), tool call, file evidence row, FTS token instance and FTS total, keyed by public identity. */
export function dumpIndex(path: string): Record<string, unknown[]> {
	const db = new Database(path, { readonly: true });
	try {
		const sessions = db
			.prepare(
				"SELECT s.public_id, s.header_id, s.version, s.cwd, s.created, s.parent_path, p.public_id AS parent, s.name, s.leaf_entry, s.entries, s.first_ms, s.last_ms, s.fork_points, f.path FROM sessions s JOIN files f ON f.id = s.file_id LEFT JOIN sessions p ON p.id = s.parent_session ORDER BY s.public_id",
			)
			.all();
		const events = db
			.prepare(
				`SELECT s.public_id AS session, e.entry_id, e.parent_id, e.seq, e.line, e.byte_offset, e.byte_length, e.line_hash, e.synthetic, e.type, e.role, e.ts, e.ts_ms,
				e.tool_name, e.tool_call_id, e.is_error, e.exit_code, e.model, e.provider, e.stop_reason, e.custom_type, e.ref_id, e.label, e.msg_producing,
				e.context_role, e.branch_state, e.selection_state, e.summarized_by, e.summarized_prov, e.abandoned_by, e.edit_state, e.edit_by, e.cur_label, e.preview, e.frags, e.nfrags, e.kinds
				FROM events e JOIN sessions s ON s.id = e.session_id ORDER BY s.public_id, e.seq`,
			)
			.all();
		const calls = db
			.prepare(
				"SELECT s.public_id AS session, e.entry_id, t.call_id, t.name, t.frag FROM tool_calls t JOIN events e ON e.id = t.event_id JOIN sessions s ON s.id = e.session_id ORDER BY 1, 2, 3",
			)
			.all();
		const files = db
			.prepare(
				"SELECT s.public_id AS session, e.entry_id, fe.path, fe.rel, fe.via FROM file_evidence fe JOIN events e ON e.id = fe.event_id JOIN sessions s ON s.id = e.session_id ORDER BY 1, 2, 3, 4, 5",
			)
			.all();
		db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, fts, 'instance')");
		const tokens = db
			.prepare(
				`SELECT s.public_id AS session, e.entry_id, v.doc % ${FRAGMENT_SLOTS} AS position, v.term, v.col, v.offset FROM temp.vocab v JOIN events e ON e.id = v.doc / ${FRAGMENT_SLOTS} JOIN sessions s ON s.id = e.session_id ORDER BY 1, 2, 3, 5, 6, 4`,
			)
			.all();
		const ftsRows = db.prepare("SELECT count(*) AS n FROM fts").all();
		// FTS5's row count and token totals, bm25's N and average length: a refresh must leave what a fresh build writes.
		const totals = db
			.prepare("SELECT 'fts' AS t, hex(block) AS block FROM fts_data WHERE id = 1 UNION ALL SELECT 'system', hex(block) FROM system_fts_data WHERE id = 1")
			.all();
		const fileRows = db.prepare("SELECT path, status, header_id, indexed_bytes FROM files ORDER BY path").all();
		return { sessions, events, calls, files, tokens, ftsRows, totals, fileRows, shapes: dumpShapes(db) };
	} finally {
		db.close();
	}
}

/**
 * The tree shapes kept at ingest (tree-shape-store.ts), by entry: its parent link by entry id ('prev', 'none') and
 * fixed flags. A parent indexed after its child (-2) shows as the entry it resolves to, as the tree view reads it.
 */
/** A kept tree shape chunk's blobs (tree_shape), as a test reads them. */
export interface ShapeChunk {
	n: number;
	ids: Buffer;
	pars: Buffer;
	flags: Buffer;
}

/** The values a kept tree shape chunk holds, whichever way it was written. */
export function decodeChunk(c: ShapeChunk): { ids: Float64Array; pars: Int32Array; flags: Uint16Array } {
	const ids = new Float64Array(c.n);
	decodeIds(c.ids, c.n, ids, 0);
	const pars = new Int32Array(c.n);
	decodeParents(c.pars, c.n, pars, 0);
	const flags = new Uint16Array(c.n);
	decodeFlags(c.flags, c.n, flags, 0);
	return { ids, pars, flags };
}

function dumpShapes(db: Database.Database): unknown[] {
	const rows = db.prepare("SELECT id, session_id, entry_id, parent_id FROM events").all() as Array<{
		id: number;
		session_id: number;
		entry_id: string;
		parent_id: string | null;
	}>;
	const entryOf = new Map(rows.map((r) => [r.id, r]));
	const rowOf = new Map(rows.map((r) => [`${r.session_id}/${r.entry_id}`, r.id]));
	const out: unknown[] = [];
	const chunks = db
		.prepare(
			"SELECT s.public_id, t.session_id, t.chunk, t.n, t.ids, t.pars, t.flags, t.last_entry FROM tree_shape t JOIN sessions s ON s.id = t.session_id ORDER BY s.public_id, t.chunk",
		)
		.all() as Array<ShapeChunk & { public_id: string; session_id: number; chunk: number; last_entry: string }>;
	for (const c of chunks) {
		// Runs, or doubles in chunks written before: compared as the values they hold.
		const { ids, pars, flags } = decodeChunk(c);
		for (let k = 0; k < c.n; k++) {
			const e = entryOf.get(ids[k] as number);
			const p = pars[k] as number;
			const later = p === -2 && e?.parent_id ? rowOf.get(`${c.session_id}/${e.parent_id}`) : undefined;
			const parent = p === -1 ? "prev" : p === 0 || (p === -2 && later === undefined) ? "none" : entryOf.get(p === -2 ? (later as number) : p)?.entry_id;
			out.push({ session: c.public_id, chunk: c.chunk, entry: e?.entry_id, parent, flags: flags[k] });
		}
		out.push({ session: c.public_id, chunk: c.chunk, n: c.n, last: c.last_entry });
	}
	return out;
}

/** Asserts that the index files `actual` and `expected` hold the same logical contents, table by table. */
export function expectSameIndex(actual: string, expected: string, label?: string): void {
	const a = dumpIndex(actual);
	const b = dumpIndex(expected);
	expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
	for (const key of Object.keys(b)) {
		const left = a[key] as unknown[];
		const right = b[key] as unknown[];
		const name = label ? `${key} ${label}` : key;
		// Row by row as JSON text: a deep toEqual over 300,000 token rows takes tens of seconds, a string compare milliseconds.
		// The first differing row is then compared structurally, so a failure still shows a readable diff.
		const at = firstDifference(left, right);
		if (at === -1) continue;
		expect(left[at], `${name}: first difference at row ${at} of ${left.length} vs ${right.length}`).toEqual(right[at]);
		expect(JSON.stringify(left[at]), `${name}: row ${at}`).toBe(JSON.stringify(right[at]));
		expect(left.length, `${name}: row count`).toBe(right.length);
	}
}

/** Index of the first row whose JSON differs between `a` and `b` (-1 when the arrays are equal). */
function firstDifference(a: unknown[], b: unknown[]): number {
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return i;
	return a.length === b.length ? -1 : n;
}

/** Asserts that the index at `index` holds exactly what a fresh full build of `sessions` (into `freshIndex`) holds. */
export function expectEqualsFreshBuild(sessions: string, index: string, freshIndex: string): void {
	const other = openService(sessions, freshIndex);
	other.refresh();
	other.close();
	expectSameIndex(index, freshIndex);
}
