/**
 * Reads one session file for the index, without touching the database: complete lines from a start offset,
 * parsed and projected into events with their FTS texts. Plain data in and out, so it can run in a worker thread
 * while the main thread writes SQLite.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import type { SemanticKind } from "../shared/types.js";
import { type Fingerprint, FULL_HASH_LIMIT, fullDigest, prefixHash } from "../source/fingerprint.js";
import { completeLines, resumeAt } from "../source/lines.js";
import { type ParsedEntry, type ParserState, type SessionHeader, SessionParser } from "../source/parse.js";
import { boundFragment, nestedCallNames, OWN_TOOLS, type ProjectedEvent, projectEntry } from "./entry.js";
import { documentParts, documentText, GAP_TOKEN, scopeFolders, scopeToken } from "./tokens.js";

/** What to read: from the start (rebuild), or after an indexed prefix that must still be intact (append). */
export interface ScanPlan {
	path: string;
	mode: "append" | "rebuild";
	/** Append: byte offset and line number after the indexed prefix, its fingerprint, the parser state there. */
	start?: number;
	firstLine?: number;
	prefixHash?: string;
	parserState?: ParserState;
	/** Append: the session's cwd, for resolving relative paths of file evidence. */
	cwd?: string;
	/**
	 * Stop after the first complete line that reaches this many bytes past the start: a big file is then indexed
	 * in slices, each one an append to the last (bounded memory per scan, and a caller can yield in between).
	 */
	maxBytes?: number;
	/** ... or after this many entries: what a slice costs to write grows with its entries as much as with its bytes. */
	maxEntries?: number;
}

/**
 * Where a slice of a file ended, kept by the caller that reads the next slice in the same process (a sliced refresh):
 * the hash of the prefix so far, so the next slice does not read and hash the whole prefix again (a cost that grew
 * with the file at every slice). It is trusted only while the file is the same inode, the next slice starts where this
 * one ended with the digest the index recorded, and the last bytes before that point are still the ones read; a
 * rewrite of older bytes that keeps those is caught by the next refresh's full prefix check.
 */
export interface SliceCarry {
	ino: number;
	end: number;
	digest: string;
	running: Hash;
	tail: Buffer;
}

/** Bytes before a slice's end that the next slice compares with the file before it trusts a carried hash. */
const CARRY_TAIL_BYTES = 4096;

/** The bytes [from, to) of a file. */
function bytesAt(fd: number, from: number, to: number): Buffer {
	const buf = Buffer.alloc(to - from);
	let done = 0;
	while (done < buf.length) {
		const n = readSync(fd, buf, done, buf.length - done, from + done);
		if (n === 0) return buf.subarray(0, done);
		done += n;
	}
	return buf;
}

/** The carried hash of `plan`'s prefix, when it still describes the file (SliceCarry). */
function carried(fd: number, plan: ScanPlan, ino: number, carry: SliceCarry | undefined): { digest: string; running: Hash } | null {
	if (!carry || carry.ino !== ino || carry.end !== plan.start || carry.digest !== plan.prefixHash) return null;
	if (!bytesAt(fd, carry.end - carry.tail.length, carry.end).equals(carry.tail)) return null;
	return { digest: carry.digest, running: carry.running.copy() };
}

/** One entry ready to be written: where it is, what it is, and the text each fragment puts into the index. */
export interface ScannedEntry {
	entry: Omit<ParsedEntry, "raw">;
	ev: Omit<ProjectedEvent, "fragments">;
	/**
	 * FTS text per fragment, in position order, with the fragment's kind: UTF-8 bytes (SQLite takes them as they are,
	 * with no conversion on the writer), a string for a system prompt section (the writer hashes it as text).
	 */
	fts: Array<{ kind: SemanticKind; text: string | Uint8Array }>;
	/** Fragment ids in position order, `@start-end` after one whose middle was left out (I20), then a huge line's `~` locator hint. */
	frags: string;
}

