/**
 * Text analysis shared by indexing and querying: turns text into the token stream the FTS5 index stores.
 *
 * Why our own tokens instead of FTS5's unicode61 alone: unicode61 keeps `handleWebhook` as one token, keeps a run
 * of CJK characters as one token (no substring search) and drops emoji. So every word-character run is folded
 * (lowercase, NFKD, no combining marks) and emitted as:
 *  - the whole run, then its camelCase parts when it has 2–6 of them (`handleWebhook` → handlewebhook handle webhook);
 *  - CJK/kana/hangul segments as overlapping bigrams (`検索エンジン` → 検索 索エ エン ンジ ジン);
 *  - each emoji as one private-use character, so it is a token of its own.
 * The index uses FTS5's `ascii` tokenizer over these space-separated tokens, so what we emit is exactly what is
 * indexed, and a query goes through the same function: a phrase is a run of consecutive tokens.
 */
import { isWindowsPath } from "../shared/paths.js";

/** One token of the derived stream, with the source span it came from (UTF-16 offsets). */
export interface Token {
	text: string;
	start: number;
	end: number;
	/** whole: a full word run; part: a camelCase part of the previous whole; cjk: a bigram; emoji. */
	role: "whole" | "part" | "cjk" | "emoji";
}

/** A token no text can produce; placed where an oversized fragment was cut so no phrase matches across (I20). */
export const GAP_TOKEN = "\u{F0000}";

const WORD_OR_EMOJI = /[\p{L}\p{N}\p{M}\p{Co}]+|\p{Extended_Pictographic}/gu;
/**
 * WORD_OR_EMOJI for ASCII text: the same runs (no ASCII character is a mark, private use or pictographic). Compiling
 * the Unicode one costs a process's first search more than ranking a rare word, so ASCII text never needs it.
 */
const ASCII_WORD = /[A-Za-z0-9]+/g;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const COMBINING = /\p{Mn}/gu;
const PLANE15_16 = /[\u{F0000}-\u{10FFFF}]/gu;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_LOWER_ALNUM = /^[a-z0-9]+$/;
const CAMEL_BOUNDARY = /[a-z0-9](?=[A-Z])|[A-Z](?=[A-Z][a-z])/g;
const CAMEL_SEAM = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
const ASCII_CAMEL_SEAM = new RegExp(CAMEL_SEAM.source, "g");
const ASCII_SEPARATORS = /[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/;
const ASCII_SEPARATORS_ALL = /[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/g;

/** Lowercase, compatibility-decompose and drop combining marks, so `Ｅrror`, `ÉRROR` and `error` meet. */
export function fold(word: string): string {
	if (ASCII_LOWER_ALNUM.test(word)) return word;
	if (ASCII_ONLY.test(word)) return word.toLowerCase();
	// Decompose first: compatibility forms (𝓐, Ｅ) can decompose to capitals that must still be lowered.
	return word.normalize("NFKD").toLowerCase().replace(COMBINING, "").replace(PLANE15_16, "");
}

function emojiToken(cp: number): string {
	// Private-use planes 15/16 are token characters for the ascii tokenizer and never appear in folded text.
	return String.fromCodePoint(cp < 0x10000 ? 0xf0000 + cp : 0x100000 + (cp & 0xffff));
}

/** True for Han, kana and hangul; the common blocks are checked by range before the Unicode property. */
function isCjk(cp: number): boolean {
	if (cp < 0x1100) return false;
	if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0x3400 && cp <= 0x4dbf)) return true;
	return CJK.test(String.fromCodePoint(cp));
}

