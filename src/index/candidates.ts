/**
 * The full-text candidate query: which events match a query and a set of event filters, ranked by bm25 with the
 * per-kind weights of the schema, one row per event, forked copies of one entry ranked after distinct events.
 * The query layer decides which sessions are allowed, how wide a window to ask for and what to make of the rows;
 * this module owns the SQL.
 */
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import { type CandidateFilter, filterClauses, filterJoin, matchExpression } from "./candidate-filter.js";
import { CopyFold } from "./copy-fold.js";
import { byIdentity, type EventKey, IDENTITY_COLUMNS, IDENTITY_ORDER } from "./event-identity.js";
import { NEWEST_WALK, NEWEST_WALK_FIRST, NEWEST_WALK_MIN, newestPageSql } from "./newest-page.js";
import { KIND_COLUMN_INDEX, KIND_COLUMNS } from "./schema.js";
import { removingSessions } from "./session-removal.js";
import type { IndexStore } from "./store.js";
import { selectionStateSql } from "./summary-runs.js";
import { searchSystemTexts } from "./system-texts.js";

const SLOTS = FRAGMENT_SLOTS;
const BM25_WEIGHTS = KIND_COLUMNS.map((c) => c.weight.toFixed(2)).join(", ");
/** A fragment's score column: bm25 with the kinds' weights, or 0 where the order is not the rank's. */
const scoreSql = (scored: boolean) => (scored ? `bm25(fts, ${BM25_WEIGHTS})` : "0.0");

/** One matching event: its best (lowest) bm25 score, how many fragments matched and the best fragment's rowid. */
export interface Candidate {
	eid: number;
	best: number;
	n: number;
	fid: number | null;
	/** 1 for the best-ranked copy of an entry (same entryId and line); greater for its forked copies. */
	copy_rank: number;
}

/** The first ranked rows of one window (as many as asked for), and whether the window already held every match. */
export interface CandidateWindow {
	rows: Candidate[];
	/** The window held every match of the query. */
	exhausted: boolean;
	/** Every fragment of the window was ranked (fewer than `top`), not only the best `top`. */
	complete: boolean;
}

/** Match counts kept per index version (indexMatches): a long-lived explorer asks for many. */
const COUNTS_KEPT = 1024;

/**
 * Copies of one entry in forked files (same entryId, byte-identical line) are separate events, but only the
 * best-ranked copy keeps its place: the others rank after every distinct event, so a fork family cannot fill a page.
 */
const RANKED_ORDER = `ORDER BY (copy_rank > 1), best, ts_ms DESC, ${IDENTITY_ORDER}`;
/** Which copy of a forked entry ranks first: the best, then the newest, then by identity. */
const COPY_ORDER = `ORDER BY best, ts_ms DESC, ${IDENTITY_ORDER}`;

/** Ranked candidates for one FTS5 MATCH expression (null: no text query, newest events first) and one filter. */
export class CandidateQuery {
	private readonly where: string[];
	private readonly params: unknown[];
	private readonly match: string | null;
	private readonly plainMatch: string | null;
	private sibling: CandidateQuery | undefined;
	/** How a filtered statement joins its matches to their events. */
	private readonly filterJoin: string;

	/**
	 * `expanded`: the same query with prefix terms written as the terms they expand to in this index (query-parse
	 * matchOf, vocabulary.ts), for the events' FTS table; `match` keeps the prefixes for the system prompts' table,
	 * whose vocabulary is its own.
	 */
	constructor(
		private readonly store: IndexStore,
		match: string | null,
		private readonly filter: CandidateFilter,
		private readonly expanded: string | null = match,
	) {
		({ where: this.where, params: this.params } = filterClauses(filter, filter.selectionStates?.length ? selectionStateSql(store) : { sql: "", params: [] }));
		const hidden = removingSessions(store);
		if (hidden.length > 0) {
			// Removed sessions whose rows are still being deleted (session-removal.ts): no longer there for any answer.
			this.where.push("e.session_id NOT IN (SELECT value FROM json_each(?))");
			this.params.push(JSON.stringify(hidden));
		}
		this.match = expanded === null ? null : matchExpression(expanded, filter);
		this.plainMatch = match;
		this.filterJoin = filterJoin(store, filter);
	}

