/**
 * The rows of hidden sessions (session-removal.ts) deleted a write transaction at a time: each batch deletes at least
 * one chunk and more while they and their commit fit the refresh's batchMs; sliced, one batch per turn of the host's
 * event loop, with the WAL checkpointed in a worker thread (as summary-batches.ts).
 */
import { checkpointAside, pauseCheckpoints } from "./checkpoint-aside.js";
import { type FtsTally, settleTally } from "./fts-totals.js";
import { removeChunk, removingSessions } from "./session-removal.js";
import { INGEST_CACHE_KIB, type IndexStore, isBusyError } from "./store.js";
import { BATCH_MS, type SummaryBatchHost } from "./summary-batches.js";

/** Meta key of FTS5's delete-merge setting while a sliced removal keeps it off. */
const QUIET_KEY = "deletemerge-quiet";

/** Leaf pages of one merge step of FTS5's (INSERT … 'merge'): a few milliseconds. */
const MERGE_PAGES = 128;

/** FTS5's deletemerge setting of the events' table (its default, 10, when never set). */
function deleteMergeOf(store: IndexStore): number {
	return store.prepare<[], number>("SELECT v FROM fts_config WHERE k = 'deletemerge'").pluck().get() ?? 10;
}

function setDeleteMerge(store: IndexStore, percent: number): void {
	// FTS5 reads a setting as an integer only: a bound JavaScript number would be a real.
	store.db.exec(`INSERT INTO fts(fts, rank) VALUES ('deletemerge', ${Math.trunc(percent)})`);
}

/**
 * Up to `steps` merge steps of MERGE_PAGES, each its own write transaction; true when the last one merged anything.
 * With fewer segments than usermerge, a step merges a segment holding enough deleted rows (deletemerge).
 */
function mergeSteps(store: IndexStore, steps: number): boolean {
	const changes = store.prepare<[], number>("SELECT total_changes()").pluck();
	let merged = false;
	for (let i = 0; i < steps; i++) {
		const before = changes.get() ?? 0;
		try {
			store.db.transaction(() => store.db.exec(`INSERT INTO fts(fts, rank) VALUES ('merge', ${MERGE_PAGES})`)).immediate();
		} catch (error) {
			if (isBusyError(error)) return false;
			throw error;
		}
		// The command's own row is one change; a step that merged wrote leaf pages besides.
		merged = (changes.get() ?? 0) - before > 1;
		if (!merged) break;
	}
	return merged;
}

/** The removals of one refresh, in batches. */
export class RemovalBatches {
	/** How long a batch's commit took per millisecond of its chunks (the last batch's). */
	private commitRatio = 1;

	constructor(private readonly host: SummaryBatchHost) {}

	/**
	 * One write transaction of chunks; false when nothing was pending or the index is busy. `quiet`: FTS5's delete-merge
	 * is off from this batch until quietEnd (the merge work goes to mergeSteps, in turns of their own).
	 */
	batch(quiet = false): boolean {
		const { store, options } = this.host;
		// Through a write's small cache, as summary batches (the search map would count every page read in the RSS).
		store.setCacheKib(INGEST_CACHE_KIB);
		const sliceMs = options.batchMs ?? BATCH_MS;
		const begun = performance.now();
		let chunksMs = 0;
		let removed = 0;
		try {
			store.db
				.transaction(() => {
					// Another chunk only when one more like the last still fits the chunks' share of the slice; sliced, of
					// two thirds of it (the delete-merge's first step and a chunk's spread keep the turn under the slice).
					const budget = ((quiet ? 2 / 3 : 1) * sliceMs) / (1 + this.commitRatio);
					const started = performance.now();
					let last = started;
					const tally: FtsTally = { rows: 0, tokens: [] };
					// What FTS5 would rewrite at a commit once a segment holds enough deleted rows (deletemerge): 64 leaf
					// pages per level of the index in one go, the longest turn of a removal (50–100 ms). Off while the
					// removal runs, its setting kept in meta (in this transaction): a crash leaves it for quietEnd.
					if (quiet && store.meta(QUIET_KEY) === null) {
						store.setMeta(QUIET_KEY, String(deleteMergeOf(store)));
						setDeleteMerge(store, 0);
					}
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
		this.quietEnd();
	}

	/** FTS5's delete-merge back as it was before a sliced removal turned it off (if one did); false when busy. */
	private quietEnd(): boolean {
		const { store } = this.host;
		const saved = store.meta(QUIET_KEY);
		if (saved === null) return true;
		try {
			store.db
				.transaction(() => {
					setDeleteMerge(store, Number(saved));
					store.prepare("DELETE FROM meta WHERE key = ?").run(QUIET_KEY);
				})
				.immediate();
		} catch (error) {
			if (isBusyError(error)) return this.host.busy();
			throw error;
		}
		return true;
	}

	/** Batches, one per turn of the event loop (`pause`), while removals are pending and the budget lasts. */
	async sliced(pause: () => Promise<void>): Promise<void> {
		const { store, options } = this.host;
		if (removingSessions(store).length === 0) {
			this.quietEnd();
			return;
		}
		// A commit's automatic checkpoint would land in the batch's turn: checkpointed in a worker thread instead.
		const resume = pauseCheckpoints(store.db);
		try {
			// At least one batch per run: a host that refreshes again while work is pending must not spin.
			for (let first = true; first || !this.host.overBudget(); first = false) {
				if (!this.batch(true)) break;
				options.onSlice?.();
				await pause();
				checkpointAside(store.db);
				await pause();
			}
			// Once every removal is done: the delete-merge back on, and its work step by step while the budget lasts (the
			// rest is FTS5's automerge at later commits).
			if (removingSessions(store).length === 0 && this.quietEnd()) while (!this.host.overBudget() && mergeSteps(store, 1)) await pause();
		} finally {
			resume();
		}
	}
}
