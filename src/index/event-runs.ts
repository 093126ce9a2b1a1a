/**
 * The order in which a query's ranking window takes its matches (issue 32 item 7), and the event_runs table it is
 * read from. The window is the matches of the most recently modified sessions (their files' modification time, then
 * path: the order a fresh build reads them in), each session's later entries first. Row ids only follow that order
 * in a fresh build: an append to an older session, a file read out of order, pi's own session read first all put
 * a session's rows where the order does not. event_runs keeps each session's stretches of consecutive event ids
 * (written with the events), so a query finds the few stretches out of place without joining a match to its event,
 * and keys only those; every other match keeps its row id as its key.
 */
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import type { IndexStore } from "./store.js";

const SLOTS = FRAGMENT_SLOTS;

/** Records that `eventIds` (of one session, ascending) are written: each stretch extends the run it follows or starts one. */
export function recordEventRuns(store: IndexStore, sessionId: number, eventIds: readonly number[]): void {
	let i = 0;
	while (i < eventIds.length) {
		const lo = eventIds[i] as number;
		let hi = lo;
		while (i + 1 < eventIds.length && eventIds[i + 1] === hi + 1) hi = eventIds[++i] as number;
		i++;
		const before = store
			.prepare<[number], { lo: number; hi: number; session_id: number }>("SELECT lo, hi, session_id FROM event_runs WHERE lo < ? ORDER BY lo DESC LIMIT 1")
			.get(lo);
		if (before && before.session_id === sessionId && before.hi === lo - 1) store.prepare("UPDATE event_runs SET hi = ? WHERE lo = ?").run(hi, before.lo);
		else store.prepare("INSERT INTO event_runs (lo, hi, session_id) VALUES (?, ?, ?)").run(lo, hi, sessionId);
	}
}

/** Forgets a session's runs (it is being removed; its event ids may be handed out again). */
export function dropEventRuns(store: IndexStore, sessionId: number): void {
	store.prepare("DELETE FROM event_runs WHERE session_id = ?").run(sessionId);
}

/** A stretch of fragment row ids out of place, and the key its rows sort by (before row id, descending). */
export interface MovedRun {
	from: number;
	to: number;
	key: number;
}

/** Up to this many stretches out of place are keyed inline (a CASE per match); beyond it, by a lookup per match. */
export const INLINE_RUNS = 32;

interface RunRow {
	lo: number;
	hi: number;
	mtime: number;
	path: string;
}

/**
 * The runs whose rows are not where the window order puts them, with their keys: a match in run r sorts by
 * `(key of its run, else its row id) DESC, rowid DESC`. Empty when row id order is the window order (a fresh
 * build). The runs kept in place are a longest stretch-sequence already in order; every other one is given the key
 * just above the rows of the next kept run in the window order, so it sorts right before them.
 */
export function movedRuns(store: IndexStore): MovedRun[] {
	return store.cached("event-runs:moved", () => {
		const rows = store
			.prepare<[], RunRow>(
				`SELECT r.lo, r.hi, f.mtime_ms AS mtime, f.path FROM event_runs r JOIN sessions s ON s.id = r.session_id JOIN files f ON f.id = s.file_id`,
			)
			.all();
		return placeRuns(rows);
	});
}

/** movedRuns for a set of runs (exported for tests). */
export function placeRuns(rows: RunRow[]): MovedRun[] {
	// The window order, first to last: newest file first (mtime, then path, as refresh-plan.ts reads them), later rows first.
	const windowOrder = (a: RunRow, b: RunRow) => b.mtime - a.mtime || byPath(b.path, a.path) || b.lo - a.lo;
	const byRow = [...rows].sort((a, b) => b.lo - a.lo);
	// A fresh build wrote the runs in the window order: one pass over them says so, with no sort.
	if (byRow.every((r, i) => i === 0 || windowOrder(byRow[i - 1] as RunRow, r) < 0)) return [];
	const order = [...rows].sort(windowOrder);
	const rank = new Map(order.map((r, i) => [r, i]));
	// Row id order, highest first; the longest subsequence whose window ranks increase stays in place.
	const kept = longestIncreasing(byRow.map((r) => rank.get(r) as number));
	const inPlace = new Set(kept.map((i) => byRow[i] as RunRow));
	const moved: MovedRun[] = [];
	let pending: RunRow[] = [];
	const place = (next: RunRow | null) => {
		// Just above every row of the next kept run (and below those of the kept run before it): fractions keep order.
		const base = next === null ? -1 : (next.hi + 1) * SLOTS - 1;
		pending.forEach((r, i) => {
			moved.push({ from: r.lo * SLOTS, to: r.hi * SLOTS + SLOTS - 1, key: base + (pending.length - i) / (pending.length + 1) });
		});
		pending = [];
	};
	for (const r of order) {
		if (inPlace.has(r)) place(r);
		else pending.push(r);
	}
	place(null);
	return moved;
}

