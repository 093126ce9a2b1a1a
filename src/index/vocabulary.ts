/**
 * The index's vocabulary by prefix (FTS5's own term list, through an fts5vocab table in the connection's temp
 * schema, nothing written to the index): a prefix query written as the few terms it expands to costs a fraction of
 * FTS5's prefix query, which merges the doclists of every such term into one before it returns a row, and merges
 * them again for bm25's count of matches (210 vs 17 ms for `re*` on the bench corpus). The table is of the 'instance'
 * kind and terms are read one seek each: its 'row' kind counts every posting of each term it reads, the first term
 * past a range included.
 */
import type { IndexStore } from "./store.js";

/** A prefix of more terms than this stays a prefix query: a disjunction costs per term in bm25 for every row. */
export const PREFIX_TERMS = 64;

/** Connections whose temp schema has the vocabulary table. */
const ready = new WeakSet<IndexStore>();

/**
 * The terms of the index that start with `prefix` (folded, as the tokenizer writes them), or null when there are more
 * than `max`. Cached until the index changes; a longer prefix is filtered from a shorter one's list (typing).
 */
export function prefixTerms(store: IndexStore, prefix: string, max = PREFIX_TERMS): readonly string[] | null {
	// A map of this module's own, cleared by store.cached whenever the index changes: adding to it is safe.
	const known = store.cached(`prefix-terms:${max}`, () => new Map<string, readonly string[] | null>());
	const hit = known.get(prefix);
	if (hit !== undefined) return hit;
	for (let n = prefix.length - 1; n > 0; n--) {
		const shorter = known.get(prefix.slice(0, n));
		if (shorter) {
			const terms = shorter.filter((t) => t.startsWith(prefix));
			known.set(prefix, terms);
			return terms;
		}
	}
	const read = distinctTerms(store, prefix, max + 1);
	const terms = read.length > max ? null : read;
	known.set(prefix, terms);
	return terms;
}

/**
 * At most `max` distinct terms of the index that start with `prefix`, in byte order: a seek per term, past all the
 * instances of the one before (a common term has hundreds of thousands).
 */
function distinctTerms(store: IndexStore, prefix: string, max: number): string[] {
	const table = vocabularyTable(store);
	// Terms compare as UTF-8 bytes: every term with the prefix sorts before the prefix followed by U+10FFFF.
	const end = `${prefix}\u{10FFFF}`;
	const seek = store.prepare<[string, string], string>(`SELECT term FROM ${table} WHERE term >= ? AND term < ? LIMIT 1`).pluck();
	const out: string[] = [];
	// The next term is sought from the last one followed by U+0000, the least byte (no term holds it): `term > ?`
	// would read every instance of the last one first.
	for (let term = seek.get(prefix, end); term !== undefined && out.length < max; term = seek.get(`${term}\u0000`, end)) {
		if (term.startsWith(prefix)) out.push(term);
	}
	return out;
}

/** Whether some term of the index starts with `prefix`: one seek. */
export function hasPrefix(store: IndexStore, prefix: string): boolean {
	return distinctTerms(store, prefix, 1).length > 0;
}

/** The fts5vocab table of the connection's temp schema, created once per connection. */
function vocabularyTable(store: IndexStore): string {
	if (!ready.has(store)) {
		store.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, 'fts', 'instance')");
		ready.add(store);
	}
	return "temp.fts_instances";
}

/**
 * Which of `terms` (folded tokens) the index holds, cached until it changes: a seek each in the instance table, which
 * stops at the term's first instance (a MATCH per term also parsed an expression and opened a cursor for it). The
 * terms not known yet are looked up in one statement: a did-you-mean probes hundreds, and a call per term cost more
 * than its lookup.
 */
export function knownTerms(store: IndexStore, terms: readonly string[]): Set<string> {
	const known = store.cached("known-terms", () => new Map<string, boolean>());
	const unknown = [...new Set(terms.filter((t) => !known.has(t)))];
	if (unknown.length > 0) {
		const table = vocabularyTable(store);
		const found = store
			.prepare<[string], number>(`SELECT j.key FROM json_each(?) j WHERE EXISTS (SELECT 1 FROM ${table} v WHERE v.term = j.value)`)
			.pluck()
			.all(JSON.stringify(unknown));
		for (const t of unknown) known.set(t, false);
		for (const i of found) known.set(unknown[i] as string, true);
	}
	return new Set(terms.filter((t) => known.get(t) === true));
}

/**
 * At most `max` terms of the index that start with `prefix`, in byte order: the neighbourhood a misspelled word's
 * suggestions are looked for in (query/suggest.ts).
 */
export function termsStartingWith(store: IndexStore, prefix: string, max: number): string[] {
	return distinctTerms(store, prefix, max);
}
