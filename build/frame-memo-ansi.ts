/**
 * The CLI bundle's stand-in for `@alcalzone/ansi-tokenize` (build/bundle.ts puts it where Ink's Output imports it): the
 * same functions, remembering their answers. Ink's Output rebuilds every row of the screen from styled characters on
 * every frame, caching them for that frame only; a keystroke changes a line or two, so the other rows are made of the
 * very characters (the same objects) of a frame before. Ink only reads what these return, never changes it.
 */
import {
	type AnsiCode,
	ansiCodesToString,
	diffAnsiCodes,
	type StyledChar,
	styledCharsFromTokens,
	styledCharsToString,
	type Token,
	tokenize,
} from "@alcalzone/ansi-tokenize";
import { rememberIn } from "./frame-memo-cache.js";
import { COUNTED, SGR } from "./frame-memo-width.js";

export type { AnsiCode, Char, StyledChar, Token } from "@alcalzone/ansi-tokenize";
export { ansiCodesToString, diffAnsiCodes, reduceAnsiCodes, reduceAnsiCodesIncremental, undoAnsiCodes } from "@alcalzone/ansi-tokenize";

const tokens = new Map<string, Token[]>();
const styled = new WeakMap<Token[], StyledChar[]>();

/** tokenize's answer for `text`, remembered for a whole line (no end character). */
export function memoTokenize(text: string, endChar?: number): Token[] {
	if (endChar !== undefined) return tokenize(text, endChar);
	return rememberIn(tokens, text, (line) => (COUNTED.test(line) ? countedTokens(line) : tokenize(line)));
}

const CODE = new RegExp(SGR.source, "g");

/** tokenize's answer for one character or one colour code, which is the same wherever it stands in a COUNTED line. */
const pieces = new Map<string, Token[]>();

function piece(text: string): Token[] {
	return rememberIn(pieces, text, (t) => tokenize(t));
}

/**
 * tokenize of a line whose every character is a grapheme of its own (frame-memo-width.ts COUNTED), put together from
 * the tokens of its characters and colour codes: tokenize walks a line grapheme by grapheme through Intl.Segmenter,
 * which a fresh explorer ran, not yet optimized, for every new line of its first frames.
 */
function countedTokens(text: string): Token[] {
	const out: Token[] = [];
	let at = 0;
	CODE.lastIndex = 0;
	for (;;) {
		const code = CODE.exec(text);
		const end = code ? code.index : text.length;
		for (let i = at; i < end; ) {
			const n = (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
			out.push(...piece(text.slice(i, i + n)));
			i += n;
		}
		if (code === null) return out;
		out.push(...piece(code[0]));
		at = end + code[0].length;
	}
}

/** styledCharsFromTokens' answer for tokens memoTokenize returned (remembered as long as they are). */
export function memoStyledCharsFromTokens(t: Token[]): StyledChar[] {
	let chars = styled.get(t);
	if (chars === undefined) {
		chars = styledCharsFromTokens(t);
		styled.set(t, chars);
	}
	return chars;
}

/** A row's text per its first character: the row again when every character is the same as then. */
const rows = new WeakMap<StyledChar, { chars: StyledChar[]; text: string }>();

/**
 * The same character for styledCharsToString, which reads only the value and the styles: the same object, or the
 * same value with the same styles array or none (Ink fills the cells no line covers with fresh unstyled spaces).
 */
function sameChar(a: StyledChar, b: StyledChar): boolean {
	return a === b || (a.value === b.value && (a.styles === b.styles || (a.styles.length === 0 && b.styles.length === 0)));
}

/** styledCharsToString's answer for a row, remembered while the row is made of the same characters. */
export function memoStyledCharsToString(chars: StyledChar[]): string {
	const first = chars[0];
	if (first === undefined) return styledCharsToString(chars);
	const seen = rows.get(first);
	if (seen !== undefined && seen.chars.length === chars.length && seen.chars.every((c, i) => sameChar(c, chars[i] as StyledChar))) return seen.text;
	const text = rowText(chars);
	rows.set(first, { chars, text });
	return text;
}

/** The same codes in the same order: diffAnsiCodes from one to the other is empty (it compares codes and end codes). */
function sameStyles(a: AnsiCode[], b: AnsiCode[]): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let k = 0; k < a.length; k++)
		if ((a[k] as AnsiCode).code !== (b[k] as AnsiCode).code || (a[k] as AnsiCode).endCode !== (b[k] as AnsiCode).endCode) return false;
	return true;
}

/**
 * styledCharsToString, without diffing the styles of a character and the one before when they are the same codes:
 * each character has its own copy of its line's styles, and diffing every pair (three sets each) was most of what a
 * fresh explorer's first frames spent building rows.
 */
function rowText(chars: StyledChar[]): string {
	let ret = "";
	for (let i = 0; i < chars.length; i++) {
		const char = chars[i] as StyledChar;
		if (i === 0) ret += ansiCodesToString(char.styles);
		else {
			const before = (chars[i - 1] as StyledChar).styles;
			if (!sameStyles(before, char.styles)) ret += ansiCodesToString(diffAnsiCodes(before, char.styles));
		}
		ret += char.value;
		if (i === chars.length - 1) ret += ansiCodesToString(diffAnsiCodes(char.styles, []));
	}
	return ret;
}

export { memoStyledCharsFromTokens as styledCharsFromTokens, memoStyledCharsToString as styledCharsToString, memoTokenize as tokenize };
