/**
 * Checkpoints off the host's event loop. SQLite checkpoints in the committing call once the WAL passes its threshold,
 * copying every page written since into the database file and syncing both files: after a whole classification held
 * across turns (refresh-sliced.ts) that is thousands of pages, and each sync alone can take a disk's latency, in one
 * turn of pi's event loop. Here the committing connection pauses its automatic checkpoints, a worker thread (kept
 * while checkpoints keep coming) checkpoints through its own connection, and the automatic checkpoints resume when it
 * is done. Every pause of them goes through pauseCheckpoints, so pauses that overlap (a worker still copying while
 * summary runs go on) resume them once, as they were. This module is both the worker's entry point and the function
 * that starts it.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type Database from "better-sqlite3";
import { openDatabase } from "./sqlite.js";

const KIND = "pi-event-search-checkpoint";

interface WorkerInput {
	kind: typeof KIND;
	file: string;
	idleMs: number;
	/** One Int32 shared with the owner: whether the worker holds a connection to the index (FREE, HELD, ENDING, ENDED). */
	state: SharedArrayBuffer;
}

/** The worker has no connection (yet); it opens one only from FREE. */
const FREE = 0;
/** The worker has (or is opening) a connection. */
const HELD = 1;
/** The owner closed the index before the worker opened it: it never will. */
const ENDING = 2;
/** The worker closed its connection for good. */
const ENDED = 3;

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

/** How long a checkpoint worker waits for the next checkpoint before it closes its connection and ends. */
const IDLE_MS = 1000;

/**
 * A connection's checkpoint worker, kept while checkpoints keep coming (summary runs ask for one every batch): starting
 * a thread and loading SQLite in it for each cost more CPU than the checkpoints.
 */
interface Copier {
	worker: Worker;
	/** A checkpoint asked for and not answered yet; with `again`, another after it. */
	busy: boolean;
	again: boolean;
	/** It answered at least once (a worker that cannot open the index is not started again at once). */
	answered: boolean;
	resume: (() => void) | null;
	/** Shared with the worker (WorkerInput.state). */
	state: Int32Array;
	/** Its owner closed the index: nothing is asked of it any more. */
	ended: boolean;
	settle: () => void;
}

const copiers = new WeakMap<Database.Database, Copier>();

/**
 * Copies the WAL into the database file in a worker thread, automatic checkpoints paused until it is done; with one
 * under way, another follows it (the first may have started before the last commit). Without a worker script (the
 * TypeScript sources), a passive checkpoint here.
 */
export function checkpointAside(db: Database.Database, script: URL | null = checkpointScript()): void {
	const copier = script && !db.memory ? (copiers.get(db) ?? startCopier(db, script)) : null;
	if (!copier) {
		db.pragma("wal_checkpoint(PASSIVE)");
		return;
	}
	if (copier.busy) {
		copier.again = true;
		return;
	}
	copier.busy = true;
	copier.resume ??= pauseCheckpoints(db);
	copier.worker.postMessage("checkpoint");
}

/** How long closing the index waits at most for its checkpoint worker to close its connection. */
const END_WAIT_MS = 5000;

/**
 * Ends the checkpoint worker of `db` before `db` closes: a checkpoint under way finishes and the worker closes its
 * connection, and one that has not opened the index yet never will. Without this a worker still starting opened the
 * index after its owner closed it, leaving a WAL beside it for a second, in a folder its owner may be removing.
 */
export function endCheckpointAside(db: Database.Database): void {
	const copier = copiers.get(db);
	if (!copier) return;
	copiers.delete(db);
	copier.ended = true;
	const was = Atomics.compareExchange(copier.state, 0, FREE, ENDING);
	copier.worker.postMessage("end");
	if (was === HELD) Atomics.wait(copier.state, 0, HELD, END_WAIT_MS);
	copier.settle();
}

function startCopier(db: Database.Database, script: URL): Copier | null {
	let worker: Worker;
	const state = new SharedArrayBuffer(4);
	try {
		worker = new Worker(script, { workerData: { kind: KIND, file: db.name, idleMs: IDLE_MS, state } satisfies WorkerInput });
	} catch {
		return null;
	}
	// A process that ends first leaves the WAL to the next checkpoint: SQLite's checkpoints survive being cut short.
	worker.unref();
	const settle = () => {
		copier.busy = false;
		copier.again = false;
		copier.resume?.();
		copier.resume = null;
	};
	const copier: Copier = { worker, busy: false, again: false, answered: false, resume: null, state: new Int32Array(state), ended: false, settle };
	copiers.set(db, copier);
	worker.on("message", () => {
		copier.answered = true;
		if (copier.again && db.open && !copier.ended) {
			copier.again = false;
			worker.postMessage("checkpoint");
		} else settle();
	});
	worker.on("error", () => undefined);
	worker.on("exit", () => {
		if (copiers.get(db) === copier) copiers.delete(db);
		// Asked for while it was ending idle: a new worker takes it.
		const lost = copier.busy && copier.answered;
		settle();
		if (lost && db.open && !copier.ended) checkpointAside(db, script);
	});
	return copier;
}

/**
 * In the worker: a passive checkpoint (it never waits for readers or writers) through a connection of its own, opened
 * at the first, for each message, answered when done; idle for IDLE_MS or told to end, the connection closes and the
 * worker ends.
 */
function copyHere(input: WorkerInput): void {
	const port = parentPort;
	if (!port) return;
	const state = new Int32Array(input.state);
	let db: Database.Database | null = null;
	let idle: ReturnType<typeof setTimeout> | undefined;
	const end = () => {
		clearTimeout(idle);
		db?.close();
		Atomics.store(state, 0, ENDED);
		Atomics.notify(state, 0);
		port.close();
	};
	const rest = () => {
		clearTimeout(idle);
		idle = setTimeout(end, input.idleMs);
	};
	port.on("message", (m: string) => {
		if (m === "end") return end();
		try {
			// Opened only while the owner has not closed the index (it marks ENDING first).
			if (db === null && Atomics.compareExchange(state, 0, FREE, HELD) === FREE) db = openDatabase(input.file, { fileMustExist: true });
			if (db) db.pragma("wal_checkpoint(PASSIVE)");
		} catch {
			// An index it cannot open or copy (moved aside, deleted): it ends, ENDED, so a close never waits for it, and
			// the owner's automatic checkpoints come back when it exits.
			return end();
		}
		port.postMessage("done");
		rest();
	});
	rest();
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.kind === KIND) copyHere(workerData as WorkerInput);
