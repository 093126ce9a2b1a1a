/**
 * The SQL of a partial match (query/partial.ts, issue 28): several lists of matching fragments read and scored in one
 * statement, each fragment's coverage summed over the words it holds, each event's best fragment picked, the events
 * ranked with their ties broken (time, then identity) and read into JavaScript only as far as a page asks for.
 */
import type { Statement } from "better-sqlite3";
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import type { CandidateFilter } from "./candidate-filter.js";
import { CandidateQuery } from "./candidates.js";
import { type EventKey, IDENTITY_COLUMNS, IDENTITY_ORDER } from "./event-identity.js";
import type { IndexStore } from "./store.js";

/** One list of fragments a partial match reads: one form of one word, and what holding it is worth. */
export interface FragmentList {
	match: string;
	/** Index of the word among the matched ones: a word held in two forms counts once, at its better weight. */
	word: number;
	weight: number;
	/** Scored by bm25 (the core words' lists only). */
	scored: boolean;
	/** The query term the word stands for, or -1 for a did-you-mean stand-in. */
	term: number;
	/** Fragments read at most, the newest. */
	cap: number;
	/** The oldest row id read (null: no bound). */
	floor?: number | null;
	/** Fewer fragments match than the cap (its word's count in scope says so): any order reads them all. */
	whole?: boolean;
}

/** A word every listed fragment holds (the lone candidates' word), whether or not its own list reached the fragment. */
export interface Implied {
	/** Its index among the matched words, or -1 for none. */
	word: number;
	weight: number;
	term: number;
	/** Words without a list that every listed fragment holds too (tokens of that word's phrase). */
	also: ReadonlyArray<{ weight: number; term: number }>;
}

/**
 * An event of a partial answer: its best fragment, that fragment's coverage (sum of the weights of the words it
 * holds) and bm25 sum, the query terms that fragment holds (a bit per term), how many of its fragments matched, and
 * its keys (forked copies share entry id and line hash).
 */
export interface ScoredEvent extends EventKey {
	fid: number;
	cov: number;
	bm: number;
	terms: number;
	n: number;
}

/**
 * The events the lists' fragments belong to, best first (coverage, then bm25, then the newest, then identity: never
 * row ids), each with its best fragment (of equal ones, the first of the entry). One statement: scoring thousands of
 * fragments row by row in a fresh process cost more than reading them, and a common word's thousands of equal scores
 * are ordered where they are, not read out to be (only the best events and their ties have their keys read).
 */
