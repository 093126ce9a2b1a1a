/**
 * A commit whose checkpoint runs off the host's event loop. SQLite checkpoints in the committing call once the WAL
 * passes its threshold, copying every page the transaction wrote into the database file: after a whole classification
 * held across turns (refresh-sliced.ts) that is the session's size, in one turn of pi's event loop. Here the committing
 * connection pauses its automatic checkpoints, a worker thread checkpoints through its own connection, and the
 * automatic checkpoints resume when it is done. This module is both the worker's entry point and the function that
 * starts it.
 */
import { isMainThread, Worker, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const KIND = "pi-event-search-checkpoint";

interface WorkerInput {
	kind: typeof KIND;
	file: string;
}

/** Per connection: its automatic checkpoint threshold (pages) before the first pause, and the workers still running. */
const paused = new WeakMap<Database.Database, { pages: number; running: number }>();

/**
 * The worker script: this file when it runs as compiled JavaScript; null when it runs as TypeScript source (under
 * vitest), which a worker thread cannot load: then the commit checkpoints as usual.
 */
export function checkpointScript(): URL | null {
	const self = new URL(import.meta.url);
	// Named from dist/src/<folder>/, so the CLI's bundle (dist/src/pack/) starts this compiled module, not its chunk.
	return self.pathname.endsWith(".js") ? new URL("../index/checkpoint-aside.js", self) : null;
}

/** Commits the open transaction of `db`; the checkpoint the commit would run goes to a worker thread when there is one. */
export function commitAside(db: Database.Database, script: URL | null = checkpointScript()): void {
	if (!script || db.memory) {
		db.exec("COMMIT");
		return;
	}
	const state = paused.get(db) ?? { pages: db.pragma("wal_autocheckpoint", { simple: true }) as number, running: 0 };
	paused.set(db, state);
	db.pragma("wal_autocheckpoint = 0");
	state.running++;
	const done = () => {
		if (--state.running > 0) return;
		paused.delete(db);
		if (db.open) db.pragma(`wal_autocheckpoint = ${state.pages}`);
	};
	try {
		db.exec("COMMIT");
	} catch (error) {
		done();
		throw error;
	}
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
	const db = new Database(input.file, { fileMustExist: true });
	try {
		db.pragma("wal_checkpoint(PASSIVE)");
	} finally {
		db.close();
	}
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.kind === KIND) checkpointHere(workerData as WorkerInput);