	/** This query for statements that do not score: filtered by the exact scope token, where there is one, not by ids. */
	private get unscored(): CandidateQuery {
		if (this.match === null || !this.filter.exact || this.filter.sessions === null) return this;
		this.sibling ??= new CandidateQuery(this.store, this.plainMatch, { ...this.filter, sessions: null, scope: this.filter.exact, exact: null }, this.expanded);
		return this.sibling;
	}

	/** True when a filter beyond the match expression (sessions, times, tree states, …) decides which events count. */
	get filtered(): boolean {
		return this.where.length > 0;
	}

	/** The filter's terms as SQL to follow a WHERE (`AND …`), "" without any. */
	private get whereSql(): string {
		return this.where.length ? `AND ${this.where.join(" AND ")}` : "";
	}

	/** True when there is a text query to rank; false for a filters-only listing (newest first). */
	get textual(): boolean {
		return this.match !== null;
	}

	/**
	 * Events whose pi 1.x system prompt sections match (system-texts.ts: each distinct text stored once, outside the
	 * main FTS table), best first; only for a query that asks for the `system.prompt` kind.
	 */
	systemPrompts(limit: number): Candidate[] {
		if (this.plainMatch === null || !this.filter.kinds?.includes("system.prompt")) return [];
		return searchSystemTexts(this.store, this.plainMatch, this.where, this.params, FRAGMENT_SLOTS, limit).map((c) => ({ ...c, copy_rank: 1 }));
	}

