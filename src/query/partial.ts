/**
 * Partial matches (issue 28): when no event holds every word of a query, events ranked by how much of it they hold.
 * A word weighs its BM25 idf (rarer words weigh more; an inflected form nine tenths, a did-you-mean correction
 * four fifths), a fragment's coverage is the sum over the words it holds, and bm25 breaks ties. Only fragments that hold
 * one of the rarest words are candidates: a page of filler words ("how", "did", "before") never outranks the one
 * rare word a query is about. Fragments are coalesced into events exactly like full matches.
 */

import type { CandidateFilter } from "../index/candidate-filter.js";
import { type Candidate, CandidateQuery } from "../index/candidates.js";
import { CopyFold } from "../index/copy-fold.js";
import { type FragmentList, type ScoredEvents, scoredEvents } from "../index/partial-scores.js";
import type { IndexStore } from "../index/store.js";

/** One word of a partial query: the MATCH expressions of its written form and of its other forms. */
export interface PartialWord {
	/** The word as the user wrote it. */
	raw: string;
	exact: string;
	/** Its inflected forms found in the index, as one expression; null when none. */
	inflected: string | null;
	/** Those forms, folded (a snippet marks them). */
	forms?: readonly string[];
	/** A did-you-mean correction stands in for a word that matched nothing: it never makes an answer alone. */
	correction?: boolean;
	/** An identifier, code, number, path, CJK or quoted phrase rather than a word of prose. */
	specific?: boolean;
	/** Its folded tokens as written; several (`retry_with_backoff`, CJK) make a phrase, whose match checks positions. */
	tokens?: readonly string[];
}

/** The ranked events of a partial match and the words that matched nothing in scope. */
export interface PartialAnswer {
	/** Ranked events `[offset, offset + limit)` of at most PARTIAL_EVENTS. */
	page(offset: number, limit: number): Candidate[];
	/** How many events the answer ranks (at most PARTIAL_EVENTS). */
	total(): number;
	unmatched: string[];
	/** More events hold some of the words than were ranked. */
	truncated: boolean;
	/** The query's terms (their indexes) a ranked event's best fragment holds in some form: what its snippet marks. */
	written(eid: number): number[] | undefined;
}

/** Rare words are taken as candidates' words while their matches together stay within this many. */
export const PARTIAL_WINDOW = 2048;
/**
 * Fragments read per list, the newest: each form (as written, inflected) of a candidates' word, and each other word
 * within the candidates' words, none older than the candidates' window (the COMMON newest matches of a lone
 * candidates' word). Bounds a partial match's cost on any history.
 */
const FRAGMENT_CAP = PARTIAL_WINDOW;
/**
 * Fragments read from a candidates' word's own list, which bm25 scores: its fragments that hold no other word rank
 * last, and bm25 reads every scored row's sizes, so only the newest of them break ties; those holding other words come
 * from the other words' lists (FRAGMENT_CAP), scored from this one when they are in it.
 */
const SCORED_CAP = PARTIAL_WINDOW / 4;
/** A word's matches are counted up to this many: all words with more weigh the same, little. */
const COMMON = 4 * PARTIAL_WINDOW;
/** Matching fragments read at most to find whether a word has one in scope. */
const SCAN = 50 * PARTIAL_WINDOW;
/** Events a partial answer ranks at most. */
export const PARTIAL_EVENTS = 1000;

const INFLECTED_WEIGHT = 0.9;
const CORRECTION_WEIGHT = 0.8;
/**
 * Candidates hold a word at least this close to the rarest word's weight: in a small history a few filler words
 * together outweigh the one rare word, and they are in most fragments, so they must not pick the candidates.
 */
const CORE_SHARE = 0.6;

/**
 * Ranks the partial matches of `words` within the filter; `events` is the index's event count (BM25's N), and
 * `correct` gives stand-ins for a word that matched nothing (did-you-mean).
 */
