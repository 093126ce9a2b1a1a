/**
 * Incremental ingest: brings the index in line with the session files. Unchanged files are skipped by fingerprint,
 * append-only growth ingests only the new complete lines, anything else rebuilds that session in one transaction.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import type { SourceRoot } from "./config.js";
import { type DiscoveredFile, discover, type RootObservation, underUnreadable } from "./discover.js";
import { completeLines } from "./lines.js";
import type { RefreshProgress, RefreshSummary } from "./model.js";
import { type ParsedEntry, type ParserState, SessionParser } from "./parse.js";
import { boundFragment, type ProjectedEvent, projectEntry } from "./project.js";
import { FRAGMENT_SLOTS, KIND_COLUMNS } from "./schema.js";
import type { IndexStore } from "./store.js";
import { documentText, GAP_TOKEN } from "./tokens.js";
import { classifyTree, type TreeNode } from "./tree.js";

/** Options of a refresh. */
export interface RefreshOptions {
	/** Rebuild every file instead of trusting fingerprints. */
	full?: boolean;
	/** Stop starting new files after this many milliseconds; the rest is reported as pending. */
	budgetMs?: number;
	onProgress?: (progress: RefreshProgress) => void;
	/** Files to ingest before all others (e.g. the caller's own session). */
	priority?: string[];
}

interface FileRow {
	id: number;
	path: string;
	root_id: number | null;
	size: number;
	mtime_ms: number;
	ctime_ms: number;
	ino: number;
	indexed_bytes: number;
	next_line: number;
	prefix_hash: string | null;
	parser_state: string | null;
	status: string;
	header_id: string | null;
	skipped_lines: number;
	duplicate_entries: number;
}

interface SessionRow {
	id: number;
	header_id: string;
	public_id: string;
	cwd: string;
	entries: number;
}

/** Files up to this size are fingerprinted by a hash of every byte; larger ones by head and tail samples. */
const FULL_HASH_LIMIT = 16 * 1024 * 1024;
const SAMPLE = 1024 * 1024;
const SEP = Buffer.from("\n");
const BATCH_BYTES = 32 * 1024 * 1024;
const BATCH_MS = 1000;

/** The verdict on one file after a refresh looked at it. */
type FileOutcome = {
	kind: "unchanged" | "appended" | "rebuilt" | "added" | "kept" | "not-session" | "empty" | "error";
	lines: number;
	events: number;
	bytes: number;
	error?: string;
	note?: string;
};

function readInto(fd: number, hash: Hash, from: number, to: number): void {
	const buf = Buffer.allocUnsafe(Math.min(SAMPLE, Math.max(1, to - from)));
	let pos = from;
	while (pos < to) {
		const n = readSync(fd, buf, 0, Math.min(buf.length, to - pos), pos);
		if (n === 0) break;
		hash.update(buf.subarray(0, n));
		pos += n;
	}
}

/** Fingerprint of the first `n` bytes: a full hash, or head and tail samples beyond FULL_HASH_LIMIT. */
function prefixHash(fd: number, n: number): { digest: string; running?: Hash } {
	if (n <= FULL_HASH_LIMIT) {
		const h = createHash("sha1");
		readInto(fd, h, 0, n);
		return { digest: `f:${n}:${h.copy().digest("hex")}`, running: h };
	}
	const head = createHash("sha1");
	readInto(fd, head, 0, SAMPLE);
	const tail = createHash("sha1");
	readInto(fd, tail, n - SAMPLE, n);
	return { digest: `s:${n}:${head.digest("hex")}:${tail.digest("hex")}` };
}

/** SQL statements of the writer, prepared once per store. */
class Writer {
	private readonly ftsInsert: Map<string, string>;

	constructor(readonly store: IndexStore) {
		this.ftsInsert = new Map(KIND_COLUMNS.map((c) => [c.kind, `INSERT INTO fts(rowid, ${c.column}) VALUES (?, ?)`]));
	}

