/** Fingerprints of a file: its stat (unchanged?) and its indexed prefix (a grown file only grew, I8). */
import { createHash, type Hash } from "node:crypto";
import { readSync } from "node:fs";

/** What says a file is unchanged without reading it: size, modification and change times, inode. */
export interface Fingerprint {
	size: number;
	mtimeMs: number;
	ctimeMs: number;
	ino: number;
}

/** The fingerprint columns of an indexed file's row. */
export interface FingerprintRow {
	size: number;
	mtime_ms: number;
	ctime_ms: number;
	ino: number;
}

/** True when the index row records exactly this fingerprint (a missing row never does). */
export function sameFingerprint(row: FingerprintRow | undefined, file: Fingerprint): boolean {
	return row !== undefined && row.size === file.size && row.mtime_ms === file.mtimeMs && row.ctime_ms === file.ctimeMs && row.ino === file.ino;
}

/** Prefixes up to this size are hashed whole; larger ones by a head and a tail sample. */
export const FULL_HASH_LIMIT = 16 * 1024 * 1024;
/**
 * The samples of a large prefix: the head holds the header pi rewrites when it migrates a file, the tail the last
 * lines indexed, which a truncation or rewrite changes. 64 KiB each (`t:` digests); an append to a 356 MB file
 * hashed 2 MiB twice with the 1 MiB samples of `s:` digests, still checked as they were written.
 */
export const SAMPLE_BYTES = 64 * 1024;
/** The samples of `s:` digests (and of a huge line's `~<hash>` hint, huge-line.ts), still checked as written. */
export const LEGACY_SAMPLE_BYTES = 1024 * 1024;
/** Bytes read at a time while hashing. */
const READ_BUFFER = 1024 * 1024;

function readInto(fd: number, hash: Hash, from: number, to: number): void {
	const buf = Buffer.allocUnsafe(Math.min(READ_BUFFER, Math.max(1, to - from)));
	let pos = from;
	while (pos < to) {
		const n = readSync(fd, buf, 0, Math.min(buf.length, to - pos), pos);
		if (n === 0) break;
		hash.update(buf.subarray(0, n));
		pos += n;
	}
}

/**
 * Fingerprint of the first `n` bytes of `fd`, sampled like the digest `like` when given. For hashed-whole prefixes
 * the running hash is returned too, so the caller can go on feeding appended lines and get the new fingerprint
 * without reading the prefix again.
 */
export function prefixHash(fd: number, n: number, like?: string): { digest: string; running?: Hash } {
	if (n <= FULL_HASH_LIMIT) {
		const h = createHash("sha1");
		readInto(fd, h, 0, n);
		return { digest: fullDigest(n, h), running: h };
	}
	// Compared with a stored digest of the older kind (`like`): sampled the way it was.
	const [kind, sample] = like?.startsWith("s:") ? ["s", LEGACY_SAMPLE_BYTES] : ["t", SAMPLE_BYTES];
	const head = createHash("sha1");
	readInto(fd, head, 0, sample);
	const tail = createHash("sha1");
	readInto(fd, tail, n - sample, n);
	return { digest: `${kind}:${n}:${head.digest("hex")}:${tail.digest("hex")}` };
}

/** The fingerprint of a whole-hashed prefix of `n` bytes, from a hash fed with exactly those bytes. */
export function fullDigest(n: number, hash: Hash): string {
	return `f:${n}:${hash.copy().digest("hex")}`;
}
