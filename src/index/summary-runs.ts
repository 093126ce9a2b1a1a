/**
 * Pending summary runs: a compaction at the leaf changes the state of every entry of the path above its kept range
 * (tree.ts names the latest compaction on the path as the summary of every earlier contentful entry), in a long
 * session a million rows. The compaction's own transaction writes its kept range, itself and a marker here; the
 * entries above the kept range are summarized (those not summarized yet) or re-pointed to it (those an older
 * compaction summarized) in runs of rowids, each run advancing the marker in its own write, so no transaction costs
 * the session's size and a crash between runs resumes where it stopped. Until a row's run is made, readers see it
 * through the marker (overlay): every answer equals a fresh build's at every moment.
 */
import type { IndexStore } from "./store.js";

/**
 * Rowids per run: summarizing 4,096 rows took ~35 ms of CPU (each row rewritten and added to the summarized_by
 * index), so a 40 ms slice of pi's event loop ran to 70–90 ms; 1,024 keeps a run near 10 ms and a slice near 40.
 */
export const SUMMARY_RUN = 1_024;

const PREFIX = "summaries:";
/** The key just after every PREFIX key (`;` follows `:`), for a range over the primary key. */
const PREFIX_END = "summaries;";

/**
 * What is left of one session's runs: its selected rows with rowids in [next, last] end summarized by compaction
 * `by`; those below `below` (the kept range's first rowid) that are contentful and not summarized yet are summarized
 * by it, the summarized ones are re-pointed to it. `below` is absent in markers written before it existed (= next).
 */
interface Marker {
	by: string;
	next: number;
	last: number;
	below?: number;
}

/** One session's pending runs, as readers apply them. */
export interface PendingSummary {
	sessionId: number;
	by: string;
	next: number;
	last: number;
	below: number;
}

/** The columns of an events row the overlay reads and may change. */
export interface SummaryOverlayRow {
	id: number;
	session_id: number;
	type: string;
	msg_producing: number;
	branch_state: string;
	selection_state: string;
	summarized_by: string | null;
	summarized_prov: string | null;
	edit_state: string | null;
	edit_by: string | null;
}

const keyOf = (sessionId: number) => `${PREFIX}${sessionId}`;

/**
 * Marks the session's selected rows with rowid in [first, last] for summarizing by compaction `by`: re-pointing the
 * summarized ones, summarizing the contentful others below `below` (its kept range's first rowid). It replaces an
 * earlier marker of the session: the latest compaction decides the state of every row above its kept range.
 */
export function markSummaryRuns(store: IndexStore, sessionId: number, by: string, first: number, last: number, below: number): void {
	store.setMeta(keyOf(sessionId), JSON.stringify({ by, next: first, last, below } satisfies Marker));
}

/** Forgets a session's pending runs: its rows were classified again as a whole, or removed. */
export function dropSummaryRuns(store: IndexStore, sessionId: number): void {
	store.prepare("DELETE FROM meta WHERE key = ?").run(keyOf(sessionId));
}

/** The session's pending runs, or null. */
export function pendingSummary(store: IndexStore, sessionId: number): PendingSummary | null {
	const value = store.meta(keyOf(sessionId));
	return value === null ? null : toPending(sessionId, JSON.parse(value) as Marker);
}

function toPending(sessionId: number, m: Marker): PendingSummary {
	return { sessionId, by: m.by, next: m.next, last: m.last, below: Math.max(m.below ?? m.next, m.next) };
}

/** Every session's pending runs (a range of the meta table's key, no events read; nearly always none). */
export function pendingSummaries(store: IndexStore): PendingSummary[] {
	return store
		.prepare<[string, string], { key: string; value: string }>("SELECT key, value FROM meta WHERE key >= ? AND key < ?")
		.all(PREFIX, PREFIX_END)
		.map((row) => toPending(Number(row.key.slice(PREFIX.length)), JSON.parse(row.value) as Marker));
}

/** Sessions with runs pending. */
export function pendingSummarySessions(store: IndexStore): number {
	return store.prepare<[string, string], { n: number }>("SELECT count(*) AS n FROM meta WHERE key >= ? AND key < ?").get(PREFIX, PREFIX_END)?.n ?? 0;
}

/** Contentful entries are summarized when they leave the context; the others have no selection state to lose. */
export const contentful = (r: { type: string; msg_producing: number }) => r.msg_producing === 1 || r.type === "compaction";

