/** Bounded snippets with marked matches (I19, I20): whitespace normalized, cut at word edges, never across an omission. */

import { fold, type Token, tokenize } from "../project/tokens.js";
import type { QueryTerm } from "./query-parse.js";
import { ASCII_TOKEN, asciiMatcher, type Match, tokenMatches } from "./term-matches.js";

export type { Match } from "./term-matches.js";

/** A snippet and the [start, end) offsets (UTF-16 code units of `snippet`) of every match span in it. */
export interface Snippet {
	snippet: string;
	marks: Array<[number, number]>;
}

/** Ellipsis where the snippet cuts the fragment. */
export const CUT = "…";

const CHUNK = 2 * 1024;

/** How far past a chunk's nominal end whitespace is looked for before any other edge of a token will do. */
const ALIGN_SLACK = 256;
const WHITESPACE = /\s/;
const WHITESPACE_RUNS = /\s+/g;
/** A character a token can hold (tokens.ts WORD_OR_EMOJI): no token spans any other. */
const TOKEN_CHAR = /[\p{L}\p{N}\p{M}\p{Co}]/u;

/**
 * The end of a chunk starting at `from`: `to`, moved on to whitespace so no word is split between two chunks; where
 * there is none near (CJK prose has no spaces, and chunks as long as the text tokenized all of it), to the next
 * character no token holds, never between the halves of a surrogate pair.
 */
function alignedEnd(text: string, to: number): number {
	const end = Math.min(text.length, to);
	const near = Math.min(text.length, end + ALIGN_SLACK);
	// A search, not a test per character: a fresh process runs such a loop unoptimized, a string per character.
	const space = text.slice(end, near).search(WHITESPACE);
	if (space !== -1) return end + space;
	for (let i = end; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if ((c < 0xd800 || c > 0xdfff) && !TOKEN_CHAR.test(text[i] as string)) return i;
	}
	return text.length;
}

/** The matches in text[from, end) from its tokens; returns where its last token ends (null: none). */
function tokenMatchesIn(text: string, from: number, end: number, terms: QueryTerm[], out: Match[]): number | null {
	const tokens: Token[] = tokenize(text.slice(from, end), true, from);
	tokenMatches(tokens, terms, out);
	return tokens.at(-1)?.end ?? null;
}