	insertEvent(sessionId: number, seq: number, entry: ParsedEntry, ev: ProjectedEvent): number | null {
		const result = this.store
			.prepare(
				`INSERT INTO events (session_id, entry_id, parent_id, seq, line, byte_offset, byte_length, line_hash, synthetic, type, role,
				ts, ts_ms, tool_name, tool_call_id, is_error, exit_code, model, provider, stop_reason, custom_type, ref_id, label,
				msg_producing, context_role, preview)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT(session_id, entry_id) DO NOTHING`,
			)
			.run(
				sessionId,
				entry.id,
				entry.parentId,
				seq,
				entry.lineNo,
				entry.offset,
				entry.length,
				entry.lineHash,
				entry.synthetic ? 1 : 0,
				ev.type,
				ev.role,
				ev.timestamp,
				ev.tsMs === null ? null : Math.trunc(ev.tsMs),
				ev.toolName,
				ev.toolCallId,
				ev.isError === null ? null : ev.isError ? 1 : 0,
				ev.exitCode === null ? null : Math.trunc(ev.exitCode),
				ev.model,
				ev.provider,
				ev.stopReason,
				ev.customType,
				ev.refId,
				ev.label,
				ev.messageProducing ? 1 : 0,
				ev.contextRole,
				ev.preview,
			);
		if (result.changes === 0) return null;
		const eventId = Number(result.lastInsertRowid);
		ev.fragments.slice(0, FRAGMENT_SLOTS).forEach((fragment, position) => {
			const id = eventId * FRAGMENT_SLOTS + position;
			const { head, tail, omitted } = boundFragment(fragment.text);
			this.store
				.prepare("INSERT INTO fragments (id, frag, kind, chars, omit_start, omit_end) VALUES (?, ?, ?, ?, ?, ?)")
				.run(id, fragment.id, fragment.kind, fragment.text.length, omitted ? omitted[0] : null, omitted ? omitted[1] : null);
			const text = omitted ? `${documentText(head)} ${GAP_TOKEN} ${documentText(tail)}` : documentText(head);
			this.store.prepare(this.ftsInsert.get(fragment.kind) as string).run(id, text);
		});
		for (const call of ev.toolCalls) {
			this.store.prepare("INSERT INTO tool_calls (event_id, session_id, call_id, name, frag) VALUES (?, ?, ?, ?, ?)").run(eventId, sessionId, call.id, call.name, call.fragmentId);
		}
		for (const file of ev.files) {
			this.store.prepare("INSERT INTO file_evidence (event_id, session_id, path, rel, via) VALUES (?, ?, ?, ?, ?)").run(eventId, sessionId, file.path, file.rel, file.via);
		}
		return eventId;
	}

	deleteSessionRows(sessionId: number): void {
		const s = this.store;
		const range = `f.id BETWEEN e.id * ${FRAGMENT_SLOTS} AND e.id * ${FRAGMENT_SLOTS} + ${FRAGMENT_SLOTS - 1}`;
		s.prepare(`DELETE FROM fts WHERE rowid IN (SELECT f.id FROM events e JOIN fragments f ON ${range} WHERE e.session_id = ?)`).run(sessionId);
		s.prepare(`DELETE FROM fragments WHERE id IN (SELECT f.id FROM events e JOIN fragments f ON ${range} WHERE e.session_id = ?)`).run(sessionId);
		s.prepare("DELETE FROM tool_calls WHERE session_id = ?").run(sessionId);
		s.prepare("DELETE FROM file_evidence WHERE session_id = ?").run(sessionId);
		s.prepare("DELETE FROM events WHERE session_id = ?").run(sessionId);
	}

	removeSession(sessionId: number): void {
		this.deleteSessionRows(sessionId);
		this.store.prepare("DELETE FROM sessions WHERE id = ?").run(sessionId);
	}
}

