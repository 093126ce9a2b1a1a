/**
 * The last tier of a search (issue 28): when no event holds every word in any form, the did-you-mean suggestions for
 * the words that match nothing and the best partial matches. Worked out once per query, scope and index version: a
 * page, the next page and the hit count (countHits) of one query read the same answer instead of ranking it again.
 */
import type { CandidateFilter } from "../index/candidate-filter.js";
import type { IndexStore } from "../index/store.js";
import { type PartialAnswer, type PartialWord, partialMatches } from "./partial.js";
import { type ParsedQuery, quote } from "./query-parse.js";
import { type Suggestion, suggestionsFor } from "./suggest.js";

/** A query's partial matches (null for a query of one word) and the suggestions for its words that match nothing. */
export interface PartialTier {
	partial: PartialAnswer | null;
	/** Word as written → its nearest terms in scope; every word that got suggestions looked for, in query order. */
	suggestions: Map<string, Suggestion[]>;
}

/** Unmatched words that get did-you-mean suggestions, at most. */
const MAX_SUGGESTED = 4;
/** Answers kept per index version: a few queries, each with its pages and count, and a query typed again. */
const KEPT = 16;

/**
 * The partial tier of `words` (wordsOf of `parsed`) within `filter`; `events` is the index's event count (BM25's N)
 * and `count` counts a suggestion's events in scope. Cached until the index changes.
 */
export function partialTier(
	store: IndexStore,
	parsed: ParsedQuery,
	words: PartialWord[],
	filter: CandidateFilter,
	events: number,
	count: (tokens: string[]) => number,
): PartialTier {
	// A map of this module's own, cleared by store.cached whenever the index changes.
	const cache = store.cached("partial-tier", () => new Map<string, PartialTier>());
	const key = JSON.stringify([words, parsed.terms.map((t) => t.tokens), filter, events]);
	const known = cache.get(key);
	if (known) {
		// The most recently used answers stay.
		cache.delete(key);
		cache.set(key, known);
		return known;
	}
	const tier = rank(store, parsed, words, filter, events, count);
	cache.set(key, tier);
	for (const old of cache.keys()) {
		if (cache.size <= KEPT) break;
		cache.delete(old);
	}
	return tier;
}

function rank(
	store: IndexStore,
	parsed: ParsedQuery,
	words: PartialWord[],
	filter: CandidateFilter,
	events: number,
	count: (tokens: string[]) => number,
): PartialTier {
	const suggestions = new Map<string, Suggestion[]>();
	const correct = (word: PartialWord): PartialWord[] => {
		// A few words are enough to say what to try: a pasted paragraph does not get a suggestion per word.
		if (suggestions.size >= MAX_SUGGESTED) return [];
		const term = parsed.terms.find((t) => t.raw === word.raw);
		const found = term ? suggestionsFor(store, term.tokens, count) : [];
		suggestions.set(word.raw, found);
		// Weighed by its matches like every other word (partial.ts), not by the events the note shows.
		return found
			.slice(0, 1)
			.map((f) => ({ raw: f.text, exact: `(${quote(f.text)})`, inflected: null, correction: true, specific: word.specific, tokens: f.text.split(" ") }));
	};
	if (words.length >= 2) return { partial: partialMatches(store, words, filter, events, correct), suggestions };
	if (words[0]) correct(words[0]);
	return { partial: null, suggestions };
}
