/**
 * Ingest of one session file: plan (skip, append after an intact prefix, or rebuild), read it with file-scan,
 * and apply the result inside the caller's write transaction (I6–I8). A file that cannot be read as a session
 * keeps its last known-good state (I7). Reading and writing are separate steps so the reading can run in a worker.
 */
import { createHash } from "node:crypto";
import { type ScannedEntry, type ScanPlan, type ScanResult, type SliceCarry, scanFile } from "../project/file-scan.js";
import type { DiscoveredFile } from "../source/discover.js";
import { type Fingerprint, type FingerprintRow, sameFingerprint } from "../source/fingerprint.js";
import { STREAM_LIMITS } from "../source/json-stream.js";
import type { ParserState } from "../source/parse.js";
import { sessionEntries } from "./session-classify.js";
import { nextSessionId } from "./session-removal.js";
import type { SessionWriter } from "./session-writer.js";
import type { IndexStore } from "./store.js";

/** What ingest did with one file. */
export interface FileOutcome {
	kind: "unchanged" | "appended" | "rebuilt" | "added" | "kept" | "not-session" | "empty" | "error";
	lines: number;
	events: number;
	bytes: number;
	error?: string;
	note?: string;
	/** Only a slice of the file was indexed (its plan's maxBytes): the rest is another append. */
	partial?: boolean;
}

/** The files row the plan was made from; applying a scan first checks that it still holds. */
export interface FileRow extends FingerprintRow {
	id: number;
	indexed_bytes: number;
	next_line: number;
	prefix_hash: string | null;
	parser_state: string | null;
	status: string;
}

interface SessionRow {
	id: number;
	cwd: string;
	leaf_entry: string | null;
}

/** The rows a plan depends on. */
export interface PlanBasis {
	row: FileRow | undefined;
	session: SessionRow | undefined;
}

/** Reads the files and sessions rows of a path. */
export function planBasis(store: IndexStore, path: string): PlanBasis {
	const row = store
		.prepare<[string], FileRow>(
			"SELECT id, size, mtime_ms, ctime_ms, ino, indexed_bytes, next_line, prefix_hash, parser_state, status FROM files WHERE path = ?",
		)
		.get(path);
	const session = row ? store.prepare<[number], SessionRow>("SELECT id, cwd, leaf_entry FROM sessions WHERE file_id = ?").get(row.id) : undefined;
	return { row, session };
}

/** True when two bases describe the same indexed state of a file. */
export function sameBasis(a: PlanBasis, b: PlanBasis): boolean {
	const ra = a.row;
	const rb = b.row;
	if (!ra || !rb) return ra === rb && a.session?.id === b.session?.id;
	return (
		ra.id === rb.id &&
		sameFingerprint(ra, { size: rb.size, mtimeMs: rb.mtime_ms, ctimeMs: rb.ctime_ms, ino: rb.ino }) &&
		ra.indexed_bytes === rb.indexed_bytes &&
		ra.prefix_hash === rb.prefix_hash &&
		ra.status === rb.status &&
		a.session?.id === b.session?.id
	);
}

/** How a file is cut into slices (ScanPlan.maxBytes, maxEntries), and where the last slice of it ended (SliceCarry). */
export interface SliceLimits {
	maxBytes?: number;
	maxEntries?: number;
	carry?: { value?: SliceCarry };
}

/**
 * Decides how to read a file: append after the indexed prefix when the index holds a healthy v2+ session of it.
 * `limits` cut the read into slices (ScanPlan.maxBytes, maxEntries).
 */
export function planFile(path: string, basis: PlanBasis, full: boolean, limits: SliceLimits = {}): ScanPlan {
	const slice = {
		...(limits.maxBytes !== undefined ? { maxBytes: limits.maxBytes } : {}),
		...(limits.maxEntries !== undefined ? { maxEntries: limits.maxEntries } : {}),
	};
	const { row, session } = basis;
	if (!full && row && session && row.status === "ok" && row.indexed_bytes > 0 && row.parser_state && row.prefix_hash) {
		const state = JSON.parse(row.parser_state) as ParserState;
		// v1 ids are line numbers and pi never appends to a v1 file (it migrates it first): always rebuild those.
		if (state.version >= 2) {
			return {
				path,
				mode: "append",
				start: row.indexed_bytes,
				firstLine: row.next_line,
				prefixHash: row.prefix_hash,
				parserState: state,
				cwd: session.cwd,
				...slice,
			};
		}
	}
	return { path, mode: "rebuild", ...slice };
}

