/**
 * One refresh run: its summary and progress, the batched write transactions (a failed batch redone one file per
 * transaction), ingest on this thread, and the closing steps: removals, linking and the freshness stamp.
 */

import type { SliceCarry } from "../project/file-scan.js";
import type { SourceRoot } from "../shared/config.js";
import { emptyRefreshSummary, type RefreshProgress, type RefreshSummary } from "../shared/types.js";
import type { DiscoveredFile, Discovery } from "../source/discover.js";
import { holdMerges, releaseMerges } from "./bulk-merge.js";
import { holdCheckpoints, releaseCheckpoints } from "./bulk-wal.js";
import { MERGE_SLICE_PAGES, mergeStepUnlessBusy, mergesWhole } from "./fts-merge.js";
import { goneFileSteps, removeGoneFiles } from "./gone-files.js";
import { type FileOutcome, ingestFile, type SliceLimits } from "./ingest.js";
import { carryRows, keepStamps, quickPlan } from "./quick-check.js";
import { BATCH_BYTES, FILE_SLICE_BYTES, FRESH_STAMP_MS, type RefreshOptions } from "./refresh-options.js";
import { planRefresh, type RefreshPlan } from "./refresh-plan.js";
import { RemovalBatches } from "./removal-batches.js";
import { linkSessions } from "./session-links.js";
import { removingSessions } from "./session-removal.js";
import { SessionWriter } from "./session-writer.js";
import { INGEST_CACHE_KIB, type IndexStore, isBusyError, SEARCH_CACHE_KIB, SEARCH_MAP_BYTES } from "./store.js";
import { BATCH_MS, SummaryBatches } from "./summary-batches.js";
import { pendingSummarySessions } from "./summary-runs.js";

/** One refresh from discovery to the freshness stamp; ingest runs synchronously here or pipelined (refresh-pipeline). */
export class RefreshRun {
	readonly started = Date.now();
	readonly summary: RefreshSummary = emptyRefreshSummary();
	readonly writer: SessionWriter;
	plan: RefreshPlan = { files: [], observations: [], rootIds: new Map(), known: new Map(), changed: [], dropped: new Map() };
	progress: RefreshProgress;
	touched = false;
	/** Changed files handled so far: `plan.changed[done]` is the next one. */
	done = 0;
	/** Files this run has written a first slice of, with that slice's kind (a later slice is an append). */
	private sliced = new Map<string, FileOutcome["kind"]>();

	constructor(
		readonly store: IndexStore,
		readonly roots: SourceRoot[],
		readonly options: RefreshOptions,
	) {
		this.writer = new SessionWriter(store);
		this.progress = { phase: "discover", filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, startedAt: this.started };
	}

	/** Discovers files (or takes `found`) and decides which changed; false when the refresh cannot start (read-only, busy). */
	prepare(found?: Discovery): boolean {
		const o = this.options;
		const plan = planRefresh(this.store, this.roots, o.full === true, o.priority ?? [], this.summary, found, o.claim, o);
		if (!plan) return false;
		this.startIngest(plan);
		return true;
	}

	private startIngest(plan: RefreshPlan): void {
		this.plan = plan;
		if (plan.changed.length > 0) this.store.setCacheKib(INGEST_CACHE_KIB);
		this.progress = {
			phase: "ingest",
			filesDone: 0,
			filesTotal: plan.changed.length,
			bytesDone: 0,
			bytesTotal: plan.changed.reduce((n, f) => n + f.size, 0),
			startedAt: this.started,
		};
		holdCheckpoints(this.store, this.progress.bytesTotal, this.options.batchMs !== undefined);
		// Merge settings a dead bulk build left off come back first; a run sure to reach its end may hold them again.
		releaseMerges(this.store);
		const { budgetMs, batchMs, shouldStop } = this.options;
		holdMerges(this.store, this.progress.bytesTotal, budgetMs === undefined && batchMs === undefined && shouldStop === undefined);
		this.options.onProgress?.(this.progress);
	}

	/** Plans from directory stamps alone (quick-check.ts); false when a walk is needed (or the refresh cannot start). */
	prepareQuick(): boolean {
		if (this.store.readonly || this.options.full === true) return false;
		const plan = quickPlan(this.store, this.roots, this.options.priority ?? [], this.summary, this.options);
		if (!plan) return false;
		this.startIngest(plan);
		return true;
	}

	/** True once the time budget is spent: no new file is started. */
	overBudget(): boolean {
		return (this.options.budgetMs !== undefined && Date.now() - this.started > this.options.budgetMs) || this.options.shouldStop?.() === true;
	}