	/**
	 * The first `need` events of a window of the newest matches, ranked by bm25 (or, without a query, of the
	 * `fragments` newest events). The window is the `fragments` matching fragments kept by the filters with the
	 * highest FTS rowids, i.e. of the newest events (event ids follow recency, see SessionWriter), less its oldest
	 * event when there are older matches: every event in the window has all its matching fragments in it,
	 * so its best score and match count are exact. `exhausted`: the query has no match outside the window. Unscored
	 * (`scored` false), every score is 0 and the events come newest first.
	 */
	window(fragments: number, top: number, need: number, scored = true): CandidateWindow {
		if (!scored && this.unscored !== this) return this.unscored.window(fragments, top, need, false);
		if (!scored && this.match !== null) return this.newestWindow(fragments, need);
		const where = this.whereSql;
		if (this.match !== null) {
			// With event filters, filter inside the scan (one join per match), so the window counts only kept events.
			const from = this.where.length ? this.filterJoin : "fts";
			// One scan, newest first, bm25 only for the window's rows. One row more than the window tells whether
			// there are older matches; then the oldest event read may have fragments below (an event's fragments have
			// adjacent rowids) and is left out, with that extra row. Only the best
			// `top` fragments are coalesced into events (an event's best fragment is among them whenever any of its
			// fragments is); the page's match counts come from the whole window, counted in one pass for the page's
			// events only (a count per ranked row scanned the whole window up to `top` times: half the query's time).
			const query = `
			WITH w0 AS MATERIALIZED (
				SELECT fts.rowid AS fid, ${scoreSql(true)} AS score FROM ${from}
				WHERE fts MATCH ? ${where} ORDER BY fts.rowid DESC LIMIT ?
			),
			edge AS MATERIALIZED (SELECT count(*) AS seen, CASE WHEN count(*) <= ? THEN -1 ELSE min(fid) / ${SLOTS} END AS oldest FROM w0),
			kept AS MATERIALIZED (SELECT fid, score FROM w0 WHERE fid / ${SLOTS} > (SELECT oldest FROM edge)),
			-- The best "top" fragments and every one that ties with the last of them: which of equal scores made the
			-- cut would otherwise follow the scan's (row id) order.
			m AS MATERIALIZED (SELECT fid, score FROM kept WHERE score <= coalesce((SELECT score FROM kept ORDER BY score LIMIT 1 OFFSET ?), 1e308)),
			best AS (SELECT fid / ${SLOTS} AS eid, score AS best, fid, row_number() OVER (PARTITION BY fid / ${SLOTS} ORDER BY score, fid) AS r FROM m),
			hits AS (
				SELECT b.eid, b.best, b.fid, e.entry_id, e.line_hash, e.ts_ms, ${IDENTITY_COLUMNS}
				FROM best b JOIN events e ON e.id = b.eid JOIN sessions sx ON sx.id = e.session_id
				WHERE b.r = 1
			),
			ranked AS (SELECT *, row_number() OVER (PARTITION BY entry_id, line_hash ${COPY_ORDER}) AS copy_rank FROM hits),
			page AS MATERIALIZED (SELECT eid, best, fid, copy_rank, ts_ms, s_created, s_public, e_seq FROM ranked ${RANKED_ORDER} LIMIT ?),
			counts AS MATERIALIZED (SELECT fid / ${SLOTS} AS eid, count(*) AS n FROM w0 WHERE fid / ${SLOTS} IN (SELECT eid FROM page) GROUP BY 1)
			SELECT eid, best, fid, copy_rank, coalesce((SELECT n FROM counts c WHERE c.eid = page.eid), 0) AS n,
				(SELECT count(*) FROM m) AS ranked, (SELECT count(*) FROM kept) AS eligible, (SELECT seen FROM edge) AS seen
			FROM page ${RANKED_ORDER}`;
			const rows = this.store
				.prepare<unknown[], Candidate & { ranked: number; eligible: number; seen: number }>(query)
				.all(this.match, ...this.params, fragments + 1, fragments, top - 1, need);
			const first = rows[0];
			return { rows, exhausted: (first?.seen ?? 0) <= fragments, complete: (first?.ranked ?? 0) >= (first?.eligible ?? 0) };
		}
		const kindWhere = this.kindWhere();
		// The newest events, one more than the window, and every event as old as the last of them: which of equal
		// times made the cut would otherwise follow row ids. Events without a time come last, all or none.
		const cut = this.store
			// Newest first through the time index, stopping at the cut: the filter index holds the columns too, and SQLite
			// would rather sort every event it keeps.
			.prepare<unknown[], { t: number | null }>(
				`SELECT e.ts_ms AS t FROM events e INDEXED BY events_ts WHERE 1 ${where} ${kindWhere} ORDER BY e.ts_ms DESC LIMIT 1 OFFSET ?`,
			)
			.get(...this.params, fragments);
		const since = cut && cut.t !== null ? "AND e.ts_ms >= ?" : "";
		// The events since the cut through the time index too: SQLite would rather walk every session's events (the
		// whole table: 0.6 GB of pages and half a second on a 5 GB history) and keep the few that are that recent.
		const query = `
		WITH hits AS MATERIALIZED (SELECT e.id AS eid, 0.0 AS best, 0 AS n, NULL AS fid, e.entry_id, e.line_hash, e.ts_ms, ${IDENTITY_COLUMNS}
			FROM events e ${since ? "INDEXED BY events_ts" : ""} JOIN sessions sx ON sx.id = e.session_id WHERE 1 ${where} ${kindWhere} ${since}),
		ranked AS (SELECT *, row_number() OVER (PARTITION BY entry_id, line_hash ORDER BY ts_ms DESC, ${IDENTITY_ORDER}) AS copy_rank FROM hits)
		SELECT eid, best, n, fid, copy_rank FROM ranked ORDER BY (copy_rank > 1), ts_ms DESC, ${IDENTITY_ORDER} LIMIT ?`;
		const rows = this.store.prepare<unknown[], Candidate>(query).all(...this.params, ...(since ? [cut?.t] : []), need);
		return { rows, exhausted: cut === undefined, complete: true };
	}

