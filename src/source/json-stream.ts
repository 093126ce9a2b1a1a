/**
 * A streaming JSON reader for lines too long to become one JavaScript string (I20, issue 13 item 3). It reads a
 * line's bytes in chunks and builds the same value JSON.parse would, except that a string longer than
 * `longChars` UTF-16 units becomes a LongText: its first and last `keepChars` units, its length and where its bytes
 * are, so a 500 MB tool result costs a bounded amount of memory. Escapes and UTF-8 sequences may straddle chunks.
 */
import { createHash } from "node:crypto";
import { readSync } from "node:fs";
import { LongText, type Sink, STREAM_LIMITS, type StreamLimits, StringSink } from "./long-string.js";

export { LongText, STREAM_LIMITS, type StreamLimits };

/** A streamed line: its value and the line hash (as hashLine), or why it could not be read. */
export type Streamed = { ok: true; value: unknown; lineHash: string; longs: LongText[] } | { ok: false; reason: "invalid-json" | "too-big" | "blank" };

/** Why a streamed read stopped: the bytes are not JSON, or they keep more than the budget. */
export class Stop extends Error {
	constructor(readonly reason: "invalid-json" | "too-big" | "blank") {
		super(reason);
	}
}

const ESCAPES: Record<number, string> = { 34: '"', 92: "\\", 47: "/", 98: "\b", 102: "\f", 110: "\n", 114: "\r", 116: "\t" };
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const CONTROL = /[\u0000-\u001f]/;

/** The value of four hex digits at `at`, or -1. */
function hex4(bytes: Buffer, at: number): number {
	let v = 0;
	for (let k = 0; k < 4; k++) {
		const h = bytes[at + k] as number;
		const d = h >= 0x30 && h <= 0x39 ? h - 0x30 : (h | 0x20) >= 0x61 && (h | 0x20) <= 0x66 ? (h | 0x20) - 0x57 : -1;
		if (d < 0) return -1;
		v = v * 16 + d;
	}
	return v;
}

/** Bytes at the end of `bytes` that start a UTF-8 sequence not complete yet (0 to 3). */
function unfinishedTail(bytes: Buffer): number {
	for (let j = 1; j <= Math.min(3, bytes.length); j++) {
		const b = bytes[bytes.length - j] as number;
		if ((b & 0xc0) === 0x80) continue;
		if (b < 0xc0) return 0;
		const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
		return need > j ? j : 0;
	}
	return 0;
}

const isWs = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

type Frame =
	| { array: unknown[]; obj?: undefined; key?: undefined; state: number }
	| { array?: undefined; obj: Record<string, unknown>; key: string | null; state: number };
// Frame states: expecting a value or close (start), a value (after comma/colon), a comma or close, a key, a colon.
const START = 0;
const VALUE = 1;
const AFTER = 2;
const KEY = 3;
const COLON = 4;

/** Push parser: feed chunks in order with their file offsets, then end(). */
export class JsonStream {
	/** Every LongText of the value, in file order. */
	readonly longs: LongText[] = [];
	private stack: Frame[] = [];
	private root: unknown;
	private done = false;
	private used = 0;
	// The token in progress.
	private inString = false;
	private stringIsKey = false;
	private sink: Sink | null = null;
	/** Up to 3 bytes of a UTF-8 sequence cut by the chunk's end, decoded with the next chunk's bytes. */
	private carry: Buffer | null = null;
	/** The chunk the next quote and backslash positions were searched in (-2: not yet, -1: none left). */
	private scanned: Buffer | null = null;
	private quoteAt = -2;
	private slashAt = -2;
	private stringStart = 0;
	private escape: number[] | null = null;
	private literal = "";

	constructor(
		private readonly limits: StreamLimits = STREAM_LIMITS,
		private readonly newSink: () => Sink = () => new StringSink(limits),
	) {}

