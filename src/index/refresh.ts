/**
 * Refresh: brings the index in line with the session files under the roots (DESIGN §4, I5–I9): discovery,
 * batched ingest of changed files, removal of files that are really gone, public ids and session lineage.
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import type { ScanResult } from "../project/file-scan.js";
import { ScanWorker } from "../project/scan-thread.js";
import type { SourceRoot } from "../shared/config.js";
import type { RefreshProgress, RefreshSummary } from "../shared/types.js";
import { type DiscoveredFile, discover, type RootObservation, underUnreadable } from "../source/discover.js";
import { sameFingerprint } from "../source/fingerprint.js";
import { applyScan, type FileOutcome, ingestFile, type PlanBasis, planBasis, planFile, sameBasis, shortHash } from "./ingest.js";
import { SessionWriter } from "./session-writer.js";
import { type IndexStore, isBusyError } from "./store.js";

/** Options of a refresh. */
export interface RefreshOptions {
	/** Rebuild every file instead of trusting fingerprints. */
	full?: boolean;
	/** Stop starting new files after this many milliseconds; the rest is reported as pending. */
	budgetMs?: number;
	onProgress?: (progress: RefreshProgress) => void;
	/** Files to ingest before all others (e.g. the caller's own session). */
	priority?: string[];
	/** refreshPipelined: start a reader thread only for at least this many bytes of changed files. */
	workerThresholdBytes?: number;
}

const BATCH_BYTES = 32 * 1024 * 1024;
const BATCH_MS = 1000;

/**
 * Gives every session its public id. A session id claimed by several files (pi's /export and /import copy it) is
 * never merged: the file whose path sorts first keeps the plain id, every other one is `<id>~<8 hex of its path>`.
 */
export function assignPublicIds(store: IndexStore): void {
	const conflicted = store
		.prepare<[], { n: number }>(
			"SELECT count(*) AS n FROM (SELECT header_id FROM sessions GROUP BY header_id HAVING count(*) > 1 OR sum(public_id <> header_id) > 0)",
		)
		.get();
	if (!conflicted?.n) return;
	// Decided over all sessions at once, so the result depends only on the set of files (a fresh build agrees):
	// every header id goes to the first file claiming it; the others get derived ids that avoid every id in use,
	// even a hostile header id that looks like a derived one.
	const all = store
		.prepare<[], { id: number; public_id: string; header_id: string; path: string }>(
			"SELECT s.id, s.public_id, s.header_id, f.path FROM sessions s JOIN files f ON f.id = s.file_id ORDER BY s.header_id, f.path",
		)
		.all();
	const used = new Set<string>();
	const wanted = new Map<number, string>();
	const rest: typeof all = [];
	for (const s of all) {
		if (!used.has(s.header_id)) {
			used.add(s.header_id);
			wanted.set(s.id, s.header_id);
		} else rest.push(s);
	}
	for (const s of rest) {
		let candidate = `${s.header_id}~${shortHash(s.path)}`;
		for (let n = 1; used.has(candidate); n++) candidate = `${s.header_id}~${shortHash(`${s.path}#${n}`)}`;
		used.add(candidate);
		wanted.set(s.id, candidate);
	}
	const changed = all.filter((s) => s.public_id !== wanted.get(s.id));
	for (const s of changed) store.prepare("UPDATE sessions SET public_id = ? WHERE id = ?").run(`\u0000${s.id}`, s.id);
	for (const s of changed) store.prepare("UPDATE sessions SET public_id = ? WHERE id = ?").run(wanted.get(s.id) as string, s.id);
}

/**
 * Session ids a pi file name may carry: `<timestamp>_<id>.jsonl`, where since pi 0.76 the id may be a custom one
 * (`[A-Za-z0-9._-]`, not a UUID), and `/import` on a clash appends `-N` to the name. Most likely first.
 */