/** Recomputes tree classification and current labels of one session, writing only what changed. */
export function reclassify(store: IndexStore, sessionId: number): void {
	const rows = store
		.prepare<
			[number],
			{
				id: number;
				entry_id: string;
				parent_id: string | null;
				type: string;
				ref_id: string | null;
				label: string | null;
				msg_producing: number;
				branch_state: string;
				selection_state: string;
				summarized_by: string | null;
				summarized_prov: string | null;
				cur_label: string | null;
			}
		>(
			`SELECT id, entry_id, parent_id, type, ref_id, label, msg_producing, branch_state, selection_state, summarized_by,
			summarized_prov, cur_label FROM events WHERE session_id = ? ORDER BY id`,
		)
		.all(sessionId);
	const session = store.prepare<[number], { leaf_entry: string | null }>("SELECT leaf_entry FROM sessions WHERE id = ?").get(sessionId);
	const nodes: TreeNode[] = rows.map((r) => ({ id: r.entry_id, parentId: r.parent_id, type: r.type, refId: r.ref_id, messageProducing: r.msg_producing === 1 }));
	const facts = classifyTree(nodes, session?.leaf_entry ?? null);
	const labels = new Map<string, string | null>();
	for (const r of rows) if (r.type === "label" && r.ref_id !== null) labels.set(r.ref_id, r.label);
	const update = store.prepare("UPDATE events SET branch_state = ?, selection_state = ?, summarized_by = ?, summarized_prov = ?, cur_label = ? WHERE id = ?");
	for (const r of rows) {
		const state = facts.states.get(r.entry_id);
		const branch = state?.branchState ?? "unknown";
		const selection = state?.selectionState ?? "unknown";
		const by = state?.summarizedBy?.entryId ?? null;
		const prov = state?.summarizedBy?.provenance ?? null;
		const label = labels.get(r.entry_id) ?? null;
		if (branch !== r.branch_state || selection !== r.selection_state || by !== r.summarized_by || prov !== r.summarized_prov || label !== r.cur_label) {
			update.run(branch, selection, by, prov, label, r.id);
		}
	}
}

/**
 * Ingests one file in its own savepoint inside the caller's write transaction; decides between skip, append and
 * rebuild with the row read inside it, so two processes refreshing at once never apply the same change twice.
 */
