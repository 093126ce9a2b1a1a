/** Scratch files for work too big to hold (query/tree-layout-spill.ts): unlinked at once, read and written at offsets. */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ShapeTooBigError } from "./tree-shape.js";

/** An unlinked temporary file (nothing is left behind when the process dies), read and written at offsets. */
export class Scratch {
	private readonly fd: number;

	/**
	 * A new scratch file beside the index (the system's temporary folder may be memory), else in that folder;
	 * ShapeTooBigError when there is no room or no right to one anywhere (the layout is left, as too big).
	 */
	static open(near?: string): Scratch {
		let error: unknown;
		for (const folder of [near, tmpdir()]) {
			if (folder === undefined) continue;
			try {
				return new Scratch(folder);
			} catch (e) {
				error = e;
			}
		}
		throw new ShapeTooBigError(`tree layout: no scratch file (${(error as Error).message})`);
	}

	private constructor(folder: string) {
		const dir = mkdtempSync(join(folder, "pi-event-search-layout-"));
		const path = join(dir, "spill");
		try {
			this.fd = openSync(path, "w+", 0o600);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}

	write(v: ArrayBufferView, at: number): void {
		const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
		try {
			for (let off = 0; off < b.length; ) off += writeSync(this.fd, b, off, b.length - off, at + off);
		} catch (e) {
			// A full temporary disk: as in the constructor.
			throw new ShapeTooBigError(`tree layout: the scratch file could not grow (${(e as Error).message})`);
		}
	}

	read(v: ArrayBufferView, at: number): void {
		const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
		for (let off = 0; off < b.length; ) {
			const got = readSync(this.fd, b, off, b.length - off, at + off);
			if (got === 0) throw new Error("tree layout: the scratch file ended early");
			off += got;
		}
	}

	close(): void {
		closeSync(this.fd);
	}
}

/** A column of values appended to a scratch file from `base`, a buffer at a time. */
export class Spilled<T extends Int32Array | Uint8Array> {
	private at = 0;
	private written = 0;

	constructor(
		private readonly file: Scratch,
		private readonly base: number,
		private readonly buf: T,
	) {}

	push(v: number): void {
		this.buf[this.at++] = v;
		if (this.at === this.buf.length) this.flush();
	}

	flush(): void {
		if (this.at === 0) return;
		this.file.write(this.buf.subarray(0, this.at), this.base + this.written * this.buf.BYTES_PER_ELEMENT);
		this.written += this.at;
		this.at = 0;
	}
}