/** The result of reading one file. */
export interface ScanResult {
	path: string;
	/** The plan's mode, or "rebuild" when an append found the indexed prefix changed. */
	mode: "append" | "rebuild";
	/** The file's stat when it was read, in the shape of a discovered file's (see sameFingerprint). */
	fingerprint: Fingerprint;
	/** Rebuild: the header, or null when the complete lines hold no session header (yet). */
	header: SessionHeader | null;
	entries: ScannedEntry[];
	endOffset: number;
	nextLineNo: number;
	parserState: ParserState;
	digest: string;
	lines: number;
	skipped: number;
	/** Lines too big to read even streamed (json-stream.ts budget) among the skipped ones. */
	oversize?: number;
	duplicates: number;
	conflicting: number;
	/**
	 * Ids whose copies within this scan differ (the last one kept, at the first one's place), with the line hash of
	 * their first copy here: an append compares that one with the indexed entry, as a fresh build of the file would.
	 */
	replaced?: Map<string, string>;
	/** Id on the last entry line (pi's materialized leaf), duplicates included. */
	leaf: string | null;
	/** The file could not be opened or read. */
	error?: string;
	/** The scan stopped at the plan's maxBytes: the file goes on after endOffset. */
	partial?: boolean;
	/**
	 * Append: the indexed prefix ended in a complete line without its `\n`, and that `\n` came first: the line's
	 * entry is now one byte longer, as a fresh build reads it.
	 */
	closedLast?: boolean;
}

const SEP = Buffer.from("\n");

let lastScope: { cwd: string; suffix: string } = { cwd: "", suffix: "" };

/**
 * Scope tokens of the session's cwd and its parent folders, after a gap: a cwd filter (or a workspace root) can
 * then narrow the full-text match itself instead of filtering thousands of matches afterwards.
 */
function scopeSuffix(cwd: string): string {
	if (lastScope.cwd !== cwd) {
		const folders = scopeFolders(cwd);
		lastScope = { cwd, suffix: folders.length ? ` ${GAP_TOKEN} ${folders.map(scopeToken).join(" ")}` : "" };
	}
	return lastScope.suffix;
}

/** Scratch for utf8Of, reused across fragments: each text is copied out at its size. */
let scratch = Buffer.alloc(0);

/**
 * The pieces joined, as UTF-8: what SQLite is given. Encoded piece by piece: the gap and scope tokens (private-use,
 * two-byte characters) would make the joined string one of two-byte characters, a copy of the whole text at twice
 * its size before it is encoded. Written into scratch first, so each piece is encoded once (no byteLength pass).
 * No piece ends inside a surrogate pair, so the bytes are those of the joined string.
 */
function utf8Of(pieces: string[]): Uint8Array {
	let bound = 0;
	for (const piece of pieces) bound += piece.length * 3;
	if (scratch.length < bound) scratch = Buffer.allocUnsafeSlow(Math.max(bound, 2 * scratch.length, 65536));
	let n = 0;
	for (const piece of pieces) n += scratch.write(piece, n, "utf8");
	const out = Buffer.allocUnsafe(n);
	scratch.copy(out, 0, 0, n);
	return out;
}

/** The fields scanEntry copies from a parsed entry (all but `raw`); a field added to ParsedEntry must be listed. */
type CopiedField = "id" | "parentId" | "synthetic" | "type" | "lineNo" | "offset" | "length" | "lineHash" | "locatorHint" | "legacyFirstKeptEntryId";
const everyFieldCopied: [Exclude<keyof ParsedEntry, CopiedField | "raw">] extends [never] ? true : never = true;
void everyFieldCopied;

