/**
 * Pending summary re-pointing: a compaction at the leaf of a long session leaves most of its path summarized as before,
 * only by an older compaction (tree.ts names the latest compaction on the path as the summary of every earlier
 * entry). The compaction's own transaction writes what changes state and a marker here; the re-pointing of the older
 * summaries follows in runs of rowids, each advancing the marker in its own write, so no single transaction costs the
 * session's size and a crash between runs resumes where it stopped.
 */
import type { IndexStore } from "./store.js";

/**
 * Rowids per run: 16,384 took 50–120 ms of CPU on a loaded machine (each row moves in the summarized_by index), more
 * than a turn of pi's event loop should; 4,096 keeps a run near 15 ms, so a 40 ms slice holds two.
 */
export const SUMMARY_RUN = 4_096;

const PREFIX = "summaries:";
/** The key just after every PREFIX key (`;` follows `:`), for a range over the primary key. */
const PREFIX_END = "summaries;";

/** What is left: rows with rowids in [next, last] of the session still to re-point to compaction `by`. */
interface Marker {
	by: string;
	next: number;
	last: number;
}

const keyOf = (sessionId: number) => `${PREFIX}${sessionId}`;

/**
 * Marks every selected summarized row of the session with rowid in [first, last] for re-pointing to compaction `by`,
 * replacing an earlier marker of the session: rows that one re-pointed to an older compaction need the new one too.
 */
export function markSummaryRuns(store: IndexStore, sessionId: number, by: string, first: number, last: number): void {
	store.setMeta(keyOf(sessionId), JSON.stringify({ by, next: first, last } satisfies Marker));
}

/** Forgets a session's pending runs: its rows were classified again as a whole, or removed. */
export function dropSummaryRuns(store: IndexStore, sessionId: number): void {
	store.prepare("DELETE FROM meta WHERE key = ?").run(keyOf(sessionId));
}

/** True when the session has runs pending. */
export function hasSummaryRuns(store: IndexStore, sessionId: number): boolean {
	return store.meta(keyOf(sessionId)) !== null;
}

/** Sessions with runs pending (a range of the meta table's key, no events read). */
export function pendingSummarySessions(store: IndexStore): number {
	return store.prepare<[string, string], { n: number }>("SELECT count(*) AS n FROM meta WHERE key >= ? AND key < ?").get(PREFIX, PREFIX_END)?.n ?? 0;
}

/**
 * Re-points one run of one pending session inside the caller's write transaction and advances (or drops) its marker
 * in the same transaction; false when nothing is pending.
 */
export function summaryRun(store: IndexStore, rows = SUMMARY_RUN): boolean {
	const row = store
		.prepare<[string, string], { key: string; value: string }>("SELECT key, value FROM meta WHERE key >= ? AND key < ? ORDER BY key LIMIT 1")
		.get(PREFIX, PREFIX_END);
	if (!row) return false;
	const sessionId = Number(row.key.slice(PREFIX.length));
	const marker = JSON.parse(row.value) as Marker;
	// NOT INDEXED: by rowid range; a session index would step over the whole session for every run. Every selected
	// summarized row ends summarized by the latest compaction on the path, so no list of older ones is needed.
	store
		.prepare(
			`UPDATE events NOT INDEXED SET summarized_by = ? WHERE id >= ? AND id < ? AND session_id = ? AND branch_state = 'selected'
			AND selection_state = 'summarized' AND summarized_by IS NOT ?`,
		)
		.run(marker.by, marker.next, marker.next + rows, sessionId, marker.by);
	const next = marker.next + rows;
	if (next > marker.last) dropSummaryRuns(store, sessionId);
	else store.setMeta(row.key, JSON.stringify({ ...marker, next } satisfies Marker));
	return true;
}
