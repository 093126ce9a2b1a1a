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
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const HAS_CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const COMBINING = /\p{Mn}/gu;
const PLANE15_16 = /[\u{F0000}-\u{10FFFF}]/gu;
const ASCII_LOWER_ALNUM = /^[a-z0-9]+$/;
const CAMEL_BOUNDARY = /[a-z0-9](?=[A-Z])|[A-Z](?=[A-Z][a-z])/g;

/** Lowercase, compatibility-decompose and drop combining marks, so `Ｅrror`, `ÉRROR` and `error` meet. */
export function fold(word: string): string {
	if (ASCII_LOWER_ALNUM.test(word)) return word;
	return word.toLowerCase().normalize("NFKD").replace(COMBINING, "").replace(PLANE15_16, "");
}

function emojiToken(cp: number): string {
	// Private-use planes 15/16 are token characters for the ascii tokenizer and never appear in folded text.
	return String.fromCodePoint(cp < 0x10000 ? 0xf0000 + cp : 0x100000 + (cp & 0xffff));
}

function camelParts(run: string): Array<[number, number]> | undefined {
	if (run.length > 48) return undefined;
	const cuts: number[] = [];
	CAMEL_BOUNDARY.lastIndex = 0;
	for (let m = CAMEL_BOUNDARY.exec(run); m; m = CAMEL_BOUNDARY.exec(run)) cuts.push(m.index + 1);
	if (cuts.length === 0 || cuts.length > 5) return undefined;
	const parts: Array<[number, number]> = [];
	let from = 0;
	for (const cut of cuts) {
		parts.push([from, cut]);
		from = cut;
	}
	parts.push([from, run.length]);
	return parts;
}

function pushWord(out: Token[], run: string, start: number, withParts: boolean): void {
	const whole = fold(run);
	if (!whole) return;
	out.push({ text: whole, start, end: start + run.length, role: "whole" });
	if (!withParts) return;
	const parts = camelParts(run);
	if (!parts) return;
	for (const [a, b] of parts) {
		const text = fold(run.slice(a, b));
		if (text) out.push({ text, start: start + a, end: start + b, role: "part" });
	}
}

/** CJK folding: compatibility forms only; dakuten and other marks carry meaning there (ジ is not シ). */
function foldCjk(c: string): string {
	return c.normalize("NFKC");
}

function pushCjk(out: Token[], chars: Array<[string, number]>): void {
	const folded = chars.map(([c, at]) => [foldCjk(c), at, at + c.length] as const).filter(([c]) => c.length > 0);
	if (folded.length === 1) {
		const [c, a, b] = folded[0] as readonly [string, number, number];
		out.push({ text: c, start: a, end: b, role: "cjk" });
		return;
	}
	for (let i = 0; i + 1 < folded.length; i++) {
		const [c1, a] = folded[i] as readonly [string, number, number];
		const [c2, , b] = folded[i + 1] as readonly [string, number, number];
		out.push({ text: c1 + c2, start: a, end: b, role: "cjk" });
	}
}

function pushRun(out: Token[], run: string, start: number): void {
	if (!HAS_CJK.test(run)) {
		pushWord(out, run, start, true);
		return;
	}
	// Split the run into CJK and non-CJK segments; each non-CJK segment is a word of its own.
	let segStart = 0;
	let cjk: Array<[string, number]> = [];
	let i = 0;
	const flushWord = (end: number) => {
		if (end > segStart) pushWord(out, run.slice(segStart, end), start + segStart, true);
	};
	while (i < run.length) {
		const cp = run.codePointAt(i) as number;
		const ch = String.fromCodePoint(cp);
		if (CJK.test(ch)) {
			if (cjk.length === 0) flushWord(i);
			cjk.push([ch, start + i]);
			segStart = i + ch.length;
		} else if (cjk.length > 0) {
			pushCjk(out, cjk);
			cjk = [];
			segStart = i;
		}
		i += ch.length;
	}
	if (cjk.length > 0) pushCjk(out, cjk);
	else flushWord(run.length);
}

/** The derived token stream of a text, in order, with source spans. */
export function tokenize(text: string): Token[] {
	const out: Token[] = [];
	WORD_OR_EMOJI.lastIndex = 0;
	for (let m = WORD_OR_EMOJI.exec(text); m; m = WORD_OR_EMOJI.exec(text)) {
		const run = m[0];
		const cp = run.codePointAt(0) as number;
		if (run.length <= 2 && /\p{Extended_Pictographic}/u.test(run) && !/[\p{L}\p{N}]/u.test(run)) {
			out.push({ text: emojiToken(cp), start: m.index, end: m.index + run.length, role: "emoji" });
			continue;
		}
		pushRun(out, run, m.index);
	}
	return out;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_CAMEL_SEAM = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/g;

const isAsciiAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Words of ASCII text that contain a camelCase seam; a linear scan (a backtracking regex cost seconds on 300 MB). */
function asciiCamelWords(text: string, out: Set<string>): void {
	ASCII_CAMEL_SEAM.lastIndex = 0;
	let wordEnd = -1;
	for (let m = ASCII_CAMEL_SEAM.exec(text); m; m = ASCII_CAMEL_SEAM.exec(text)) {
		if (m.index < wordEnd) continue;
		let a = m.index;
		while (a > 0 && isAsciiAlnum(text.charCodeAt(a - 1))) a--;
		let b = m.index + 1;
		while (b < text.length && isAsciiAlnum(text.charCodeAt(b))) b++;
		wordEnd = b;
		if (b - a <= 48) out.add(text.slice(a, b));
		ASCII_CAMEL_SEAM.lastIndex = b;
	}
}

/**
 * The text handed to FTS5 for one indexed range of a fragment. The main stream holds whole words, CJK bigrams and
 * emoji in source order (phrases match there); camelCase parts follow after GAP tokens, one group per distinct
 * identifier, so `webhook` finds `handleWebhook` while no phrase can run from the text into the parts.
 * Pure-ASCII text is passed through as it is: FTS5's ascii tokenizer splits and folds it exactly like tokenize().
 */
export function documentText(text: string): string {
	const identifiers = new Set<string>();
	let main: string;
	if (ASCII_ONLY.test(text)) {
		main = text;
		asciiCamelWords(text, identifiers);
	} else {
		const parts: string[] = [];
		for (const token of tokenize(text)) {
			if (token.role === "part") continue;
			parts.push(token.text);
			if (token.role === "whole") {
				const source = text.slice(token.start, token.end);
				if (camelParts(source)) identifiers.add(source);
			}
		}
		main = parts.join(" ");
	}
	if (identifiers.size === 0) return main;
	let extra = "";
	for (const word of identifiers) {
		const parts = camelParts(word);
		if (!parts) continue;
		extra += ` ${GAP_TOKEN}`;
		for (const [a, b] of parts) extra += ` ${fold(word.slice(a, b))}`;
	}
	return main + extra;
}

/** Tokens of a query term: the main stream only (parts are indexed separately, so whole words match them). */
export function queryTokens(term: string): Token[] {
	return tokenize(term).filter((t) => t.role !== "part");
}
