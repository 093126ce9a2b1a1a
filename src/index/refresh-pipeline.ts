/** Pipelined ingest: a worker thread reads changed files ahead while this thread writes what was read, in batches. */
import type { ScanResult } from "../project/file-scan.js";
import type { ScanWorker } from "../project/scan-thread.js";
import type { DiscoveredFile } from "../source/discover.js";
import { applyScan, type PlanBasis, planBasis, planFile, sameBasis } from "./ingest.js";
import type { RefreshRun } from "./refresh-run.js";
import { isBusyError } from "./store.js";

/** Bytes of files read ahead of the writer, at most: scans hold their FTS text until written (peak RSS 256–284 MB at 4 MB). */
const MAX_INFLIGHT_BYTES = 4 * 1024 * 1024;

/** Ingests the run's changed files, read by `scanner`; plans are re-checked before they are applied. */
export async function ingestPipelined(run: RefreshRun, scanner: ScanWorker): Promise<void> {
	const { store, writer } = run;
	const changed = run.plan.changed;
	const n = changed.length;
	const bases = changed.map((f) => planBasis(store, f.path));
	const pending: Array<Promise<ScanResult> | undefined> = new Array(n);
	let submitted = 0;
	let inflight = 0;
	const submit = () => {
		while (submitted < n && (inflight < MAX_INFLIGHT_BYTES || submitted === run.done)) {
			const i = submitted++;
			const file = changed[i] as DiscoveredFile;
			inflight += file.size;
			pending[i] = scanner.scan(planFile(file.path, bases[i] as PlanBasis, run.fullFor(file), run.sliceLimits));
			// Awaited later, in order; a rejection must not count as unhandled meanwhile.
			pending[i]?.catch(() => undefined);
		}
	};
	submit();
	// One write transaction stays open across the awaits for the reader, and commits by size or time like the
	// synchronous batches: committing whenever the next file was not read yet cost a commit (an FTS5 segment
	// flush) per file.
	const db = store.db;
	let open = false;
	let batchBytes = 0;
	let batchStarted = 0;
	const commit = () => {
		db.exec("COMMIT");
		open = false;
		run.committed();
	};
	while (run.done < n && !run.overBudget()) {
		let scan: ScanResult;
		try {
			scan = await (pending[run.done] as Promise<ScanResult>);
		} catch {
			// The worker died (out of memory, killed): read the rest on this thread.
			if (open) commit();
			run.ingestSync();
			return;
		}
		if (!open) {
			try {
				db.exec("BEGIN IMMEDIATE");
			} catch (error) {
				if (!isBusyError(error)) throw error;
				run.busy();
				break;
			}
			open = true;
			run.beginBatch();
			batchBytes = 0;
			batchStarted = Date.now();
		}
		const i = run.done;
		const file = changed[i] as DiscoveredFile;
		const rootId = run.rootIdOf(file);
		let partial = false;
		try {
			const outcome = run.apply(file, () => {
				const now = planBasis(store, file.path);
				// Another process may have indexed this file since the plan was made: then read it again here.
				if (!sameBasis(now, bases[i] as PlanBasis)) return run.ingest(file);
				return applyScan(store, writer, file, rootId, now, scan, run.fullFor(file));
			});
			partial = outcome.partial === true;
		} catch (error) {
			db.exec("ROLLBACK");
			open = false;
			run.rolledBack();
			if (isBusyError(error) || !run.isolate(i + 1)) break;
		}
		if (partial && open) {
			// The next slice of the same file, planned from the rows this slice just wrote.
			bases[i] = planBasis(store, file.path);
			pending[i] = scanner.scan(planFile(file.path, bases[i] as PlanBasis, run.fullFor(file), run.sliceLimits));
			pending[i]?.catch(() => undefined);
			batchBytes += run.sliceBytes;
			if (run.batchFull(batchBytes, batchStarted)) commit();
			continue;
		}
		inflight -= file.size;
		pending[i] = undefined;
		batchBytes += file.size;
		if (open && run.batchFull(batchBytes, batchStarted)) commit();
		submit();
	}
	if (open) commit();
}
