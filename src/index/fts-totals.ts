/**
 * FTS5 keeps, per table, one "averages" record (row count and token count per column) that bm25 reads as N and the
 * average length. A delete from a `contentless_delete=1` table leaves that record as it was (SQLite's
 * fts5StorageDelete only drops the row's tokens and its %_docsize row), so every rebuilt or removed session inflated
 * both, and a refreshed index scored differently from a fresh build of the same files. Our deletes go through
 * deleteFtsRows, which takes each row's sizes from %_docsize before the delete and subtracts them from the record.
 */
import type { IndexStore } from "./store.js";

/** The FTS5 tables of the index (both contentless_delete, both with a %_docsize table). */
export type FtsTable = "fts" | "system_fts";

/** The %_data row id of the averages record (FTS5_AVERAGES_ROWID). */
const AVERAGES_ROWID = 1;

/** SQLite varints (sqlite3GetVarint), as FTS5 writes sizes and totals; values here stay far below 2^53. */
function readVarints(blob: Uint8Array): number[] {
	const out: number[] = [];
	let i = 0;
	while (i < blob.length) {
		let v = 0;
		for (let n = 0; i < blob.length; n++) {
			const b = blob[i++] as number;
			if (n === 8) {
				v = v * 256 + b;
				break;
			}
			v = v * 128 + (b & 0x7f);
			if ((b & 0x80) === 0) break;
		}
		out.push(v);
	}
	return out;
}

/** The inverse of readVarints for one value below 2^56 (sqlite3PutVarint). */
function varint(v: number): number[] {
	const groups: number[] = [];
	let rest = v;
	do {
		groups.unshift(rest % 128);
		rest = Math.floor(rest / 128);
	} while (rest > 0);
	return groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g));
}

/** Rows and tokens per column deleted from an FTS table and not yet taken off its averages record. */
export interface FtsTally {
	rows: number;
	tokens: number[];
}

/**
 * Deletes rows of `table` by rowid and takes their rows and tokens off its averages record, so bm25 weighs what
 * the table holds, as a fresh build's would.
 */
export function deleteFtsRows(store: IndexStore, table: FtsTable, rowids: Iterable<number>): void {
	const tally: FtsTally = { rows: 0, tokens: [] };
	deleteFtsRowsTallied(store, table, rowids, tally);
	settleTally(store, table, tally);
}

/**
 * deleteFtsRows without the update of the averages record: the rows' sizes are added to `tally`, which settleTally
 * takes off later in the same transaction (each update is a savepoint, and FTS5 flushes a segment at every one).
 */
export function deleteFtsRowsTallied(store: IndexStore, table: FtsTable, rowids: Iterable<number>, tally: FtsTally): void {
	const size = store.prepare<[number], { sz: Buffer }>(`SELECT sz FROM ${table}_docsize WHERE id = ?`);
	const del = store.prepare<[number]>(`DELETE FROM ${table} WHERE rowid = ?`);
	for (const rowid of rowids) {
		const sz = size.get(rowid)?.sz;
		// No sizes: no such row (FTS5 counted nothing for it), but the delete stays, whatever FTS5 holds.
		del.run(rowid);
		if (!sz) continue;
		tally.rows++;
		readVarints(sz).forEach((n, i) => {
			tally.tokens[i] = (tally.tokens[i] ?? 0) + n;
		});
	}
}

/** Takes a tally's rows and tokens off the table's averages record, and empties the tally. */
export function settleTally(store: IndexStore, table: FtsTable, tally: FtsTally): void {
	if (tally.rows > 0) subtractTotals(store, table, tally.rows, tally.tokens);
	tally.rows = 0;
	tally.tokens = [];
}

function subtractTotals(store: IndexStore, table: FtsTable, rows: number, tokens: number[]): void {
	// FTS5 holds its totals in memory while it writes and stores them at the next savepoint or commit: a savepoint
	// now stores them, so what is read and written below is the record FTS5 itself reads next.
	store.db.exec("SAVEPOINT fts_totals");
	try {
		const block = store.prepare<[number], { block: Buffer }>(`SELECT block FROM ${table}_data WHERE id = ?`).get(AVERAGES_ROWID)?.block;
		if (block) {
			const [n = 0, ...sizes] = readVarints(block);
			// A table left without rows gets the empty record FTS5 writes when it creates one, as a fresh build of no files has.
			const bytes = n - rows <= 0 ? [] : [n - rows, ...sizes.map((s, i) => s - (tokens[i] ?? 0))].flatMap((v) => varint(Math.max(0, v)));
			// %_data is a shadow table: SQLite lets a connection write it (and compile the write) only outside its
			// defensive mode, which is on for every other statement of ours.
			store.db.unsafeMode(true);
			try {
				store.db.prepare(`UPDATE ${table}_data SET block = ? WHERE id = ?`).run(Buffer.from(bytes), AVERAGES_ROWID);
			} finally {
				store.db.unsafeMode(false);
			}
		}
		store.db.exec("RELEASE fts_totals");
	} catch (error) {
		store.db.exec("ROLLBACK TO fts_totals; RELEASE fts_totals");
		throw error;
	}
}
