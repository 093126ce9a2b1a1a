/**
 * The query language (I18): plain terms with implicit AND, and "quoted phrases". Everything else is literal text:
 * FTS5 operators, column filters, `*`, `^`, NEAR, parentheses and SQL are just characters, and the MATCH expression
 * is built only from quoted tokens that our own tokenizer produced, so it cannot be an FTS5 syntax error.
 */
import { queryTokens, type Token } from "../project/tokens.js";

/** One term of a query: a word (or a run of words joined by punctuation, like a path) or a quoted phrase. */
export interface QueryTerm {
	/** The text as the user wrote it. */
	raw: string;
	/** Folded tokens that must appear consecutively. */
	tokens: string[];
	phrase: boolean;
	/** The last token matches as a prefix (interactive search as you type). */
	prefix: boolean;
	/** Other forms of a one-token word (its inflections, issue 28) that a snippet marks as the word. */
	forms?: readonly string[];
}

/** A parsed query. */
export interface ParsedQuery {
	terms: QueryTerm[];
	/** The FTS5 MATCH expression, or null when nothing searchable is left. */
	match: string | null;
	notes: string[];
}

/** Terms beyond this are ignored (with a note): a 10 KB paste is not a query. */
export const MAX_TERMS = 32;
const MAX_QUERY_CHARS = 4000;

function isLoneCjk(t: Token): boolean {
	return t.role === "cjk" && [...t.text].length === 1;
}

/** A token (or space-joined tokens) as an FTS5 string: a phrase, never an operator. */
export function quote(token: string): string {
	return `"${token.replace(/"/g, '""')}"`;
}

function split(input: string): Array<{ raw: string; phrase: boolean; closed: boolean }> {
	const out: Array<{ raw: string; phrase: boolean; closed: boolean }> = [];
	let i = 0;
	while (i < input.length) {
		const c = input[i] as string;
		if (/\s/.test(c)) {
			i++;
			continue;
		}
		if (c === '"') {
			const end = input.indexOf('"', i + 1);
			// An unbalanced quote opens a phrase that runs to the end of the input.
			const raw = end === -1 ? input.slice(i + 1) : input.slice(i + 1, end);
			out.push({ raw, phrase: true, closed: end !== -1 });
			i = end === -1 ? input.length : end + 1;
			continue;
		}
		let j = i;
		while (j < input.length && !/\s/.test(input[j] as string) && input[j] !== '"') j++;
		out.push({ raw: input.slice(i, j), phrase: false, closed: j < input.length });
		i = j;
	}
	return out;
}

/** Parses user input; `prefix` makes the last unfinished term match as a prefix. */
export function parseQuery(input: string, options: { prefix?: boolean } = {}): ParsedQuery {
	const notes: string[] = [];
	let text = input;
	if (text.length > MAX_QUERY_CHARS) {
		text = text.slice(0, MAX_QUERY_CHARS);
		notes.push(`query cut to its first ${MAX_QUERY_CHARS} characters`);
	}
	// Control characters are never part of indexed words.
	text = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ");
	const pieces = split(text);
	// While typing (prefix mode) an open phrase is normal, not worth a note.
	if (options.prefix !== true && pieces.some((p) => p.phrase && !p.closed)) notes.push("unbalanced quote: the phrase after it runs to the end of the query");
	const endsOpen = text.length > 0 && !/\s$/.test(text) && !text.endsWith('"');
	const terms: QueryTerm[] = [];
	let dropped = 0;
	pieces.forEach((piece, index) => {
		const derived = queryTokens(piece.raw);
		// A single CJK character at the edge of a term is a cut bigram of the text it was taken from: at the end it
		// matches as a prefix ("…问" finds 问题), at the start it is dropped (its bigram's first half is unknown).
		if (derived.length > 1 && isLoneCjk(derived[0] as Token)) derived.shift();
		const tokens = derived.map((t: Token) => t.text);
		if (tokens.length === 0) {
			if (piece.raw.trim()) dropped++;
			return;
		}
		const isLast = index === pieces.length - 1;
		// A one-letter prefix expands to a large part of the vocabulary (seconds on a big index) and says little.
		const typing = options.prefix === true && isLast && endsOpen && !(piece.phrase && piece.closed) && [...(tokens.at(-1) as string)].length >= 2;
		terms.push({ raw: piece.raw, tokens, phrase: piece.phrase, prefix: typing || isLoneCjk(derived.at(-1) as Token) });
	});
	if (dropped > 0 && terms.length > 0) notes.push(`ignored ${dropped} term(s) without letters or digits`);
	if (terms.length > MAX_TERMS) {
		notes.push(`only the first ${MAX_TERMS} of ${terms.length} terms were used`);
		terms.length = MAX_TERMS;
	}
	if (terms.length === 0) {
		if (text.trim()) notes.push("the query has no letters or digits to search for");
		return { terms, match: null, notes };
	}
	return { terms, match: matchOf(terms), notes };
}

/**
 * The FTS5 MATCH expression of terms: each a quoted phrase, a prefix term with ` *`, or, where `expand` lists the
 * index's terms its last token expands to, the phrase with each of them in its place (`("handle" OR "handler")`):
 * the same matches, ranked by bm25 with each term's own weight.
 */
export function matchOf(terms: QueryTerm[], expand?: (prefix: string) => readonly string[] | null): string {
	return terms
		.map((t) => {
			const words = t.prefix && expand ? expand(t.tokens.at(-1) as string) : null;
			if (!words || words.length === 0) return `${quote(t.tokens.join(" "))}${t.prefix ? " *" : ""}`;
			const head = t.tokens.slice(0, -1);
			return `(${words.map((w) => quote([...head, w].join(" "))).join(" OR ")})`;
		})
		.join(" AND ");
}
