/**
 * Ingest of one session file: skip by fingerprint, append only the new complete lines after an unchanged prefix,
 * or rebuild the session in one transaction (I6–I8). A file that cannot be read as a session keeps its last
 * known-good state.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, fstatSync, openSync } from "node:fs";
import type { DiscoveredFile } from "./discover.js";
import { FULL_HASH_LIMIT, fullDigest, prefixHash } from "./fingerprint.js";
import { completeLines } from "./lines.js";
import { type ParserState, SessionParser } from "./parse.js";
import { projectEntry } from "./project.js";
import type { SessionWriter, StagedEvent } from "./session-writer.js";
import type { IndexStore } from "./store.js";

/** What ingest did with one file. */
export interface FileOutcome {
	kind: "unchanged" | "appended" | "rebuilt" | "added" | "kept" | "not-session" | "empty" | "error";
	lines: number;
	events: number;
	bytes: number;
	error?: string;
	note?: string;
}

interface FileRow {
	id: number;
	size: number;
	mtime_ms: number;
	ctime_ms: number;
	ino: number;
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

interface Fingerprint {
	size: number;
	mtime: number;
	ctime: number;
	ino: number;
}

/** Counters and facts gathered while reading lines. */
interface Scan {
	staged: StagedEvent[];
	seq: number;
	lines: number;
	skipped: number;
	duplicates: number;
	conflicting: number;
	leaf: string | null;
	name: string | null | undefined;
	firstMs: number | null;
	lastMs: number | null;
}

const SEP = Buffer.from("\n");

function newScan(seq: number): Scan {
	return { staged: [], seq, lines: 0, skipped: 0, duplicates: 0, conflicting: 0, leaf: null, name: undefined, firstMs: null, lastMs: null };
}

/**
 * Reads complete lines from `start`, stages every new entry of the session, and returns where reading ended.
 * `open` is called on the header (rebuilds only); `known` answers whether an entry id is already indexed.
 */
function readLines(
	fd: number,
	start: number,
	firstLine: number,
	parser: SessionParser,
	writer: SessionWriter,
	scan: Scan,
	hash: Hash | undefined,
	session: { id: number | null; cwd: string },
	open: (p: SessionParser) => number,
	known: (entryId: string) => string | undefined,
): { endOffset: number; nextLineNo: number } {
	const seen = new Map<string, string>();
	const it = completeLines(fd, start, firstLine);
	for (;;) {
		const next = it.next();
		if (next.done) return next.value;
		const line = next.value;
		const outcome = parser.accept(line);
		if (outcome.kind === "skip" && outcome.reason === "no-header") return { endOffset: line.offset, nextLineNo: line.lineNo };
		if (hash) {
			hash.update(line.bytes);
			hash.update(SEP);
		}
		scan.lines++;
		if (outcome.kind === "header") {
			session.id = open(parser);
			session.cwd = outcome.header.cwd;
			continue;
		}
		if (outcome.kind === "skip") {
			if (outcome.reason !== "blank" && outcome.reason !== "extra-header") scan.skipped++;
			continue;
		}
		if (session.id === null) continue;
		const entry = outcome.entry;
		scan.leaf = entry.id;
		// pi's duplicate-header bug writes entries twice: the first copy stands (byte-identical, or noted).
		const earlier = seen.get(entry.id) ?? known(entry.id);
		if (earlier !== undefined) {
			scan.duplicates++;
			if (earlier !== entry.lineHash) scan.conflicting++;
			continue;
		}
		seen.set(entry.id, entry.lineHash);
		const ev = projectEntry(entry, session.cwd);
		scan.staged.push(writer.stage(session.id, scan.seq++, entry, ev));
		if (ev.type === "session_info") scan.name = ev.sessionName || null;
		if (ev.tsMs !== null) {
			scan.firstMs = scan.firstMs === null ? ev.tsMs : Math.min(scan.firstMs, ev.tsMs);
			scan.lastMs = scan.lastMs === null ? ev.tsMs : Math.max(scan.lastMs, ev.tsMs);
		}
	}
}

function scanNote(scan: Scan): string | null {
	const parts: string[] = [];
	if (scan.skipped > 0) parts.push(`${scan.skipped} unparseable line(s) skipped`);
	if (scan.duplicates > 0) parts.push(`${scan.duplicates} duplicate entr${scan.duplicates === 1 ? "y" : "ies"} collapsed`);
	if (scan.conflicting > 0) parts.push(`${scan.conflicting} duplicate id(s) with different content (first kept)`);
	return parts.length ? parts.join("; ") : null;
}

function appendFile(store: IndexStore, writer: SessionWriter, fd: number, row: FileRow, session: SessionRow, state: ParserState, running: Hash | undefined, fp: Fingerprint): FileOutcome {
	const seq = store.prepare<[number], { n: number }>("SELECT coalesce(max(seq) + 1, 0) AS n FROM events WHERE session_id = ?").get(session.id)?.n ?? 0;
	const scan = newScan(seq);
	const parser = new SessionParser(state);
	const known = (id: string) => store.prepare<[number, string], { line_hash: string }>("SELECT line_hash FROM events WHERE session_id = ? AND entry_id = ?").get(session.id, id)?.line_hash;
	const end = readLines(fd, row.indexed_bytes, row.next_line, parser, writer, scan, running, { id: session.id, cwd: session.cwd }, () => session.id, known);
	const digest = end.endOffset <= FULL_HASH_LIMIT && running ? fullDigest(end.endOffset, running) : prefixHash(fd, end.endOffset).digest;
	if (scan.lines > 0) {
		const leaf = scan.leaf ?? session.leaf_entry;
		writer.commit(session.id, scan.staged, leaf);
		store
			.prepare(
				`UPDATE sessions SET leaf_entry = ?, entries = entries + ?, name = CASE WHEN ? THEN ? ELSE name END,
				first_ms = min(coalesce(first_ms, ?), coalesce(?, first_ms)), last_ms = max(coalesce(last_ms, ?), coalesce(?, last_ms)) WHERE id = ?`,
			)
			.run(leaf, scan.staged.length, scan.name !== undefined ? 1 : 0, scan.name ?? null, scan.firstMs, scan.firstMs, scan.lastMs, scan.lastMs, session.id);
	}
	store
		.prepare(
			`UPDATE files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, indexed_bytes = ?, next_line = ?, prefix_hash = ?, parser_state = ?,
			skipped_lines = skipped_lines + ?, duplicate_entries = duplicate_entries + ?, note = coalesce(?, note), indexed_at = ? WHERE id = ?`,
		)
		.run(fp.size, fp.mtime, fp.ctime, fp.ino, end.endOffset, end.nextLineNo, digest, JSON.stringify(parser.snapshot()), scan.skipped, scan.duplicates, scanNote(scan), Date.now(), row.id);
	return { kind: scan.lines > 0 ? "appended" : "unchanged", lines: scan.lines, events: scan.staged.length, bytes: end.endOffset - row.indexed_bytes };
}

function rebuildFile(store: IndexStore, writer: SessionWriter, fd: number, file: DiscoveredFile, rootId: number | null, row: FileRow | undefined, old: SessionRow | undefined, fp: Fingerprint): FileOutcome {
	const fileId = row?.id ?? Number(store.prepare("INSERT INTO files (path, root_id, status) VALUES (?, ?, 'pending')").run(file.path, rootId).lastInsertRowid);
	const scan = newScan(0);
	const parser = new SessionParser();
	const session = { id: null as number | null, cwd: "" };
	let headerNote: string | null = null;
	const hash = createHash("sha1");
	const open = (p: SessionParser): number => {
		const header = p.header as NonNullable<SessionParser["header"]>;
		if (header.notes.length) headerNote = header.notes.join("; ");
		if (old) writer.removeSession(old.id);
		// A session id another file already holds gets a path-derived id until assignPublicIds settles the rule.
		const taken = store.prepare<[string], { id: number }>("SELECT id FROM sessions WHERE public_id = ?").get(header.id);
		const publicId = taken ? `${header.id}~${createHash("sha1").update(file.path).digest("hex").slice(0, 8)}` : header.id;
		return Number(
			store
				.prepare("INSERT INTO sessions (file_id, public_id, header_id, version, cwd, created, parent_path) VALUES (?, ?, ?, ?, ?, ?, ?)")
				.run(fileId, publicId, header.id, header.version, header.cwd, header.timestamp, header.parentSession).lastInsertRowid,
		);
	};
	const end = readLines(fd, 0, 1, parser, writer, scan, hash, session, open, () => undefined);
	if (session.id === null) {
		// No header among the complete lines: not a session (yet). A session indexed before keeps its state (I7).
		const empty = end.endOffset === 0;
		if (old) {
			const note = empty ? "file is empty or its first line is incomplete; last indexed state kept" : "file no longer starts with a session header; last indexed state kept";
			store.prepare("UPDATE files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, note = ?, indexed_at = ? WHERE id = ?").run(fp.size, fp.mtime, fp.ctime, fp.ino, note, Date.now(), fileId);
			return { kind: "kept", lines: 0, events: 0, bytes: 0, note };
		}
		const status = empty ? "empty" : "not-session";
		store
			.prepare(
				`UPDATE files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, indexed_bytes = 0, next_line = 1, prefix_hash = NULL, parser_state = NULL,
				status = ?, note = ?, header_id = NULL, indexed_at = ? WHERE id = ?`,
			)
			.run(fp.size, fp.mtime, fp.ctime, fp.ino, status, empty ? "no complete line yet" : "first line is not a session header", Date.now(), fileId);
		return { kind: status, lines: scan.lines, events: 0, bytes: end.endOffset };
	}
	writer.commit(session.id, scan.staged, scan.leaf);
	store
		.prepare("UPDATE sessions SET leaf_entry = ?, entries = ?, name = ?, first_ms = ?, last_ms = ? WHERE id = ?")
		.run(scan.leaf, scan.staged.length, scan.name ?? null, scan.firstMs, scan.lastMs, session.id);
	const digest = end.endOffset <= FULL_HASH_LIMIT ? fullDigest(end.endOffset, hash) : prefixHash(fd, end.endOffset).digest;
	const note = [headerNote, scanNote(scan)].filter(Boolean).join("; ") || null;
	store
		.prepare(
			`UPDATE files SET root_id = coalesce(?, root_id), size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, indexed_bytes = ?, next_line = ?, prefix_hash = ?,
			parser_state = ?, status = 'ok', note = ?, header_id = ?, skipped_lines = ?, duplicate_entries = ?, indexed_at = ? WHERE id = ?`,
		)
		.run(rootId, fp.size, fp.mtime, fp.ctime, fp.ino, end.endOffset, end.nextLineNo, digest, JSON.stringify(parser.snapshot()), note, parser.header?.id ?? null, scan.skipped, scan.duplicates, Date.now(), fileId);
	return { kind: row && old ? "rebuilt" : "added", lines: scan.lines, events: scan.staged.length, bytes: end.endOffset };
}

/**
 * Ingests one file in its own savepoint inside the caller's write transaction. The decision (skip, append,
 * rebuild) is made from the row read inside the transaction, so two processes refreshing at once never apply the
 * same change twice.
 */
export function ingestFile(store: IndexStore, writer: SessionWriter, file: DiscoveredFile, rootId: number | null, full: boolean): FileOutcome {
	let fd: number;
	try {
		fd = openSync(file.path, "r");
	} catch (error) {
		const message = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
		store.db.transaction(() => {
			const row = store.prepare<[string], { id: number }>("SELECT id FROM files WHERE path = ?").get(file.path);
			const note = `cannot read: ${message}; last indexed state kept`;
			if (row) store.prepare("UPDATE files SET status = CASE WHEN status = 'ok' THEN 'ok' ELSE 'error' END, note = ? WHERE id = ?").run(note, row.id);
			else
				store
					.prepare("INSERT INTO files (path, root_id, size, mtime_ms, ctime_ms, ino, status, note) VALUES (?, ?, ?, ?, ?, ?, 'error', ?)")
					.run(file.path, rootId, file.size, file.mtimeMs, file.ctimeMs, file.ino, note);
		})();
		return { kind: "error", lines: 0, events: 0, bytes: 0, error: message };
	}
	try {
		const st = fstatSync(fd);
		return store.db.transaction((): FileOutcome => {
			const row = store.prepare<[string], FileRow>("SELECT * FROM files WHERE path = ?").get(file.path);
			const session = row ? store.prepare<[number], SessionRow>("SELECT id, cwd, leaf_entry FROM sessions WHERE file_id = ?").get(row.id) : undefined;
			if (row && !full && row.size === st.size && row.mtime_ms === st.mtimeMs && row.ctime_ms === st.ctimeMs && row.ino === st.ino) {
				return { kind: "unchanged", lines: 0, events: 0, bytes: 0 };
			}
			writer.beginFile();
			const fp = { size: st.size, mtime: st.mtimeMs, ctime: st.ctimeMs, ino: st.ino };
			if (row && session && !full && row.status === "ok" && row.indexed_bytes > 0 && st.size >= row.indexed_bytes && row.parser_state) {
				const state = JSON.parse(row.parser_state) as ParserState;
				// v1 ids are line numbers and pi never appends to a v1 file (it migrates first): always rebuild those.
				if (state.version >= 2) {
					const prefix = prefixHash(fd, row.indexed_bytes);
					if (prefix.digest === row.prefix_hash) return appendFile(store, writer, fd, row, session, state, prefix.running, fp);
				}
			}
			return rebuildFile(store, writer, fd, file, rootId, row, session, fp);
		})();
	} finally {
		closeSync(fd);
	}
}