export function idsInName(name: string): string[] {
	const m = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9-]+Z_([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\.jsonl$/.exec(name);
	if (!m) return [];
	const id = m[1] as string;
	const clash = /^(.+)-[0-9]+$/.exec(id)?.[1];
	return clash ? [id, clash] : [id];
}

/** Resolves `parentSession` paths to indexed sessions: by path, else by file name, else by the session id in the name. */
export function resolveParents(store: IndexStore): void {
	const children = store
		.prepare<[], { id: number; parent_path: string; parent_session: number | null }>(
			"SELECT id, parent_path, parent_session FROM sessions WHERE parent_path IS NOT NULL",
		)
		.all();
	if (children.length === 0) return;
	const all = store
		.prepare<[], { id: number; path: string; header_id: string }>(
			"SELECT s.id, f.path, s.header_id FROM sessions s JOIN files f ON f.id = s.file_id ORDER BY f.path",
		)
		.all();
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
		let parent =
			byPath.get(child.parent_path) ??
			byName.get(name) ??
			idsInName(name).reduce<number | undefined>((found, id) => found ?? byHeader.get(id), undefined) ??
			null;
		if (parent === child.id) parent = null;
		if (parent !== child.parent_session) update.run(parent, child.id);
	}
}

/** The indexed files rows, by path: what discovery is compared with. */
function knownFiles(store: IndexStore): Map<string, KnownFile> {
	const rows = store.prepare<[], KnownFile>("SELECT id, path, size, mtime_ms, ctime_ms, ino, root_id FROM files").all();
	return new Map(rows.map((r) => [r.path, r]));
}

interface KnownFile {
	id: number;
	path: string;
	size: number;
	mtime_ms: number;
	ctime_ms: number;
	ino: number;
	root_id: number | null;
}

/** Discovered files whose fingerprint differs from the index (all of them with `full`). */
function changedFiles(files: DiscoveredFile[], known: Map<string, KnownFile>, full: boolean): DiscoveredFile[] {
	return full ? [...files] : files.filter((f) => !sameFingerprint(known.get(f.path), f));
}

/** Number of session files under `roots` that a refresh would read (a discovery pass, no parsing). */
export function countPending(store: IndexStore, roots: SourceRoot[]): number {
	return changedFiles(discover(roots).files, knownFiles(store), false).length;
}

function upsertRoots(store: IndexStore, observations: RootObservation[]): Map<string, number> {
	const ids = new Map<string, number>();
	const now = Date.now();
	for (const obs of observations) {
		store
			.prepare(
				"INSERT INTO roots (path, kind, present, observed_at) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET kind = excluded.kind, present = excluded.present, observed_at = excluded.observed_at",
			)
			.run(obs.root.path, obs.root.kind, obs.present ? 1 : 0, now);
		const row = store.prepare<[string], { id: number }>("SELECT id FROM roots WHERE path = ?").get(obs.root.path);
		if (row) ids.set(obs.root.path, row.id);
	}
	return ids;
}

