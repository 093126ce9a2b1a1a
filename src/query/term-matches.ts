/**
 * Where query terms match in a stretch of text, as spans of source text: from its tokens (tokens.ts), or, for ASCII
 * text and terms, by regular expressions that find the same spans without building a token per word. A snippet
 * tokenized a few kilobytes of a long tool output for each hit; in a fresh process that code runs unoptimized, and
 * the expressions run natively.
 */
import { camelParts, isAsciiAlnum, type Token } from "../project/tokens.js";
import type { QueryTerm } from "./query-parse.js";

/** A matched span of source text and which term it belongs to. */
export interface Match {
	start: number;
	end: number;
	term: number;
}

/**
 * Appends the matches of `terms` among `tokens`: a term's tokens as consecutive words (the last one as a prefix for a
 * prefix term), a one-word term also as one of its other forms or as a camelCase part of a word.
 */
export function tokenMatches(tokens: Token[], terms: QueryTerm[], out: Match[]): void {
	const main = tokens.filter((t) => t.role !== "part");
	terms.forEach((term, ti) => {
		const n = term.tokens.length;
		const same = (token: Token, k: number) => {
			const want = term.tokens[k] as string;
			if (term.prefix && k === n - 1) return token.text.startsWith(want);
			return token.text === want || (n === 1 && term.forms?.includes(token.text) === true);
		};
		for (let i = 0; i + n <= main.length; i++) {
			let ok = true;
			for (let k = 0; k < n && ok; k++) ok = same(main[i + k] as Token, k);
			if (ok) out.push({ start: (main[i] as Token).start, end: (main[i + n - 1] as Token).end, term: ti });
		}
		if (n === 1) {
			// A single word also matches a camelCase part (`Webhook` in `handleWebhook`).
			// Indexed: a fresh process runs this unoptimized, where for-of allocates an iterator result per token.
			for (let i = 0; i < tokens.length; i++) {
				const t = tokens[i] as Token;
				if (t.role === "part" && same(t, 0)) out.push({ start: t.start, end: t.end, term: ti });
			}
		}
	});
}

/** Appends the matches in text[from, end) (ASCII) in tokenMatches' order; returns where its last word ends (null: none). */
export type AsciiMatcher = (text: string, from: number, end: number, out: Match[]) => number | null;

/** A folded token of ASCII letters and digits only. */
export const ASCII_TOKEN = /^[a-z0-9]+$/;

/**
 * tokenMatches for ASCII text, whose tokens are its runs of letters and digits, lowercased (their parts aside): null
 * unless every token and form of every term is such a run, lowercase.
 */
export function asciiMatcher(terms: QueryTerm[]): AsciiMatcher | null {
	const ascii = (w: string) => ASCII_TOKEN.test(w);
	if (!terms.every((t) => t.tokens.length > 0 && t.tokens.every(ascii) && (t.forms ?? []).every(ascii))) return null;
	const whole = terms.map(wholePattern);
	// Where a one-word term may be a camelCase part: its text, in some case, next to another letter or digit (a part
	// is never a whole run). Most occurrences of a prose word are whole words, passed over natively.
	const inner = terms.map((t) => {
		if (t.tokens.length !== 1) return null;
		const alts = `(?:${[t.tokens[0], ...(t.prefix ? [] : (t.forms ?? []))].join("|")})`;
		return new RegExp(`(?<=[A-Za-z0-9])${alts}|${alts}(?=[A-Za-z0-9])`, "gi");
	});
	return (text, from, end, out) => {
		const hay = text.slice(from, end);
		terms.forEach((term, ti) => {
			const re = whole[ti] as RegExp;
			re.lastIndex = 0;
			for (let m = re.exec(hay); m; m = re.exec(hay)) {
				out.push({ start: from + m.index, end: from + m.index + m[0].length, term: ti });
				// Every start, as the token loop tries every word: a phrase's matches may overlap.
				re.lastIndex = m.index + 1;
			}
			const parts = inner[ti];
			if (parts) partMatches(hay, from, term, ti, parts, out);
		});
		let e = hay.length;
		while (e > 0 && !isAsciiAlnum(hay.charCodeAt(e - 1))) e--;
		return e > 0 ? from + e : null;
	};
}

/** A term as whole runs: its tokens, separated by anything but letters and digits, none cut out of a longer run. */
function wholePattern(term: QueryTerm): RegExp {
	const n = term.tokens.length;
	const alt = (w: string, k: number) => {
		if (term.prefix && k === n - 1) return `${w}[A-Za-z0-9]*`;
		if (n === 1 && term.forms?.length) return `(?:${[w, ...term.forms].join("|")})`;
		return w;
	};
	return new RegExp(`(?<![A-Za-z0-9])${term.tokens.map(alt).join("[^A-Za-z0-9]+")}(?![A-Za-z0-9])`, "gi");
}

/** A one-word term's matches as a camelCase part of the runs of `hay` that hold its text (`found`), each run once. */
function partMatches(hay: string, from: number, term: QueryTerm, ti: number, found: RegExp, out: Match[]): void {
	const want = term.tokens[0] as string;
	found.lastIndex = 0;
	for (let m = found.exec(hay); m; m = found.exec(hay)) {
		let a = m.index;
		while (a > 0 && isAsciiAlnum(hay.charCodeAt(a - 1))) a--;
		let b = m.index + m[0].length;
		while (b < hay.length && isAsciiAlnum(hay.charCodeAt(b))) b++;
		found.lastIndex = b;
		const run = hay.slice(a, b);
		const parts = camelParts(run);
		if (!parts) continue;
		for (let i = 0; i < parts.length; i++) {
			const [pa, pb] = parts[i] as [number, number];
			const text = run.slice(pa, pb).toLowerCase();
			const ok = term.prefix ? text.startsWith(want) : text === want || term.forms?.includes(text) === true;
			if (ok) out.push({ start: from + a + pa, end: from + a + pb, term: ti });
		}
	}
}