	/**
	 * True when a batch of `bytes` (and `events`) begun at `batchStarted` should commit now, so other writers and
	 * progress get a turn. A batch holds at most a slice's worth of entries (sliceEntries), as a slice does.
	 */
	batchFull(bytes: number, batchStarted: number, events = 0): boolean {
		return (
			bytes >= (this.options.batchBytes ?? BATCH_BYTES) ||
			(this.options.sliceEntries !== undefined && events >= this.options.sliceEntries) ||
			Date.now() - batchStarted >= (this.options.batchMs ?? BATCH_MS) ||
			this.overBudget()
		);
	}

	/** The index's root id of a discovered file. */
	rootIdOf(file: DiscoveredFile): number | null {
		return this.plan.rootIds.get(file.root) ?? null;
	}

	private record(file: DiscoveredFile, outcome: FileOutcome): void {
		const { summary, progress } = this;
		summary.linesIngested += outcome.lines;
		summary.eventsIngested += outcome.events;
		summary.bytesRead += outcome.bytes;
		if (outcome.note) summary.notes.push(`${file.path}: ${outcome.note}`);
		if (outcome.partial) {
			// One slice of a file: its lines count now, the file once its last slice is written.
			progress.bytesDone += outcome.bytes;
			return;
		}
		progress.filesDone++;
		progress.bytesDone += Math.max(0, file.size - (this.slicedBytes.get(file.path) ?? 0));
		if (outcome.kind !== "unchanged") summary.filesChanged++;
		if (outcome.kind === "error") summary.errors.push({ file: file.path, error: outcome.error ?? "error" });
		if (outcome.kind === "added") summary.sessionsAdded++;
		if (outcome.kind === "rebuilt") summary.sessionsRebuilt++;
		if (outcome.kind === "appended") summary.sessionsAppended++;
	}

	/** Bytes of a file already counted in progress by its slices. */
	private slicedBytes = new Map<string, number>();

	// A batch's outcomes count only once its transaction committed; a failed batch is rolled back whole and its
	// files are done again one per transaction, so that only a failing file is lost (and says why).
	private batchStart = 0;
	private batchOutcomes: Array<[DiscoveredFile, FileOutcome]> = [];
	private touchedAtBatchStart = false;
	private slicedAtBatchStart: [Map<string, FileOutcome["kind"]>, Map<string, number>] = [new Map(), new Map()];

	/** Marks where a write transaction begins, so a rollback can return to it. */
	beginBatch(): void {
		this.slicedAtBatchStart = [new Map(this.sliced), new Map(this.slicedBytes)];
		this.batchStart = this.done;
		this.batchOutcomes = [];
		this.touchedAtBatchStart = this.touched;
	}

	/** Counts the batch's outcomes once its transaction committed. */
	committed(): void {
		for (const [file, outcome] of this.batchOutcomes) this.record(file, outcome);
		this.batchOutcomes = [];
		this.options.onProgress?.(this.progress);
	}

	/** Forgets the batch's outcomes after its transaction rolled back. */
	rolledBack(): void {
		const [sliced, bytes] = this.slicedAtBatchStart;
		this.sliced = sliced;
		this.slicedBytes = bytes;
		this.done = this.batchStart;
		this.touched = this.touchedAtBatchStart;
		this.batchOutcomes = [];
	}

	/** Bytes per slice of a file. */
	get sliceBytes(): number {
		return this.options.sliceBytes ?? FILE_SLICE_BYTES;
	}

	/** Where the last slice read on this thread ended (file-scan.ts SliceCarry): one file is sliced at a time. */
	readonly carry: { value?: SliceCarry } = {};

	/** How a file's slices are cut. */
	get sliceLimits(): SliceLimits {
		return { maxBytes: this.sliceBytes, ...(this.options.sliceEntries !== undefined ? { maxEntries: this.options.sliceEntries } : {}) };
	}

	/** True when a full refresh must still rebuild this file (not once its first slice is written: the rest appends). */
	fullFor(file: DiscoveredFile): boolean {
		return this.options.full === true && !this.sliced.has(file.path);
	}

	/** Reads and writes one changed file (or its next slice) inside the open write transaction. */
	ingest(file: DiscoveredFile): FileOutcome {
		return ingestFile(this.store, this.writer, file, this.rootIdOf(file), this.fullFor(file), { ...this.sliceLimits, carry: this.carry });
	}

