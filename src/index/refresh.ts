/**
 * Refresh's two entry points: bring the index in line with the session files under the roots (DESIGN §4, I5–I9)
 * on this thread, or with a reader thread when the work is large enough to pay for one.
 */
import { ScanWorker } from "../project/scan-thread.js";
import type { SourceRoot } from "../shared/config.js";
import type { RefreshSummary } from "../shared/types.js";
import { discoverSliced } from "../source/discover.js";
import type { RefreshOptions } from "./refresh-options.js";
import { ingestPipelined } from "./refresh-pipeline.js";
import { RefreshRun } from "./refresh-run.js";
import { ingestSliced } from "./refresh-sliced.js";
import type { IndexStore } from "./store.js";

/** Work below this is not worth starting a worker thread for. */
const PIPELINE_MIN_BYTES = 8 * 1024 * 1024;

/** Brings the index in line with the session files under `roots`, on this thread (DESIGN §4, I5–I9). */
export function refresh(store: IndexStore, roots: SourceRoot[], options: RefreshOptions = {}): RefreshSummary {
	const run = new RefreshRun(store, roots, options);
	if (!run.prepare()) return run.stop();
	run.ingestSync();
	return run.finish();
}

/** A stretch of discovery between turns of the event loop, when the caller gives no batchMs. */
const DISCOVERY_SLICE_MS = 25;

/** Hands the event loop back: timers, I/O and other callbacks of the host run before the next slice. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Like refresh(), but in slices on this thread: one short write transaction (options.batchMs, files read
 * options.sliceBytes at a time) between turns of the event loop. For a host whose loop must stay responsive (pi).
 */
export async function refreshSliced(store: IndexStore, roots: SourceRoot[], options: RefreshOptions = {}): Promise<RefreshSummary> {
	const run = new RefreshRun(store, roots, options);
	// Discovery in slices too: walking thousands of files is synchronous file system work.
	if (!run.prepareQuick()) {
		const found = store.readonly ? undefined : await discoverSliced(roots, nextTurn, options.batchMs ?? DISCOVERY_SLICE_MS);
		if (!run.prepare(found)) return run.stop();
	}
	await nextTurn();
	await ingestSliced(run, nextTurn);
	await run.summaryRunsSliced(nextTurn);
	await run.removeGoneSliced(nextTurn);
	await run.removalsSliced(nextTurn);
	await run.mergeSliced(nextTurn);
	return run.finish();
}

/** Like refresh(), but large work reads files in a worker thread while this thread writes the index. */
export async function refreshPipelined(store: IndexStore, roots: SourceRoot[], options: RefreshOptions = {}): Promise<RefreshSummary> {
	const run = new RefreshRun(store, roots, options);
	if (!run.prepare()) return run.stop();
	const scanner = run.progress.bytesTotal >= (options.workerThresholdBytes ?? PIPELINE_MIN_BYTES) ? ScanWorker.create() : null;
	if (scanner) {
		try {
			await ingestPipelined(run, scanner);
		} finally {
			await scanner.close();
		}
	} else {
		run.ingestSync();
	}
	return run.finish();
}
