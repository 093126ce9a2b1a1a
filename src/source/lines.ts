/**
 * Streaming reader of complete lines with byte offsets (I6): `\n`-terminated lines, and, as pi 1.x reads them, a
 * last line without `\n` that is a complete JSON object. A torn last line is left for later.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** One complete line: its bytes without the `\n`, where it starts, and its length including the `\n`. */
export interface RawLine {
	/** 1-based physical line number in the file. */
	lineNo: number;
	offset: number;
	/** Bytes from `offset` up to and including the terminating `\n` (a complete last line may have none). */
	length: number;
	bytes: Buffer;
	/**
	 * The line is longer than UNFINISHED_PROBE_BYTES: it was not kept, `bytes` is empty, and its reader streams it
	 * from this descriptor (parse.ts, json-stream.ts) while the descriptor is open.
	 */
	huge?: {
		fd: number;
		/** A reader's locator hint of the indexed line (huge-line.ts) and its line hash, to skip its long strings. */
		hint?: string;
		lineHash?: string;
	};
}

/** Where a scan stopped: the byte after the last complete line, and what was left unterminated. */
export interface ScanEnd {
	endOffset: number;
	nextLineNo: number;
	tornBytes: number;
}

const CHUNK = 1 << 20;
/**
 * A complete last line without `\n` is parsed only up to this size; a longer unterminated tail waits for its `\n`
 * (beyond UNFINISHED_PROBE_BYTES the scan already stops holding an unfinished line: memory stays bounded).
 */
const UNTERMINATED_LIMIT = 64 << 20;

/** True when the bytes are one complete JSON object (pi 1.x counts such an unterminated last line). */
function completeObject(bytes: Buffer): boolean {
	let i = 0;
	while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 13)) i++;
	if (bytes[i] !== 0x7b) return false;
	try {
		const value: unknown = JSON.parse(bytes.toString("utf8"));
		return typeof value === "object" && value !== null && !Array.isArray(value);
	} catch {
		return false;
	}
}

function byteAt(fd: number, position: number): number | undefined {
	const one = Buffer.alloc(1);
	return readSync(fd, one, 0, 1, position) === 1 ? one[0] : undefined;
}

/**
 * What the bytes at a resume offset (where the last scan stopped) say about the line that ended there: after a `\n`
 * (or at 0) a new line starts; after a complete line read without its `\n`, either that `\n` has arrived
 * ("closed": the line is now one byte longer), nothing came yet ("open"), or other bytes did ("extended": the line
 * that was read is not a line of the file any more, and only a read from the start sees what it became).
 */
export function resumeAt(fd: number, start: number): "boundary" | "closed" | "open" | "extended" {
	if (start === 0 || byteAt(fd, start - 1) === 10) return "boundary";
	const next = byteAt(fd, start);
	return next === undefined ? "open" : next === 10 ? "closed" : "extended";
}

/**
 * An unfinished line is kept in memory only this far; beyond it the scan looks ahead for the line's end without
 * keeping the bytes, so a file growing without a newline costs a bounded amount of memory on every refresh.
 */
export const UNFINISHED_PROBE_BYTES = 16 * 1024 * 1024;

/** Position of the next `\n` at or after `from` (before `limit`), or -1, reading through `chunk` without keeping anything. */
function nextNewline(fd: number, from: number, limit: number, chunk: Buffer): number {
	let position = from;
	while (position < limit) {
		const read = readSync(fd, chunk, 0, Math.min(chunk.length, limit - position), position);
		if (read === 0) return -1;
		const nl = chunk.subarray(0, read).indexOf(10);
		if (nl !== -1) return position + nl;
		position += read;
	}
	return -1;
}

/**
 * Yields complete lines of `fd` starting at byte `start`; returns where the scan ended.
 * Lines are assembled from chunks up to UNFINISHED_PROBE_BYTES; a longer complete line is yielded as `huge`, unread.
 */