	/**
	 * window() unscored: the window's events newest first, forked copies after every distinct event. The window's
	 * fragments come back in row id order, so JavaScript groups them into events; SQLite then sorts only the events'
	 * times, read from the narrow filter index, and an event's identity (its copy family, its tie-break) is read for
	 * the first events only, while the page's distinct events are not all known. Sorting the events joined to their
	 * wide rows and sessions cost most of a common phrase's search.
	 */
	private newestWindow(fragments: number, need: number): CandidateWindow {
		const from = this.where.length ? this.filterJoin : "fts";
		const fids = this.store
			.prepare<unknown[], number>(`SELECT fts.rowid FROM ${from} WHERE fts MATCH ? ${this.whereSql} ORDER BY fts.rowid DESC LIMIT ?`)
			.pluck()
			.all(this.match, ...this.params, fragments + 1);
		const seen = fids.length;
		// The oldest event of a full window may have older fragments below it: left out, so every count is whole.
		const oldest = seen <= fragments ? -1 : Math.floor((fids[seen - 1] as number) / SLOTS);
		const events = new Map<number, { fid: number; n: number }>();
		for (const fid of fids) {
			const eid = Math.floor(fid / SLOTS);
			if (eid <= oldest) break;
			const ev = events.get(eid);
			// Row ids descend: an event's last fragment read is its first.
			if (ev) {
				ev.fid = fid;
				ev.n++;
			} else events.set(eid, { fid, n: 1 });
		}
		const fold = new CopyFold();
		if (events.size > 0) {
			const times = this.store
				.prepare<[string], { eid: number; ts_ms: number | null }>(
					"SELECT e.id AS eid, e.ts_ms FROM events e WHERE e.id IN (SELECT value FROM json_each(?)) ORDER BY e.ts_ms DESC",
				)
				.iterate(JSON.stringify([...events.keys()]));
			const identity = this.store.prepare<[number], Omit<EventKey, "eid" | "ts_ms">>(
				`SELECT e.entry_id, e.line_hash, ${IDENTITY_COLUMNS} FROM events e JOIN sessions sx ON sx.id = e.session_id WHERE e.id = ?`,
			);
			// Events of one time are ordered by identity once all of them are read (sameTime), then folded.
			let sameTime: EventKey[] = [];
			const flush = () => {
				sameTime.sort(byIdentity);
				for (const key of sameTime) {
					const ev = events.get(key.eid) as { fid: number; n: number };
					fold.add(key, { eid: key.eid, best: 0, n: ev.n, fid: ev.fid });
				}
				sameTime = [];
			};
			try {
				for (const row of times) {
					if (sameTime.length > 0 && (sameTime[0] as EventKey).ts_ms !== row.ts_ms) {
						flush();
						if (fold.distinct.length >= need) break;
					}
					sameTime.push({ eid: row.eid, ts_ms: row.ts_ms, ...(identity.get(row.eid) as Omit<EventKey, "eid" | "ts_ms">) });
				}
				if (sameTime.length > 0) flush();
			} finally {
				times.return?.();
			}
		}
		return { rows: fold.slice(0, need), exhausted: seen <= fragments, complete: true };
	}

	/**
	 * How many distinct entries match, forked copies (same entryId, byte-identical line) once, counting no further
	 * than `cap + 1` and reading no more than the `scan` newest matching fragments (or events, without a query):
	 * no bm25 and no window, so it costs at most `scan` row lookups (≈15 ms for a 10,000 cap on the large
	 * benchmark corpus), however many events match and however few of them the filters keep. `truncated`: the
	 * scan stopped before the last match, so `n` is a lower bound.
	 */
	count(cap: number, scan: number): { n: number; truncated: boolean } {
		return this.counted(cap, scan, true);
	}

