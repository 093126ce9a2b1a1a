/**
 * Removal of a session in two steps (issue 32 item 9): a small write hides it (its sessions row goes, a marker here
 * keeps its row id), and its rows (events, FTS rows, tool calls, file evidence, tree shape and layouts) are deleted afterwards in
 * bounded chunks, each its own write, so removing or rewriting a million-entry session never holds a writer (or pi's
 * event loop) for the session's size. Readers leave a marked session's rows out (candidates.ts), so answers stop
 * showing it at once; a crash between chunks leaves the marker, and the next refresh goes on from it.
 */
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import { deleteFtsRowsTallied, type FtsTally, settleTally } from "./fts-totals.js";
import type { IndexStore } from "./store.js";
import { dropSummaryRuns } from "./summary-runs.js";
import { dropUnusedSystemTexts } from "./system-texts.js";

const PREFIX = "removing:";
/** The key just after every PREFIX key (`;` follows `:`), for a range over the primary key. */
const PREFIX_END = "removing;";

/**
 * Fragment rows per chunk by default: deleting one (FTS row, its sizes, the event's rows and indexes) costs tens of
 * microseconds, so a chunk stays a few milliseconds and a 40 ms slice holds several.
 */
export const REMOVAL_CHUNK = 512;

/** Tree shape rows (SHAPE_CHUNK entries each, blobs) deleted per chunk. */
const SHAPE_ROWS = 8;

/** Hides a session inside the caller's write transaction: its rows stay until removeChunk deletes them. */
export function hideSession(store: IndexStore, sessionId: number): void {
	// The value collects the system texts of the rows deleted so far: the last chunk drops those no event uses.
	store.setMeta(`${PREFIX}${sessionId}`, "[]");
	store.prepare("DELETE FROM sessions WHERE id = ?").run(sessionId);
	store.prepare("DELETE FROM meta WHERE key = ?").run(`unclassified:${sessionId}`);
	dropSummaryRuns(store, sessionId);
}

/** Session row ids hidden and not yet removed, lowest first (a range of the meta table's key; nearly always none). */
export function removingSessions(store: IndexStore): number[] {
	return store
		.prepare<[string, string], string>("SELECT key FROM meta WHERE key > ? AND key < ?")
		.pluck()
		.all(PREFIX, PREFIX_END)
		.map((k) => Number(k.slice(PREFIX.length)))
		.sort((a, b) => a - b);
}

/**
 * The row id for a new session: after every session row and every hidden one, so a new session never takes the id
 * whose rows are still being deleted (they would become its own).
 */
export function nextSessionId(store: IndexStore): number {
	const max = store.prepare<[], number | null>("SELECT max(id) FROM sessions").pluck().get() ?? 0;
	return Math.max(max, ...removingSessions(store)) + 1;
}

/**
 * Deletes up to about `budget` fragment rows of hidden sessions (and their events), inside the caller's write
 * transaction; a session whose rows are all gone loses its marker. Returns the rows deleted (0: nothing was pending).
 * The FTS rows' sizes are added to `tally`: the caller settles it (settleTally) before its transaction commits.
 */
export function removeChunk(store: IndexStore, tally: FtsTally, budget = REMOVAL_CHUNK): number {
	let done = 0;
	for (const sessionId of removingSessions(store)) {
		done += removeSessionRows(store, sessionId, Math.max(1, budget - done), tally);
		if (done >= budget) break;
	}
	return done;
}

/** Up to `budget` rows of one hidden session; the marker goes with its last rows. */
function removeSessionRows(store: IndexStore, sessionId: number, budget: number, tally: FtsTally): number {
	const key = `${PREFIX}${sessionId}`;
	// The session's events by the (session_id, parent_id) index: one chunk at a time, whatever their number.
	const rows = store
		.prepare<[number, number], { id: number; nfrags: number; sys_texts: string | null }>(
			"SELECT id, nfrags, sys_texts FROM events WHERE session_id = ? LIMIT ?",
		)
		.all(sessionId, budget);
	let done = 0;
	const events: number[] = [];
	const fragments: number[] = [];
	const texts = new Set<number>(JSON.parse(store.meta(key) ?? "[]") as number[]);
	for (const e of rows) {
		// At least one event, and whole events: an event's fragments go with it.
		if (events.length > 0 && done + e.nfrags + 1 > budget) break;
		events.push(e.id);
		for (let i = 0; i < e.nfrags; i++) fragments.push(e.id * FRAGMENT_SLOTS + i);
		if (e.sys_texts) for (const t of e.sys_texts.split(",")) if (Number(t) >= 0) texts.add(Number(t));
		done += e.nfrags + 1;
	}
	if (events.length > 0) {
		deleteFtsRowsTallied(store, "fts", fragments, tally);
		const ids = JSON.stringify(events);
		for (const table of ["tool_calls", "file_evidence"]) store.prepare(`DELETE FROM ${table} WHERE event_id IN (SELECT value FROM json_each(?))`).run(ids);
		store.prepare("DELETE FROM events WHERE id IN (SELECT value FROM json_each(?))").run(ids);
		store.setMeta(key, JSON.stringify([...texts]));
		if (rows.length === events.length && rows.length < budget) return done + finishSession(store, sessionId, texts, tally);
		return done;
	}
	return finishSession(store, sessionId, texts, tally);
}

/** After the events: the tree shape and its kept layouts, then the texts no event uses and the marker. Rows deleted (shape rows count). */
function finishSession(store: IndexStore, sessionId: number, texts: Set<number>, tally: FtsTally): number {
	const shapes = store
		.prepare("DELETE FROM tree_shape WHERE rowid IN (SELECT rowid FROM tree_shape WHERE session_id = ? LIMIT ?)")
		.run(sessionId, SHAPE_ROWS).changes;
	if (shapes === SHAPE_ROWS) return shapes;
	const layouts = store
		.prepare("DELETE FROM tree_layout WHERE rowid IN (SELECT rowid FROM tree_layout WHERE session_id = ? LIMIT ?)")
		.run(sessionId, SHAPE_ROWS).changes;
	if (layouts === SHAPE_ROWS) return shapes + layouts;
	// The unused texts' rows go from the other FTS table: settled first, each table's tally its own.
	settleTally(store, "fts", tally);
	dropUnusedSystemTexts(store, [...texts]);
	store.prepare("DELETE FROM meta WHERE key = ?").run(`${PREFIX}${sessionId}`);
	return shapes + layouts + 1;
}