export function scoredEvents(store: IndexStore, filter: CandidateFilter, lists: readonly FragmentList[], implied: Implied, events: number): ScoredEvents {
	// Each word's lists, heaviest first: a fragment holding the word in two forms counts the better one.
	const byWord = new Map<number, FragmentList[]>();
	for (const list of lists) byWord.set(list.word, [...(byWord.get(list.word) ?? []), list]);
	for (const own of byWord.values()) own.sort((a, b) => b.weight - a.weight);
	const words = [...byWord.keys()].sort((a, b) => a - b);
	const ranks = Math.max(1, ...[...byWord.values()].map((own) => own.length));
	const params: unknown[] = [];
	const parts: string[] = [];
	for (const list of lists) {
		// Unscored rows only: a scored fragment's bm25 sum must not depend on the order its rows come in.
		const newestFirst = list.scored || list.whole !== true;
		const source = new CandidateQuery(store, list.match, filter).fragmentList(list.cap, list.scored, list.floor ?? null, newestFirst);
		if (source === null) continue;
		// A row says which word it holds by a bit in the mask of its form's rank (m0: the word's best form).
		const rank = (byWord.get(list.word) ?? []).indexOf(list);
		const masks = Array.from({ length: ranks }, (_, k) => `${k === rank ? wordBit(list.word) : 0} AS m${k}`).join(", ");
		parts.push(`SELECT fid, score, ${masks} FROM (${source.sql})`);
		params.push(...source.params);
	}
	if (parts.length === 0) return new ScoredEvents(store, null, [], events);
	const held = (w: number) => `(${Array.from({ length: ranks }, (_, k) => `m${k}`).join(" | ")}) & ${wordBit(w)}`;
	// Per fragment: the sum over its words of each word's better form's weight (in word order, as the coverage of equal
	// fragments must be equal), the implied word's if its list did not reach the fragment and the words held with it,
	// the sum of its bm25 scores and its terms. Rows are grouped by summing masks (a list holds a fragment once), and
	// weights are read from the masks once per fragment: a weight and a term per word, each a CASE in an aggregate,
	// cost more per row than reading the row. Weights and terms are bound as parameters.
	const coverage = words.map((w) => `CASE ${(byWord.get(w) ?? []).map((_, k) => `WHEN m${k} & ${wordBit(w)} THEN ?`).join(" ")} ELSE 0 END`);
	const terms = words.map((w) => `CASE WHEN ${held(w)} THEN ? ELSE 0 END`);
	const impliedHeld = implied.word >= 0 ? held(implied.word) : "0";
	const sums = Array.from({ length: ranks }, (_, k) => `sum(m${k}) AS m${k}`).join(", ");
	// Each event's best fragment: an event with one matching fragment (nearly all) is grouped, only those with more are
	// ordered; a window over every fragment paid for a partition per event. Only the best events are returned
	// (ScoredEvents), with the lists' count of fragments. When many events tie at the last place read (a common
	// word's thousands of equals), they come back as one list on one of them (`tied`), for newestTied to order.
	// SQLite copies a CTE's whole tree, and the CTEs it names, for every reference when it prepares the statement: each
	// later CTE is named once or twice (the tied list and its carrier in one row, joined once), or a fresh process's
	// prepare costs several times the statement's run on a small answer.
	const sql = `
	WITH l AS MATERIALIZED (${parts.join("\n\tUNION ALL ")}),
	f AS MATERIALIZED (SELECT fid, ${coverage.join(" + ")} + (CASE WHEN ${impliedHeld} THEN 0 ELSE ? END) + ? AS cov, bm,
		${terms.join(" + ")} + (CASE WHEN ${impliedHeld} THEN 0 ELSE ? END) + ? AS terms
		FROM (SELECT fid, ${sums}, sum(score) AS bm FROM l GROUP BY fid)),
	g AS MATERIALIZED (SELECT fid / ${FRAGMENT_SLOTS} AS eid, count(*) AS n, fid, cov, bm, terms FROM f GROUP BY fid / ${FRAGMENT_SLOTS}),
	best AS (SELECT eid, fid, cov, bm, terms FROM (SELECT fid / ${FRAGMENT_SLOTS} AS eid, fid, cov, bm, terms,
		row_number() OVER (PARTITION BY fid / ${FRAGMENT_SLOTS} ORDER BY cov DESC, bm, fid) AS r
		FROM f WHERE fid / ${FRAGMENT_SLOTS} IN (SELECT eid FROM g WHERE n > 1)) WHERE r = 1),
	ranked AS MATERIALIZED (SELECT eid, fid, cov, bm, terms, n FROM g WHERE n = 1
		UNION ALL SELECT b.eid, b.fid, b.cov, b.bm, b.terms, g.n FROM best b JOIN g ON g.eid = b.eid),
	edge AS MATERIALIZED (SELECT cov AS ec, bm AS eb FROM ranked ORDER BY cov DESC, bm LIMIT 1 OFFSET ?),
	split AS MATERIALIZED (SELECT r.eid, r.fid, r.cov, r.bm, r.terms, r.n, (r.cov = x.ec AND r.bm = x.eb) AS tie FROM ranked r LEFT JOIN edge x
		WHERE x.ec IS NULL OR r.cov > x.ec OR (r.cov = x.ec AND r.bm <= x.eb)),
	many AS MATERIALIZED (SELECT max(eid) AS carrier, json_group_array(json_array(eid, fid, terms, n)) AS tied FROM split WHERE tie HAVING count(*) >= ?)
	SELECT t.eid, t.fid, t.cov, t.bm, t.terms, t.n, e.entry_id, e.line_hash, e.ts_ms, ${IDENTITY_COLUMNS}, (SELECT count(*) FROM f) AS fragments,
		CASE WHEN t.eid = m.carrier THEN m.tied END AS tied
	FROM split t LEFT JOIN many m JOIN events e ON e.id = t.eid JOIN sessions sx ON sx.id = e.session_id
	WHERE t.tie IS NOT 1 OR m.carrier IS NULL OR t.eid = m.carrier
	ORDER BY t.cov DESC, t.bm, coalesce(e.ts_ms, 0) DESC, ${IDENTITY_ORDER} LIMIT ?`;
	for (const w of words) params.push(...(byWord.get(w) ?? []).map((list) => list.weight));
	const alsoWeight = implied.also.reduce((sum, w) => sum + w.weight, 0);
	params.push(implied.weight, alsoWeight);
	for (const w of words) params.push(bit((byWord.get(w) ?? [])[0]?.term ?? -1));
	const alsoTerms = implied.also.reduce((sum, w) => sum + bit(w.term), 0);
	params.push(bit(implied.term), alsoTerms);
	return new ScoredEvents(store, store.prepare<unknown[], ScoredRow>(sql), params, events);
}

/** A matched word's bit in a fragment's masks (words are at most MAX_TERMS and their stand-ins: well within 52). */
function wordBit(word: number): number {
	return 2 ** word;
}

/** Events read at first: a first page and its forked copies; a later page or a count reads on. */
const FIRST_EVENTS = 64;

/** A row of the scoring statement: a scored event, and on one of many tied events the list of them all. */
type ScoredRow = ScoredEvent & { fragments: number; tied: string | null };