	/** count's `n` alone: without the second pass over the matches that tells whether the scan stopped first. */
	countUpTo(cap: number, scan: number): number {
		return this.counted(cap, scan, false).n;
	}

	private counted(cap: number, scan: number, truncation: boolean): { n: number; truncated: boolean } {
		if (this.unscored !== this) return this.unscored.counted(cap, scan, truncation);
		const where = this.whereSql;
		const get = (sql: string, ...params: unknown[]) => this.store.prepare<unknown[], { n: number }>(sql).get(...params)?.n ?? 0;
		if (this.match !== null) {
			const scanned = `SELECT fts.rowid AS fid FROM fts WHERE fts MATCH ? ORDER BY fts.rowid DESC LIMIT ?`;
			const n = get(
				`SELECT count(*) AS n FROM (SELECT DISTINCT e.entry_id, e.line_hash FROM (${scanned}) f JOIN events e ON e.id = f.fid / ${SLOTS}
				WHERE 1 ${where} LIMIT ?)`,
				this.match,
				scan,
				...this.params,
				cap + 1,
			);
			// Below the cap, the scan may have stopped first: one more pass, without the join, tells.
			const truncated = truncation && n <= cap && get(`SELECT count(*) AS n FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?)`, this.match, scan + 1) > scan;
			return { n, truncated };
		}
		const kinds = this.kindWhere();
		const newest = `SELECT e.* FROM events e ORDER BY e.ts_ms DESC, e.id DESC LIMIT ?`;
		const n = get(
			`SELECT count(*) AS n FROM (SELECT DISTINCT e.entry_id, e.line_hash FROM (${newest}) e WHERE 1 ${where} ${kinds} LIMIT ?)`,
			scan,
			...this.params,
			cap + 1,
		);
		const truncated = truncation && n <= cap && get(`SELECT count(*) AS n FROM (SELECT 1 FROM events LIMIT ?)`, scan + 1) > scan;
		return { n, truncated };
	}

	/**
	 * The statement reading the newest `limit` matching fragments kept by the filters, each with its bm25 score (lower
	 * is better) or 0, unranked, and its parameters; null without a text query. A partial match reads several such
	 * lists in one statement and scores them there (query/partial.ts). `newestFirst` false: a list the limit cannot
	 * cut, read in any order.
	 */
	fragmentList(limit: number, scored = true, floor: number | null = null, newestFirst = true): { sql: string; params: unknown[] } | null {
		if (this.match === null) return null;
		if (!scored && this.unscored !== this) return this.unscored.fragmentList(limit, false, floor, newestFirst);
		const where = this.whereSql;
		const from = this.where.length ? this.filterJoin : "fts";
		// bm25 counts every row of each of its phrases once per query: unscored, a common word costs only its matches.
		const score = scoreSql(scored);
		// A floor (the oldest row id the list reads) ends its scan there. FTS5 seeks only to an INTEGER bound: a bound
		// JavaScript number is a REAL, which it leaves to SQLite to test on every row it reads.
		const bound = floor === null ? "" : "AND fts.rowid >= CAST(? AS INTEGER)";
		// Newest first only when the limit may cut the list: FTS5 reads its own order, oldest first, for less.
		const sql = `SELECT fts.rowid AS fid, ${score} AS score FROM ${from} WHERE fts MATCH ? ${bound} ${where} ORDER BY fts.rowid ${newestFirst ? "DESC" : ""} LIMIT ?`;
		return { sql, params: [this.match, ...(floor === null ? [] : [floor]), ...this.params, limit] };
	}