/** The [start, end) of each camelCase part of a word run of 2–6 parts (at most 48 characters); undefined for others. */
export function camelParts(run: string): Array<[number, number]> | undefined {
	if (run.length > 48 || !CAMEL_SEAM.test(run)) return undefined;
	const cuts: number[] = [];
	CAMEL_BOUNDARY.lastIndex = 0;
	for (let m = CAMEL_BOUNDARY.exec(run); m; m = CAMEL_BOUNDARY.exec(run)) cuts.push(m.index + 1);
	if (cuts.length === 0 || cuts.length > 5) return undefined;
	const parts: Array<[number, number]> = [];
	let from = 0;
	// Indexed loops here and in pushWord: code not yet optimized (a fresh process's first search) allocates an
	// iterator result per step of for-of, and more to destructure a pair.
	for (let i = 0; i < cuts.length; i++) {
		const cut = cuts[i] as number;
		parts.push([from, cut]);
		from = cut;
	}
	parts.push([from, run.length]);
	return parts;
}

function pushWord(out: Token[], run: string, start: number, withParts: boolean): void {
	const whole = fold(run);
	if (!whole) return;
	if (ASCII_SEPARATORS.test(whole)) {
		// Compatibility forms can decompose to ASCII punctuation (🄀 → "0."): split where FTS5's tokenizer would.
		for (const piece of whole.split(ASCII_SEPARATORS)) if (piece) out.push({ text: piece, start, end: start + run.length, role: "whole" });
		return;
	}
	out.push({ text: whole, start, end: start + run.length, role: "whole" });
	if (!withParts) return;
	const parts = camelParts(run);
	if (!parts) return;
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i] as [number, number];
		const a = part[0];
		const b = part[1];
		const text = fold(run.slice(a, b));
		if (text) out.push({ text, start: start + a, end: start + b, role: "part" });
	}
}

/** True for the blocks NFKC maps to themselves (unified ideographs, kana letters, hangul syllables): most CJK text. */
function nfkcStable(cp: number): boolean {
	return (
		(cp >= 0x4e00 && cp <= 0x9fff) ||
		(cp >= 0x3400 && cp <= 0x4dbf) ||
		(cp >= 0x3041 && cp <= 0x3096) ||
		(cp >= 0x30a1 && cp <= 0x30fa) ||
		(cp >= 0xac00 && cp <= 0xd7a3)
	);
}

/** CJK folding: compatibility forms only; dakuten and other marks carry meaning there (ジ is not シ). */
function foldCjk(c: string): string {
	if (c.length === 1 && nfkcStable(c.charCodeAt(0))) return c;
	// NFKC can add ASCII punctuation (㈠ → "(一)"), which FTS5 would split on: drop it.
	return c.normalize("NFKC").replace(ASCII_SEPARATORS_ALL, "");
}

function pushCjk(out: Token[], chars: Array<[string, number]>): void {
	// Indexed, no destructuring: a fresh process's first search runs this unoptimized, where destructuring an array
	// allocates an iterator.
	const texts: string[] = [];
	const starts: number[] = [];
	const ends: number[] = [];
	for (let i = 0; i < chars.length; i++) {
		const char = chars[i] as [string, number];
		const c = foldCjk(char[0]);
		if (c.length === 0) continue;
		texts.push(c);
		starts.push(char[1]);
		ends.push(char[1] + char[0].length);
	}
	if (texts.length === 1) {
		out.push({ text: texts[0] as string, start: starts[0] as number, end: ends[0] as number, role: "cjk" });
		return;
	}
	for (let i = 0; i + 1 < texts.length; i++) {
		out.push({ text: (texts[i] as string) + (texts[i + 1] as string), start: starts[i] as number, end: ends[i + 1] as number, role: "cjk" });
	}
}

/** A UTF-16 unit at or above U+1100, below which no character is CJK (isCjk). */
const FROM_HANGUL_JAMO = /[^\u0000-\u10ff]/g;