	/** Feeds bytes that start at file offset `at`. Throws Stop on invalid JSON or a line over budget. */
	write(chunk: Buffer, at: number): void {
		let i = 0;
		const n = chunk.length;
		while (i < n) {
			if (this.inString) {
				i = this.stringBytes(chunk, i, at);
				continue;
			}
			const b = chunk[i] as number;
			if (this.literal) {
				if ((b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || b === 0x2b || b === 0x2d || b === 0x2e || b === 0x45) {
					this.literal += String.fromCharCode(b);
					if (this.literal.length > 400) throw new Stop("invalid-json");
					i++;
					continue;
				}
				this.endLiteral();
			}
			i++;
			if (isWs(b)) continue;
			if (this.done) throw new Stop("invalid-json");
			const top = this.stack.at(-1);
			if (b === 0x22) {
				this.stringIsKey = top?.obj !== undefined && (top.state === KEY || top.state === START);
				if (!this.stringIsKey) this.expectValue(top);
				this.inString = true;
				this.sink = this.newSink();
				this.stringStart = at + i;
				this.carry = null;
				continue;
			}
			if (b === 0x7b || b === 0x5b) {
				this.expectValue(top);
				const frame: Frame = b === 0x7b ? { obj: {}, key: null, state: START } : { array: [], state: START };
				this.stack.push(frame);
				continue;
			}
			if (b === 0x7d || b === 0x5d) {
				if (!top || (b === 0x7d) !== (top.obj !== undefined) || !(top.state === START || top.state === AFTER)) throw new Stop("invalid-json");
				this.stack.pop();
				this.value(top.obj ?? top.array);
				continue;
			}
			if (b === 0x2c) {
				if (!top || top.state !== AFTER) throw new Stop("invalid-json");
				top.state = top.obj ? KEY : VALUE;
				continue;
			}
			if (b === 0x3a) {
				if (!top?.obj || top.state !== COLON) throw new Stop("invalid-json");
				top.state = VALUE;
				continue;
			}
			if (b === 0x2d || (b >= 0x30 && b <= 0x39) || b === 0x74 || b === 0x66 || b === 0x6e) {
				this.expectValue(top);
				this.literal = String.fromCharCode(b);
				continue;
			}
			throw new Stop("invalid-json");
		}
	}

	/** Ends the input; returns the value. */
	end(): unknown {
		if (this.literal) this.endLiteral();
		// Only whitespace: a blank line, as the whole-line path says (pi skips it).
		if (!this.done && !this.inString && this.stack.length === 0) throw new Stop("blank");
		if (this.inString || !this.done) throw new Stop("invalid-json");
		return this.root;
	}

	private expectValue(top: Frame | undefined): void {
		if (top === undefined) {
			if (this.done) throw new Stop("invalid-json");
			return;
		}
		if (top.obj !== undefined ? top.state !== VALUE : !(top.state === START || top.state === VALUE)) throw new Stop("invalid-json");
	}

	private endLiteral(): void {
		const text = this.literal;
		this.literal = "";
		let value: unknown;
		if (text === "true") value = true;
		else if (text === "false") value = false;
		else if (text === "null") value = null;
		else if (NUMBER.test(text)) value = Number(text);
		else throw new Stop("invalid-json");
		this.value(value);
	}

	private charge(units: number): void {
		this.used += units;
		if (this.used > this.limits.budget) throw new Stop("too-big");
	}

	/** A complete value: the root, an array element or an object member. */
	private value(v: unknown): void {
		this.charge(8);
		const top = this.stack.at(-1);
		if (top === undefined) {
			this.root = v;
			this.done = true;
			return;
		}
		if (top.array) top.array.push(v);
		else {
			const key = top.key as string;
			// JSON.parse makes `__proto__` an own property; plain assignment would set the prototype.
			if (key === "__proto__") Object.defineProperty(top.obj, key, { value: v, writable: true, enumerable: true, configurable: true });
			else top.obj[key] = v;
		}
		top.state = AFTER;
	}

	/** Consumes string bytes from `i`; returns where it stopped (after the closing quote or at the chunk's end). */
	private stringBytes(chunk: Buffer, i: number, at: number): number {
		const sink = this.sink as Sink;
		const n = chunk.length;
		if (this.escape) {
			while (i < n && this.escape) i = this.escapeByte(chunk[i] as number, i, sink);
			return i;
		}
		// No escape and no UTF-8 sequence open here: a point where reading a window can start.
		if (this.carry === null) sink.mark?.(at + i - this.stringStart);
		if (this.scanned !== chunk) {
			this.scanned = chunk;
			this.quoteAt = -2;
			this.slashAt = -2;
		}
		// Pieces of this chunk, pushed once: an escape-heavy megabyte is a hundred thousand pieces.
		const pieces: string[] = [];
		const flush = () => {
			if (pieces.length) sink.push(pieces.length === 1 ? (pieces[0] as string) : pieces.join(""));
		};
		for (;;) {
			// memchr-speed search for the next quote and backslash, each found once per position.
			if (this.quoteAt !== -1 && this.quoteAt < i) this.quoteAt = chunk.indexOf(0x22, i);
			if (this.slashAt !== -1 && this.slashAt < i) this.slashAt = chunk.indexOf(0x5c, i);
			const q = this.quoteAt === -1 ? n : this.quoteAt;
			const bs = this.slashAt === -1 ? n : this.slashAt;
			const stop = Math.min(q, bs);
			if (stop > i) {
				if (this.carry === null && stop < n) {
					// The common case: a run between escapes, decoded straight from the chunk.
					const text = chunk.toString("utf8", i, stop);
					if (CONTROL.test(text)) throw new Stop("invalid-json");
					pieces.push(text);
				} else this.decode(chunk.subarray(i, stop), pieces, stop === n);
			}
			if (stop === n) {
				flush();
				return n;
			}
			// Bytes of an unfinished UTF-8 sequence before a quote or an escape decode as U+FFFD, as in Buffer#toString.
			if (this.carry) {
				pieces.push(this.carry.toString("utf8"));
				this.carry = null;
			}
			if (stop === q) {
				flush();
				this.closeString(sink, at + stop);
				return stop + 1;
			}
			const e = stop + 1 < n ? (chunk[stop + 1] as number) : -1;
			if (e === 0x75 && stop + 6 <= n) {
				const code = hex4(chunk, stop + 2);
				if (code < 0) throw new Stop("invalid-json");
				pieces.push(String.fromCharCode(code));
				i = stop + 6;
			} else if (e !== -1 && e !== 0x75) {
				const c = ESCAPES[e];
				if (c === undefined) throw new Stop("invalid-json");
				pieces.push(c);
				i = stop + 2;
			} else {
				// The escape straddles the chunk's end: byte by byte from here.
				flush();
				this.escape = [];
				return stop + 1;
			}
		}
	}

	/**
	 * Decodes a run of raw string bytes. At a chunk's end the last bytes of an unfinished sequence wait for the next
	 * chunk, so every split decodes as Buffer#toString decodes the whole (invalid bytes become U+FFFD the same way).
	 */
	private decode(bytes: Buffer, out: string[], atChunkEnd: boolean): void {
		const all = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
		this.carry = null;
		const keep = atChunkEnd ? unfinishedTail(all) : 0;
		const text = all.toString("utf8", 0, all.length - keep);
		// JSON strings hold no raw control characters (JSON.parse rejects them); the decoded text says it at native speed.
		if (CONTROL.test(text)) throw new Stop("invalid-json");
		out.push(text);
		if (keep > 0) this.carry = Buffer.from(all.subarray(all.length - keep));
	}

	/** One byte of an escape after the backslash; returns the next index. */
	private escapeByte(b: number, i: number, sink: Sink): number {
		const esc = this.escape as number[];
		if (esc.length === 0) {
			if (b === 0x75) {
				esc.push(b);
				return i + 1;
			}
			const c = ESCAPES[b];
			if (c === undefined) throw new Stop("invalid-json");
			sink.push(c);
			this.escape = null;
			return i + 1;
		}
		const hex = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
		if (!hex) throw new Stop("invalid-json");
		esc.push(b);
		if (esc.length === 5) {
			sink.push(String.fromCharCode(Number.parseInt(String.fromCharCode(...esc.slice(1)), 16)));
			this.escape = null;
		}
		return i + 1;
	}

	private closeString(sink: Sink, quoteAt: number): void {
		this.inString = false;
		this.sink = null;
		const whole = sink.whole();
		if (this.stringIsKey) {
			const top = this.stack.at(-1) as Frame;
			if (whole === null) throw new Stop("too-big");
			this.charge(whole.length);
			top.key = whole;
			top.state = COLON;
			return;
		}
		if (whole !== null) this.charge(whole.length);
		const value = whole ?? sink.long(this.stringStart, quoteAt);
		if (value instanceof LongText) this.longs.push(value);
		this.value(value);
	}

	/**
	 * Ends the string whose opening quote was the last byte fed with a LongText known from the index (huge-line.ts):
	 * the caller goes on feeding after its closing quote. False when no value string is open here.
	 */
	injectLong(text: LongText): boolean {
		if (!this.inString || this.stringIsKey || this.escape || this.stringStart !== text.byteStart) return false;
		this.inString = false;
		this.sink = null;
		this.carry = null;
		this.longs.push(text);
		this.value(text);
		return true;
	}
}

/** Reads `length` bytes of `fd` at `offset` as one JSON value, streaming, and hashes them as hashLine does. */
export function streamJson(fd: number, offset: number, length: number, limits: StreamLimits = STREAM_LIMITS): Streamed {
	const parser = new JsonStream(limits);
	const hash = createHash("sha1");
	const buf = Buffer.allocUnsafe(Math.max(1, Math.min(limits.chunkBytes, length)));
	try {
		for (let pos = offset; pos < offset + length; ) {
			const got = readSync(fd, buf, 0, Math.min(buf.length, offset + length - pos), pos);
			if (got === 0) return { ok: false, reason: "invalid-json" };
			const piece = buf.subarray(0, got);
			hash.update(piece);
			parser.write(piece, pos);
			pos += got;
		}
		return { ok: true, value: parser.end(), lineHash: hash.digest("hex").slice(0, 16), longs: parser.longs };
	} catch (error) {
		if (error instanceof Stop) return { ok: false, reason: error.reason };
		throw error;
	}
}

/** Parses a whole buffer through the streaming reader in chunks of `chunkBytes` (tests: any chunking, same value). */
export function streamBuffer(bytes: Buffer, limits: StreamLimits = STREAM_LIMITS, offset = 0): { ok: true; value: unknown } | { ok: false; reason: string } {
	const parser = new JsonStream(limits);
	try {
		for (let i = 0; i < bytes.length; i += limits.chunkBytes) parser.write(bytes.subarray(i, i + limits.chunkBytes), offset + i);
		return { ok: true, value: parser.end() };
	} catch (error) {
		if (error instanceof Stop) return { ok: false, reason: error.reason };
		throw error;
	}
}
