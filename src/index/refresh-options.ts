/** What a caller can ask of a refresh, and the defaults of its slices, batches and freshness stamp. */

import type { RefreshProgress } from "../shared/types.js";
import type { RootClaim } from "./root-owners.js";

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
	/** A file is read in slices of about this many bytes, each written as an append to the last (FILE_SLICE_BYTES). */
	sliceBytes?: number;
	/** ... and of at most this many entries (none by default): what a slice costs to write grows with both. */
	sliceEntries?: number;
	/** A write transaction commits after this many milliseconds (default 1000); refreshSliced yields after each. */
	batchMs?: number;
	/** ... or once it wrote this many bytes of files (default 32 MB). */
	batchBytes?: number;
	/** Checked with the budget: true stops the refresh before its next slice (the rest is pending). */
	shouldStop?: () => boolean;
	/** Rowids per run of a compaction's pending summaries (summary-runs.ts SUMMARY_RUN); tests use small runs. */
	summaryRun?: number;
	/** Called after each committed slice (refreshSliced), e.g. to count them. */
	onSlice?: () => void;
	/** The refreshing agent dir's roots: a root no agent dir holds any more leaves the index (root-owners.ts). */
	claim?: RootClaim;
	/** Files a quick check stats at most (quick-check.ts SWEEP_FILES); tests use few. */
	sweepFiles?: number;
	/**
	 * A quick check stats every indexed file, however many: an explicit `pi-history index` finds an append to any
	 * session, where a search's check of a large history stats a bounded sample and finds it within a few checks.
	 */
	everyFile?: boolean;
	/**
	 * A watch that saw every write since the last complete refresh in the folders it covers (the service's
	 * freshness watch, which names the files written as priority files): when it covers every folder the last walk
	 * listed, a quick check stats only the priority files.
	 */
	watched?: { covers(folder: string): boolean };
	/** Rows per chunk of a removed session's deletion (session-removal.ts REMOVAL_CHUNK); tests use small chunks. */
	removalChunk?: number;
	/**
	 * refreshSliced classifies a session of more entries than this whole in turns (session-writer.ts classifyHeld,
	 * default session-classify.ts STRETCH); tests use small sessions.
	 */
	heldAbove?: number;
}

/**
 * Default slice of a big file: its scan (entries and FTS text) is held in memory until written, so a
 * million-entry session is indexed in bounded memory, slice after slice (DESIGN §7: peak RSS ≤ 300 MB).
 */
export const FILE_SLICE_BYTES = 2 * 1024 * 1024;

/** A write transaction commits once it wrote this many bytes of files (RefreshOptions.batchBytes). */
export const BATCH_BYTES = 32 * 1024 * 1024;

/**
 * A quick check that changed nothing leaves the freshness stamp as it is while the stamp is younger than this: the
 * index was fresh at that time and still is, so the stamp stays true (never later than the last check, at most this
 * much earlier), and a search run again and again does not write the index (a WAL commit and checkpoint) each time.
 */
export const FRESH_STAMP_MS = 30_000;
