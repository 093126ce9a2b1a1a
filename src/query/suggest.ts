/**
 * Did-you-mean for words that match nothing (issue 28): the index's own terms one typo (insertion, deletion,
 * substitution, swap) from a misspelled token, or its completions. Distance 2 is not looked for: the edits grow
 * with the alphabet squared, and the vocabulary is never read whole.
 */

import type { IndexStore } from "../index/store.js";
import { hasPrefix, knownTerms, termsStartingWith } from "../index/vocabulary.js";

/** A suggested replacement and how many events hold it in the searched scope. */
export interface Suggestion {
	text: string;
	/** Counted up to SUGGESTION_CAP + 1: more than SUGGESTION_CAP says only that there are more. */
	events: number;
}

/** A suggestion's events are counted no further (a common word's would join thousands of matches to their events). */
export const SUGGESTION_CAP = 1000;

const SHOWN = 3;
/** Tokens longer than this get no suggestions (their one-typo edits grow with their length). */
const MAX_TOKEN = 32;

/**
 * Every string one typo away from `token` (a character left out, swapped, replaced or added) at a position up to
 * `last`, in a fixed order. A token of letters only is replaced and added to with letters only, one of digits only
 * with digits: a typo of the other kind is rare, and each edit is one lookup in the index.
 */
function oneTypo(token: string, last = token.length): string[] {
	const alphabet = /^[a-z]+$/.test(token) ? LETTERS : /^[0-9]+$/.test(token) ? DIGITS : LETTERS + DIGITS;
	const out = new Set<string>();
	for (let i = 0; i <= Math.min(last, token.length); i++) {
		const head = token.slice(0, i);
		const tail = token.slice(i);
		if (tail) out.add(head + tail.slice(1));
		if (tail.length > 1) out.add(head + (tail[1] as string) + (tail[0] as string) + tail.slice(2));
		for (const c of alphabet) {
			if (tail) out.add(head + c + tail.slice(1));
			out.add(head + c + tail);
		}
	}
	out.delete(token);
	return [...out].filter((t) => t.length >= 3);
}

/**
 * The length of the longest head of `token` that some term of the index starts with, found by halving (a seek each,
 * and each seek may read the next term's postings): an edit at a later position keeps a head no term has, so it is
 * not looked up. `whole`: the token's own completions were found, so the whole token is such a head.
 */
function knownHead(store: IndexStore, token: string, whole: boolean): number {
	if (whole) return token.length;
	// Every head of a head some term starts with is one too: the lengths that are form a range from 0.
	let lo = 0;
	let hi = token.length - 1;
	while (lo < hi) {
		const mid = Math.ceil((lo + hi) / 2);
		if (hasPrefix(store, token.slice(0, mid))) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
/** One-typo edits looked up at a time: the lookups stop once SHOWN terms are known. */
const PROBES = 64;

/**
 * Vocabulary terms near one folded token: its completions, then the terms one typo away in the order oneTypo writes
 * them, the first SHOWN. Typos are looked up one by one (a few hundred one-row lookups), and no further than the SHOWN
 * terms found: reading the vocabulary around the token would count every posting of every term read. Cached until
 * the index changes.
 */
function nearTerms(store: IndexStore, token: string): string[] {
	// A long token's edits are many and it is rarely a typo of a word: a pasted hash or blob.
	if (token.length < 4 || token.length > MAX_TOKEN || !/^[a-z0-9]+$/.test(token)) return [];
	const cache = store.cached("near-terms", () => new Map<string, string[]>());
	const known = cache.get(token);
	if (known) return known;
	const completions = termsStartingWith(store, token, SHOWN + 1);
	const ranked = completions.filter((t) => t !== token);
	const head = knownHead(store, token, completions.length > 0);
	const edits = oneTypo(token, head);
	const range = head >= STEM ? stemTerms(store, token) : null;
	const inRange = (t: string) => range !== null && t.startsWith(range.stem);
	for (let i = 0; i < edits.length && ranked.length < SHOWN; i += PROBES) {
		const batch = edits.slice(i, i + PROBES);
		const looked = knownTerms(
			store,
			batch.filter((t) => !inRange(t)),
		);
		for (const t of batch) if ((inRange(t) ? range?.terms.has(t) : looked.has(t)) && !ranked.includes(t)) ranked.push(t);
	}
	const near = ranked.slice(0, SHOWN);
	cache.set(token, near);
	return near;
}

/** Characters of a word whose terms are listed once (stemTerms), and the most terms such a list may hold. */
const STEM = 3;
const STEM_TERMS = 64;

/**
 * Every term of the index that starts with the token's first STEM characters, when there are at most STEM_TERMS: an
 * edit after them is known or not by this list, a seek a term instead of a lookup an edit (a word's edits at its later
 * positions are most of them). Null when more terms share them.
 */
function stemTerms(store: IndexStore, token: string): { stem: string; terms: Set<string> } | null {
	const stem = token.slice(0, STEM);
	const terms = termsStartingWith(store, stem, STEM_TERMS + 1);
	return terms.length > STEM_TERMS ? null : { stem, terms: new Set(terms) };
}

/**
 * Replacements for a term (its folded tokens) that matches nothing: each token the index does not hold is swapped
 * for a near term; `events` counts a candidate's events in scope, and candidates with none are dropped.
 */
export function suggestionsFor(store: IndexStore, tokens: readonly string[], events: (tokens: string[]) => number): Suggestion[] {
	const known = knownTerms(store, tokens);
	const unknown = tokens.findIndex((t) => !known.has(t));
	if (unknown === -1) return [];
	const out: Suggestion[] = [];
	for (const near of nearTerms(store, tokens[unknown] as string)) {
		// Other unknown tokens of the term take their own nearest term.
		const fixed = tokens.map((t, i) => (i === unknown ? near : known.has(t) ? t : (nearTerms(store, t)[0] ?? t)));
		const n = events(fixed);
		if (n > 0) out.push({ text: fixed.join(" "), events: n });
	}
	return out.sort((a, b) => b.events - a.events);
}