function pushRun(out: Token[], run: string, start: number, withParts: boolean): void {
	let hasCjk = false;
	// The units that may be CJK found by a regular expression: a loop over every character of every word of a
	// non-ASCII text ran unoptimized in a fresh process's first search.
	FROM_HANGUL_JAMO.lastIndex = 0;
	for (let m = FROM_HANGUL_JAMO.exec(run); m && !hasCjk; m = FROM_HANGUL_JAMO.exec(run)) hasCjk = isCjk(run.codePointAt(m.index) as number);
	if (!hasCjk) {
		pushWord(out, run, start, withParts);
		return;
	}
	// Split the run into CJK and non-CJK segments; each non-CJK segment is a word of its own.
	let segStart = 0;
	let cjk: Array<[string, number]> = [];
	let i = 0;
	const flushWord = (end: number) => {
		if (end > segStart) pushWord(out, run.slice(segStart, end), start + segStart, withParts);
	};
	while (i < run.length) {
		const cp = run.codePointAt(i) as number;
		const width = cp > 0xffff ? 2 : 1;
		if (isCjk(cp)) {
			if (cjk.length === 0) flushWord(i);
			cjk.push([run.slice(i, i + width), start + i]);
			segStart = i + width;
		} else if (cjk.length > 0) {
			pushCjk(out, cjk);
			cjk = [];
			segStart = i;
		}
		i += width;
	}
	if (cjk.length > 0) pushCjk(out, cjk);
	else flushWord(run.length);
}

/**
 * The derived token stream of a text, in order, with source spans (offsets from `base`: the text's place in a longer
 * one); camelCase parts follow their word unless `withParts` is false.
 */
export function tokenize(text: string, withParts = true, base = 0): Token[] {
	const out: Token[] = [];
	if (ASCII_ONLY.test(text)) {
		// A regular expression, not a loop over characters: in a fresh process such a loop was compiled on the spot,
		// which cost a snippet more than the match objects it saves.
		ASCII_WORD.lastIndex = 0;
		for (let m = ASCII_WORD.exec(text); m; m = ASCII_WORD.exec(text)) pushWord(out, m[0], base + m.index, withParts);
		return out;
	}
	WORD_OR_EMOJI.lastIndex = 0;
	for (let m = WORD_OR_EMOJI.exec(text); m; m = WORD_OR_EMOJI.exec(text)) {
		const run = m[0];
		if (run.length <= 2 && PICTOGRAPHIC.test(run)) {
			out.push({ text: emojiToken(run.codePointAt(0) as number), start: base + m.index, end: base + m.index + run.length, role: "emoji" });
			continue;
		}
		pushRun(out, run, base + m.index, withParts);
	}
	return out;
}

const NON_ASCII = /[^\x00-\x7f]/g;

/** Whether a UTF-16 code unit is an ASCII letter or digit. */
export const isAsciiAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);

/** Words of ASCII text that contain a camelCase seam; a linear scan (a backtracking regex cost seconds on 300 MB). */
function asciiCamelWords(text: string, out: Set<string>): void {
	ASCII_CAMEL_SEAM.lastIndex = 0;
	// test(), not exec(): no match object per seam (code is full of them). The seam's last character is in the word.
	while (ASCII_CAMEL_SEAM.test(text)) {
		let a = ASCII_CAMEL_SEAM.lastIndex - 1;
		while (a > 0 && isAsciiAlnum(text.charCodeAt(a - 1))) a--;
		let b = ASCII_CAMEL_SEAM.lastIndex;
		while (b < text.length && isAsciiAlnum(text.charCodeAt(b))) b++;
		if (b - a <= 48) out.add(text.slice(a, b));
		ASCII_CAMEL_SEAM.lastIndex = b;
	}
}

/** Folded tokens of a non-ASCII stretch, joined by spaces; camelCase words are collected for the parts section. */
function tokenText(text: string, identifiers: Set<string>): string {
	let s = "";
	for (const token of tokenize(text, false)) {
		s += s ? ` ${token.text}` : token.text;
		if (token.role === "whole") {
			const source = text.slice(token.start, token.end);
			if (camelParts(source)) identifiers.add(source);
		}
	}
	return s;
}

/**
 * The text handed to FTS5 for one indexed range of a fragment. The main stream holds whole words, CJK bigrams and
 * emoji in source order (phrases match there); camelCase parts follow after GAP tokens, one group per distinct
 * identifier, so `webhook` finds `handleWebhook` while no phrase can run from the text into the parts.
 * ASCII is passed through as it is: FTS5's ascii tokenizer splits and folds it exactly like tokenize(). Only the
 * whitespace-delimited stretches around non-ASCII characters go through tokenize(), since no token spans whitespace.
 */
