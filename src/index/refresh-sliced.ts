/**
 * Sliced ingest for a host's event loop (pi's extension): a batch of file slices per write transaction, the loop handed
 * back between batches and, inside one, between the stretches of a whole classification the batch left to the end
 * (SessionWriter.holdAbove), so no turn holds the loop for a session's size.
 */
import type { DiscoveredFile } from "../source/discover.js";
import { commitAside } from "./checkpoint-aside.js";
import type { FileOutcome } from "./ingest.js";
import { readAhead, writeReadAhead } from "./read-ahead.js";
import type { RefreshRun } from "./refresh-run.js";
import { STRETCH } from "./session-classify.js";

type Pause = () => Promise<void>;

/**
 * Like RefreshRun.ingestSync, but hands the event loop back after every batch (`pause`, e.g. setImmediate): with a
 * short batchMs and small file slices no single stretch of work holds a host's event loop for long.
 */
export async function ingestSliced(run: RefreshRun, pause: Pause): Promise<void> {
	const changed = run.plan.changed;
	// At least one slice per run, whatever the budget: a run that wrote nothing (discovery alone used the budget on
	// a busy machine) would leave the same work pending, and a host that runs again while work is pending would spin.
	for (let first = true; run.done < changed.length && (first || !run.overBudget()); first = false) {
		const next = changed[run.done] as DiscoveredFile;
		let ahead = readAhead(run.store, next, run.fullFor(next), run.sliceLimits, run.carry);
		if (ahead) await pause();
		const step = () => {
			const [file, read] = [changed[run.done] as DiscoveredFile, ahead];
			ahead = null;
			if (read?.file !== file) return run.apply(file, () => run.ingest(file));
			return run.apply(file, () => writeReadAhead(run.store, run.writer, read, run.rootIdOf(file), run.fullFor(file), () => run.ingest(file)));
		};
		// A slice read ahead with a long line: its write and its commit (FTS5's flush) take a turn each.
		const ok = (ahead?.longest ?? 0) > run.sliceBytes ? await heldBatch(run, step, [undefined], pause) : await batchInTurns(run, step, pause);
		if (!ok) break;
		run.options.onSlice?.();
		await pause();
	}
}

/**
 * A batch whose whole classifications (SessionWriter.holdAbove) run after it a stretch of rows per turn, in the same
 * transaction, which then commits once: readers in other processes see a session before or after, never half
 * classified, and this process's reads wait for the refresh.
 */
function batchInTurns(run: RefreshRun, step: () => FileOutcome | null, pause: Pause): Promise<boolean> {
	const { writer } = run;
	const write = () => {
		const batchStarted = Date.now();
		let bytes = 0;
		let events = 0;
		writer.holdAbove = run.options.heldAbove ?? STRETCH;
		try {
			while (run.done < run.plan.changed.length) {
				const outcome = step();
				if (!outcome) break;
				bytes += outcome.bytes;
				events += outcome.events;
				// A held classification goes first: the next file's appends must not read its provisional rows.
				if (writer.holding || run.batchFull(bytes, batchStarted, events)) break;
			}
		} finally {
			writer.holdAbove = null;
		}
	};
	return heldBatch(run, write, { [Symbol.iterator]: () => writer.classifyHeld() }, pause);
}

/**
 * One batch in a write transaction held across turns: `write`, a turn before each step of `then`, the commit (its
 * checkpoint, the pages of the whole batch, in a worker thread).
 */
async function heldBatch(run: RefreshRun, write: () => void, then: Iterable<unknown>, pause: Pause): Promise<boolean> {
	const db = run.store.db;
	run.beginBatch();
	try {
		db.exec("BEGIN IMMEDIATE");
		write();
		for (const _ of then) await pause();
		commitAside(db);
	} catch (error) {
		run.writer.dropHeld();
		if (db.open && db.inTransaction) db.exec("ROLLBACK");
		return run.batchFailed(error);
	}
	run.committed();
	return true;
}
