/**
 * Reading a huge line again without reading it whole (I20, issue 13 item 3): when a line is indexed, its locator
 * hint records a sampled hash of the line (length, first and last 64 KiB) and where each long string's bytes are.
 * A search hit or a read then checks the sample, parses the line's small fields, and decodes only the head and tail
 * of each long string: a few MiB read for a 500 MB line instead of all of it.
 */
import { createHash } from "node:crypto";
import { readSync } from "node:fs";
import { LEGACY_SAMPLE_BYTES, SAMPLE_BYTES } from "./fingerprint.js";
import { JsonStream, LongText, STREAM_LIMITS, Stop, type StreamLimits } from "./json-stream.js";
import { decodeString } from "./string-window.js";

/** A UTF-16 unit takes at most 6 bytes of a JSON string (`\uXXXX`). */
const MAX_BYTES_PER_UNIT = 6;

function readFully(fd: number, buf: Buffer, position: number): boolean {
	let got = 0;
	while (got < buf.length) {
		const n = readSync(fd, buf, got, buf.length - got, position + got);
		if (n === 0) return false;
		got += n;
	}
	return true;
}

/** A short hash of a line's length and its ends (`sample` bytes each): says a huge line is still the one indexed without reading it all. */
export function sampledLineHash(fd: number, offset: number, length: number, sample = SAMPLE_BYTES): string | undefined {
	const h = createHash("sha1").update(String(length));
	const head = Buffer.allocUnsafe(Math.min(sample, length));
	if (!readFully(fd, head, offset)) return undefined;
	h.update(head);
	if (length > sample) {
		const tail = Buffer.allocUnsafe(Math.min(sample, length - sample));
		if (!readFully(fd, tail, offset + length - tail.length)) return undefined;
		h.update(tail);
	}
	return h.digest("hex").slice(0, 16);
}

/**
 * The hint of a huge line: `~t<sampled hash>` of its ends as a large file's fingerprint samples them (`~<hash>` in
 * hints of the 1 MiB samples, which cost 20 ms of every search hit on a 500 MB line), then per long string
 * `:<start>.<bytes>.<length>` (start from the line's offset) and its resume points `,<bytes>.<characters>`.
 */
export function hugeHint(sampled: string, longs: LongText[], lineOffset: number): string {
	const marks = (l: LongText) => l.marks.map(([b, c]) => `,${b}.${c}`).join("");
	return `~t${sampled}${longs.map((l) => `:${l.byteStart - lineOffset}.${l.byteEnd - l.byteStart}.${l.length}${marks(l)}`).join("")}`;
}

interface Span {
	start: number;
	end: number;
	length: number;
	marks: Array<[number, number]>;
}

function parseHint(hint: string, lineOffset: number): { sampled: string; sample: number; spans: Span[] } | undefined {
	const m = /^~(t?)([0-9a-f]{16})((?::\d+\.\d+\.\d+(?:,\d+\.\d+)*)*)$/.exec(hint);
	if (!m) return undefined;
	const spans = (m[3] as string)
		.split(":")
		.slice(1)
		.map((s) => {
			const [span, ...marks] = s.split(",");
			const [start, bytes, length] = (span as string).split(".").map(Number) as [number, number, number];
			const points = marks.map((p) => p.split(".").map(Number) as [number, number]);
			return { start: lineOffset + start, end: lineOffset + start + bytes, length, marks: points };
		});
	return { sampled: m[2] as string, sample: m[1] === "t" ? SAMPLE_BYTES : LEGACY_SAMPLE_BYTES, spans };
}

/**
 * The last `keep` units of the string content in bytes [start, end), decoded from a safe point before them. It
 * starts `keep` bytes back (enough for ASCII text) and goes back further only when that decoded to fewer units:
 * decoding the 6 bytes per unit that escapes could take meant ~770 KB for 128 Ki characters of plain text.
 */
function tailOf(fd: number, start: number, end: number, keep: number): string | undefined {
	const most = Math.min(end - start, MAX_BYTES_PER_UNIT * keep + 16);
	for (let want = Math.min(most, keep + 16); ; want = Math.min(most, want * 2)) {
		const text = tailFrom(fd, start, end, want);
		if (text === undefined) return undefined;
		if (text.length >= keep) return text.slice(-keep);
		if (want === most) return undefined;
	}
}

/** The string content of bytes [start, end) decoded from a safe point at most `want` (+64) bytes before `end`. */
function tailFrom(fd: number, start: number, end: number, want: number): string | undefined {
	const from = Math.max(start, end - want - 64);
	const buf = Buffer.allocUnsafe(end - from);
	if (!readFully(fd, buf, from)) return undefined;
	let s = end - want - from;
	// A byte that is not a UTF-8 continuation starts a character: decoding restarts there as in the whole string.
	while (s < buf.length && ((buf[s] as number) & 0xc0) === 0x80) s++;
	// An escape reaching over `s` starts at most 5 bytes before it; backslash runs pair up from their first byte.
	for (let b = s - 1; b >= Math.max(0, s - 5); b--) {
		if (buf[b] !== 0x5c) continue;
		let r0 = b;
		while (r0 > 0 && buf[r0 - 1] === 0x5c) r0--;
		if (r0 === 0 && from > start) return undefined;
		let r1 = b;
		while (r1 + 1 < buf.length && buf[r1 + 1] === 0x5c) r1++;
		if ((b - r0) % 2 === 0) {
			const len = b < r1 ? 2 : buf[b + 1] === 0x75 ? 6 : 2;
			if (b + len > s) s = b;
		}
		break;
	}
	return decodeString(fd, from + s, end, 0, Number.POSITIVE_INFINITY);
}

/**
 * The value of the huge line at [offset, offset + length) read by its hint, or undefined when the line is not the
 * one indexed (sample differs) or the hint does not fit it: the caller then streams the whole line.
 */
export function readByHint(fd: number, offset: number, length: number, hint: string, limits: StreamLimits = STREAM_LIMITS): unknown {
	const h = parseHint(hint, offset);
	if (!h || sampledLineHash(fd, offset, length, h.sample) !== h.sampled) return undefined;
	const parser = new JsonStream(limits);
	const buf = Buffer.allocUnsafe(limits.chunkBytes);
	let pos = offset;
	const feed = (to: number) => {
		while (pos < to) {
			const got = readSync(fd, buf, 0, Math.min(buf.length, to - pos), pos);
			if (got === 0) throw new Stop("invalid-json");
			parser.write(buf.subarray(0, got), pos);
			pos += got;
		}
	};
	try {
		for (const span of h.spans) {
			// Up to and with the opening quote; the string itself is skipped but for its ends.
			feed(span.start);
			const tail = tailOf(fd, span.start, span.end, limits.keepChars);
			if (tail === undefined) return undefined;
			const head = decodeString(fd, span.start, span.end, 0, limits.keepChars);
			if (!parser.injectLong(new LongText(head, tail, span.length, span.start, span.end, span.marks))) return undefined;
			pos = span.end + 1;
		}
		feed(offset + length);
		return parser.end();
	} catch (error) {
		if (error instanceof Stop) return undefined;
		throw error;
	}
}