/** contentful() in SQL, on the columns of table alias `t` (none: unqualified). */
export function contentfulSql(t = ""): string {
	const c = t ? `${t}.` : "";
	return `(${c}msg_producing = 1 OR ${c}type = 'compaction')`;
}

/** True when a pending run will summarize this row of the session, not summarized yet. */
export function runSummarizes(
	pending: PendingSummary | null | undefined,
	row: Omit<SummaryOverlayRow, "summarized_by" | "summarized_prov" | "edit_state" | "edit_by">,
): boolean {
	return (
		!!pending &&
		row.session_id === pending.sessionId &&
		row.branch_state === "selected" &&
		row.selection_state !== "summarized" &&
		row.id >= pending.next &&
		row.id < pending.below &&
		contentful(row)
	);
}

/** A row as it is once its pending run is made (the row itself when none is pending for it). */
export function withSummary<T extends SummaryOverlayRow>(row: T, pending: PendingSummary | null | undefined): T {
	if (!pending || row.session_id !== pending.sessionId || row.branch_state !== "selected" || row.id < pending.next || row.id > pending.last) return row;
	if (row.selection_state === "summarized") return row.summarized_by === pending.by ? row : { ...row, summarized_by: pending.by, summarized_prov: "recorded" };
	if (!runSummarizes(pending, row)) return row;
	return { ...row, selection_state: "summarized", summarized_by: pending.by, summarized_prov: "recorded", edit_state: null, edit_by: null };
}

/** Applies every pending run to rows read from the index (readers: catalog, tree rows). */
export function summaryOverlay(store: IndexStore): <T extends SummaryOverlayRow>(row: T) => T {
	const all = pendingSummaries(store);
	if (all.length === 0) return (row) => row;
	const bySession = new Map(all.map((p) => [p.sessionId, p]));
	return (row) => withSummary(row, bySession.get(row.session_id));
}

/**
 * An SQL expression (on `events e`) of a row's selection state once the pending runs are made, and its parameters:
 * filters on the state must see what readers see. The plain column when nothing is pending.
 */
export function selectionStateSql(store: IndexStore): { sql: string; params: unknown[] } {
	const all = pendingSummaries(store).filter((p) => p.below > p.next);
	if (all.length === 0) return { sql: "e.selection_state", params: [] };
	const terms = all.map(() => `(e.session_id = ? AND e.id >= ? AND e.id < ? AND e.branch_state = 'selected' AND ${contentfulSql("e")})`);
	return {
		sql: `(CASE WHEN ${terms.join(" OR ")} THEN 'summarized' ELSE e.selection_state END)`,
		params: all.flatMap((p) => [p.sessionId, p.next, p.below]),
	};
}

/**
 * Makes one run of one pending session inside the caller's write transaction and advances (or drops) its marker in
 * the same transaction; false when nothing is pending.
 */
export function summaryRun(store: IndexStore, rows = SUMMARY_RUN): boolean {
	const row = store
		.prepare<[string, string], { key: string; value: string }>("SELECT key, value FROM meta WHERE key >= ? AND key < ? ORDER BY key LIMIT 1")
		.get(PREFIX, PREFIX_END);
	if (!row) return false;
	const p = toPending(Number(row.key.slice(PREFIX.length)), JSON.parse(row.value) as Marker);
	const end = p.next + rows;
	// NOT INDEXED: by rowid range; a session index would step over the whole session for every run.
	if (p.next < p.below)
		store
			.prepare(
				`UPDATE events NOT INDEXED SET selection_state = 'summarized', summarized_by = ?, summarized_prov = 'recorded', edit_state = NULL, edit_by = NULL
				WHERE id >= ? AND id < ? AND session_id = ? AND branch_state = 'selected' AND selection_state IS NOT 'summarized'
				AND ${contentfulSql()}`,
			)
			.run(p.by, p.next, Math.min(end, p.below), p.sessionId);
	// Every selected summarized row ends summarized by the latest compaction on the path: no list of older ones needed.
	store
		.prepare(
			`UPDATE events NOT INDEXED SET summarized_by = ?, summarized_prov = 'recorded' WHERE id >= ? AND id < ? AND session_id = ? AND branch_state = 'selected'
			AND selection_state = 'summarized' AND summarized_by IS NOT ?`,
		)
		.run(p.by, p.next, end, p.sessionId, p.by);
	if (end > p.last) dropSummaryRuns(store, p.sessionId);
	else store.setMeta(row.key, JSON.stringify({ by: p.by, next: end, last: p.last, below: p.below } satisfies Marker));
	return true;
}
