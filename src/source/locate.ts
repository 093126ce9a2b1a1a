/** Reads one entry back from its source locator, checking that the line still holds that entry (I10). */
import { closeSync, openSync } from "node:fs";
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