export function* completeLines(fd: number, start = 0, firstLineNo = 1, limit = Number.POSITIVE_INFINITY, chunkSize = CHUNK): Generator<RawLine, ScanEnd> {
	const chunk = Buffer.allocUnsafe(chunkSize);
	let position = start;
	let lineStart = start;
	let lineNo = firstLineNo;
	let pending: Buffer[] = [];
	let pendingBytes = 0;
	let eof = false;
	// Resuming right after a line we took without its `\n`: the `\n` pi appended since belongs to that line.
	if (resumeAt(fd, start) === "closed") {
		position++;
		lineStart++;
	}
	while (position < limit) {
		const want = Math.min(chunkSize, limit - position);
		const read = readSync(fd, chunk, 0, want, position);
		if (read === 0) {
			eof = true;
			break;
		}
		// Searched only where this read wrote: past it the chunk is memory never touched, a page fault per 4 KiB.
		const filled = read < chunk.length ? chunk.subarray(0, read) : chunk;
		let from = 0;
		for (;;) {
			const nl = filled.indexOf(10, from);
			if (nl === -1) break;
			const piece = chunk.subarray(from, nl);
			let bytes: Buffer;
			if (pendingBytes > 0) {
				pending.push(piece);
				bytes = Buffer.concat(pending, pendingBytes + piece.length);
				pending = [];
				pendingBytes = 0;
			} else {
				bytes = Buffer.from(piece);
			}
			const length = bytes.length + 1;
			yield { lineNo, offset: lineStart, length, bytes };
			lineNo++;
			lineStart += length;
			from = nl + 1;
		}
		if (from < read) {
			const rest = Buffer.from(chunk.subarray(from, read));
			pending.push(rest);
			pendingBytes += rest.length;
		}
		position += read;
		if (pendingBytes > UNFINISHED_PROBE_BYTES) {
			// A long line so far: find its end before keeping more of it.
			const nl = nextNewline(fd, position, limit, chunk);
			if (nl === -1) {
				// Unfinished (or cut by `limit`): left for later, as a torn line, without holding its bytes.
				return { endOffset: lineStart, nextLineNo: lineNo, tornBytes: Math.max(0, Math.min(fstatSync(fd).size, limit) - lineStart) };
			}
			// A complete long line: its reader streams it, so it is never held whole (I20).
			pending = [];
			pendingBytes = 0;
			const length = nl + 1 - lineStart;
			yield { lineNo, offset: lineStart, length, bytes: Buffer.alloc(0), huge: { fd } };
			lineNo++;
			lineStart += length;
			position = lineStart;
		}
	}
	if (eof && pendingBytes > 0 && pendingBytes <= UNTERMINATED_LIMIT) {
		const bytes = Buffer.concat(pending, pendingBytes);
		if (completeObject(bytes)) {
			yield { lineNo, offset: lineStart, length: bytes.length, bytes };
			return { endOffset: lineStart + bytes.length, nextLineNo: lineNo + 1, tornBytes: 0 };
		}
	}
	return { endOffset: lineStart, nextLineNo: lineNo, tornBytes: pendingBytes };
}

/** Reads every complete line of a file (tests and small files). */
export function readCompleteLines(file: string, start = 0): { lines: RawLine[]; end: ScanEnd } {
	const fd = openSync(file, "r");
	try {
		const lines: RawLine[] = [];
		const it = completeLines(fd, start);
		for (;;) {
			const next = it.next();
			if (next.done) return { lines, end: next.value };
			lines.push(next.value);
		}
	} finally {
		closeSync(fd);
	}
}

/** Reads exactly `length` bytes at `offset`, or fewer when the file is shorter. */
export function readRange(file: string, offset: number, length: number): Buffer {
	const fd = openSync(file, "r");
	try {
		const buf = Buffer.alloc(length);
		let got = 0;
		while (got < length) {
			const n = readSync(fd, buf, got, length - got, offset + got);
			if (n === 0) break;
			got += n;
		}
		return got === length ? buf : buf.subarray(0, got);
	} finally {
		closeSync(fd);
	}
}