export function partialMatches(
	store: IndexStore,
	words: readonly PartialWord[],
	filter: CandidateFilter,
	events: number,
	correct: (word: PartialWord) => PartialWord[] = () => [],
): PartialAnswer {
	const measure = (w: PartialWord) => {
		const both = w.inflected ? `(${w.exact} OR ${w.inflected})` : w.exact;
		return { ...w, both, ...wordMatches(store, both, filter) };
	};
	const first = words.map((w, term) => ({ ...measure(w), term }));
	const unmatched = first.filter((w) => w.df === 0).map((w) => w.raw);
	const counted = [...first, ...first.filter((w) => w.df === 0).flatMap((w) => correct(w).map((c) => ({ ...measure(c), term: -1 })))];
	const matched = counted.filter((w) => w.df > 0);
	if (!matched.some((w) => !w.correction)) return { page: () => [], total: () => 0, unmatched, truncated: false, written: () => undefined };

	const weightOf = (w: (typeof matched)[number]) => Math.log(1 + (events - w.df + 0.5) / (w.df + 0.5)) * (w.correction ? CORRECTION_WEIGHT : 1);
	// When the query names something specific (an identifier, a code, a phrase), candidates hold one of those: the
	// prose around it ("where was … discussed before") only ranks them.
	const pool = matched.some((w) => w.specific) ? matched.filter((w) => w.specific) : matched;
	const byRarity = [...pool].sort((a, b) => weightOf(b) - weightOf(a));
	const strongest = weightOf(byRarity[0] as (typeof matched)[number]);
	const core: typeof matched = [];
	let sum = 0;
	for (const w of byRarity) {
		if (core.length > 0 && (sum + w.df > PARTIAL_WINDOW || weightOf(w) < CORE_SHARE * strongest)) break;
		core.push(w);
		sum += w.df;
	}
	const coreUnion = `(${core.map((w) => w.both).join(" OR ")})`;
	// Only the rare (core) words are scored by bm25 for ties: scoring a common word reads all of its matches. A core
	// phrase with PARTIAL_WINDOW matches or more in scope is not scored either: bm25 counts its matches first, checking
	// the positions in every fragment that holds its tokens (a common snake_case identifier: tens of thousands); ties
	// among its fragments go newest first. A single word's count is its list's length, cheaper than unbroken ties.
	// A lone candidates' word's list is cut short (SCORED_CAP): the other words' lists hold it too, in some form.
	const sole = core.length === 1 ? (core[0] as (typeof matched)[number]) : null;
	// A word that is one of a lone candidates' phrase's tokens ("with" beside retry_with_backoff) is in every candidate:
	// no list, its weight added to each (a list capped at the newest would miss it in the older ones).
	const phrase = (w: (typeof matched)[number]) => (w.tokens?.length ?? 1) > 1;
	const phraseTokens = new Set(sole && phrase(sole) ? sole.tokens : []);
	const heldByAll = (w: (typeof matched)[number]) => w !== sole && !w.correction && w.tokens?.length === 1 && phraseTokens.has(w.tokens[0] as string);
	// Every list is within the candidates' words. A lone one whose matches reach back far past its COMMON oldest bounds
	// them all to its COMMON newest: a list whose word rarely meets it read back through the whole history to fill its
	// cap. Beside the first, candidates' words hold at most PARTIAL_WINDOW matches together (above): one is counted whole.
	const floor = sole ? windowFloor(store, sole, filter) : null;
	const lists: FragmentList[] = [];
	matched.forEach((w, i) => {
		if (heldByAll(w)) return;
		const weight = weightOf(w);
		const isCore = core.includes(w);
		// Nor is a lone candidates' word whose matches reach back past its window (a floor), nor one counted to COMMON
		// (a bound, not a count): bm25 counts every match in the history for its IDF, a cost that grows with the history,
		// while its lists read only the newest; ties among its equals go newest first, as a common phrase's do.
		const scored = isCore && floor === null && w.df < COMMON && !(phrase(w) && w.df >= PARTIAL_WINDOW);
		const within = (m: string) => (isCore ? m : `(${m}) AND ${coreUnion}`);
		const cap = !isCore ? FRAGMENT_CAP : sole ? SCORED_CAP : FRAGMENT_CAP;
		// Each form's list holds at most the word's matches in scope, counted exactly below COMMON.
		const whole = w.df < COMMON && w.df <= cap;
		lists.push({ match: within(w.exact), word: i, weight, scored, term: w.term, cap, floor, whole });
		if (w.inflected) lists.push({ match: within(w.inflected), word: i, weight: weight * INFLECTED_WEIGHT, scored, term: w.term, cap, floor, whole });
	});
	// Held in its weaker form when it is not known which.
	const also = matched.filter(heldByAll).map((w) => ({ weight: weightOf(w), term: w.term }));
	const implied = sole
		? { word: matched.indexOf(sole), weight: weightOf(sole) * (sole.inflected ? INFLECTED_WEIGHT : 1), term: sole.term, also }
		: { word: -1, weight: 0, term: -1, also };
	const scored = scoredEvents(store, filter, lists, implied, events);
	const ranking = new Ranking(scored);
	return {
		page: (offset, limit) => ranking.slice(offset, offset + limit),
		total: () => ranking.slice(0, PARTIAL_EVENTS).length,
		unmatched,
		truncated: scored.fragments >= FRAGMENT_CAP || floor !== null,
		written: (eid) => ranking.written(eid),
	};
}

