/**
 * How a kept tree shape chunk (tree-shape-store.ts) holds its row ids and parent links: the ids as runs of consecutive
 * ids (a session's events are inserted in file order, so a chunk is one run or a few), the parent links as the
 * entries whose parent is not the row above (pi's tree is mostly one long path). A million-entry session's ids and
 * links are then a few kilobytes to read instead of megabytes. Chunks written before held every value as a double
 * (native-endian Float64): a blob says which by its first 32 bits, which no double row id or link starts with. The
 * fixed flags take a byte each (they all fit), two before: the blob's length says which.
 */

/** First 32-bit value of a run-encoded blob: the low half of a double holding an integer below 2^31 is never all ones. */
const RUNS = -1;
/** A parent link meaning "the row above in file order" (tree-shape-store.ts PARENT_PREVIOUS). */
const PREVIOUS = -1;

// A blob's bytes need not be aligned for a typed array view: aligned ones are viewed, others copied (new Uint8Array
// copies; a Buffer's slice would not).
const int32s = (b: Uint8Array): Int32Array =>
	b.byteOffset % 4 === 0 ? new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2) : new Int32Array(new Uint8Array(b).buffer, 0, b.byteLength >> 2);
const doubles = (b: Uint8Array, n: number): Float64Array =>
	b.byteOffset % 8 === 0 ? new Float64Array(b.buffer, b.byteOffset, n) : new Float64Array(new Uint8Array(b.subarray(0, n * 8)).buffer, 0, n);
const blob = (values: number[]): Buffer => Buffer.from(Int32Array.from(values).buffer);

/** True when `b` is in the run encoding (else doubles, as chunks were written before). */
export function isRunEncoded(b: Uint8Array): boolean {
	return b.byteLength >= 4 && int32s(b.subarray(0, 4))[0] === RUNS;
}

/** Row ids as runs: RUNS, then (first id, length) per run of consecutive ids. */
export function encodeIds(ids: ArrayLike<number>): Buffer {
	const out = [RUNS];
	for (let k = 0; k < ids.length; ) {
		const first = ids[k] as number;
		let end = k + 1;
		while (end < ids.length && ids[end] === first + (end - k)) end++;
		out.push(first, end - k);
		k = end;
	}
	return blob(out);
}

/** Parent links as exceptions: RUNS, then (position, link) for each link that is not PREVIOUS. */
export function encodeParents(parents: ArrayLike<number>): Buffer {
	const out = [RUNS];
	for (let k = 0; k < parents.length; k++) if (parents[k] !== PREVIOUS) out.push(k, parents[k] as number);
	return blob(out);
}

/** Writes a chunk's `n` row ids into `into` from `at`, whichever way the chunk holds them. */
export function decodeIds(b: Uint8Array, n: number, into: Float64Array | Int32Array, at: number): void {
	if (!isRunEncoded(b)) {
		into.set(doubles(b, n), at);
		return;
	}
	const v = int32s(b);
	let k = at;
	for (let r = 1; r + 1 < v.length; r += 2) {
		const first = v[r] as number;
		const len = v[r + 1] as number;
		for (let j = 0; j < len; j++) into[k + j] = first + j;
		k += len;
	}
	if (k !== at + n) throw new Error(`tree shape chunk: ${k - at} row ids for ${n} entries`);
}

/**
 * Writes a chunk's `n` parent links into `into` from `at`, whichever way the chunk holds them, and adds to `links` the
 * positions (from `at`) whose link is not the row above, in order: the few a reader has more to do for.
 */
export function decodeParents(b: Uint8Array, n: number, into: Int32Array, at: number, links?: number[]): void {
	if (!isRunEncoded(b)) {
		into.set(doubles(b, n), at);
		if (links) for (let k = at; k < at + n; k++) if (into[k] !== PREVIOUS) links.push(k);
		return;
	}
	const v = int32s(b);
	into.fill(PREVIOUS, at, at + n);
	for (let r = 1; r + 1 < v.length; r += 2) {
		const k = v[r] as number;
		if (k < 0 || k >= n) throw new Error(`tree shape chunk: a parent link at ${k} of ${n} entries`);
		into[at + k] = v[r + 1] as number;
		links?.push(at + k);
	}
}

/** Fixed flags, a byte each when every one fits (they do: tree-shape-store.ts FIXED), else two. */
export function encodeFlags(flags: Uint16Array): Buffer {
	for (let k = 0; k < flags.length; k++) if ((flags[k] as number) > 0xff) return Buffer.from(flags.buffer, flags.byteOffset, flags.byteLength);
	return Buffer.from(Uint8Array.from(flags));
}

/** Writes a chunk's `n` fixed flags into `into` from `at`, a byte or two each (the blob's length says which). */
export function decodeFlags(b: Uint8Array, n: number, into: Uint16Array, at: number): void {
	if (b.byteLength === n) {
		into.set(b, at);
		return;
	}
	into.set(b.byteOffset % 2 === 0 ? new Uint16Array(b.buffer, b.byteOffset, n) : new Uint16Array(new Uint8Array(b.subarray(0, n * 2)).buffer, 0, n), at);
}