	/** Does one file's work inside the open write transaction; a throw means the caller rolls the batch back. */
	apply(file: DiscoveredFile, work: () => FileOutcome): FileOutcome {
		let outcome = work();
		// Written in the same transaction as the change, so a refresh killed before linking (finish) leaves it set. An
		// append changes no header and no set of sessions (linking reads every session); a file cut to nothing removed one.
		const relink = outcome.kind === "added" || outcome.kind === "rebuilt" || outcome.kind === "empty";
		if (relink && this.store.meta("linked") !== "0") this.store.setMeta("linked", "0");
		if (outcome.kind === "added" || outcome.kind === "rebuilt" || outcome.kind === "appended") this.touched = true;
		const first = this.sliced.get(file.path);
		if (outcome.partial) {
			// The file stays the next one: its next slice appends after this one.
			if (first === undefined) this.sliced.set(file.path, outcome.kind);
			this.slicedBytes.set(file.path, (this.slicedBytes.get(file.path) ?? 0) + outcome.bytes);
		} else {
			// The file's summary says what happened to it as a whole (added, rebuilt), not to its last slice.
			if (first === "added" || first === "rebuilt") outcome = { ...outcome, kind: first };
			this.done++;
		}
		this.batchOutcomes.push([file, outcome]);
		return outcome;
	}