function ingestFile(store: IndexStore, writer: Writer, file: DiscoveredFile, rootId: number | null, full: boolean): FileOutcome {
	let fd: number;
	try {
		fd = openSync(file.path, "r");
	} catch (error) {
		const message = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
		store.db
			.transaction(() => {
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
		return store.db
			.transaction(() => {
				const row = store.prepare<[string], FileRow>("SELECT * FROM files WHERE path = ?").get(file.path);
				const session = row ? store.prepare<[number], SessionRow>("SELECT id, header_id, public_id, cwd, entries FROM sessions WHERE file_id = ?").get(row.id) : undefined;
				if (row && !full && row.size === st.size && row.mtime_ms === st.mtimeMs && row.ctime_ms === st.ctimeMs && row.ino === st.ino) {
					return { kind: "unchanged", lines: 0, events: 0, bytes: 0 } as FileOutcome;
				}
				const fingerprint = { size: st.size, mtime: st.mtimeMs, ctime: st.ctimeMs, ino: st.ino };
				if (row && session && !full && row.status === "ok" && row.indexed_bytes > 0 && st.size >= row.indexed_bytes && row.parser_state) {
					const state = JSON.parse(row.parser_state) as ParserState;
					if (state.version >= 2) {
						const prefix = prefixHash(fd, row.indexed_bytes);
						if (prefix.digest === row.prefix_hash) {
							return appendFile(store, writer, fd, row, session, state, prefix.running, fingerprint);
						}
					}
				}
				return rebuildFile(store, writer, fd, file, rootId, row, session, fingerprint);
			})();
	} finally {
		closeSync(fd);
	}
}

interface Fingerprint {
	size: number;
	mtime: number;
	ctime: number;
	ino: number;
}

interface IngestState {
	seq: number;
	lines: number;
	events: number;
	skipped: number;
	duplicates: number;
	conflicting: number;
	leaf: string | null;
	name: string | null | undefined;
	firstMs: number | null;
	lastMs: number | null;
}

/** Feeds parsed lines of `fd` from `start` into a session; returns the scan end and counters. */
function consume(
	store: IndexStore,
	writer: Writer,
	fd: number,
	start: number,
	firstLine: number,
	parser: SessionParser,
	sessionRef: { id: number | null; cwd: string },
	state: IngestState,
	hash: Hash | undefined,
	onHeader: (p: SessionParser) => number | null,
): { endOffset: number; nextLineNo: number } {
	const it = completeLines(fd, start, firstLine);
	for (;;) {
		const next = it.next();
		if (next.done) return next.value;
		const line = next.value;
		if (hash) {
			hash.update(line.bytes);
			hash.update(SEP);
		}
		state.lines++;
		const outcome = parser.accept(line);
		if (outcome.kind === "header") {
			sessionRef.id = onHeader(parser);
			sessionRef.cwd = outcome.header.cwd;
			if (sessionRef.id === null) return { endOffset: line.offset, nextLineNo: line.lineNo };
			continue;
		}
		if (outcome.kind === "skip") {
			if (outcome.reason === "no-header") return { endOffset: line.offset, nextLineNo: line.lineNo };
			if (outcome.reason !== "blank" && outcome.reason !== "extra-header") state.skipped++;
			continue;
		}
		if (sessionRef.id === null) continue;
		const entry = outcome.entry;
		const ev = projectEntry(entry, sessionRef.cwd);
		const inserted = writer.insertEvent(sessionRef.id, state.seq, entry, ev);
		state.leaf = entry.id;
		if (inserted === null) {
			const existing = store.prepare<[number, string], { line_hash: string }>("SELECT line_hash FROM events WHERE session_id = ? AND entry_id = ?").get(sessionRef.id, entry.id);
			if (existing && existing.line_hash !== entry.lineHash) state.conflicting++;
			state.duplicates++;
			continue;
		}
		state.seq++;
		state.events++;
		if (ev.type === "session_info") state.name = ev.sessionName || null;
		if (ev.tsMs !== null) {
			state.firstMs = state.firstMs === null ? ev.tsMs : Math.min(state.firstMs, ev.tsMs);
			state.lastMs = state.lastMs === null ? ev.tsMs : Math.max(state.lastMs, ev.tsMs);
		}
	}
}

function finishNote(state: IngestState): string | null {
	const parts: string[] = [];
	if (state.skipped > 0) parts.push(`${state.skipped} unparseable line(s) skipped`);
	if (state.duplicates > 0) parts.push(`${state.duplicates} duplicate entr${state.duplicates === 1 ? "y" : "ies"} collapsed`);
	if (state.conflicting > 0) parts.push(`${state.conflicting} duplicate id(s) with different content (first kept)`);
	return parts.length ? parts.join("; ") : null;
}

function appendFile(
	store: IndexStore,
	writer: Writer,
	fd: number,
	row: FileRow,
	session: SessionRow,
	parserState: ParserState,
	running: Hash | undefined,
	fp: Fingerprint,
): FileOutcome {
	const seqRow = store.prepare<[number], { n: number }>("SELECT coalesce(max(seq) + 1, 0) AS n FROM events WHERE session_id = ?").get(session.id);
	const state: IngestState = { seq: seqRow?.n ?? 0, lines: 0, events: 0, skipped: 0, duplicates: 0, conflicting: 0, leaf: null, name: undefined, firstMs: null, lastMs: null };
	const parser = new SessionParser(parserState);
	const ref = { id: session.id as number | null, cwd: session.cwd };
	const end = consume(store, writer, fd, row.indexed_bytes, row.next_line, parser, ref, state, running, () => session.id);
	const newHash = end.endOffset <= FULL_HASH_LIMIT && running ? `f:${end.endOffset}:${running.digest("hex")}` : prefixHash(fd, end.endOffset).digest;
	if (state.lines > 0) {
		store
			.prepare(
				`UPDATE sessions SET leaf_entry = coalesce(?, leaf_entry), entries = entries + ?, name = CASE WHEN ? THEN ? ELSE name END,
				first_ms = min(coalesce(first_ms, ?), coalesce(?, first_ms)), last_ms = max(coalesce(last_ms, ?), coalesce(?, last_ms)) WHERE id = ?`,
			)
			.run(state.leaf, state.events, state.name !== undefined ? 1 : 0, state.name ?? null, state.firstMs, state.firstMs, state.lastMs, state.lastMs, session.id);
		reclassify(store, session.id);
	}
	const note = finishNote(state);
	store
		.prepare(
			`UPDATE files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, indexed_bytes = ?, next_line = ?, prefix_hash = ?, parser_state = ?,
			skipped_lines = skipped_lines + ?, duplicate_entries = duplicate_entries + ?, note = coalesce(?, note), indexed_at = ? WHERE id = ?`,
		)
		.run(fp.size, fp.mtime, fp.ctime, fp.ino, end.endOffset, end.nextLineNo, newHash, JSON.stringify(parser.snapshot()), state.skipped, state.duplicates, note, Date.now(), row.id);
	return { kind: state.lines > 0 ? "appended" : "unchanged", lines: state.lines, events: state.events, bytes: end.endOffset - row.indexed_bytes };
}

function rebuildFile(
	store: IndexStore,
	writer: Writer,
	fd: number,
	file: DiscoveredFile,
	rootId: number | null,
	row: FileRow | undefined,
	session: SessionRow | undefined,
	fp: Fingerprint,
): FileOutcome {
	const fileId =
		row?.id ??
		Number(
			store
				.prepare("INSERT INTO files (path, root_id, status) VALUES (?, ?, 'pending')")
				.run(file.path, rootId).lastInsertRowid,
		);
	const state: IngestState = { seq: 0, lines: 0, events: 0, skipped: 0, duplicates: 0, conflicting: 0, leaf: null, name: undefined, firstMs: null, lastMs: null };
	const parser = new SessionParser();
	const ref = { id: null as number | null, cwd: "" };
	let headerNote: string | null = null;
	const hash = createHash("sha1");
	const onHeader = (p: SessionParser): number => {
		const header = p.header as NonNullable<SessionParser["header"]>;
		if (header.notes.length) headerNote = header.notes.join("; ");
		if (session) writer.removeSession(session.id);
		const taken = store.prepare<[string], { id: number }>("SELECT id FROM sessions WHERE public_id = ?").get(header.id);
		const publicId = taken ? `${header.id}~${createHash("sha1").update(file.path).digest("hex").slice(0, 8)}` : header.id;
		return Number(
			store
				.prepare("INSERT INTO sessions (file_id, public_id, header_id, version, cwd, created, parent_path) VALUES (?, ?, ?, ?, ?, ?, ?)")
				.run(fileId, publicId, header.id, header.version, header.cwd, header.timestamp, header.parentSession).lastInsertRowid,
		);
	};
	const end = consume(store, writer, fd, 0, 1, parser, ref, state, hash, onHeader);
	if (ref.id === null) {
		// No header among the complete lines: not a session (yet). A session indexed before keeps its state (I7).
		const empty = end.endOffset === 0 && state.lines === 0;
		if (session) {
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
		return { kind: status, lines: state.lines, events: 0, bytes: end.endOffset };
	}
	store
		.prepare("UPDATE sessions SET leaf_entry = ?, entries = ?, name = ?, first_ms = ?, last_ms = ? WHERE id = ?")
		.run(state.leaf, state.events, state.name ?? null, state.firstMs, state.lastMs, ref.id);
	reclassify(store, ref.id);
	const prefix = end.endOffset <= FULL_HASH_LIMIT ? `f:${end.endOffset}:${hash.digest("hex")}` : prefixHash(fd, end.endOffset).digest;
	const note = [headerNote, finishNote(state)].filter(Boolean).join("; ") || null;
	store
		.prepare(
			`UPDATE files SET root_id = coalesce(?, root_id), size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, indexed_bytes = ?, next_line = ?, prefix_hash = ?,
			parser_state = ?, status = 'ok', note = ?, header_id = ?, skipped_lines = ?, duplicate_entries = ?, indexed_at = ? WHERE id = ?`,
		)
		.run(
			rootId,
			fp.size,
			fp.mtime,
			fp.ctime,
			fp.ino,
			end.endOffset,
			end.nextLineNo,
			prefix,
			JSON.stringify(parser.snapshot()),
			note,
			parser.header?.id ?? null,
			state.skipped,
			state.duplicates,
			Date.now(),
			fileId,
		);
	return { kind: row && session ? "rebuilt" : "added", lines: state.lines, events: state.events, bytes: end.endOffset };
}

/**
 * Gives every session its public id. A session id claimed by several files (pi's /export and /import copy it) is
 * never merged: the file whose path sorts first keeps the plain id, every other one is `<id>~<8 hex of its path>`.
 */
export function assignPublicIds(store: IndexStore): void {
	const groups = store
		.prepare<[], { header_id: string }>("SELECT header_id FROM sessions GROUP BY header_id HAVING count(*) > 1 OR sum(public_id <> header_id) > 0")
		.all();
	for (const { header_id } of groups) {
		const members = store
			.prepare<[string], { id: number; public_id: string; path: string }>(
				"SELECT s.id, s.public_id, f.path FROM sessions s JOIN files f ON f.id = s.file_id WHERE s.header_id = ? ORDER BY f.path",
			)
			.all(header_id);
		const wanted = members.map((m, i) => (i === 0 ? header_id : `${header_id}~${createHash("sha1").update(m.path).digest("hex").slice(0, 8)}`));
		if (members.every((m, i) => m.public_id === wanted[i])) continue;
		for (const m of members) store.prepare("UPDATE sessions SET public_id = ? WHERE id = ?").run(`\u0000${m.id}`, m.id);
		members.forEach((m, i) => store.prepare("UPDATE sessions SET public_id = ? WHERE id = ?").run(wanted[i], m.id));
	}
}

/** Resolves `parentSession` paths to indexed sessions: by path, else by file name, else by the session id in the name. */
export function resolveParents(store: IndexStore): void {
	const children = store.prepare<[], { id: number; parent_path: string; parent_session: number | null }>("SELECT id, parent_path, parent_session FROM sessions WHERE parent_path IS NOT NULL").all();
	if (children.length === 0) return;
	const all = store.prepare<[], { id: number; path: string; header_id: string }>("SELECT s.id, f.path, s.header_id FROM sessions s JOIN files f ON f.id = s.file_id ORDER BY f.path").all();
	const byPath = new Map(all.map((s) => [s.path, s.id]));
	const byName = new Map<string, number>();
	const byHeader = new Map<string, number>();
	for (const s of all) {
		const name = basename(s.path);
		if (!byName.has(name)) byName.set(name, s.id);
		if (!byHeader.has(s.header_id)) byHeader.set(s.header_id, s.id);
	}
	const update = store.prepare("UPDATE sessions SET parent_session = ? WHERE id = ?");
	for (const child of children) {
		const name = child.parent_path.split(/[\\/]/).pop() ?? "";
		const idInName = /_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name)?.[1];
		let parent = byPath.get(child.parent_path) ?? byName.get(name) ?? (idInName ? byHeader.get(idInName) : undefined) ?? null;
		if (parent === child.id) parent = null;
		if (parent !== child.parent_session) update.run(parent, child.id);
	}
}

function upsertRoots(store: IndexStore, observations: RootObservation[]): Map<string, number> {
	const ids = new Map<string, number>();
	const now = Date.now();
	for (const obs of observations) {
		store
			.prepare("INSERT INTO roots (path, kind, present, observed_at) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET kind = excluded.kind, present = excluded.present, observed_at = excluded.observed_at")
			.run(obs.root.path, obs.root.kind, obs.present ? 1 : 0, now);
		const row = store.prepare<[string], { id: number }>("SELECT id FROM roots WHERE path = ?").get(obs.root.path);
		if (row) ids.set(obs.root.path, row.id);
	}
	return ids;
}

/** True for SQLite's "another connection holds the write lock" errors. */
export function isBusyError(error: unknown): boolean {
	const code = (error as { code?: string } | null)?.code ?? "";
	return code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY") || code === "SQLITE_LOCKED";
}

/** Brings the index in line with the session files under `roots` (DESIGN §4, I5–I9). */
export function refresh(store: IndexStore, roots: SourceRoot[], options: RefreshOptions = {}): RefreshSummary {
	const started = Date.now();
	const summary: RefreshSummary = {
		files: 0,
		filesChanged: 0,
		sessionsAdded: 0,
		sessionsRebuilt: 0,
		sessionsAppended: 0,
		sessionsRemoved: 0,
		linesIngested: 0,
		eventsIngested: 0,
		bytesRead: 0,
		errors: [],
		notes: [],
		pending: 0,
		ms: 0,
	};
	if (store.readonly) {
		summary.notes.push("the index is open read-only; not refreshed");
		return summary;
	}
	const { files, observations } = discover(roots);
	summary.files = files.length;
	for (const obs of observations) {
		if (!obs.present && obs.root.kind !== "custom") continue;
		if (!obs.present) summary.notes.push(`session dir ${obs.root.path} is not available (${obs.error ?? "missing"}); its sessions are kept`);
	}
	let rootIds: Map<string, number>;
	try {
		rootIds = store.db.transaction(() => upsertRoots(store, observations)).immediate();
	} catch (error) {
		if (isBusyError(error)) {
			summary.busy = true;
			summary.notes.push("index busy: another process is writing it; searched what is indexed");
			summary.ms = Date.now() - started;
			return summary;
		}
		throw error;
	}
	const known = new Map(
		store
			.prepare<[], { path: string; size: number; mtime_ms: number; ctime_ms: number; ino: number; root_id: number | null; id: number }>(
				"SELECT id, path, size, mtime_ms, ctime_ms, ino, root_id FROM files",
			)
			.all()
			.map((r) => [r.path, r]),
	);
	const changed = files.filter((f) => {
		const r = known.get(f.path);
		return options.full || !r || r.size !== f.size || r.mtime_ms !== f.mtimeMs || r.ctime_ms !== f.ctimeMs || r.ino !== f.ino;
	});
	const priority = new Set(options.priority ?? []);
	changed.sort((a, b) => Number(priority.has(b.path)) - Number(priority.has(a.path)) || b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
	const bytesTotal = changed.reduce((n, f) => n + f.size, 0);
	const progress: RefreshProgress = { phase: "ingest", filesDone: 0, filesTotal: changed.length, bytesDone: 0, bytesTotal, startedAt: started };
	options.onProgress?.(progress);
	const writer = new Writer(store);
	let touched = false;
	const overBudget = () => options.budgetMs !== undefined && Date.now() - started > options.budgetMs;
	const record = (file: DiscoveredFile, outcome: FileOutcome) => {
		progress.filesDone++;
		progress.bytesDone += file.size;
		if (outcome.kind !== "unchanged") summary.filesChanged++;
		if (outcome.kind === "error") summary.errors.push({ file: file.path, error: outcome.error ?? "error" });
		if (outcome.kind === "kept" && outcome.note) summary.notes.push(`${file.path}: ${outcome.note}`);
		if (outcome.kind === "added") summary.sessionsAdded++;
		if (outcome.kind === "rebuilt") summary.sessionsRebuilt++;
		if (outcome.kind === "appended") summary.sessionsAppended++;
		if (outcome.kind === "added" || outcome.kind === "rebuilt" || outcome.kind === "appended") touched = true;
		summary.linesIngested += outcome.lines;
		summary.eventsIngested += outcome.events;
		summary.bytesRead += outcome.bytes;
	};
	// Several files share one write transaction (each in its own savepoint): FTS5 flushes a segment per commit, so
	// per-file commits would spend most of a cold index merging tiny segments. Batches stay short so other writers
	// and the progress display get their turn.
	const batch = store.db.transaction((from: number): number => {
		const batchStarted = Date.now();
		let bytes = 0;
		let i = from;
		while (i < changed.length) {
			const file = changed[i] as DiscoveredFile;
			let outcome: FileOutcome;
			try {
				outcome = ingestFile(store, writer, file, rootIds.get(file.root) ?? null, options.full === true);
			} catch (error) {
				if (isBusyError(error)) throw error;
				outcome = { kind: "error", lines: 0, events: 0, bytes: 0, error: `indexing failed: ${(error as Error).message}` };
			}
			record(file, outcome);
			i++;
			bytes += file.size;
			if (bytes >= BATCH_BYTES || Date.now() - batchStarted >= BATCH_MS || overBudget()) break;
		}
		return i;
	});
	let next = 0;
	while (next < changed.length) {
		if (overBudget()) break;
		try {
			next = batch.immediate(next);
		} catch (error) {
			if (!isBusyError(error)) throw error;
			summary.busy = true;
			summary.notes.push("index busy: another process is writing it; the rest waits for the next refresh");
			break;
		}
		options.onProgress?.(progress);
	}
	summary.pending = changed.length - next;

	// Removal only where the root was observed, the directory was readable, and the file is really gone (I9).
	if (!summary.busy) {
		const discovered = new Set(files.map((f) => f.path));
		const obsByRootId = new Map<number, RootObservation>();
		for (const obs of observations) {
			const id = rootIds.get(obs.root.path);
			if (id !== undefined) obsByRootId.set(id, obs);
		}
		const writerTx = store.db.transaction((row: { id: number; path: string }) => {
			const session = store.prepare<[number], { id: number }>("SELECT id FROM sessions WHERE file_id = ?").get(row.id);
			if (session) {
				writer.removeSession(session.id);
				summary.sessionsRemoved++;
			}
			store.prepare("DELETE FROM files WHERE id = ?").run(row.id);
		});
		for (const row of known.values()) {
			if (discovered.has(row.path) || row.root_id === null) continue;
			const obs = obsByRootId.get(row.root_id);
			if (!obs || !obs.present || underUnreadable(row.path, obs)) continue;
			if (existsSync(row.path)) continue;
			try {
				writerTx.immediate(row);
				touched = true;
			} catch (error) {
				if (!isBusyError(error)) throw error;
				summary.busy = true;
				break;
			}
		}
	}
	if (touched) {
		try {
			store.db
				.transaction(() => {
					assignPublicIds(store);
					resolveParents(store);
				})
				.immediate();
		} catch (error) {
			if (!isBusyError(error)) throw error;
			summary.busy = true;
		}
	}
	if (!summary.busy && summary.pending === 0) {
		try {
			store.db.transaction(() => store.setMeta("freshAt", new Date().toISOString())).immediate();
		} catch (error) {
			if (!isBusyError(error)) throw error;
		}
	}
	progress.phase = "done";
	options.onProgress?.(progress);
	summary.ms = Date.now() - started;
	return summary;
}
