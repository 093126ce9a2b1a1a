/**
 * Characters of a long JSON string read back from its file: a window of a LongText (the explorer's and the tools'
 * reads of a huge fragment) or the head and tail of a huge line's string (huge-line.ts), decoded by the streaming
 * reader from a safe start up to the window's end.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { JsonStream, type LongText, STREAM_LIMITS, Stop } from "./json-stream.js";
import type { Sink } from "./long-string.js";

class WindowDone extends Error {}

/** Keeps characters [from, to) of a string and stops the read once it has them. */
export class WindowSink implements Sink {
	private at = 0;
	private readonly out: string[] = [];

	constructor(
		private readonly from: number,
		private readonly to: number,
	) {}

	push(s: string): void {
		const end = this.at + s.length;
		const a = Math.max(this.from, this.at);
		const b = Math.min(this.to, end);
		if (a < b) this.out.push(s.slice(a - this.at, b - this.at));
		this.at = end;
		if (this.at >= this.to) throw new WindowDone();
	}

	whole(): string {
		return this.out.join("");
	}

	long(): LongText {
		throw new Error("unreachable");
	}
}

/**
 * Characters [from, to) of a long string, decoded from its bytes in `file` (escapes and UTF-8 as JSON.parse
 * would): reads from the string's start up to the window's end, keeping only the window.
 */
export function readLongTextRange(file: string, text: LongText, from: number, to: number, chunkBytes = STREAM_LIMITS.chunkBytes): string {
	const fd = openSync(file, "r");
	try {
		// Start at the last resume point before the window: a window in the middle decodes at most MARK_BYTES before it.
		let mark: readonly [number, number] = [0, 0];
		for (const m of text.marks) if (m[1] <= from) mark = m;
		return decodeString(fd, text.byteStart + mark[0], text.byteEnd, from - mark[1], to - mark[1], chunkBytes);
	} finally {
		closeSync(fd);
	}
}

/**
 * Characters [from, to) of the string content in bytes [start, end) of `fd` (`start` must not be inside an escape or
 * a UTF-8 sequence; `end` is the closing quote).
 */
export function decodeString(fd: number, start: number, end: number, from: number, to: number, chunkBytes = STREAM_LIMITS.chunkBytes): string {
	const sink = new WindowSink(from, to);
	const parser = new JsonStream(STREAM_LIMITS, () => sink);
	try {
		parser.write(Buffer.from('"'), start - 1);
		const buf = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, end + 1 - start)));
		// A window ending at character `to` takes at least `to` bytes: read about that much first, not a whole chunk,
		// so the head of a huge string (128 Ki characters) decodes ~130 KB instead of 1 MiB when its text is ASCII.
		let ask = Math.min(buf.length, Math.max(4096, to + 64));
		// The closing quote is read too, so a window that reaches the end of the string is complete.
		for (let pos = start; pos <= end; ) {
			const got = readSync(fd, buf, 0, Math.min(ask, end + 1 - pos), pos);
			if (got === 0) break;
			parser.write(buf.subarray(0, got), pos);
			pos += got;
			ask = buf.length;
		}
	} catch (error) {
		if (!(error instanceof WindowDone)) throw error instanceof Stop ? new Error("the long string changed in its file; refresh the index") : error;
	}
	return sink.whole();
}
