/** A query's words as the tiers after "every word as written" see them: exact, inflected, and whether prose. */
import type { IndexStore } from "../index/store.js";
import { knownTerms, prefixTerms } from "../index/vocabulary.js";
import { inflectedForms, inflectionKey, isInflectable } from "./inflect.js";
import type { PartialWord } from "./partial.js";
import { matchOf, type ParsedQuery, type QueryTerm, quote } from "./query-parse.js";

/** Each term of a query as a partial match's word: its expression as written and that of its inflected forms. */
export function wordsOf(store: IndexStore, parsed: ParsedQuery): PartialWord[] {
	return parsed.terms.map((t) => {
		const forms = inflectionsOf(store, t);
		return {
			raw: t.raw,
			exact: `(${matchOf([t], (prefix) => prefixTerms(store, prefix))})`,
			inflected: forms.length ? `(${forms.map(quote).join(" OR ")})` : null,
			forms,
			specific: isSpecific(t),
			tokens: t.tokens,
		};
	});
}

/** The query's terms with the other forms of each word (wordsOf), for the snippets of hits found through them. */
export function withForms(parsed: ParsedQuery, words: readonly PartialWord[]): QueryTerm[] {
	return parsed.terms.map((t, i) => {
		const forms = words[i]?.forms;
		return forms?.length ? { ...t, forms } : t;
	});
}

/** An identifier, code, number, path, non-English script or quoted phrase: not a word of prose. */
function isSpecific(term: QueryTerm): boolean {
	return term.phrase || term.tokens.length > 1 || !/^[A-Za-z][a-z]*$/.test(term.raw);
}

/** The other forms of a plain word that the index holds (`fixed` → fix, fixes, fixing). */
function inflectionsOf(store: IndexStore, term: QueryTerm): string[] {
	if (term.phrase || term.prefix || term.tokens.length !== 1 || !isInflectable(term.raw)) return [];
	const word = term.tokens[0] as string;
	return [...knownTerms(store, inflectedForms(inflectionKey(word)))].filter((f) => f !== word);
}

/** Every word with its inflected forms, or null when no word has any: the second tier of a full match. */
export function inflectedMatch(words: PartialWord[]): string | null {
	if (!words.some((w) => w.inflected)) return null;
	return words.map((w) => (w.inflected ? `(${w.exact} OR ${w.inflected})` : w.exact)).join(" AND ");
}
