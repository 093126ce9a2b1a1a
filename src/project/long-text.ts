/**
 * Fragment texts that hold a string too long to keep (a LongText of a streamed line, I20): the text is a list of
 * pieces, plain strings and LongTexts, whose ends are in memory and whose middle stays in the source file.
 */
import { FRAGMENT_EDGE, FRAGMENT_INDEX_LIMIT } from "../shared/bounds.js";
import { LongText } from "../source/json-stream.js";
import { readLongTextRange } from "../source/string-window.js";

/** A text made of pieces, some of them long strings known by their ends. */
export class PiecedText {
	/** Length in UTF-16 units, as `string.length` of the whole text would be. */
	readonly length: number;

	constructor(readonly pieces: ReadonlyArray<string | LongText>) {
		this.length = pieces.reduce((n, p) => n + p.length, 0);
	}

	/** Characters [from, to) from the pieces in memory; throws when the range reaches a long string's middle. */
	known(from: number, to: number): string {
		return this.collect(from, to, (lt, a, b) => {
			if (b <= lt.head.length) return lt.head.slice(a, b);
			const tailStart = lt.length - lt.tail.length;
			if (a >= tailStart) return lt.tail.slice(a - tailStart, b - tailStart);
			throw new Error(`characters ${a}–${b} of a long string are not in memory`);
		});
	}

	/** Characters [from, to), reading a long string's middle from `file` (bounded memory: only the window is kept). */
	read(file: string, from: number, to: number): string {
		return this.collect(from, to, (lt, a, b) => {
			if (b <= lt.head.length) return lt.head.slice(a, b);
			const tailStart = lt.length - lt.tail.length;
			if (a >= tailStart) return lt.tail.slice(a - tailStart, b - tailStart);
			return readLongTextRange(file, lt, a, b);
		});
	}

	private collect(from: number, to: number, long: (lt: LongText, a: number, b: number) => string): string {
		const out: string[] = [];
		let at = 0;
		for (const p of this.pieces) {
			const end = at + p.length;
			const a = Math.max(from, at);
			const b = Math.min(to, end);
			if (a < b) out.push(typeof p === "string" ? p.slice(a - at, b - at) : long(p, a - at, b - at));
			at = end;
			if (at >= to) break;
		}
		return out.join("");
	}
}

/** A fragment's text: a string, or pieces when it holds a long string. */
export type FragmentText = string | PiecedText;

/** A field's text as a fragment text: a string, a long string's pieces, or null for anything else. */
export function fieldText(value: unknown): FragmentText | null {
	if (typeof value === "string") return value;
	return value instanceof LongText ? new PiecedText([value]) : null;
}

/** Joins texts; the result is a plain string unless a part holds a long string. */
export function joinTexts(parts: Array<string | LongText | PiecedText>): FragmentText {
	if (parts.every((p) => typeof p === "string")) return (parts as string[]).join("");
	const pieces: Array<string | LongText> = [];
	for (const p of parts) {
		if (p instanceof PiecedText) pieces.push(...p.pieces);
		else if (p !== "") pieces.push(p);
	}
	return new PiecedText(pieces);
}

/** The first `max` characters of a text (previews). */
export function textStart(text: FragmentText, max: number): string {
	return typeof text === "string" ? text.slice(0, max) : text.known(0, Math.min(max, text.length));
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** What of a fragment goes into the index: whole up to the limit, else head and tail around an omitted range (I20). */
export function boundFragment(text: FragmentText): { head: string; tail: string; omitted: [number, number] | null } {
	if (text.length <= FRAGMENT_INDEX_LIMIT) return { head: typeof text === "string" ? text : text.known(0, text.length), tail: "", omitted: null };
	const slice = (a: number, b: number) => (typeof text === "string" ? text.slice(a, b) : text.known(a, b));
	let headEnd = FRAGMENT_EDGE;
	let tailStart = text.length - FRAGMENT_EDGE;
	// Keep surrogate pairs whole on both sides of the cut.
	if (isHighSurrogate(slice(headEnd - 1, headEnd).charCodeAt(0))) headEnd--;
	if (isLowSurrogate(slice(tailStart, tailStart + 1).charCodeAt(0))) tailStart++;
	return { head: slice(0, headEnd), tail: slice(tailStart, text.length), omitted: [headEnd, tailStart] };
}

/** Cuts text[offset, offset + max) without splitting a surrogate pair; a long string's middle is read from `file`. */
export function textWindow(text: FragmentText, offset: number, max: number, file: string): { text: string; range: [number, number] } {
	const start = Math.min(Math.max(0, offset), text.length);
	let end = Math.min(text.length, start + max);
	const slice = (a: number, b: number) => (typeof text === "string" ? text.slice(a, b) : text.read(file, a, b));
	let window = slice(start, end);
	if (end < text.length && end - start > 1 && isHighSurrogate(window.charCodeAt(window.length - 1))) {
		end--;
		window = window.slice(0, -1);
	}
	return { text: window, range: [start, end] };
}
