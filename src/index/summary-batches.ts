/**
 * The pending summary runs of compactions (summary-runs.ts) written a write transaction at a time: each batch makes at
 * least one run and more while they and their commit fit the refresh's batchMs; sliced, one batch per turn of the
 * host's event loop, with the WAL checkpointed in a worker thread.
 */
import { checkpointAside, pauseCheckpoints } from "./checkpoint-aside.js";
import type { RefreshOptions } from "./refresh-options.js";
import { INGEST_CACHE_KIB, type IndexStore, isBusyError } from "./store.js";
import { pendingSummarySessions, summaryRun } from "./summary-runs.js";

/** Default milliseconds of a refresh's write transaction (RefreshOptions.batchMs). */
export const BATCH_MS = 1000;

/** What the batches need of the refresh they belong to. */
export interface SummaryBatchHost {
	readonly store: IndexStore;
	readonly options: RefreshOptions;
	/** True once the refresh's time budget is spent. */
	overBudget(): boolean;
	/** Notes that another process holds the index; returns false. */
	busy(): false;
}

/** The summary runs of one refresh, in batches. */
export class SummaryBatches {
	/**
	 * How long a batch's commit took per millisecond of its runs (the last batch's): the commit writes every row the
	 * runs changed, about as long again as changing them.
	 */
	private commitRatio = 1;

	constructor(private readonly host: SummaryBatchHost) {}

	/** One write transaction of pending summary runs; false when the index is busy. */
	batch(): boolean {
		const { store, options } = this.host;
		// Through a write's small cache: the runs read a session's rows, and through the search map each page would count
		// in the process's RSS (the refresh's end sets the search cache back).
		store.setCacheKib(INGEST_CACHE_KIB);
		const sliceMs = options.batchMs ?? BATCH_MS;
		const begun = performance.now();
		let runsMs = 0;
		try {
			store.db
				.transaction(() => {
					// Another run only when one more like the last still fits the runs' share of the slice.
					const budget = sliceMs / (1 + this.commitRatio);
					const started = performance.now();
					let last = started;
					for (;;) {
						if (!summaryRun(store, options.summaryRun)) break;
						const now = performance.now();
						runsMs = now - started;
						if (now + (now - last) - started > budget || this.host.overBudget()) break;
						last = now;
					}
				})
				.immediate();
		} catch (error) {
			if (isBusyError(error)) return this.host.busy();
			throw error;
		}
		// Runs too short to time say nothing of the commit's share.
		if (runsMs >= 1) this.commitRatio = Math.min(4, Math.max(0.25, (performance.now() - begun - runsMs) / runsMs));
		return true;
	}

	/** Batches, one per turn of the event loop (`pause`), while runs are pending and the budget lasts. */
	async sliced(pause: () => Promise<void>): Promise<void> {
		const { store, options } = this.host;
		if (pendingSummarySessions(store) === 0) return;
		// A batch's commit writes thousands of pages to the WAL; SQLite's automatic checkpoint, every 1,000 pages inside
		// a commit, doubled every other turn. Checkpointed in a worker thread instead (checkpoint-aside.ts).
		const resume = pauseCheckpoints(store.db);
		try {
			// At least one batch per run, as ingestSliced: a host that refreshes again while work is pending must not spin.
			for (let first = true; pendingSummarySessions(store) > 0 && (first || !this.host.overBudget()); first = false) {
				if (!this.batch()) break;
				options.onSlice?.();
				await pause();
				checkpointAside(store.db);
				await pause();
			}
		} finally {
			resume();
		}
	}
}