const ASCII = /^[\x00-\x7f]*$/;
const NONSPACING = /\p{Mn}/gu;
const PLANE15_16 = /[\u{F0000}-\u{10FFFF}]/gu;
const ASCII_SEPARATORS = /[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/g;

/**
 * Text folded as tokens are (tokens.ts fold and foldCjk: compatibility decomposition, lowercase, no nonspacing
 * marks) without the word boundaries: every token text, folded again, is a substring of the loose fold of the text
 * it came from. A chunk whose loose fold misses a token of every term has no match, and is not tokenized.
 */
function looseFold(text: string): string {
	if (ASCII.test(text)) return text.toLowerCase().replace(ASCII_SEPARATORS, "");
	return text.normalize("NFKD").toLowerCase().replace(NONSPACING, "").replace(PLANE15_16, "").replace(ASCII_SEPARATORS, "");
}

const NON_ASCII = /[^\x00-\x7f]/g;
const ASCII_ALNUM = /[A-Za-z0-9]/;

/**
 * For needles that are all ASCII words, where the first chunk that can hold a match starts, from `at`: the start of
 * the word where a needle first occurs in some case, or of the first non-ASCII character's word, whichever comes
 * first (`to` for none). In ASCII text every token of a match is there as written, in some case; finding the first
 * one natively spares folding the chunks before it, most of a long tool output. Null for other needles. `nonAscii`
 * finds the first non-ASCII character from a position, shared by the skippers of one scan (a text is searched once).
 */
function asciiSkipper(needles: string[], text: string, to: number, nonAscii: (at: number) => number): ((at: number) => number) | null {
	if (needles.length === 0 || !needles.every((n) => ASCII_TOKEN.test(n))) return null;
	const any = new RegExp(needles.join("|"), "gi");
	// Found once ahead of `at` and kept until `at` passes it: a long text is searched once, not once a chunk, and only
	// up to `to` (a snippet's window is a few hundred characters of a text that may be megabytes).
	let needle = -1;
	return (at) => {
		if (needle < at) needle = firstFrom(any, text, at, to);
		const found = Math.min(needle, nonAscii(at));
		if (found >= to) return to;
		let start = found;
		while (start > at && ASCII_ALNUM.test(text[start - 1] as string)) start--;
		return start;
	};
}

/** Where `pattern` (global) first matches in text[at, to), or `to`. */
function firstFrom(pattern: RegExp, text: string, at: number, to: number): number {
	pattern.lastIndex = 0;
	const found = pattern.exec(text.slice(at, to));
	return found ? at + found.index : to;
}

/** The first non-ASCII character of text[at, to) (or `to`), remembered until `at` passes it. */
function nonAsciiFinder(text: string, to: number): (at: number) => number {
	let next = -1;
	return (at) => {
		if (next < at) next = firstFrom(NON_ASCII, text, at, to);
		return next;
	};
}

/**
 * Finds match spans of the terms in `text[from, to)`, scanning in chunks until every term was seen: once a term was,
 * only a chunk that may hold a term not seen yet is read (all its matches, of every term, are reported).
 */
export function findMatches(text: string, terms: QueryTerm[], from = 0, to = text.length): Match[] {
	const out: Match[] = [];
	if (terms.length === 0) return out;
	const seen = new Set<number>();
	// A term is in a chunk when all tokens of it, or one of its other forms, are.
	const needles = terms.map((term) => [term.tokens, ...(term.forms ?? []).map((f) => [f])].map((alt) => alt.map(looseFold)));
	const unseen = () => needles.filter((_, term) => !seen.has(term));
	const nonAscii = nonAsciiFinder(text, to);
	let skip = asciiSkipper(needles.flat(2), text, to, nonAscii);
	const ascii = asciiMatcher(terms);
	for (let at = from; at < to; ) {
		if (skip) {
			at = skip(at);
			if (at >= to) break;
		}
		const end = alignedEnd(text, Math.min(to, at + CHUNK));
		const hay = looseFold(text.slice(at, end));
		if (!unseen().some((alts) => alts.some((tokens) => tokens.every((t) => hay.includes(t))))) {
			// Tokenizing is what a snippet of a large fragment costs; most of its chunks hold no match.
			at = Math.min(to, Math.max(at + CHUNK, end));
			continue;
		}
		const before = out.length;
		const known = seen.size;
		const lastEnd = ascii && nonAscii(at) >= end ? ascii(text, at, end, out) : tokenMatchesIn(text, at, end, terms, out);
		for (let i = before; i < out.length; i++) seen.add((out[i] as Match).term);
		// A word most lines hold (`with`) no longer sends the scan to every chunk of a long text.
		if (seen.size > known && seen.size < terms.length) skip = asciiSkipper(unseen().flat(2), text, to, nonAscii);
		const next = lastEnd !== null ? Math.max(at + CHUNK, lastEnd) : at + CHUNK;
		at = Math.min(to, next);
		if (seen.size === terms.length && out.length > 0) break;
	}
	// A match across a chunk edge can be reported twice.
	const unique = new Map<string, Match>();
	for (const m of out) if (m.start >= from && m.end <= to) unique.set(`${m.start}:${m.end}:${m.term}`, m);
	return [...unique.values()].sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * False when no term can match in text[seg]: every term starts with an ASCII token that its folded text does not
 * contain. Tokenizing the 128 KiB tail of an oversized fragment that holds no match costs more than the search.
 */
function mayMatch(text: string, terms: QueryTerm[], seg: [number, number]): boolean {
	if (seg[1] - seg[0] <= 2 * CHUNK || !terms.every((t) => ASCII_TOKEN.test(t.tokens[0] ?? ""))) return true;
	const holds = (hay: string) => terms.some((t) => hay.includes(t.tokens[0] as string) || t.forms?.some((f) => hay.includes(f)));
	const segment = text.slice(seg[0], seg[1]);
	// Usually a needle is there as it is, in some case: found without a lowercased copy of the segment. Without the
	// unicode flag an ASCII letter or digit matches only its own two cases, so whatever this finds lowercasing finds.
	const needles = terms.flatMap((t) => [t.tokens[0] as string, ...(t.forms ?? [])]);
	if (needles.every((n) => ASCII_TOKEN.test(n)) && new RegExp(needles.join("|"), "i").test(segment)) return true;
	// Lowercasing finds most matches at a fraction of folding's cost (compatibility decomposition of 128 KiB); only
	// a text it finds none in is folded, as folding can make ASCII letters of other characters.
	return holds(segment.toLowerCase()) || holds(fold(segment));
}

function normalize(text: string, marks: Array<[number, number]>): Snippet {
	// Collapse whitespace runs to one space and map mark offsets through the collapse. Run by run, not character by
	// character: a fresh process runs such a loop unoptimized.
	let out = "";
	const runs: Array<[number, number]> = [];
	let last = 0;
	WHITESPACE_RUNS.lastIndex = 0;
	for (let m = WHITESPACE_RUNS.exec(text); m; m = WHITESPACE_RUNS.exec(text)) {
		out += `${text.slice(last, m.index)} `;
		last = m.index + m[0].length;
		runs.push([m.index, last]);
	}
	out += text.slice(last);
	// Where text[i] lands in `out`: a whitespace character on its run's one space.
	const at = (i: number): number => {
		let removed = 0;
		for (let k = 0; k < runs.length; k++) {
			const run = runs[k] as [number, number];
			if (run[1] <= i) removed += run[1] - run[0] - 1;
			else return run[0] <= i ? run[0] - removed : i - removed;
		}
		return i - removed;
	};
	const lead = out.length - out.trimStart().length;
	const trimmed = out.trim();
	const result = marks.map(([a, b]) => [Math.max(0, at(a) - lead), Math.min(trimmed.length, at(b) - lead)] as [number, number]).filter(([a, b]) => b > a);
	return { snippet: trimmed, marks: result };
}

/** A window a match anchors: where it starts, how many terms and matches lie wholly inside it. */
interface Window {
	start: number;
	score: number;
	count: number;
	focus: Match;
}

/**
 * The window each match anchors (`startOf`, never decreasing along `matches`, which are sorted by start), `budget`
 * long, with its distinct terms and matches inside: one pass, a match entering when its end is in and leaving when
 * its start falls behind. Filtering every match for every match was quadratic in a text where a word is everywhere.
 */
export function windows(matches: Match[], startOf: (m: Match) => number, budget: number): Window[] {
	const byEnd = matches.map((_, i) => i).sort((a, b) => (matches[a] as Match).end - (matches[b] as Match).end);
	const inside = new Uint8Array(matches.length);
	const perTerm = new Map<number, number>();
	let count = 0;
	let added = 0;
	let dropped = 0;
	const out: Window[] = [];
	for (const focus of matches) {
		const start = startOf(focus);
		const end = start + budget;
		for (; dropped < matches.length && (matches[dropped] as Match).start < start; dropped++) {
			if (inside[dropped] === 0) continue;
			inside[dropped] = 0;
			count--;
			const term = (matches[dropped] as Match).term;
			const left = (perTerm.get(term) ?? 1) - 1;
			if (left === 0) perTerm.delete(term);
			else perTerm.set(term, left);
		}
		for (; added < byEnd.length && (matches[byEnd[added] as number] as Match).end <= end; added++) {
			const i = byEnd[added] as number;
			const m = matches[i] as Match;
			if (m.start < start) continue;
			inside[i] = 1;
			count++;
			perTerm.set(m.term, (perTerm.get(m.term) ?? 0) + 1);
		}
		out.push({ start, score: perTerm.size, count, focus });
	}
	return out;
}

/**
 * Builds a snippet of at most `maxChars` characters around the best cluster of matches. `omitted` is the
 * [start, end) range of the source that was not kept (I20); `text` here is the full source text — or its head and tail
 * joined, with an empty `omitted` range where the middle was and `omittedChars` saying how long it was.
 */
export function buildSnippet(text: string, terms: QueryTerm[], maxChars: number, omitted: [number, number] | null = null, omittedChars?: number): Snippet {
	const budget = Math.max(16, maxChars);
	const segments: Array<[number, number]> = omitted
		? [
				[0, omitted[0]],
				[omitted[1], text.length],
			]
		: [[0, text.length]];
	let best: { seg: [number, number]; start: number; score: number; count: number; focus: Match } | null = null;
	for (const seg of segments) {
		const matches = mayMatch(text, terms, seg) ? findMatches(text, terms, seg[0], seg[1]) : [];
		for (const w of windows(matches, (m) => Math.max(seg[0], Math.min(m.start - Math.floor(budget / 4), seg[1] - budget)), budget)) {
			if (!best || w.score > best.score || (w.score === best.score && w.count > best.count)) best = { seg, ...w };
		}
	}
	const seg = best?.seg ?? (segments[0] as [number, number]);
	let start = Math.max(seg[0], best ? best.start : seg[0]);
	let end = Math.min(seg[1], start + budget);
	const omittedNote = omitted ? `[${omittedChars ?? omitted[1] - omitted[0]} chars omitted]` : "";
	// Where the window meets the omitted range, say so; elsewhere an ellipsis marks a cut.
	const gapBefore = omitted !== null && start === omitted[1];
	let prefix = start > seg[0] ? CUT : gapBefore ? `${omittedNote}${CUT} ` : "";
	let suffix = end < seg[1] ? CUT : omitted !== null && end === omitted[0] ? ` ${CUT}${omittedNote}` : "";
	const room = budget - prefix.length - suffix.length;
	const focus = best?.focus;
	if (end - start > room) {
		// Give up characters on the side away from the match that anchors the window.
		if (focus && focus.end > start + room && end === seg[1]) {
			start = end - Math.max(1, room);
			if (prefix === "") prefix = gapBefore ? prefix : CUT;
		} else {
			end = start + Math.max(1, room);
			suffix = CUT;
		}
	}
	// Prefer word edges when that loses little, but never cut into the anchoring match.
	if (prefix === CUT) {
		const ws = text.slice(start, start + 20).search(/\s/);
		if (ws > 0 && (!focus || start + ws + 1 <= focus.start)) start += ws + 1;
	}
	if (suffix === CUT) {
		const tail = text.slice(Math.max(start, end - 20), end);
		const ws = tail.search(/\s\S*$/);
		if (ws > 0 && (!focus || end - tail.length + ws >= focus.end)) end = end - tail.length + ws;
	}
	const window = text.slice(start, end);
	const marks = best ? findMatches(text, terms, start, end).map((m) => [m.start - start, m.end - start] as [number, number]) : [];
	const norm = normalize(window, marks);
	if (norm.snippet.length === 0) prefix = prefix.trimEnd();
	return { snippet: prefix + norm.snippet + suffix, marks: mergeMarks(norm.marks.map(([a, b]) => [a + prefix.length, b + prefix.length])) };
}

function mergeMarks(marks: Array<[number, number]>): Array<[number, number]> {
	const sorted = [...marks].sort((a, b) => a[0] - b[0]);
	const out: Array<[number, number]> = [];
	for (const m of sorted) {
		const last = out.at(-1);
		if (last && m[0] <= last[1]) last[1] = Math.max(last[1], m[1]);
		else out.push([m[0], m[1]]);
	}
	return out;
}