	/**
	 * indexMatches' count, oldest first (FTS5's own order, cheaper than newest first), with the row ids of the first and
	 * last fragment counted (null: none): how far back `cap` matches reach, against the index's newest row id.
	 */
	indexSpan(cap: number): { n: number; first: number | null; last: number | null } {
		if (this.match === null) return { n: 0, first: null, last: null };
		if (this.unscored !== this) return this.unscored.indexSpan(cap);
		const row = this.store
			.prepare<[string, number], { n: number; first: number | null; last: number | null }>(
				"SELECT count(*) AS n, min(fid) AS first, max(fid) AS last FROM (SELECT fts.rowid AS fid FROM fts WHERE fts MATCH ? ORDER BY fts.rowid LIMIT ?)",
			)
			.get(this.match, cap);
		return { n: row?.n ?? 0, first: row?.first ?? null, last: row?.last ?? null };
	}

	/** The row id of the `cap`-th newest matching fragment, read newest first; null when fewer match. */
	newestFloor(cap: number): number | null {
		if (this.match === null) return null;
		if (this.unscored !== this) return this.unscored.newestFloor(cap);
		const row = this.store
			.prepare<[string, number], { n: number; oldest: number | null }>(
				"SELECT count(*) AS n, min(fid) AS oldest FROM (SELECT fts.rowid AS fid FROM fts WHERE fts MATCH ? ORDER BY fts.rowid DESC LIMIT ?)",
			)
			.get(this.match, cap);
		return row && row.n >= cap ? row.oldest : null;
	}

	/** The highest row id a fragment of the index's newest event can have. */
	topRowid(): number {
		return (this.lastEventId() + 1) * SLOTS - 1;
	}

	/** The largest event id (0: none); ids only grow, so it counts the events ever written. */
	private lastEventId(): number {
		return this.store.prepare<[], number | null>("SELECT max(id) FROM events").pluck().get() ?? 0;
	}

	/**
	 * How many fragments match, counting no further than `cap`: the FTS index alone, within the match's scope token
	 * and kinds' columns but no other filter, no join.
	 */
	indexMatches(cap: number): number {
		if (this.match === null) return 0;
		if (this.unscored !== this) return this.unscored.indexMatches(cap);
		// Cached until the index changes: a query asked again (its next page, Backspace, a repeat) counted up to 65,537
		// matches of a common word each time before it read a row.
		const match = this.match;
		return this.store.remembered(
			"index-matches",
			`${cap}\u0000${match}`,
			COUNTS_KEPT,
			() =>
				this.store.prepare<[string, number], { n: number }>("SELECT count(*) AS n FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?)").get(match, cap)?.n ?? 0,
		);
	}

	private kindWhere(): string {
		const mask = (this.filter.kinds ?? []).reduce((m, kind) => m | (1 << (KIND_COLUMN_INDEX.get(kind) as number)), 0);
		return mask ? `AND (e.kinds & ${mask}) <> 0` : "";
	}

	/**
	 * One page of the matching events, newest first. Forked copies of an entry share its timestamp, so they sit next
	 * to it (best-ranked copy first), where the explorer folds them. A query with `walkFrom` matches or more (by
	 * default: enough that the newest events likely hold the page) walks the newest events instead of scoring every
	 * match (newestByWalk).
	 */
	newest(limit: number, offset: number, walkFrom = this.walkFrom(limit + offset), scored = true): Candidate[] {
		if (this.match === null) return this.window(limit + offset, limit + offset, limit + offset).rows.slice(offset, offset + limit);
		const walked = this.indexMatches(walkFrom) >= walkFrom ? this.newestByWalk(limit, offset, scored) : null;
		if (walked) return walked;
		const where = this.whereSql;
		// Every match scored (unless `scored` is false): the order is not the rank's.
		const matches = `SELECT fts.rowid AS fid, ${scoreSql(scored)} AS score FROM ${this.filterJoin} WHERE fts MATCH ? ${where}`;
		return this.store.prepare<unknown[], Candidate>(newestPageSql(matches)).all(this.match, ...this.params, limit, offset);
	}