/** Time span and latest name (last session_info in file order; "" clears it) of the entries being added. */
function sessionFacts(staged: ScannedEntry[]): { firstMs: number | null; lastMs: number | null; name: string | null | undefined } {
	let firstMs: number | null = null;
	let lastMs: number | null = null;
	let name: string | null | undefined;
	for (const { ev } of staged) {
		if (ev.type === "session_info") name = ev.sessionName || null;
		if (ev.tsMs === null) continue;
		// As the events rows hold it (session-writer.ts), so a whole classification's span says the same.
		const ms = Math.trunc(ev.tsMs);
		firstMs = firstMs === null ? ms : Math.min(firstMs, ms);
		lastMs = lastMs === null ? ms : Math.max(lastMs, ms);
	}
	return { firstMs, lastMs, name };
}

function scanNote(scan: ScanResult, duplicates: number, conflicting: number): string | null {
	const parts: string[] = [];
	const oversize = scan.oversize ?? 0;
	if (scan.skipped > oversize) parts.push(`${scan.skipped - oversize} unparseable line(s) skipped`);
	if (oversize > 0)
		parts.push(`${oversize} line(s) skipped (too big to read: more than ${STREAM_LIMITS.budget / 1024 / 1024} M characters outside long texts)`);
	if (duplicates > 0) parts.push(`${duplicates} duplicate entr${duplicates === 1 ? "y" : "ies"} collapsed`);
	if (conflicting > 0) parts.push(`${conflicting} duplicate id(s) with different content (last kept, as pi reads it)`);
	return parts.length ? parts.join("; ") : null;
}

function recordUnreadable(store: IndexStore, file: DiscoveredFile, rootId: number | null, basis: PlanBasis, message: string): FileOutcome {
	const note = `cannot read: ${message}; last indexed state kept`;
	if (basis.row) store.prepare("UPDATE files SET status = CASE WHEN status = 'ok' THEN 'ok' ELSE 'error' END, note = ? WHERE id = ?").run(note, basis.row.id);
	else
		store
			.prepare("INSERT INTO files (path, root_id, size, mtime_ms, ctime_ms, ino, status, note) VALUES (?, ?, ?, ?, ?, ?, 'error', ?)")
			.run(file.path, rootId, file.size, file.mtimeMs, file.ctimeMs, file.ino, note);
	return { kind: "error", lines: 0, events: 0, bytes: 0, error: message };
}

/**
 * The fingerprint recorded for a scan: a slice records the size it reached, so the file (bigger than that) reads as
 * changed and the next refresh appends the rest; a file that ended exactly there reads as unchanged, as it is.
 */
function recordedFingerprint(scan: ScanResult): Fingerprint {
	return scan.partial ? { ...scan.fingerprint, size: scan.endOffset } : scan.fingerprint;
}

/** An indexed entry that an appended line repeats the id of. */
interface IndexedCopy {
	line_hash: string;
	type: string;
	seq: number;
}

/** The indexed entries whose ids the scan repeats (nearly always none), in one statement by the session's id index. */
function indexedCopies(store: IndexStore, sessionId: number, scan: ScanResult): Map<string, IndexedCopy> {
	if (scan.entries.length === 0) return new Map();
	const rows = store
		.prepare<[number, string], IndexedCopy & { entry_id: string }>(
			"SELECT entry_id, line_hash, type, seq FROM events WHERE session_id = ? AND entry_id IN (SELECT value FROM json_each(?))",
		)
		.all(sessionId, JSON.stringify(scan.entries.map((e) => e.entry.id)));
	return new Map(rows.map((r) => [r.entry_id, r]));
}