/**
 * Scored events, best first, read only as far as asked: the first FIRST_EVENTS, then four times as many each time
 * more are asked for. Reading every scored event (thousands for a common word) into JavaScript cost more than
 * scoring them.
 */
export class ScoredEvents {
	private rows: ScoredEvent[] = [];
	private all = false;
	/** How many fragments the lists held in all. */
	readonly fragments: number;

	constructor(
		private readonly store: IndexStore,
		private readonly statement: Statement<unknown[], ScoredRow> | null,
		private readonly params: unknown[],
		/** Events in the index: how far the time index reaches. */
		private readonly events: number,
	) {
		this.fragments = this.read(FIRST_EVENTS);
	}

	/** The `i`-th best event, or undefined past the last. */
	at(i: number): ScoredEvent | undefined {
		while (i >= this.rows.length && !this.all) this.read(this.rows.length * 4);
		return this.rows[i];
	}

	/** Reads the best `count` events; returns the lists' count of fragments. */
	private read(count: number): number {
		// The events up to the count-th best score and its ties have their keys read and their ties broken.
		const scan = tieScan(count, this.events);
		const rows = this.statement?.all(...this.params, count - 1, scan.minTied, count) ?? [];
		const carrier = rows.find((r) => r.tied !== null);
		// Every other row ranks above the tied ones (a better coverage or bm25), in order.
		const above = carrier ? rows.filter((r) => r !== carrier) : rows;
		const tied = carrier ? newestTied(this.store, carrier, count - above.length, scan.scanned) : [];
		this.rows = [...above, ...tied];
		this.all = this.rows.length < count;
		return rows[0]?.fragments ?? 0;
	}
}

/**
 * The `need` first of many events tied at one score (the carrier's; `tied` lists them), in the order of their time and
 * identity. Their time is read by scanning the time index newest first for them, at most `scanned` entries: reading
 * each one's row touched a page per event, which a fresh process faults in one by one. Only the events of the newest
 * `need` times have their rows read; had the scan found fewer, every tied one is.
 */
function newestTied(store: IndexStore, carrier: ScoredRow, need: number, scanned: number): ScoredRow[] {
	const sql = `
	WITH t AS MATERIALIZED (SELECT value ->> 0 AS eid, value ->> 1 AS fid, value ->> 2 AS terms, value ->> 3 AS n FROM json_each(@tied)),
	newest AS MATERIALIZED (SELECT eid, ts FROM (SELECT ev.id AS eid, coalesce(ev.ts_ms, 0) AS ts FROM events ev INDEXED BY events_ts
		ORDER BY ev.ts_ms DESC LIMIT @scanned) WHERE eid IN (SELECT eid FROM t) LIMIT @need),
	cut AS MATERIALIZED (SELECT count(*) AS k, min(ts) AS ts FROM newest),
	chosen AS MATERIALIZED (SELECT ev.id AS eid FROM cut c JOIN events ev INDEXED BY events_ts ON ev.ts_ms >= c.ts WHERE c.k >= @need AND c.ts > 0)
	SELECT t.eid, t.fid, @cov AS cov, @bm AS bm, t.terms, t.n, e.entry_id, e.line_hash, e.ts_ms, ${IDENTITY_COLUMNS}, 0 AS fragments, NULL AS tied
	FROM t JOIN events e ON e.id = t.eid JOIN sessions sx ON sx.id = e.session_id
	WHERE t.eid IN chosen OR NOT EXISTS (SELECT 1 FROM chosen)
	ORDER BY coalesce(e.ts_ms, 0) DESC, ${IDENTITY_ORDER} LIMIT @need`;
	// Whatever `need` tied events the scan found, the need-th newest is no older than the oldest of them: the events of
	// that time or later hold the answer (forked copies share a time). Fewer found, or a time of 0 (none sorts alike),
	// and every tied event is read.
	return store.prepare<[Record<string, unknown>], ScoredRow>(sql).all({ tied: carrier.tied, need, scanned, cov: carrier.cov, bm: carrier.bm });
}

/**
 * When the events tied at the `count`-th place are ordered by scanning the time index (newestTied): when at least
 * `minTied` are tied, scanning at most `scanned` entries for the `count` newest of them. T tied events spread over the
 * history put the count-th newest about count·events/T entries deep, some two hundred to a page, against a page for
 * each of the T events read one by one: minTied puts that depth at half the bound, the bound at a fraction of those pages.
 */
function tieScan(count: number, events: number): { minTied: number; scanned: number } {
	const minTied = Math.max(2 * count, Math.ceil(Math.sqrt((count * events) / 16)));
	return { minTied, scanned: 32 * minTied };
}

/** A query term's bit in a fragment's mask of terms; none for a did-you-mean stand-in (-1). */
function bit(term: number): number {
	return term >= 0 ? 2 ** term : 0;
}