	/** Redoes files [done, until) one per transaction after a failed batch; false when the index is busy. */
	isolate(until: number): boolean {
		while (this.done < until) {
			const file = this.plan.changed[this.done] as DiscoveredFile;
			this.beginBatch();
			try {
				this.store.db.transaction(() => this.apply(file, () => this.ingest(file))).immediate();
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

	/** A batch rolled back: a busy index stops the run, any other error redoes the batch one file per transaction. */
	batchFailed(error: unknown): boolean {
		const failedAt = this.done;
		this.rolledBack();
		return isBusyError(error) ? this.busy() : this.isolate(failedAt + 1);
	}

	/** Notes that another process holds the index, so the rest waits for the next refresh. */
	busy(): false {
		this.summary.busy = true;
		this.summary.notes.push("index busy: another process is writing it; the rest waits for the next refresh");
		return false;
	}

	/**
	 * Runs one batch in a write transaction. Several files share a transaction: FTS5 flushes a segment per commit
	 * (and per savepoint), so per-file commits would spend most of a cold index merging tiny segments. Batches stay
	 * short so other writers and the progress display get their turn. False when the index is busy.
	 */
	private batch(step: () => FileOutcome | null): boolean {
		this.beginBatch();
		try {
			this.store.db
				.transaction(() => {
					const batchStarted = Date.now();
					let bytes = 0;
					let events = 0;
					while (this.done < this.plan.changed.length) {
						const outcome = step();
						if (!outcome) break;
						bytes += outcome.bytes;
						events += outcome.events;
						if (this.batchFull(bytes, batchStarted, events)) break;
					}
				})
				.immediate();
		} catch (error) {
			return this.batchFailed(error);
		}
		this.committed();
		return true;
	}

	/** Reads and writes every changed file on this thread. */
	ingestSync(): void {
		while (this.done < this.plan.changed.length && !this.overBudget()) {
			const ok = this.batch(() => {
				const file = this.plan.changed[this.done] as DiscoveredFile;
				return this.apply(file, () => this.ingest(file));
			});
			if (!ok) break;
		}
	}

	/** Removals already made in slices (removeGoneSliced): finish() does not look again. */
	private goneChecked = false;

	/** The removals of finish(), handing the event loop back (`pause`) whenever a stretch took batchMs. */
	async removeGoneSliced(pause: () => Promise<void>): Promise<void> {
		if (this.summary.busy || this.plan.quick) return;
		const steps = goneFileSteps(this.store, this.writer, this.plan, this.summary);
		const sliceMs = this.options.batchMs ?? BATCH_MS;
		let started = Date.now();
		for (;;) {
			const step = steps.next();
			if (step.done) {
				if (step.value) this.touched = true;
				break;
			}
			if (Date.now() - started >= sliceMs) {
				await pause();
				started = Date.now();
			}
		}
		this.goneChecked = true;
	}

	/** Summary runs already made in slices (summaryRunsSliced): finish() does not make the rest. */
	private summariesSliced = false;

	/** The pending summary runs, a write transaction at a time (summary-batches.ts). */
	private readonly summaryBatches = new SummaryBatches(this);

	/**
	 * The pending summary runs of compactions (this run's or an earlier, interrupted one's), one batch per turn of the
	 * event loop (`pause`) within the budget; what is left counts as pending and the next refresh goes on with it.
	 */
	async summaryRunsSliced(pause: () => Promise<void>): Promise<void> {
		this.summariesSliced = true;
		if (!this.summary.busy) await this.summaryBatches.sliced(pause);
	}

	/** Removed sessions' rows already deleted in slices (removalsSliced): finish() does not delete the rest. */
	private removalsDone = false;

	private readonly removals = new RemovalBatches(this);

	/**
	 * The rows of sessions this run (or an interrupted earlier one) removed or rebuilt, one batch per turn of the event
	 * loop (`pause`) within the budget; what is left counts as pending and the next refresh goes on with it.
	 */
	async removalsSliced(pause: () => Promise<void>): Promise<void> {
		this.removalsDone = true;
		if (!this.summary.busy) await this.removals.sliced(pause);
	}

	private mergedSliced = false;

	/**
	 * The FTS5 merge policy (fts-merge.ts): a refresh that wrote most of the index merges it into one segment, in steps
	 * of MERGE_SLICE_PAGES, one per turn of the event loop (`pause`) and within the refresh's time budget when sliced.
	 */
	async mergeSliced(pause: () => Promise<void>): Promise<void> {
		this.mergedSliced = true;
		if (!this.mergesWhole()) return;
		while (!this.overBudget() && mergeStepUnlessBusy(this.store, MERGE_SLICE_PAGES)) await pause();
	}

	/**
	 * True when this run wrote enough of the index to merge it whole (and may write). Only a run that did every file
	 * of its plan: a budgeted one that stops midway would merge again after each of its slices.
	 */
	private mergesWhole(): boolean {
		const whole = this.touched && !this.summary.busy && !this.store.readonly && this.done >= this.plan.changed.length;
		return whole && mergesWhole(this.store, this.summary.bytesRead);
	}

	/** Ends a refresh that could not start. */
	stop(): RefreshSummary {
		releaseCheckpoints(this.store);
		this.store.setCacheKib(SEARCH_CACHE_KIB, SEARCH_MAP_BYTES);
		this.summary.ms = Date.now() - this.started;
		return this.summary;
	}

	/** True when this run found and wrote nothing and the freshness stamp is recent enough to keep (FRESH_STAMP_MS). */
	private stampStillTrue(): boolean {
		const { plan, summary } = this;
		if (!plan.quick || this.touched || plan.changed.length > 0 || summary.errors.length > 0) return false;
		const age = Date.now() - Date.parse(this.store.meta("freshAt") ?? "");
		return age >= 0 && age < FRESH_STAMP_MS;
	}

	/** Removals, public ids, lineage and the freshness stamp. */
	finish(): RefreshSummary {
		const { store, summary } = this;
		// refresh() and refreshPipelined (the CLI's) make every pending summary run: their answers equal a fresh build.
		if (!this.summariesSliced) while (!summary.busy && pendingSummarySessions(store) > 0 && this.summaryBatches.batch());
		summary.pending = this.plan.changed.length - this.done + (summary.busy ? 0 : pendingSummarySessions(store));
		if (this.writer.reclassified > 0) summary.sessionsReclassified = this.writer.reclassified;
		// Removal only where the root was observed, the directory was readable, and the file is really gone (I9).
		// A quick plan's directories are unchanged: nothing was removed or renamed.
		if (!summary.busy && !this.goneChecked && !this.plan.quick && removeGoneFiles(store, this.writer, this.plan, summary)) this.touched = true;
		// The removed sessions are hidden already; their rows go now, or (sliced) what the budget left is pending.
		if (!summary.busy && !this.removalsDone) this.removals.drain();
		if (!summary.busy) summary.pending += removingSessions(store).length;
		if (!this.mergedSliced && this.mergesWhole()) while (mergeStepUnlessBusy(this.store));
		releaseMerges(this.store);
		try {
			// Added, rebuilt and removed sessions set the flag in their own transactions (gone-files.ts for removals).
			if (store.meta("linked") === "0") linkSessions(store);
			if (!summary.busy && summary.pending === 0 && !this.stampStillTrue())
				store.db
					.transaction(() => {
						store.setMeta("freshAt", new Date().toISOString());
						// A file that could not be read has no row to compare with: the next refresh walks again.
						if (summary.errors.length === 0) keepStamps(store, this.plan);
					})
					.immediate();
		} catch (error) {
			if (!isBusyError(error)) throw error;
			summary.busy = true;
		}
		// The next check of this warm process stats from the rows it read, not from all of them again.
		carryRows(store, this.plan);
		releaseCheckpoints(this.store);
		this.progress.phase = "done";
		this.store.setCacheKib(SEARCH_CACHE_KIB, SEARCH_MAP_BYTES);
		this.options.onProgress?.(this.progress);
		summary.ms = Date.now() - this.started;
		return summary;
	}
}