/** One refresh from discovery to the freshness stamp; ingest runs synchronously or pipelined through a worker. */
class RefreshRun {
	readonly started = Date.now();
	readonly summary: RefreshSummary = {
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
	readonly writer: SessionWriter;
	files: DiscoveredFile[] = [];
	observations: RootObservation[] = [];
	rootIds = new Map<string, number>();
	known = new Map<string, KnownFile>();
	changed: DiscoveredFile[] = [];
	progress: RefreshProgress;
	touched = false;
	done = 0;

	constructor(
		readonly store: IndexStore,
		readonly roots: SourceRoot[],
		readonly options: RefreshOptions,
	) {
		this.writer = new SessionWriter(store);
		this.progress = { phase: "discover", filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, startedAt: this.started };
	}

	/** Discovers files and decides which changed; false when the refresh cannot start (read-only, busy). */
	prepare(): boolean {
		const { store, summary, options } = this;
		if (store.readonly) {
			summary.notes.push("the index is open read-only; not refreshed");
			return false;
		}
		const { files, observations } = discover(this.roots);
		this.files = files;
		this.observations = observations;
		summary.files = files.length;
		for (const obs of observations) {
			if (!obs.present && obs.root.kind !== "default")
				summary.notes.push(`session dir ${obs.root.path} is not available (${obs.error ?? "missing"}); its sessions are kept`);
			for (const dir of obs.unreadable) summary.notes.push(`cannot list ${dir}; its sessions are kept as last indexed`);
		}
		const unreadable = JSON.stringify(observations.flatMap((o) => o.unreadable));
		try {
			this.rootIds = store.db
				.transaction(() => {
					// status lists them until a refresh can read them again.
					store.setMeta("unreadableDirs", unreadable);
					return upsertRoots(store, observations);
				})
				.immediate();
		} catch (error) {
			if (!isBusyError(error)) throw error;
			summary.busy = true;
			summary.notes.push("index busy: another process is writing it; searched what is indexed");
			return false;
		}
		this.known = knownFiles(store);
		this.changed = changedFiles(files, this.known, options.full === true);
		const priority = new Set(options.priority ?? []);
		this.changed.sort((a, b) => Number(priority.has(b.path)) - Number(priority.has(a.path)) || b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
		this.progress = {
			phase: "ingest",
			filesDone: 0,
			filesTotal: this.changed.length,
			bytesDone: 0,
			bytesTotal: this.changed.reduce((n, f) => n + f.size, 0),
			startedAt: this.started,
		};
		options.onProgress?.(this.progress);
		return true;
	}

	overBudget(): boolean {
		return this.options.budgetMs !== undefined && Date.now() - this.started > this.options.budgetMs;
	}

	record(file: DiscoveredFile, outcome: FileOutcome): void {
		const { summary, progress } = this;
		progress.filesDone++;
		progress.bytesDone += file.size;
		if (outcome.kind !== "unchanged") summary.filesChanged++;
		if (outcome.kind === "error") summary.errors.push({ file: file.path, error: outcome.error ?? "error" });
		if (outcome.note) summary.notes.push(`${file.path}: ${outcome.note}`);
		if (outcome.kind === "added") summary.sessionsAdded++;
		if (outcome.kind === "rebuilt") summary.sessionsRebuilt++;
		if (outcome.kind === "appended") summary.sessionsAppended++;
		summary.linesIngested += outcome.lines;
		summary.eventsIngested += outcome.events;
		summary.bytesRead += outcome.bytes;
	}

	// A batch's outcomes count only once its transaction committed; a failed batch is rolled back whole and its
	// files are done again one per transaction, so that only a failing file is lost (and says why).
	private batchStart = 0;
	private batchOutcomes: Array<[DiscoveredFile, FileOutcome]> = [];
	private touchedAtBatchStart = false;

	private beginBatch(): void {
		this.batchStart = this.done;
		this.batchOutcomes = [];
		this.touchedAtBatchStart = this.touched;
	}

	private committed(): void {
		for (const [file, outcome] of this.batchOutcomes) this.record(file, outcome);
		this.batchOutcomes = [];
		this.options.onProgress?.(this.progress);
	}

	private rolledBack(): void {
		this.done = this.batchStart;
		this.touched = this.touchedAtBatchStart;
		this.batchOutcomes = [];
	}

	/** Does one file's work inside the open write transaction; a throw means the caller rolls the batch back. */
	apply(file: DiscoveredFile, work: () => FileOutcome): void {
		const outcome = work();
		if (outcome.kind === "added" || outcome.kind === "rebuilt" || outcome.kind === "appended") {
			// Written in the same transaction as the change: a refresh killed before the linking step below
			// leaves the flag set, and the next refresh links even if it has nothing else to do.
			if (!this.touched) this.store.setMeta("linked", "0");
			this.touched = true;
		}
		this.batchOutcomes.push([file, outcome]);
		this.done++;
	}

	/** Redoes files [done, until) one per transaction after a failed batch; false when the index is busy. */
	private isolate(until: number): boolean {
		const full = this.options.full === true;
		while (this.done < until) {
			const file = this.changed[this.done] as DiscoveredFile;
			this.beginBatch();
			try {
				this.store.db
					.transaction(() => this.apply(file, () => ingestFile(this.store, this.writer, file, this.rootIds.get(file.root) ?? null, full)))
					.immediate();
				this.committed();
			} catch (error) {
				this.rolledBack();
				if (isBusyError(error)) return this.busy();
				this.record(file, { kind: "error", lines: 0, events: 0, bytes: 0, error: `indexing failed: ${(error as Error).message}` });
				this.done++;
			}
		}
		return true;
	}

	private busy(): false {
		this.summary.busy = true;
		this.summary.notes.push("index busy: another process is writing it; the rest waits for the next refresh");
		return false;
	}

	/**
	 * Runs one batch in a write transaction. Several files share a transaction: FTS5 flushes a segment per commit
	 * (and per savepoint), so per-file commits would spend most of a cold index merging tiny segments. Batches stay
	 * short so other writers and the progress display get their turn. False when the index is busy.
	 */
	batch(step: () => boolean): boolean {
		this.beginBatch();
		try {
			this.store.db
				.transaction(() => {
					const batchStarted = Date.now();
					let bytes = 0;
					while (this.done < this.changed.length) {
						const size = (this.changed[this.done] as DiscoveredFile).size;
						if (!step()) break;
						bytes += size;
						if (bytes >= BATCH_BYTES || Date.now() - batchStarted >= BATCH_MS || this.overBudget()) break;
					}
				})
				.immediate();
		} catch (error) {
			const failedAt = this.done;
			this.rolledBack();
			if (isBusyError(error)) return this.busy();
			return this.isolate(failedAt + 1);
		}
		this.committed();
		return true;
	}

	/** Reads and writes every changed file on this thread. */
	ingestSync(): void {
		const full = this.options.full === true;
		while (this.done < this.changed.length && !this.overBudget()) {
			const ok = this.batch(() => {
				const file = this.changed[this.done] as DiscoveredFile;
				this.apply(file, () => ingestFile(this.store, this.writer, file, this.rootIds.get(file.root) ?? null, full));
				return true;
			});
			if (!ok) break;
		}
	}

	/** Reads files in a worker while this thread writes what was read; plans are re-checked before they are applied. */
	async ingestPipelined(scanner: ScanWorker): Promise<void> {
		const full = this.options.full === true;
		const n = this.changed.length;
		const bases = this.changed.map((f) => planBasis(this.store, f.path));
		const pending: Array<Promise<ScanResult> | undefined> = new Array(n);
		let submitted = 0;
		let inflight = 0;
		const submit = () => {
			while (submitted < n && (inflight < MAX_INFLIGHT_BYTES || submitted === this.done)) {
				const i = submitted++;
				const file = this.changed[i] as DiscoveredFile;
				inflight += file.size;
				pending[i] = scanner.scan(planFile(file.path, bases[i] as PlanBasis, full));
				// Awaited later, in order; a rejection must not count as unhandled meanwhile.
				pending[i]?.catch(() => undefined);
			}
		};
		submit();
		// One write transaction stays open across the awaits for the reader, and commits by size or time like the
		// synchronous batches: committing whenever the next file was not read yet cost a commit (an FTS5 segment
		// flush) per file.
		const db = this.store.db;
		let open = false;
		let batchBytes = 0;
		let batchStarted = 0;
		const commit = () => {
			db.exec("COMMIT");
			open = false;
			this.committed();
		};
		while (this.done < n && !this.overBudget()) {
			let scan: ScanResult;
			try {
				scan = await (pending[this.done] as Promise<ScanResult>);
			} catch {
				// The worker died (out of memory, killed): read the rest on this thread.
				if (open) commit();
				this.ingestSync();
				return;
			}
			if (!open) {
				try {
					db.exec("BEGIN IMMEDIATE");
				} catch (error) {
					if (!isBusyError(error)) throw error;
					this.busy();
					break;
				}
				open = true;
				this.beginBatch();
				batchBytes = 0;
				batchStarted = Date.now();
			}
			const i = this.done;
			const file = this.changed[i] as DiscoveredFile;
			const rootId = this.rootIds.get(file.root) ?? null;
			try {
				this.apply(file, () => {
					const now = planBasis(this.store, file.path);
					// Another process may have indexed this file since the plan was made: then read it again here.
					if (!sameBasis(now, bases[i] as PlanBasis)) return ingestFile(this.store, this.writer, file, rootId, full);
					return applyScan(this.store, this.writer, file, rootId, now, scan, full);
				});
			} catch (error) {
				db.exec("ROLLBACK");
				open = false;
				this.rolledBack();
				if (isBusyError(error) || !this.isolate(i + 1)) break;
			}
			inflight -= file.size;
			pending[i] = undefined;
			batchBytes += file.size;
			if (open && (batchBytes >= BATCH_BYTES || Date.now() - batchStarted >= BATCH_MS || this.overBudget())) commit();
			submit();
		}
		if (open) commit();
	}

	/** Ends a refresh that could not start. */
	stop(): RefreshSummary {
		this.summary.ms = Date.now() - this.started;
		return this.summary;
	}

	/** Removals, public ids, lineage and the freshness stamp. */
	finish(): RefreshSummary {
		const { store, summary } = this;
		summary.pending = this.changed.length - this.done;
		// Removal only where the root was observed, the directory was readable, and the file is really gone (I9).
		if (!summary.busy) {
			const discovered = new Set(this.files.map((f) => f.path));
			const obsByRootId = new Map<number, RootObservation>();
			for (const obs of this.observations) {
				const id = this.rootIds.get(obs.root.path);
				if (id !== undefined) obsByRootId.set(id, obs);
			}
			const remove = store.db.transaction((row: { id: number; path: string }) => {
				const session = store.prepare<[number], { id: number }>("SELECT id FROM sessions WHERE file_id = ?").get(row.id);
				if (session) {
					this.writer.removeSession(session.id);
					summary.sessionsRemoved++;
				}
				store.prepare("DELETE FROM files WHERE id = ?").run(row.id);
				store.setMeta("linked", "0");
			});
			for (const row of this.known.values()) {
				if (discovered.has(row.path) || row.root_id === null) continue;
				const obs = obsByRootId.get(row.root_id);
				if (!obs?.present || underUnreadable(row.path, obs)) continue;
				// Only a regular file that discovery missed (created meanwhile) is kept: a directory, FIFO, device or a
				// symlink to one at a session path is no session, exactly as a fresh build sees it.
				if (isRegularFile(row.path)) continue;
				try {
					remove.immediate(row);
					this.touched = true;
				} catch (error) {
					if (!isBusyError(error)) throw error;
					summary.busy = true;
					break;
				}
			}
		}
		try {
			if (this.touched || store.meta("linked") === "0") {
				store.db
					.transaction(() => {
						assignPublicIds(store);
						resolveParents(store);
						store.setMeta("linked", "1");
					})
					.immediate();
			}
			if (!summary.busy && summary.pending === 0) store.db.transaction(() => store.setMeta("freshAt", new Date().toISOString())).immediate();
		} catch (error) {
			if (!isBusyError(error)) throw error;
			summary.busy = true;
		}
		this.progress.phase = "done";
		this.options.onProgress?.(this.progress);
		summary.ms = Date.now() - this.started;
		return summary;
	}
}

function isRegularFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/** Work below this is not worth starting a worker thread for. */
const PIPELINE_MIN_BYTES = 8 * 1024 * 1024;
/** Bytes of files read ahead of the writer, at most: scans hold their FTS text until written (peak RSS 256–284 MB at 4 MB). */
const MAX_INFLIGHT_BYTES = 4 * 1024 * 1024;

/** Brings the index in line with the session files under `roots`, on this thread (DESIGN §4, I5–I9). */
export function refresh(store: IndexStore, roots: SourceRoot[], options: RefreshOptions = {}): RefreshSummary {
	const run = new RefreshRun(store, roots, options);
	if (!run.prepare()) return run.stop();
	run.ingestSync();
	return run.finish();
}

/** Like refresh(), but large work reads files in a worker thread while this thread writes the index. */
export async function refreshPipelined(store: IndexStore, roots: SourceRoot[], options: RefreshOptions = {}): Promise<RefreshSummary> {
	const run = new RefreshRun(store, roots, options);
	if (!run.prepare()) return run.stop();
	const scanner = run.progress.bytesTotal >= (options.workerThresholdBytes ?? PIPELINE_MIN_BYTES) ? ScanWorker.create() : null;
	if (scanner) {
		try {
			await run.ingestPipelined(scanner);
		} finally {
			await scanner.close();
		}
	} else {
		run.ingestSync();
	}
	return run.finish();
}
