/** Reads one entry back from its source locator, checking that the line still holds that entry (I10). */
import { closeSync, openSync, statSync } from "node:fs";
import { completeLines, readRange, UNFINISHED_PROBE_BYTES } from "./lines.js";
import { hashLine, type ParsedEntry, SessionParser } from "./parse.js";

/** Where the index last saw an entry. */
export interface Locator {
	file: string;
	lineNo: number;
	offset: number;
	length: number;
	lineHash: string;
	entryId: string;
	synthetic: boolean;
	version: number;
	/** A huge line's locator hint, as the parser made it (huge-line.ts). */
	hint?: string;
}

/** The entry at a locator, found again elsewhere in the file, or why not. */
export type Located = { ok: true; entry: ParsedEntry; relocated: boolean } | { ok: false; reason: "missing-file" | "changed"; detail: string };

/** Reads the entry at `loc`; when pi rewrote the file, finds the same entry id again (never for synthetic v1 ids). */
export function readEntryAt(loc: Locator): Located {
	if (loc.length > UNFINISHED_PROBE_BYTES) {
		// A huge line is streamed, never read whole; its hash is computed on the way (json-stream.ts).
		const found = hugeEntryAt(loc);
		if (found) return found;
		return relocate(loc);
	}
	let bytes: Buffer;
	try {
		bytes = readRange(loc.file, loc.offset, loc.length);
	} catch (error) {
		return { ok: false, reason: "missing-file", detail: `${loc.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
	}
	if (bytes.length === loc.length) {
		// A complete last line may have been read without its `\n` (I6).
		const line = bytes[bytes.length - 1] === 10 ? bytes.subarray(0, bytes.length - 1) : bytes;
		if (hashLine(line) === loc.lineHash) {
			const parser = new SessionParser({ version: loc.version, lastId: null, headerSeen: true });
			const outcome = parser.accept({ lineNo: loc.lineNo, offset: loc.offset, length: loc.length, bytes: line });
			if (outcome.kind === "entry" && (loc.synthetic || outcome.entry.id === loc.entryId)) {
				// v1 entries get their synthetic id from the line number, which the locator fixes.
				return { ok: true, entry: { ...outcome.entry, id: loc.entryId }, relocated: false };
			}
		}
	}
	return relocate(loc);
}

/** Line bytes the read cache keeps at most (its parsed entries take a few times that), and the largest line it keeps. */
const CACHE_BYTES = 8 * 1024 * 1024;
const CACHE_LINE_BYTES = 1024 * 1024;
/**
 * A file whose last change is younger than this is never cached: a change within the file system's timestamp
 * granularity could leave its stat as it was (the "racy clean" case of git), so only files quiet since then are.
 */
const SETTLED_MS = 2000;
const readCache = new Map<string, { located: Located; stat: string; bytes: number }>();
let readCacheBytes = 0;

function statKey(file: string): string | null {
	try {
		const st = statSync(file, { bigint: true });
		return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
	} catch {
		return null;
	}
}

/**
 * readEntryAt, answered from memory while the file's stat (device, inode, size, change times) is what it was when
 * the entry was read and checked: the hits of a search are read again by the next one (typing, paging), and reading,
 * hashing and parsing a 186 KB tool call costs a millisecond. The entry returned is shared: callers must not modify it.
 */
export function readEntryAtCached(loc: Locator): Located {
	if (loc.length > CACHE_LINE_BYTES) return readEntryAt(loc);
	const key = `${loc.file}\0${loc.offset}\0${loc.length}\0${loc.lineHash}\0${loc.entryId}\0${loc.version}\0${loc.synthetic}`;
	const stat = statKey(loc.file);
	const hit = readCache.get(key);
	if (hit && stat !== null && hit.stat === stat) {
		// Most recently used last: the first key is the one to evict.
		readCache.delete(key);
		readCache.set(key, hit);
		return hit.located;
	}
	if (hit) {
		readCache.delete(key);
		readCacheBytes -= hit.bytes;
	}
	const located = readEntryAt(loc);
	const mtimeNs = stat === null ? null : BigInt(stat.split(":")[3] as string);
	const settled = mtimeNs !== null && BigInt(Date.now()) * 1_000_000n - mtimeNs > BigInt(SETTLED_MS) * 1_000_000n;
	if (located.ok && !located.relocated && settled && stat !== null) {
		readCache.set(key, { located, stat, bytes: loc.length });
		readCacheBytes += loc.length;
		for (const [k, v] of readCache) {
			if (readCacheBytes <= CACHE_BYTES) break;
			readCache.delete(k);
			readCacheBytes -= v.bytes;
		}
	}
	return located;
}

function hugeEntryAt(loc: Locator): Located | undefined {
	let fd: number;
	try {
		fd = openSync(loc.file, "r");
	} catch (error) {
		return { ok: false, reason: "missing-file", detail: `${loc.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
	}
	try {
		const end = readRange(loc.file, loc.offset + loc.length - 1, 1);
		if (end[0] !== 10) return undefined;
		const parser = new SessionParser({ version: loc.version, lastId: null, headerSeen: true });
		const outcome = parser.accept({
			lineNo: loc.lineNo,
			offset: loc.offset,
			length: loc.length,
			bytes: Buffer.alloc(0),
			huge: { fd, hint: loc.hint, lineHash: loc.lineHash },
		});
		if (outcome.kind !== "entry" || outcome.entry.lineHash !== loc.lineHash) return undefined;
		if (!loc.synthetic && outcome.entry.id !== loc.entryId) return undefined;
		return { ok: true, entry: { ...outcome.entry, id: loc.entryId }, relocated: false };
	} finally {
		closeSync(fd);
	}
}

function relocate(loc: Locator): Located {
	if (loc.synthetic) {
		return { ok: false, reason: "changed", detail: "the source file changed since it was indexed (v1 entries have no ids of their own); refresh the index" };
	}
	const found = findEntryById(loc.file, loc.entryId);
	if (found) return { ok: true, entry: found, relocated: true };
	return { ok: false, reason: "changed", detail: "the source file changed and no longer holds this entry; refresh the index" };
}

/** Scans a session file for the first entry with `entryId`. */
export function findEntryById(file: string, entryId: string): ParsedEntry | undefined {
	let fd: number;
	try {
		fd = openSync(file, "r");
	} catch {
		return undefined;
	}
	try {
		const needle = Buffer.from(JSON.stringify(entryId));
		const parser = new SessionParser();
		for (const line of completeLines(fd)) {
			// Only lines that mention the id (and the header, which sets the version) are parsed.
			if (parser.header && !line.huge && line.bytes.indexOf(needle) === -1) continue;
			const outcome = parser.accept(line);
			if (outcome.kind === "entry" && outcome.entry.id === entryId) return outcome.entry;
			if (outcome.kind === "skip" && outcome.reason === "no-header") return undefined;
		}
		return undefined;
	} finally {
		closeSync(fd);
	}
}