/**
 * String.localeCompare's order (refresh-plan.ts sorts with it). Where the first differing characters are both digits
 * or lower-case ASCII letters, the collation's order is theirs (digits first, then a–z) and a plain comparison says
 * it; only other paths pay for a collator (made on first use: making one costs more than a query).
 */
function byPath(a: string, b: string): number {
	let i = 0;
	while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
	if (i === a.length && i === b.length) return 0;
	const x = a.charCodeAt(i);
	const y = b.charCodeAt(i);
	if (plain(x) && plain(y)) return x - y;
	collator ??= new Intl.Collator();
	return collator.compare(a, b);
}

let collator: Intl.Collator | undefined;

/** A digit or a lower-case ASCII letter (NaN past the end is neither). */
const plain = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 122);

/** Indexes of a longest strictly increasing subsequence of `values` (patience sorting). */
function longestIncreasing(values: number[]): number[] {
	const tails: number[] = [];
	const prev = new Array<number>(values.length).fill(-1);
	values.forEach((v, i) => {
		let lo = 0;
		let hi = tails.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if ((values[tails[mid] as number] as number) < v) lo = mid + 1;
			else hi = mid;
		}
		if (lo > 0) prev[i] = tails[lo - 1] as number;
		tails[lo] = i;
	});
	const out: number[] = [];
	for (let i = tails.at(-1) ?? -1; i >= 0; i = prev[i] as number) out.push(i);
	return out.reverse();
}

/**
 * The SQL key of a match (`rowid`: its FTS row id expression) in the window order, with its parameters: its row id,
 * or its run's key where the run is out of place. Inline CASE terms for a few runs (padded to a power of two, so the
 * statement text repeats), a lookup in the connection's temp table for more.
 */
export function windowKey(store: IndexStore, rowid: string): { sql: string; params: number[] } {
	const moved = movedRuns(store);
	if (moved.length === 0) return { sql: rowid, params: [] };
	if (moved.length <= INLINE_RUNS) {
		let slots = 1;
		while (slots < moved.length) slots *= 2;
		const params: number[] = [];
		for (let i = 0; i < slots; i++) {
			const m = moved[i];
			// Padding never matches: an empty range.
			params.push(m?.from ?? 1, m?.to ?? 0, m?.key ?? 0);
		}
		return { sql: `(CASE ${Array(slots).fill(`WHEN ${rowid} BETWEEN ? AND ? THEN ?`).join(" ")} ELSE ${rowid} END)`, params };
	}
	movedTable(store, moved);
	return {
		sql: `coalesce((SELECT CASE WHEN ${rowid} <= mr.hi THEN mr.k END FROM temp.moved_runs mr WHERE mr.lo <= ${rowid} ORDER BY mr.lo DESC LIMIT 1), ${rowid})`,
		params: [],
	};
}

/** Fills the connection's temp table of moved runs with `moved`, once per layout. */
function movedTable(store: IndexStore, moved: MovedRun[]): void {
	const db = store.db;
	if (filled.get(db) === moved) return;
	db.exec("CREATE TEMP TABLE IF NOT EXISTS moved_runs (lo INTEGER PRIMARY KEY, hi INTEGER NOT NULL, k REAL NOT NULL)");
	db.transaction(() => {
		db.exec("DELETE FROM temp.moved_runs");
		const insert = db.prepare("INSERT INTO temp.moved_runs (lo, hi, k) VALUES (?, ?, ?)");
		for (const m of moved) insert.run(m.from, m.to, m.key);
	})();
	filled.set(db, moved);
}

/** Which layout each connection's temp table holds. */
const filled = new WeakMap<object, MovedRun[]>();