function applyAppend(
	store: IndexStore,
	writer: SessionWriter,
	row: FileRow,
	session: SessionRow,
	scan: ScanResult,
	copies: Map<string, IndexedCopy>,
	renamed: string | null | undefined,
): FileOutcome {
	// Every events row of a session has a distinct seq from 0 (seq = sessions.entries at insert): no scan of the session.
	let seq = sessionEntries(store, session.id);
	let duplicates = scan.duplicates;
	let conflicting = scan.conflicting;
	if (scan.closedLast) {
		// The entry of the last indexed line (if that line is one: the leaf's id, at that line's place) gains its `\n`.
		store
			.prepare("UPDATE events SET byte_length = byte_length + 1 WHERE session_id = ? AND entry_id = ? AND byte_offset + byte_length = ?")
			.run(session.id, session.leaf_entry, row.indexed_bytes);
	}
	const staged = [];
	for (const scanned of scan.entries) {
		const earlier = copies.get(scanned.entry.id);
		if (earlier) {
			duplicates++;
			const copy = againstIndexed(scan, scanned, earlier.line_hash);
			if (copy.differs) conflicting++;
			// Another copy of an indexed entry: it replaces that one where it stands, as in pi's id map.
			if (copy.replaces) writer.replace(session.id, scanned);
			continue;
		}
		staged.push(writer.stage(session.id, seq++, scanned));
	}
	// A session whose classification waits for its last slice gets it now, even from a scan that added nothing.
	if (scan.lines > 0 || writer.isDeferred(session.id)) {
		const leaf = scan.leaf ?? session.leaf_entry;
		writer.commit(session.id, staged, leaf, session.leaf_entry, scan.partial === true);
		// From the entries actually added: a duplicate of an indexed entry must not move the times or the name.
		// A name among the added entries comes after every indexed one; else a replaced entry's (renameByReplacement).
		const facts = sessionFacts(staged);
		if (facts.name === undefined) facts.name = renamed;
		store
			.prepare(
				`UPDATE sessions SET leaf_entry = ?, entries = entries + ?, name = CASE WHEN ? THEN ? ELSE name END,
				first_ms = min(coalesce(first_ms, ?), coalesce(?, first_ms)), last_ms = max(coalesce(last_ms, ?), coalesce(?, last_ms)) WHERE id = ?`,
			)
			.run(leaf, staged.length, facts.name !== undefined ? 1 : 0, facts.name ?? null, facts.firstMs, facts.firstMs, facts.lastMs, facts.lastMs, session.id);
	}
	const fp = recordedFingerprint(scan);
	store
		.prepare(
			`UPDATE files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, indexed_bytes = ?, next_line = ?, prefix_hash = ?, parser_state = ?,
			skipped_lines = skipped_lines + ?, duplicate_entries = duplicate_entries + ?, note = coalesce(?, note), indexed_at = ? WHERE id = ?`,
		)
		.run(
			fp.size,
			fp.mtimeMs,
			fp.ctimeMs,
			fp.ino,
			scan.endOffset,
			scan.nextLineNo,
			scan.digest,
			JSON.stringify(scan.parserState),
			scan.skipped,
			duplicates,
			scanNote(scan, duplicates, conflicting),
			Date.now(),
			row.id,
		);
	// The copies that replaced indexed entries are noted too: the file says something pi follows differently.
	const skipped = scan.skipped > 0 || conflicting > 0 ? { note: scanNote(scan, 0, conflicting) ?? "" } : {};
	return {
		kind: scan.lines > 0 || scan.closedLast ? "appended" : "unchanged",
		lines: scan.lines,
		events: staged.length,
		bytes: scan.endOffset - row.indexed_bytes,
		...skipped,
		...(scan.partial ? { partial: true } : {}),
	};
}

