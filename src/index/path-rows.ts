/**
 * The rows an append's walks meet (append-classify.ts): read by entry id or row id, each once up to a bound, and the
 * rows new branch summaries claim, as row ids per summary.
 */
import type { PathIds } from "./path-ids.js";
import type { IndexStore } from "./store.js";

/** An entry as an append that moves the leaf reads it. */
export interface PathRow {
	id: number;
	entry_id: string;
	parent_id: string | null;
	type: string;
	role: string | null;
	msg_producing: number;
	ctx_flags: number;
	branch_state: string;
	selection_state: string;
	abandoned_by: string | null;
}

const PATH_COLUMNS = "id, entry_id, parent_id, type, role, msg_producing, ctx_flags, branch_state, selection_state, abandoned_by";
/** A path row by session and entry id, and by row id. */
export const PATH_ROW_SQL = `SELECT ${PATH_COLUMNS} FROM events WHERE session_id = ? AND entry_id = ?`;
export const PATH_BY_ID_SQL = `SELECT ${PATH_COLUMNS} FROM events WHERE id = ?`;

/** Path rows by entry id (the first row with that id, as the index answers). */
export interface RowLookup {
	get(sessionId: number, entryId: string): PathRow | undefined;
}

/** Path rows as one append reads them before it writes: its walks meet the same rows again, so each is read once. */
export interface PathRows extends RowLookup {
	byId(id: number): PathRow | undefined;
}

/**
 * Path rows an append keeps in memory at most: a branch off an old entry walks most of a million-entry session, whose
 * rows kept all at once took the indexer past 300 MB; the rows past this are read again where a walk meets them again
 * (the walks of everyday appends, a turn back a few entries, stay far below it).
 */
export const PATH_ROWS_KEPT = 4096;

/** Path rows read through `store`, each once up to PATH_ROWS_KEPT; true to the index only until the append writes. */
export function pathRows(store: IndexStore): PathRows {
	const row = store.prepare<[number, string], PathRow>(PATH_ROW_SQL);
	const byRowId = store.prepare<[number], PathRow>(PATH_BY_ID_SQL);
	const byEntry = new Map<string, PathRow>();
	const byRow = new Map<number, PathRow>();
	return {
		get(sessionId, entryId) {
			let r = byEntry.get(entryId);
			if (r === undefined) {
				r = row.get(sessionId, entryId);
				if (r !== undefined && byRow.size < PATH_ROWS_KEPT) {
					byEntry.set(entryId, r);
					byRow.set(r.id, r);
				}
			}
			return r;
		},
		// Only by row id: with duplicate entry ids, the row a row id names need not be the one `get` answers.
		byId(id) {
			let r = byRow.get(id);
			if (r === undefined) {
				r = byRowId.get(id);
				if (r !== undefined && byRow.size < PATH_ROWS_KEPT) byRow.set(id, r);
			}
			return r;
		},
	};
}

/** The rows the new branch summaries claim, per summary in file order (the first to meet a row claims it). */
export class Claims implements Iterable<[number, string]> {
	private readonly bySummary: Array<{ by: string; rows: PathIds }> = [];

	add(by: string, rows: PathIds): void {
		if (rows.size > 0) this.bySummary.push({ by, rows });
	}

	/** The summary claiming a row (undefined: none). */
	of(id: number): string | undefined {
		for (const c of this.bySummary) if (c.rows.has(id)) return c.by;
		return undefined;
	}

	*[Symbol.iterator](): Iterator<[number, string]> {
		for (const c of this.bySummary) for (const id of c.rows) yield [id, c.by];
	}
}
