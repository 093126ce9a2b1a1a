/**
 * The CLI bundle's stand-in for `@alcalzone/ansi-tokenize` (build/bundle.ts puts it where Ink's Output imports it): the
 * same functions, remembering their answers. Ink's Output rebuilds every row of the screen from styled characters on
 * every frame, caching them for that frame only; a keystroke changes a line or two, so the other rows are made of the
 * very characters (the same objects) of a frame before. Ink only reads what these return, never changes it.
 */
import { type StyledChar, styledCharsFromTokens, styledCharsToString, type Token, tokenize } from "@alcalzone/ansi-tokenize";

export type { AnsiCode, Char, StyledChar, Token } from "@alcalzone/ansi-tokenize";
export { ansiCodesToString, diffAnsiCodes, reduceAnsiCodes, reduceAnsiCodesIncremental, undoAnsiCodes } from "@alcalzone/ansi-tokenize";

/** Lines remembered; a full cache is dropped whole (a screen holds well under a hundred lines). */
const LIMIT = 4000;
const tokens = new Map<string, Token[]>();
const styled = new WeakMap<Token[], StyledChar[]>();

/** tokenize's answer for `text`, remembered for a whole line (no end character). */
export function memoTokenize(text: string, endChar?: number): Token[] {
	if (endChar !== undefined) return tokenize(text, endChar);
	let t = tokens.get(text);
	if (t === undefined) {
		if (tokens.size >= LIMIT) tokens.clear();
		t = tokenize(text);
		tokens.set(text, t);
	}
	return t;
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
	const text = styledCharsToString(chars);
	rows.set(first, { chars, text });
	return text;
}

export { memoStyledCharsFromTokens as styledCharsFromTokens, memoStyledCharsToString as styledCharsToString, memoTokenize as tokenize };