export function documentText(text: string): string {
	const [main, extra] = documentParts(text);
	return main + extra;
}

/**
 * documentText as its two parts, the main stream and the camelCase parts section (`main + extra` is the text). The
 * section holds gap tokens (two-byte characters): kept apart, the main stream of ASCII text stays a one-byte string
 * and is encoded as it is, instead of being copied into a two-byte string of the whole text first.
 */
export function documentParts(text: string): [main: string, extra: string] {
	const identifiers = new Set<string>();
	let main = "";
	let at = 0;
	NON_ASCII.lastIndex = 0;
	for (let m = NON_ASCII.exec(text); m; m = NON_ASCII.exec(text)) {
		let a = m.index;
		while (a > at && !isAsciiSpace(text.charCodeAt(a - 1))) a--;
		let b = m.index + 1;
		while (b < text.length && !isAsciiSpace(text.charCodeAt(b))) b++;
		const ascii = text.slice(at, a);
		asciiCamelWords(ascii, identifiers);
		main += `${ascii} ${tokenText(text.slice(a, b), identifiers)} `;
		at = b;
		NON_ASCII.lastIndex = b;
	}
	if (at === 0) main = text;
	else main += text.slice(at);
	asciiCamelWords(at === 0 ? text : text.slice(at), identifiers);
	if (identifiers.size === 0) return [main, ""];
	let extra = "";
	for (const word of identifiers) extra += partsGroup(word);
	return [main, extra];
}

/** Identifiers' parts groups already made: code repeats its identifiers across fragments and sessions. */
const groups = new Map<string, string>();
/** Distinct identifiers kept at most (a few MB), then the map starts over. */
const GROUPS_KEPT = 65536;

/** The parts section's group of one identifier, ` GAP part part…` ("" when it has no parts). */
function partsGroup(word: string): string {
	let group = groups.get(word);
	if (group !== undefined) return group;
	const parts = camelParts(word);
	group = "";
	if (parts) {
		group = ` ${GAP_TOKEN}`;
		for (const [a, b] of parts) group += ` ${fold(word.slice(a, b))}`;
	}
	if (groups.size >= GROUPS_KEPT) groups.clear();
	groups.set(word, group);
	return group;
}

/** Tokens of a query term: the main stream only (parts are indexed separately, so whole words match them). */
export function queryTokens(term: string): Token[] {
	return tokenize(term).filter((t) => t.role !== "part");
}

/** Marks scope tokens; like GAP_TOKEN it is a character no text can produce. */
const SCOPE_MARK = "\u{F0001}";

/** 52-bit FNV-1a of a string, in hex: stable across runs and processes, no dependencies. */
function fnv(text: string): string {
	let h1 = 0x811c9dc5;
	let h2 = 0x01000193;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
		h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
	}
	return h1.toString(16).padStart(8, "0") + (h2 & 0xfffff).toString(16).padStart(5, "0");
}

/**
 * The folders of an absolute path, from the path itself up to (not including) the root, with `.` and `..`
 * resolved and separators normalized; none for a relative or empty path.
 */
export function scopeFolders(cwd: string): string[] {
	const windows = isWindowsPath(cwd);
	if (!windows && !cwd.startsWith("/")) return [];
	const sep = windows ? "\\" : "/";
	const parts: string[] = [];
	for (const part of cwd.split(/[\\/]+/)) {
		if (part === "" || part === ".") continue;
		if (part === "..") {
			if (parts.length > (windows ? 1 : 0)) parts.pop();
		} else parts.push(part);
	}
	const out: string[] = [];
	for (let n = parts.length; n >= 1; n--) {
		const head = parts.slice(0, n).join(sep);
		out.push(windows ? head : `/${head}`);
	}
	return windows ? out.filter((p) => p.length > 2) : out;
}

/** The token that every fragment of a session whose cwd is `folder` or below it carries (prefilter of cwd scopes). */
export function scopeToken(folder: string): string {
	return `${SCOPE_MARK}${fnv(folder)}`;
}