/**
 * A word's matching fragments, which its weight comes from as bm25's IDF does: counted in the FTS index alone, up to
 * COMMON, within the match's own scope (a cwd's scope token, the kinds' columns); the other filters only say whether
 * the word is in scope at all (one match is enough). Counting its events in scope joined every match to its event and
 * cost more than ranking them. `first` and `last`: the row ids of the oldest and the COMMON-th oldest fragment counted.
 * Cached until the index changes: a word typed again, a next page, a count.
 */
function wordMatches(store: IndexStore, both: string, filter: CandidateFilter): { df: number; first: number | null; last: number | null } {
	return perWord(store, "partial-word-matches", both, filter, () => {
		const query = new CandidateQuery(store, both, filter);
		const { n, first, last } = query.indexSpan(COMMON);
		return { df: n > 0 && query.filtered && query.countUpTo(0, SCAN) === 0 ? 0 : n, first, last };
	});
}

/**
 * The oldest row id the lists of a lone candidates' word read: its COMMON-th newest match, when its matches (in row
 * id order, which follows recency) go on SPREAD times as far past its first as its COMMON oldest do; null otherwise.
 * Finding it reads COMMON matches newest first: worth it only when the lists would read many more. Cached.
 */
function windowFloor(store: IndexStore, word: { both: string; df: number; first: number | null; last: number | null }, filter: CandidateFilter): number | null {
	const { both, df, first, last } = word;
	if (df < COMMON || first === null || last === null) return null;
	const query = new CandidateQuery(store, both, filter);
	if (query.topRowid() - first < SPREAD * (last - first)) return null;
	return perWord(store, "partial-window-floors", both, filter, () => query.newestFloor(COMMON));
}

/** What `compute` says of one word in one filter, cached per index version under `name` (at most WORDS_KEPT words). */
function perWord<T>(store: IndexStore, name: string, both: string, filter: CandidateFilter, compute: () => T): T {
	return store.remembered(name, `${both}\u0000${JSON.stringify(filter)}`, WORDS_KEPT, compute);
}

/** How much farther back than its COMMON oldest matches a lone candidates' word's matches must reach to bound its lists. */
const SPREAD = 8;

/** Word counts kept per index version (a long-lived explorer types many words). */
const WORDS_KEPT = 4096;

/** The indexes of the bits set in a mask of query terms (at most MAX_TERMS of them). */
function termsOf(mask: number): number[] {
	const out: number[] = [];
	for (let t = 0; 2 ** t <= mask; t++) if (Math.floor(mask / 2 ** t) % 2 === 1) out.push(t);
	return out;
}

/**
 * Scored events, best first, as a ranking: forked copies after every distinct event, at most PARTIAL_EVENTS, read
 * only as far as a page asks for.
 */
class Ranking {
	private next = 0;
	private readonly fold = new CopyFold();
	private readonly held = new Map<number, number[]>();
	/** Events some slice returned, and (once asked for another one) all ranked events. */
	private readonly paged = new Set<number>();
	private all: Set<number> | undefined;

	constructor(private readonly events: ScoredEvents) {}

	/** Ranked events `[from, to)`: forked copies after every distinct event, at most PARTIAL_EVENTS in all. */
	slice(from: number, to: number): Candidate[] {
		const end = Math.min(to, PARTIAL_EVENTS);
		this.rankUntil(end);
		const out = this.fold.slice(from, end);
		for (const c of out) this.paged.add(c.eid);
		return out;
	}

	/** The query's terms the ranked event's best fragment holds; undefined for an event that is not ranked. */
	written(eid: number): number[] | undefined {
		if (this.paged.has(eid)) return this.held.get(eid);
		// Not on a page asked for (a system prompt's hit): ranked when among all PARTIAL_EVENTS.
		this.all ??= new Set(this.slice(0, PARTIAL_EVENTS).map((c) => c.eid));
		return this.all.has(eid) ? this.held.get(eid) : undefined;
	}

	/** Ranks events in score order until `need` distinct ones are known, or every event is. */
	private rankUntil(need: number): void {
		// The events come ranked, ties broken (partial-scores.ts): the first copy of an entry met is its best one.
		for (let e = this.events.at(this.next); e && this.fold.distinct.length < need; e = this.events.at(this.next)) {
			this.next++;
			this.fold.add(e, { eid: e.eid, best: -e.cov, n: e.n, fid: e.fid });
			this.held.set(e.eid, termsOf(e.terms));
		}
	}
}
