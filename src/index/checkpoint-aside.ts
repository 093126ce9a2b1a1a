/**
 * Checkpoints off the host's event loop. SQLite checkpoints in the committing call once the WAL passes its threshold,
 * copying every page written since into the database file and syncing both files: after a whole classification held
 * across turns (refresh-sliced.ts) that is thousands of pages, and each sync alone can take a disk's latency, in one
 * turn of pi's event loop. Here the committing connection pauses its automatic checkpoints, a worker thread
 * checkpoints through its own connection, and the automatic checkpoints resume when it is done. Every pause of them
 * goes through pauseCheckpoints, so pauses that overlap (a worker still copying while summary runs go on) resume them
 * once, as they were. This module is both the worker's entry point and the function that starts it.
 */
import { isMainThread, Worker, workerData } from "node:worker_threads";
import type Database from "better-sqlite3";
import { openDatabase } from "./sqlite.js";

const KIND = "pi-event-search-checkpoint";

interface WorkerInput {
	kind: typeof KIND;
	file: string;
}

/** Per connection: its automatic checkpoint threshold (pages) before the first pause, and the pauses not released. */
const paused = new WeakMap<Database.Database, { pages: number; count: number }>();

/** Pauses SQLite's automatic checkpoints on `db` until this and every other pause is released; returns the release. */
export function pauseCheckpoints(db: Database.Database): () => void {
	let state = paused.get(db);
	if (!state) {
		state = { pages: db.pragma("wal_autocheckpoint", { simple: true }) as number, count: 0 };
		paused.set(db, state);
		db.pragma("wal_autocheckpoint = 0");
	}
	state.count++;
	let released = false;
	const held = state;
	return () => {
		if (released) return;
		released = true;
		if (--held.count > 0) return;
		paused.delete(db);
		if (db.open) db.pragma(`wal_autocheckpoint = ${held.pages}`);
	};
}

/**
 * The worker script: this file when it runs as compiled JavaScript; null when it runs as TypeScript source (under
 * vitest), which a worker thread cannot load: then the commit checkpoints as usual.
 */
export function checkpointScript(): URL | null {
	const self = new URL(import.meta.url);
	// Named from dist/src/<folder>/, so the CLI's bundle (dist/src/pack/) starts this compiled module, not its chunk.
	return self.pathname.endsWith(".js") ? new URL("../index/checkpoint-aside.js", self) : null;
}

/** Commits the open transaction of `db`; the checkpoint the commit would run goes to a worker thread (checkpointAside). */
export function commitAside(db: Database.Database, script: URL | null = checkpointScript()): void {
	if (!script || db.memory) {
		db.exec("COMMIT");
		return;
	}
	const resume = pauseCheckpoints(db);
	try {
		db.exec("COMMIT");
		checkpointAside(db, script);
	} finally {
		resume();
	}
}

/** Connections with a checkpoint worker running, and whether another was asked for since it started. */
const aside = new WeakMap<Database.Database, { again: boolean }>();

/**
 * Copies the WAL into the database file in a worker thread, automatic checkpoints paused until it is done; with one
 * running, another starts when it ends (it may have started before the last commit). Without a worker script (the
 * TypeScript sources), a passive checkpoint here.
 */
export function checkpointAside(db: Database.Database, script: URL | null = checkpointScript()): void {
	if (!script || db.memory) {
		db.pragma("wal_checkpoint(PASSIVE)");
		return;
	}
	const running = aside.get(db);
	if (running) {
		running.again = true;
		return;
	}
	const state = { again: false };
	aside.set(db, state);
	const resume = pauseCheckpoints(db);
	const done = () => {
		aside.delete(db);
		resume();
		if (state.again && db.open) checkpointAside(db, script);
	};
	try {
		const worker = new Worker(script, { workerData: { kind: KIND, file: db.name } satisfies WorkerInput });
		// A process that ends first leaves the WAL to the next checkpoint: SQLite's checkpoints survive being cut short.
		worker.unref();
		worker.on("error", () => undefined);
		worker.on("exit", done);
	} catch {
		done();
	}
}

/** In the worker: one passive checkpoint (it never waits for readers or writers) through a connection of its own. */
function checkpointHere(input: WorkerInput): void {
	const db = openDatabase(input.file, { fileMustExist: true });
	try {
		db.pragma("wal_checkpoint(PASSIVE)");
	} finally {
		db.close();
	}
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.kind === KIND) checkpointHere(workerData as WorkerInput);
