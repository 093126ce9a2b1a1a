/**
 * Did-you-mean for words that match nothing (issue 28): the index's own terms nearest to a misspelled token, by
 * typo distance (insertions, deletions, substitutions, swaps) or as its completion, among the terms that share its
 * first letters (a typo there is not looked for: the vocabulary is read by prefix, not whole).
 */

import type { IndexStore } from "../index/store.js";
import { knownTerms, termsStartingWith } from "../index/vocabulary.js";

/** A suggested replacement and how many events hold it in the searched scope. */
export interface Suggestion {
	text: string;
	events: number;
}

/** Vocabulary terms read around one token: bounds the cost on a large index. */
const NEIGHBOURHOOD = 3000;
const SHOWN = 3;

/** Optimal-string-alignment distance, or `max + 1` as soon as it must exceed `max`. */
export function typoDistance(a: string, b: string, max: number): number {
	if (Math.abs(a.length - b.length) > max) return max + 1;
	let prev2: number[] = [];
	let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const row = [i];
		let least = i;
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] as number) + 1);
			row.push(d);
			least = Math.min(least, d);
		}
		if (least > max) return max + 1;
		prev2 = prev;
		prev = row;
	}
	return prev[b.length] as number;
}

/** Vocabulary terms near one folded token, nearest and most frequent first. */
function nearTerms(store: IndexStore, token: string): string[] {
	const chars = [...token];
	if (chars.length < 4 || !/^[\p{L}\p{N}]+$/u.test(token)) return [];
	const max = chars.length <= 5 ? 1 : 2;
	const ranked: Array<{ term: string; distance: number; fragments: number }> = [];
	for (const v of termsStartingWith(store, chars.slice(0, chars.length >= 6 ? 3 : 2).join(""), NEIGHBOURHOOD)) {
		if (v.term === token || v.term.length < 3) continue;
		const distance = v.term.startsWith(token) ? 1 : typoDistance(token, v.term, max);
		if (distance <= max) ranked.push({ ...v, distance });
	}
	ranked.sort((a, b) => a.distance - b.distance || b.fragments - a.fragments || (a.term < b.term ? -1 : 1));
	return ranked.slice(0, SHOWN).map((r) => r.term);
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
	return out;
}