/** Projects an entry and computes its FTS texts (I3, I20). */
export function scanEntry(entry: ParsedEntry, cwd: string): ScannedEntry {
	const ev = projectEntry(entry, cwd);
	// Results of our own tools would answer later searches with copies of earlier hits; so would a codemode script's
	// result when the script called one of them (its output may quote theirs; `nestedCalls` names them).
	const quoting = ev.role === "toolResult" && (OWN_TOOLS.has(ev.toolName ?? "") || nestedCallNames(entry.raw.message).some((name) => OWN_TOOLS.has(name)));
	const fragments = quoting ? [] : ev.fragments.slice(0, FRAGMENT_SLOTS);
	const fts: ScannedEntry["fts"] = [];
	const ids: string[] = [];
	const scope = scopeSuffix(cwd);
	// A tool result is found by the tool that produced it and whether it failed (`search edit --kind tool.result`);
	// the words go into the index only, after a gap, so reads and snippets stay the exact source text.
	const about = ev.role === "toolResult" ? ` ${GAP_TOKEN} ${documentText(`${ev.toolName ?? ""}${ev.isError ? " error" : ""}`)}` : "";
	for (const fragment of fragments) {
		const { head, tail, omitted } = boundFragment(fragment.text);
		const pieces = omitted ? [...documentParts(head), ` ${GAP_TOKEN} `, ...documentParts(tail)] : documentParts(head);
		// System prompt sections are stored once per distinct text (session-writer): no session-specific scope tokens.
		if (fragment.kind === "system.prompt") fts.push({ kind: fragment.kind, text: pieces.join("") });
		else {
			pieces.push(fragment.kind === "tool.result" ? about + scope : scope);
			fts.push({ kind: fragment.kind, text: utf8Of(pieces) });
		}
		ids.push(omitted ? `${fragment.id}@${omitted[0]}-${omitted[1]}` : fragment.id);
	}
	const located: ScannedEntry["entry"] = {
		id: entry.id,
		parentId: entry.parentId,
		synthetic: entry.synthetic,
		type: entry.type,
		lineNo: entry.lineNo,
		offset: entry.offset,
		length: entry.length,
		lineHash: entry.lineHash,
	};
	if (entry.locatorHint !== undefined) located.locatorHint = entry.locatorHint;
	if (entry.legacyFirstKeptEntryId !== undefined) located.legacyFirstKeptEntryId = entry.legacyFirstKeptEntryId;
	const { fragments: _fragments, ...meta } = ev;
	// A huge line's locator hint rides after the fragment ids (catalog.ts splits it off).
	if (entry.locatorHint) ids.push(entry.locatorHint);
	return { entry: located, ev: meta, fts, frags: ids.join(" ") };
}

/**
 * Reads a file according to its plan. Never throws for file problems: they come back as `error`. `carry` (a sliced
 * refresh's) holds where the last slice of this file ended, and is updated to where this one ends.
 */
