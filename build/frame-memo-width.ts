/**
 * The CLI bundle's stand-in for `string-width` (build/bundle.ts puts it where Ink and its helpers import it): the same
 * function, remembering its answers. Ink measures every line of the screen on every frame, and a keystroke changes a
 * line or two of forty, so nearly every line it measures is one it measured a frame before.
 */
import stringWidth, { type Options } from "string-width";
import { rememberIn } from "./frame-memo-cache.js";

/**
 * Code point ranges whose every character string-width counts as one column whatever surrounds it: no combining
 * marks, joiners, variation selectors, Hangul jamo or symbols shown as emoji (◽ ◾ ✅ are left out). ASCII, Latin,
 * Greek, Cyrillic, punctuation, currency, letterlike symbols, arrows, math, technical and enclosed symbols, box
 * drawing and the dingbats the explorer draws (⑂ ✗ ❯).
 */
export const NARROW_RANGES: ReadonlyArray<readonly [number, number]> = [
	[0x20, 0x7e],
	[0xa0, 0xac],
	[0xae, 0x2ff],
	[0x370, 0x482],
	[0x48a, 0x52f],
	[0x2010, 0x2027],
	[0x2030, 0x205e],
	[0x20a0, 0x20c0],
	[0x2100, 0x214f],
	[0x2190, 0x22ff],
	[0x2400, 0x25fc],
	[0x25ff, 0x2613],
	[0x270c, 0x2727],
	[0x2729, 0x274b],
	[0x2758, 0x2794],
];

/**
 * Ranges of the Basic Multilingual Plane whose every character string-width counts as two columns whatever surrounds
 * it: CJK ideographs and radicals, kana (without the combining sound marks), Hangul syllables, fullwidth forms, and the
 * symbols shown as emoji that models write (✅ ❌ ✨ ❓ ❗ ⭐ ⚡ ⏳ ➕).
 */
export const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
	[0x231a, 0x231b],
	[0x23f3, 0x23f3],
	[0x26a1, 0x26a1],
	[0x2705, 0x2705],
	[0x2728, 0x2728],
	[0x274c, 0x274c],
	[0x2753, 0x2755],
	[0x2757, 0x2757],
	[0x2795, 0x2797],
	[0x2b50, 0x2b50],
	[0x2e80, 0x2e99],
	[0x2e9b, 0x2ef3],
	[0x2f00, 0x2fd5],
	[0x2ff0, 0x3029],
	[0x3030, 0x303e],
	[0x3041, 0x3096],
	[0x309b, 0x30ff],
	[0x3400, 0x4dbf],
	[0x4e00, 0x9fff],
	[0xac00, 0xd7a3],
	[0xf900, 0xfaff],
	[0xff01, 0xff60],
	[0xffe0, 0xffe6],
];

/**
 * Emoji beyond it that string-width counts as two columns whatever surrounds them (no skin tones, regional indicators
 * or joiners): two columns, two UTF-16 units.
 */
export const ASTRAL_WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
	[0x1f300, 0x1f320],
	[0x1f32d, 0x1f335],
	[0x1f337, 0x1f37c],
	[0x1f37e, 0x1f393],
	[0x1f3a0, 0x1f3ca],
	[0x1f3e0, 0x1f3f0],
	[0x1f400, 0x1f43e],
	[0x1f442, 0x1f4fc],
	[0x1f4ff, 0x1f53d],
	[0x1f5fb, 0x1f64f],
	[0x1f680, 0x1f6c5],
	[0x1f90c, 0x1f93a],
	[0x1f93c, 0x1f945],
	[0x1f947, 0x1f9ff],
	[0x1fa70, 0x1fa7c],
	[0x1fa80, 0x1fac6],
];

const hex = (c: number) => `\\u{${c.toString(16)}}`;
const charClass = (ranges: ReadonlyArray<readonly [number, number]>) => `[${ranges.map(([a, b]) => `${hex(a)}-${hex(b)}`).join("")}]`;
/**
 * A line of only those characters and SGR colour codes: its width is its length without the codes (an astral emoji
 * is two units) plus one per wide character of the first plane. string-width measures any other line grapheme by
 * grapheme (Intl.Segmenter, a loop per grapheme and the whole RGI emoji pattern, compiled on its first use), which a
 * fresh explorer ran, not yet optimized, for every new line of its first frames.
 */
export const COUNTED = new RegExp(`^(?:${charClass(NARROW_RANGES)}|${charClass(WIDE_RANGES)}|${charClass(ASTRAL_WIDE_RANGES)}|\\u001b\\[[0-9;]*m)*$`, "u");
const WIDE = new RegExp(charClass(WIDE_RANGES), "gu");
/** An SGR colour code, as ansi-tokenize reads one (`ESC [`, digits and semicolons, `m`). */
export const SGR = /\u001b\[[0-9;]*m/g;

/** The width of a line COUNTED accepts. */
function countedWidth(text: string): number {
	const plain = text.includes("\u001b") ? text.replace(SGR, "") : text;
	return 2 * plain.length - plain.replace(WIDE, "").length;
}

const widths = new Map<string, number>();

/** string-width's answer for `text`, remembered when no options change it. */
export default function memoStringWidth(text: string, options?: Options): number {
	if (options !== undefined) return stringWidth(text, options);
	return rememberIn(widths, text, (line) => (COUNTED.test(line) ? countedWidth(line) : stringWidth(line)));
}