function applyRebuild(store: IndexStore, writer: SessionWriter, file: DiscoveredFile, rootId: number | null, basis: PlanBasis, scan: ScanResult): FileOutcome {
	const { row, session: old } = basis;
	const fileId = row?.id ?? Number(store.prepare("INSERT INTO files (path, root_id, status) VALUES (?, ?, 'pending')").run(file.path, rootId).lastInsertRowid);
	const fp = recordedFingerprint(scan);
	const header = scan.header;
	if (header === null) {
		// No header among the complete lines: not a session (yet). A file cut inside its header line is what a fresh
		// build would see as no session, so its old session goes; a file whose first line is something else cannot be
		// parsed safely and keeps its last known-good state (I7).
		const empty = scan.endOffset === 0;
		if (old && empty) writer.removeSession(old.id);
		else if (old) {
			const note = "file no longer starts with a session header; last indexed state kept";
			store
				.prepare("UPDATE files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, note = ?, indexed_at = ? WHERE id = ?")
				.run(fp.size, fp.mtimeMs, fp.ctimeMs, fp.ino, note, Date.now(), fileId);
			return { kind: "kept", lines: 0, events: 0, bytes: 0, note };
		}
		const status = empty ? "empty" : "not-session";
		store
			.prepare(
				`UPDATE files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, indexed_bytes = 0, next_line = 1, prefix_hash = NULL, parser_state = NULL,
				status = ?, note = ?, header_id = NULL, indexed_at = ? WHERE id = ?`,
			)
			.run(fp.size, fp.mtimeMs, fp.ctimeMs, fp.ino, status, empty ? "no complete line yet" : "first line is not a session header", Date.now(), fileId);
		return { kind: status, lines: scan.lines, events: 0, bytes: scan.endOffset };
	}
	if (old) writer.removeSession(old.id);
	// A session id another file already holds gets a provisional unique id until assignPublicIds settles the rule.
	const taken = (id: string) => store.prepare<[string], { id: number }>("SELECT id FROM sessions WHERE public_id = ?").get(id) !== undefined;
	let publicId = header.id;
	for (let n = 0; taken(publicId); n++) publicId = `${header.id}~${shortHash(`${file.path}#${n}`)}`;
	// Never the row id of a session whose rows are still being removed (the old one's, just hidden).
	const sessionId = nextSessionId(store);
	store
		.prepare("INSERT INTO sessions (id, file_id, public_id, header_id, version, cwd, created, parent_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
		.run(sessionId, fileId, publicId, header.id, header.version, header.cwd, header.timestamp, header.parentSession);
	const staged = scan.entries.map((scanned, seq) => writer.stage(sessionId, seq, scanned));
	writer.commit(sessionId, staged, scan.leaf, null, scan.partial === true);
	const facts = sessionFacts(staged);
	store
		.prepare("UPDATE sessions SET leaf_entry = ?, entries = ?, name = ?, first_ms = ?, last_ms = ? WHERE id = ?")
		.run(scan.leaf, staged.length, facts.name ?? null, facts.firstMs, facts.lastMs, sessionId);
	const note = [header.notes.length ? header.notes.join("; ") : null, scanNote(scan, scan.duplicates, scan.conflicting)].filter(Boolean).join("; ") || null;
	store
		.prepare(
			`UPDATE files SET root_id = coalesce(?, root_id), size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, indexed_bytes = ?, next_line = ?, prefix_hash = ?,
			parser_state = ?, status = 'ok', note = ?, header_id = ?, skipped_lines = ?, duplicate_entries = ?, indexed_at = ? WHERE id = ?`,
		)
		.run(
			rootId,
			fp.size,
			fp.mtimeMs,
			fp.ctimeMs,
			fp.ino,
			scan.endOffset,
			scan.nextLineNo,
			scan.digest,
			JSON.stringify(scan.parserState),
			note,
			header.id,
			scan.skipped,
			scan.duplicates,
			Date.now(),
			fileId,
		);
	const skipped = scan.skipped > 0 || scan.conflicting > 0 ? { note: scanNote(scan, 0, scan.conflicting) ?? "" } : {};
	return {
		kind: row && old ? "rebuilt" : "added",
		lines: scan.lines,
		events: staged.length,
		bytes: scan.endOffset,
		...skipped,
		...(scan.partial ? { partial: true } : {}),
	};
}

/** 8 hex characters of a text's SHA-1: the suffix of a session id that another file already holds. */
export function shortHash(text: string): string {
	return createHash("sha1").update(text).digest("hex").slice(0, 8);
}

const UNCHANGED: FileOutcome = { kind: "unchanged", lines: 0, events: 0, bytes: 0 };

/** True when the index already holds this exact version of the file. */
export function unchanged(basis: PlanBasis, file: Fingerprint): boolean {
	return sameFingerprint(basis.row, file);
}

/**
 * What the scan's copies of an indexed entry do to it, as a fresh build reading them after it would: its first copy
 * here differs from it (a conflicting duplicate), and the scan's kept copy replaces it (that first copy differs, or a
 * later copy here replaced the first: the kept one is then the later line, even with the indexed content).
 */
function againstIndexed(scan: ScanResult, scanned: ScannedEntry, indexedHash: string): { differs: boolean; replaces: boolean } {
	const first = scan.replaced?.get(scanned.entry.id);
	const differs = (first ?? scanned.entry.lineHash) !== indexedHash;
	return { differs, replaces: differs || first !== undefined };
}

/** What replacing indexed entries does to the session's name: unchanged (undefined), a new one, or unknown (rebuild). */
type Renamed = { name: string | null | undefined } | "rebuild";

/**
 * The session's name after an appended copy of an indexed id with other content replaces it: the name is the last
 * session_info's in file order (copies at the first one's place), which the index keeps for the session only. A copy
 * that is or replaces a session_info followed by none keeps or sets the name; one that removes the last session_info
 * would need the one before it: the file is read again.
 */
function renameByReplacement(store: IndexStore, sessionId: number, scan: ScanResult, copies: Map<string, IndexedCopy>): Renamed {
	if (copies.size === 0) return { name: undefined };
	const named = scan.entries.flatMap((scanned) => {
		const earlier = copies.get(scanned.entry.id);
		const replaces = earlier !== undefined && againstIndexed(scan, scanned, earlier.line_hash).replaces;
		return replaces && (earlier.type === "session_info" || scanned.ev.type === "session_info") ? [{ earlier, scanned }] : [];
	});
	if (named.length === 0) return { name: undefined };
	if (named.length > 1) return "rebuild";
	const { earlier, scanned } = named[0] as (typeof named)[number];
	const later = store
		.prepare<[number, number], { n: number }>("SELECT 1 AS n FROM events WHERE session_id = ? AND type = 'session_info' AND seq > ? LIMIT 1")
		.get(sessionId, earlier.seq);
	if (later) return { name: undefined };
	return scanned.ev.type === "session_info" ? { name: scanned.ev.sessionName || null } : "rebuild";
}

/**
 * Writes a scan into the index, unless the file it read is the version already indexed. The caller holds the
 * write transaction, has checked the basis still holds, and rolls the whole transaction back if this throws: no
 * savepoint per file, since FTS5 flushes its pending terms to a new segment at every savepoint (a third of a cold
 * index went to that).
 */
export function applyScan(
	store: IndexStore,
	writer: SessionWriter,
	file: DiscoveredFile,
	rootId: number | null,
	basis: PlanBasis,
	scan: ScanResult,
	full: boolean,
): FileOutcome {
	if (scan.error !== undefined) return recordUnreadable(store, file, rootId, basis, scan.error);
	if (!full && unchanged(basis, scan.fingerprint)) return UNCHANGED;
	writer.beginFile();
	if (scan.mode === "append" && basis.row && basis.session) {
		// An appended copy of an indexed id with other content replaces it where it stands (applyAppend); one whose
		// session name cannot be told from the index reads the whole file again, so the session is what a fresh build
		// makes of it.
		const copies = indexedCopies(store, basis.session.id, scan);
		const renamed = renameByReplacement(store, basis.session.id, scan, copies);
		if (renamed !== "rebuild") return applyAppend(store, writer, basis.row, basis.session, scan, copies, renamed.name);
		// Whole, not in slices: a later slice would meet the replacing copy again as an append and start over.
		scan = scanFile({ path: file.path, mode: "rebuild" });
		if (scan.error !== undefined) return recordUnreadable(store, file, rootId, basis, scan.error);
	}
	return applyRebuild(store, writer, file, rootId, basis, scan);
}

/**
 * Ingests one file inside the caller's write transaction: reads its rows, plans, reads the file, applies. The
 * decision is made from rows read inside the transaction, so two processes refreshing at once never apply the
 * same change twice. Like applyScan, a throw means the caller rolls back.
 */
export function ingestFile(
	store: IndexStore,
	writer: SessionWriter,
	file: DiscoveredFile,
	rootId: number | null,
	full: boolean,
	limits: SliceLimits = {},
): FileOutcome {
	const basis = planBasis(store, file.path);
	if (!full && unchanged(basis, file)) return UNCHANGED;
	return applyScan(store, writer, file, rootId, basis, scanFile(planFile(file.path, basis, full, limits), limits.carry), full);
}