export function scanFile(plan: ScanPlan, carry?: { value?: SliceCarry }): ScanResult {
	let fd: number;
	try {
		fd = openSync(plan.path, "r");
	} catch (error) {
		return failed(plan, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
	}
	try {
		const st = fstatSync(fd);
		const fingerprint = { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
		if (plan.mode === "append" && plan.start !== undefined && plan.parserState && st.size >= plan.start) {
			const prefix = carried(fd, plan, st.ino, carry?.value) ?? prefixHash(fd, plan.start, plan.prefixHash);
			// A complete last line read without its `\n` that went on with other bytes is no longer that line: rebuild.
			const resume = resumeAt(fd, plan.start);
			if (prefix.digest === plan.prefixHash && resume !== "extended") {
				const parser = new SessionParser(plan.parserState);
				return read(fd, plan, fingerprint, "append", plan.start, plan.firstLine ?? 1, parser, prefix.running, plan.cwd ?? "", resume === "closed", carry);
			}
		}
		return read(fd, plan, fingerprint, "rebuild", 0, 1, new SessionParser(), createHash("sha1"), "", false, carry);
	} catch (error) {
		return failed(plan, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
	} finally {
		closeSync(fd);
	}
}

function failed(plan: ScanPlan, error: string): ScanResult {
	return {
		path: plan.path,
		mode: plan.mode,
		fingerprint: { size: -1, mtimeMs: -1, ctimeMs: -1, ino: -1 },
		header: null,
		entries: [],
		endOffset: 0,
		nextLineNo: 1,
		parserState: { version: 0, lastId: null, headerSeen: false },
		digest: "",
		lines: 0,
		skipped: 0,
		duplicates: 0,
		conflicting: 0,
		leaf: null,
		error,
	};
}

function read(
	fd: number,
	plan: ScanPlan,
	fingerprint: ScanResult["fingerprint"],
	mode: "append" | "rebuild",
	start: number,
	firstLine: number,
	parser: SessionParser,
	hash: Hash | undefined,
	appendCwd: string,
	closed: boolean,
	carry: { value?: SliceCarry } | undefined,
): ScanResult {
	const result: ScanResult = { ...failed(plan, ""), mode, fingerprint, header: null };
	delete result.error;
	let cwd = appendCwd;
	let open = mode === "append";
	const seen = new Map<string, { hash: string; at: number }>();
	const it = completeLines(fd, start, firstLine);
	let running = hash;
	if (closed) {
		// completeLines skips the `\n` that closed the last indexed line; the prefix the next append checks holds it.
		running?.update(SEP);
		result.closedLast = true;
	}
	let end = { endOffset: start, nextLineNo: firstLine };
	for (;;) {
		const next = it.next();
		if (next.done) {
			end = next.value;
			break;
		}
		const line = next.value;
		const outcome = parser.accept(line);
		if (outcome.kind === "skip" && outcome.reason === "no-header") {
			end = { endOffset: line.offset, nextLineNo: line.lineNo };
			break;
		}
		// A huge line was streamed, not kept; past it the file is over FULL_HASH_LIMIT and sampled, not hashed whole.
		if (line.huge) running = undefined;
		running?.update(line.bytes);
		if (line.length > line.bytes.length) running?.update(SEP);
		result.lines++;
		if (outcome.kind === "skip" && outcome.reason === "too-big") {
			// Even streamed, it keeps more than a line may (json-stream.ts budget): counted and noted, not indexed.
			result.skipped++;
			result.oversize = (result.oversize ?? 0) + 1;
			continue;
		}
		if (outcome.kind === "header") {
			result.header = outcome.header;
			cwd = outcome.header.cwd;
			open = true;
			continue;
		}
		if (outcome.kind === "skip") {
			if (outcome.reason !== "blank" && outcome.reason !== "extra-header") result.skipped++;
			continue;
		}
		if (!open) continue;
		const entry = outcome.entry;
		result.leaf = entry.id;
		// pi's duplicate-header bug writes entries twice (byte-identical). A copy with other content replaces the
		// earlier one at its place: pi's id map is filled in file order, so the last copy is the one it follows.
		const earlier = seen.get(entry.id);
		if (earlier !== undefined) {
			result.duplicates++;
			if (earlier.hash !== entry.lineHash) {
				result.conflicting++;
				result.replaced ??= new Map();
				if (!result.replaced.has(entry.id)) result.replaced.set(entry.id, earlier.hash);
				earlier.hash = entry.lineHash;
				result.entries[earlier.at] = scanEntry(entry, cwd);
			}
			continue;
		}
		seen.set(entry.id, { hash: entry.lineHash, at: result.entries.length });
		result.entries.push(scanEntry(entry, cwd));
		const sliceEnd = line.offset + line.length;
		// Only when the file goes on: a slice that ends where the file does is the whole rest of it. A v1/v2 file is
		// never cut: its ids are derived from the whole file, so every scan of it rebuilds from the start, and a slice
		// would be read again forever.
		const sliceable = result.header === null || result.header.version >= 3;
		const full =
			(plan.maxBytes !== undefined && sliceEnd - start >= plan.maxBytes) || (plan.maxEntries !== undefined && result.entries.length >= plan.maxEntries);
		if (full && sliceable && sliceEnd < fingerprint.size && line.length > line.bytes.length) {
			// A slice ends after a terminated line; the next scan appends from here (entry boundaries only).
			it.return({ endOffset: 0, nextLineNo: 0, tornBytes: 0 });
			end = { endOffset: sliceEnd, nextLineNo: line.lineNo + 1 };
			result.partial = true;
			break;
		}
	}
	result.endOffset = end.endOffset;
	result.nextLineNo = end.nextLineNo;
	result.parserState = parser.snapshot();
	result.digest = end.endOffset <= FULL_HASH_LIMIT && running ? fullDigest(end.endOffset, running) : prefixHash(fd, end.endOffset).digest;
	if (carry) {
		// Only a whole-prefix hash goes on from here (a sampled digest is recomputed from its samples, at a bounded cost).
		carry.value =
			result.partial && running && result.digest.startsWith("f:")
				? {
						ino: fingerprint.ino,
						end: end.endOffset,
						digest: result.digest,
						running: running.copy(),
						tail: bytesAt(fd, Math.max(0, end.endOffset - CARRY_TAIL_BYTES), end.endOffset),
					}
				: undefined;
	}
	return result;
}