	/**
	 * Matches from which a newest-first page of `need` events walks: twice as many as the longest walk meets on average
	 * (matches spread evenly over the events, whose count the largest event id tells). Fewer cost less to score all.
	 */
	private walkFrom(need: number): number {
		return Math.max(NEWEST_WALK_MIN, Math.ceil((2 * need * this.lastEventId()) / NEWEST_WALK));
	}

	/**
	 * newest() for a common match: the newest events kept by the filters are read through the time index
	 * and their matches found in one range scan of their row ids (unscored); the page's last event among them gives a
	 * time, and the matching events at least that new, ties at that time whole (an entry's forked copies share its
	 * time), are all that is scored and ordered. The page equals the one of every match scored. Null when those events
	 * hold fewer matches than the page needs, or its last event has no time (such events come last, all or none).
	 */
	newestByWalk(limit: number, offset: number, scored = true): Candidate[] | null {
		const where = `${this.whereSql} ${this.kindWhere()}`;
		// One range scan, not one FTS5 lookup per event: the newest events' ids are close together, and a scan of the
		// widest range costs what counting the matches does.
		const walk = this.store.prepare<unknown[], { eid: number; t: number | null }>(
			`WITH w AS MATERIALIZED (SELECT e.id, e.ts_ms FROM events e INDEXED BY events_ts WHERE 1 ${where} ORDER BY e.ts_ms DESC LIMIT ?),
			span AS MATERIALIZED (SELECT min(id) * ${SLOTS} AS lo, max(id) * ${SLOTS} + ${SLOTS - 1} AS hi FROM w),
			hit AS MATERIALIZED (SELECT DISTINCT fts.rowid / ${SLOTS} AS eid FROM fts
				WHERE fts MATCH ? AND fts.rowid BETWEEN (SELECT lo FROM span) AND (SELECT hi FROM span))
			SELECT w.id AS eid, w.ts_ms AS t FROM w JOIN hit ON hit.eid = w.id ORDER BY w.ts_ms DESC`,
		);
		// A few newest events first (a filter's columns are read from each event's row), four times as many while they
		// hold fewer matches than the page needs.
		let walked: Array<{ eid: number; t: number | null }> = [];
		for (let n = NEWEST_WALK_FIRST; n <= NEWEST_WALK && walked.length < limit + offset; n *= 4) walked = walk.all(...this.params, n, this.match);
		const cut = walked[limit + offset - 1]?.t;
		if (cut === undefined || cut === null) return null;
		const newer = walked.filter((r) => r.t !== null && r.t >= cut).map((r) => r.eid);
		// The events' fragments in one range scan too, scored only where they are one of these events' (bm25 counts
		// its matches once per scan, so not once per event).
		const matches = `SELECT fts.rowid AS fid, ${scoreSql(scored)} AS score FROM fts
			WHERE fts MATCH ? AND fts.rowid BETWEEN (SELECT lo FROM span) AND (SELECT hi FROM span) AND fts.rowid / ${SLOTS} IN (SELECT eid FROM c)`;
		const tie = `EXISTS (SELECT 1 FROM fts WHERE fts MATCH ? AND fts.rowid BETWEEN e.id * ${SLOTS} AND e.id * ${SLOTS} + ${SLOTS - 1})`;
		const sql = newestPageSql(matches, [
			// Every event newer than the cut is among the walked ones; those as old as it may not all be.
			`c AS MATERIALIZED (SELECT value AS eid FROM json_each(?) UNION SELECT e.id FROM events e INDEXED BY events_ts WHERE e.ts_ms = ? ${where} AND ${tie})`,
			`span AS MATERIALIZED (SELECT min(eid) * ${SLOTS} AS lo, max(eid) * ${SLOTS} + ${SLOTS - 1} AS hi FROM c)`,
		]);
		return this.store.prepare<unknown[], Candidate>(sql).all(JSON.stringify(newer), cut, ...this.params, this.match, this.match, limit, offset);
	}
}
