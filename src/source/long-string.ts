/** Long strings of streamed lines (I20): the LongText they become, and the sink that keeps only their ends. */
import { FRAGMENT_EDGE, FRAGMENT_INDEX_LIMIT } from "../shared/bounds.js";

/** A string value kept by its ends: what indexing (I20) needs, with a locator to stream any window of it. */
export class LongText {
	constructor(
		/** The first `keepChars` UTF-16 units. */
		readonly head: string,
		/** The last `keepChars` UTF-16 units. */
		readonly tail: string,
		/** Length of the whole decoded string, in UTF-16 units (what `string.length` would say). */
		readonly length: number,
		/** File offset of the string's first byte after its opening quote. */
		readonly byteStart: number,
		/** File offset of its closing quote. */
		readonly byteEnd: number,
		/** Resume points [bytes after byteStart, characters before them], about every MARK_BYTES: windows start there. */
		readonly marks: ReadonlyArray<readonly [number, number]> = [],
	) {}

	/** What JSON.stringify writes for it: a short marker, never the head (size counts use `byteEnd - byteStart`). */
	toJSON(): string {
		return `[${this.length} characters]`;
	}
}

/** Bytes of a long string between two resume points: a window in its middle decodes at most this much before it. */
export const MARK_BYTES = 4 << 20;

/** Limits of one streamed read. */
export interface StreamLimits {
	/** Strings up to this many UTF-16 units are kept whole; longer ones become LongText. */
	longChars: number;
	/** Units kept at each end of a LongText. */
	keepChars: number;
	/** Units of whole strings and keys (plus 8 per value) one line may keep; beyond it the line is too big. */
	budget: number;
	/** Bytes read at a time. */
	chunkBytes: number;
	/** Bytes between resume points of a long string (default MARK_BYTES; tests make it small). */
	markBytes?: number;
}

/**
 * Default limits: a kept string stays whole up to 1 Mi units, which is beyond the whole-fragment limit, so every
 * LongText makes an oversized fragment; its ends hold a fragment's edge and some room for a composed fragment's cut.
 */
export const STREAM_LIMITS: StreamLimits = {
	longChars: Math.max(1 << 20, FRAGMENT_INDEX_LIMIT),
	keepChars: FRAGMENT_EDGE + 1024,
	budget: 32 << 20,
	chunkBytes: 1 << 20,
};

/** Where a string's decoded pieces go. */
export interface Sink {
	push(s: string): void;
	whole(): string | null;
	long(byteStart: number, byteEnd: number): LongText;
	/** A point `bytes` after the string's start where decoding can resume (no escape or UTF-8 sequence open). */
	mark?(bytes: number): void;
}

/** Collects one string's decoded pieces; past `longChars` keeps only the head and a rolling tail. */
export class StringSink implements Sink {
	private parts: string[] = [];
	private partsLen = 0;
	private head: string | null = null;
	private tail = "";
	length = 0;

	constructor(private readonly limits: StreamLimits) {}

	push(s: string): void {
		if (s.length === 0) return;
		this.length += s.length;
		this.parts.push(s);
		this.partsLen += s.length;
		if (this.head === null) {
			if (this.length > this.limits.longChars) {
				const all = this.parts.join("");
				this.head = all.slice(0, this.limits.keepChars);
				this.tail = all.slice(-this.limits.keepChars);
				this.parts = [];
				this.partsLen = 0;
			}
		} else if (this.partsLen >= this.limits.keepChars) this.flushTail();
	}

	private flushTail(): void {
		if (this.parts.length === 0) return;
		const joined = this.tail + this.parts.join("");
		this.tail = joined.slice(-this.limits.keepChars);
		this.parts = [];
		this.partsLen = 0;
	}

	/** The whole string, or null when it went long. */
	whole(): string | null {
		return this.head === null ? this.parts.join("") : null;
	}

	long(byteStart: number, byteEnd: number): LongText {
		this.flushTail();
		return new LongText(this.head ?? "", this.tail, this.length, byteStart, byteEnd, this.marks);
	}

	private readonly marks: Array<[number, number]> = [];

	mark(bytes: number): void {
		const last = this.marks.at(-1)?.[0] ?? 0;
		if (bytes - last >= (this.limits.markBytes ?? MARK_BYTES)) this.marks.push([bytes, this.length]);
	}
}
