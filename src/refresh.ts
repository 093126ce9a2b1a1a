/**
 * Refresh: brings the index in line with the session files under the roots (DESIGN §4, I5–I9): discovery,
 * batched ingest of changed files, removal of files that are really gone, public ids and session lineage.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { SourceRoot } from "./config.js";
import { type DiscoveredFile, discover, type RootObservation, underUnreadable } from "./discover.js";
import { type FileOutcome, ingestFile } from "./ingest.js";
import type { RefreshProgress, RefreshSummary } from "./model.js";
import { SessionWriter } from "./session-writer.js";
import type { IndexStore } from "./store.js";

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

const BATCH_BYTES = 32 * 1024 * 1024;
const BATCH_MS = 1000;

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
	const writer = new SessionWriter(store);
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
