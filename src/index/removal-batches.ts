/**
 * The rows of hidden sessions (session-removal.ts) deleted a write transaction at a time: each batch deletes at least
 * one chunk and more while they and their commit fit the refresh's batchMs; sliced, one batch per turn of the host's
 * event loop, with the WAL checkpointed in a turn of its own (as summary-batches.ts).
 */
import { type FtsTally, settleTally } from "./fts-totals.js";
import { removeChunk, removingSessions } from "./session-removal.js";
import { isBusyError } from "./store.js";
import { BATCH_MS, type SummaryBatchHost } from "./summary-batches.js";

/** The removals of one refresh, in batches. */
export class RemovalBatches {
	/** How long a batch's commit took per millisecond of its chunks (the last batch's). */
	private commitRatio = 1;

	constructor(private readonly host: SummaryBatchHost) {}

	/** One write transaction of chunks; false when nothing was pending or the index is busy. */
	batch(): boolean {
		const { store, options } = this.host;
		const sliceMs = options.batchMs ?? BATCH_MS;
		const begun = performance.now();
		let chunksMs = 0;
		let removed = 0;
		try {
			store.db
				.transaction(() => {
					// Another chunk only when one more like the last still fits the chunks' share of the slice.
					const budget = sliceMs / (1 + this.commitRatio);
					const started = performance.now();
					let last = started;
					const tally: FtsTally = { rows: 0, tokens: [] };
					for (;;) {
						const n = removeChunk(store, tally, options.removalChunk);
						removed += n;
						if (n === 0) break;
						const now = performance.now();
						chunksMs = now - started;
						if (now + (now - last) - started > budget || this.host.overBudget()) break;
						last = now;
					}
					settleTally(store, "fts", tally);
				})
				.immediate();
		} catch (error) {
			if (isBusyError(error)) return this.host.busy();
			throw error;
		}
		if (chunksMs >= 1) this.commitRatio = Math.min(4, Math.max(0.25, (performance.now() - begun - chunksMs) / chunksMs));
		return removed > 0;
	}

	/** Every pending removal, batch after batch, on this thread (a refresh that does not hand back turns). */
	drain(): void {
		while (this.batch());
	}

	/** Batches, one per turn of the event loop (`pause`), while removals are pending and the budget lasts. */
	async sliced(pause: () => Promise<void>): Promise<void> {
		const { store, options } = this.host;
		if (removingSessions(store).length === 0) return;
		// A commit's automatic checkpoint would land in the batch's turn: checkpointed in a turn of its own instead.
		const auto = store.db.pragma("wal_autocheckpoint", { simple: true }) as number;
		store.db.pragma("wal_autocheckpoint = 0");
		try {
			// At least one batch per run: a host that refreshes again while work is pending must not spin.
			for (let first = true; first || !this.host.overBudget(); first = false) {
				if (!this.batch()) break;
				options.onSlice?.();
				await pause();
				store.db.pragma("wal_checkpoint(PASSIVE)");
				await pause();
			}
		} finally {
			store.db.pragma(`wal_autocheckpoint = ${auto}`);
		}
	}
}
