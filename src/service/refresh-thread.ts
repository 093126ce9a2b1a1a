/**
 * Indexing off the UI thread. better-sqlite3 is synchronous, so a refresh on the main thread would freeze the
 * explorer's input loop; a worker thread refreshes through its own connection while the UI searches through
 * another (WAL: readers never wait for the writer). This module is both the worker's entry point and the
 * main-thread function that starts it.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { ResolvedConfig } from "../shared/config.js";
import type { RefreshProgress, RefreshSummary } from "../shared/types.js";
import { HistoryService } from "./service.js";

/** What the indexer reports. */
export type IndexMessage = { type: "progress"; progress: RefreshProgress } | { type: "done"; summary: RefreshSummary } | { type: "error"; message: string };

/** A running refresh. */
export interface IndexRun {
	/** "worker" normally; "in-process" when no compiled worker script exists (then refresh runs in 50 ms slices). */
	mode: "worker" | "in-process";
	/** Stops indexing (a refresh cut short keeps the batches it committed; the rest waits for the next refresh). */
	stop(): Promise<void>;
}

const KIND = "pi-event-search-index";
const PROGRESS_EVERY_MS = 100;

interface WorkerInput {
	kind: typeof KIND;
	config: ResolvedConfig;
	/** Session files to check first, however many the history holds (the explorer's watch named them). */
	priority: string[];
	/** Check every indexed file: more changed than the watch names. */
	everyFile: boolean;
}

/**
 * The worker script: this file when it runs as compiled JavaScript; null when it runs as TypeScript source (under
 * vitest), which a worker thread cannot load: then indexing runs in slices on the main thread. Tests of the worker
 * import this module from the build (test/helpers/build.ts), never through a path into a build folder.
 */
export function workerScript(): URL | null {
	const self = new URL(import.meta.url);
	// Named from dist/src/<folder>/, so the CLI's bundle (dist/src/pack/) starts this compiled module, not its chunk.
	return self.pathname.endsWith(".js") ? new URL("../service/refresh-thread.js", self) : null;
}

/**
 * Starts a refresh of the index named by `config` that checks the files of `priority` first (every indexed file with
 * `everyFile`), reporting to `listener`.
 */
export function startIndexing(
	config: ResolvedConfig,
	options: { forceInProcess?: boolean; priority?: string[]; everyFile?: boolean },
	listener: (message: IndexMessage) => void,
): IndexRun {
	const checks = { priority: options.priority ?? [], everyFile: options.everyFile === true };
	const script = options.forceInProcess ? null : workerScript();
	if (!script) return runInProcess(config, checks, listener);
	const input: WorkerInput = { kind: KIND, config, ...checks };
	const worker = new Worker(script, { workerData: input });
	let finished = false;
	let exited = false;
	let stopping = false;
	worker.on("message", (m: IndexMessage) => {
		if (m.type !== "progress") finished = true;
		listener(m);
	});
	worker.on("error", (error) => {
		finished = true;
		listener({ type: "error", message: error.message });
	});
	worker.on("exit", (code) => {
		exited = true;
		if (!finished && !stopping) listener({ type: "error", message: `the indexing worker stopped (exit code ${code})` });
	});
	return {
		mode: "worker",
		stop: async () => {
			stopping = true;
			// Past "done" it may still be keeping tree layouts: a write cut short rolls back.
			if (!exited) await worker.terminate();
		},
	};
}

function runInProcess(config: ResolvedConfig, checks: { priority: string[]; everyFile: boolean }, listener: (message: IndexMessage) => void): IndexRun {
	let stopped = false;
	let service: HistoryService | null = null;
	const startedAt = Date.now();
	let last = 0;
	const close = () => {
		service?.close();
		service = null;
	};
	const step = () => {
		if (stopped) return;
		try {
			service ??= HistoryService.open({ config });
			const summary = service.refresh({
				budgetMs: 50,
				...checks,
				onProgress: (progress) => {
					const now = Date.now();
					if (now - last < PROGRESS_EVERY_MS) return;
					last = now;
					listener({ type: "progress", progress: { ...progress, startedAt } });
				},
			});
			if (summary.pending > 0 && !summary.busy) {
				setTimeout(step, 0);
				return;
			}
			close();
			listener({ type: "done", summary });
		} catch (error) {
			close();
			listener({ type: "error", message: (error as Error).message });
		}
	};
	setTimeout(step, 0);
	return {
		mode: "in-process",
		stop: async () => {
			stopped = true;
			close();
		},
	};
}

async function runWorker(input: WorkerInput): Promise<void> {
	const port = parentPort;
	if (!port) return;
	let service: HistoryService | null = null;
	try {
		service = HistoryService.open({ config: input.config });
		let last = 0;
		// refreshAsync reads and parses files in a further worker while this thread writes (pipelined ingest).
		const summary = await service.refreshAsync({
			priority: input.priority,
			everyFile: input.everyFile,
			onProgress: (progress) => {
				const now = Date.now();
				if (now - last < PROGRESS_EVERY_MS && progress.phase !== "done") return;
				last = now;
				port.postMessage({ type: "progress", progress } satisfies IndexMessage);
			},
		});
		port.postMessage({ type: "done", summary } satisfies IndexMessage);
		// Then big sessions' tree layouts, so the explorer's first open of one reads a few chunks (stop() ends it).
		if (!summary.busy && summary.pending === 0) service.keepTreeLayouts();
	} catch (error) {
		port.postMessage({ type: "error", message: (error as Error).message ?? String(error) } satisfies IndexMessage);
	} finally {
		service?.close();
	}
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.kind === KIND) void runWorker(workerData as WorkerInput);
