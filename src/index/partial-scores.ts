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
export function scoredEvents(store: IndexStore, filter: CandidateFilter, lists: readonly FragmentList[], implied: Implied): ScoredEvents {
	const params: unknown[] = [];
	const parts: string[] = [];
	for (const list of lists) {
		const source = new CandidateQuery(store, list.match, filter).fragmentList(list.cap, list.scored, list.floor ?? null);
		if (source === null) continue;
		// Weights are bound as parameters: the statement's text depends on the number of lists only.
		parts.push(`SELECT fid, score, ? AS word, ? AS weight, ? AS term FROM (${source.sql})`);
		params.push(list.word, list.weight, bit(list.term), ...source.params);
	}
	if (parts.length === 0) return new ScoredEvents(null, []);
	// Per fragment: the sum over its words of each word's better form's weight (in word order, as the coverage of equal
	// fragments must be equal), the implied word's if its list did not reach the fragment and the words held with it,
	// the sum of its bm25 scores and its terms, in one grouping (grouping by word first sorted every row twice). Only
	// the best events are returned (ScoredEvents), with the lists' count of fragments.
	const words = [...new Set(lists.map((l) => l.word))].sort((a, b) => a - b);
	const perWord = (column: string) => words.map((w) => `coalesce(max(CASE WHEN word = ${w} THEN ${column} END), 0)`).join(" + ");
	const sql = `
	WITH l AS MATERIALIZED (${parts.join("\n\tUNION ALL ")}),
	f AS (SELECT fid, ${perWord("weight")} + (CASE WHEN max(word = ?) THEN 0 ELSE ? END) + ? AS cov, sum(score) AS bm,
		${perWord("term")} + (CASE WHEN max(word = ?) THEN 0 ELSE ? END) + ? AS terms FROM l GROUP BY fid),
	pe AS (SELECT fid / ${FRAGMENT_SLOTS} AS eid, fid, cov, bm, terms,
		row_number() OVER (PARTITION BY fid / ${FRAGMENT_SLOTS} ORDER BY cov DESC, bm, fid) AS r,
		count(*) OVER (PARTITION BY fid / ${FRAGMENT_SLOTS}) AS n FROM f),
	ranked AS MATERIALIZED (SELECT eid, fid, cov, bm, terms, n FROM pe WHERE r = 1),
	edge AS (SELECT cov, bm FROM ranked ORDER BY cov DESC, bm LIMIT 1 OFFSET ?),
	top AS (SELECT * FROM ranked WHERE NOT EXISTS (SELECT 1 FROM edge) OR cov > (SELECT cov FROM edge)
		OR (cov = (SELECT cov FROM edge) AND bm <= (SELECT bm FROM edge)))
	SELECT t.eid, t.fid, t.cov, t.bm, t.terms, t.n, e.entry_id, e.line_hash, e.ts_ms, ${IDENTITY_COLUMNS},
		(SELECT sum(n) FROM ranked) AS fragments
	FROM top t JOIN events e ON e.id = t.eid JOIN sessions sx ON sx.id = e.session_id
	ORDER BY t.cov DESC, t.bm, coalesce(e.ts_ms, 0) DESC, ${IDENTITY_ORDER} LIMIT ?`;
	const alsoWeight = implied.also.reduce((sum, w) => sum + w.weight, 0);
	const alsoTerms = implied.also.reduce((sum, w) => sum + bit(w.term), 0);
	params.push(implied.word, implied.weight, alsoWeight, implied.word, bit(implied.term), alsoTerms);
	return new ScoredEvents(store.prepare<unknown[], ScoredEvent & { fragments: number }>(sql), params);
}

/** Events read at first: a first page and its forked copies; a later page or a count reads on. */
const FIRST_EVENTS = 64;

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
		private readonly statement: Statement<unknown[], ScoredEvent & { fragments: number }> | null,
		private readonly params: unknown[],
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
		const rows = this.statement?.all(...this.params, count - 1, count) ?? [];
		this.rows = rows;
		this.all = rows.length < count;
		return rows[0]?.fragments ?? 0;
	}
}

/** A query term's bit in a fragment's mask of terms; none for a did-you-mean stand-in (-1). */
function bit(term: number): number {
	return term >= 0 ? 2 ** term : 0;
}
