/**
 * Searches, reads and traces off the explorer's input loop. better-sqlite3 is synchronous: a 400 ms prefix search
 * on the main thread would hold every key typed meanwhile. A worker thread answers them through its own read-only
 * connection (WAL: it never waits for the indexer). Searches and the tree view's windows are latest-wins: one asked
 * while another waits replaces it, so a burst of keys costs one answer, not one per key. This module is the
 * main-thread client; the worker runs query-worker.ts, which holds the service: a launcher that starts the worker
 * does not load the service's code for it (the explorer's first frame comes before it needs it).
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ResolvedConfig } from "../shared/config.js";
import { newestFile } from "../shared/newest-file.js";
import { type Answered, type HistoryQueries, QUERY_NAMES, type QueryName } from "../shared/queries.js";
import type { HitCount, SearchRequest, SearchResult } from "../shared/types.js";
import type { HistoryService } from "./service.js";

/** workerData's mark of a query worker. */
export const QUERY_WORKER_KIND = "pi-event-search-query";

/** One question across the boundary: its name and its one argument. */
export type QueryRequest = { method: QueryName; request: unknown };
/** The worker's answer to the question of the same id. */
export type QueryReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** Thrown to the caller of a search (or tree window) that a newer one replaced before it ran. */
export class SupersededError extends Error {
	constructor(what = "search") {
		super(`superseded by a newer ${what}`);
	}
}

/**
 * The worker script: query-worker.ts compiled. From TypeScript source (pi loads extensions through jiti) a worker
 * cannot load .ts, so it is the package's built copy when that exists and is not older than the sources; else null,
 * and answers come in-process.
 */
function workerScript(): URL | null {
	const self = new URL(import.meta.url);
	// Named from dist/src/<folder>/, so the CLI's bundle (dist/src/pack/) starts the compiled module, not a chunk.
	if (self.pathname.endsWith(".js")) return new URL("../service/query-worker.js", self);
	if (self.protocol !== "file:") return null;
	const root = fileURLToPath(new URL("../../", self));
	// The one place src/ names its build output: the package ships it ("files") for exactly this.
	const built = join(root, BUILD_DIR, "src", "service", "query-worker.js");
	try {
		statSync(built);
		// An incremental build rewrites only what changed: the build is current when its newest output is not older
		// than the newest source.
		const newest = (ext: RegExp, base: string) => Math.max(newestFile(join(base, "src"), ext), newestFile(join(base, "components"), ext));
		return newest(/\.js$/, join(root, BUILD_DIR)) >= newest(/\.tsx?$/, root) ? pathToFileURL(built) : null;
	} catch {
		return null;
	}
}

/** The build output folder: the one place src/ names it, to find the built worker from TypeScript source. */
const BUILD_DIR = "dist";

/**
 * The main thread's side: every question of HistoryQueries, answered by the worker (or in-process without one) as a
 * promise. Its methods come from QUERY_NAMES; search, count and treeWindow are latest-wins.
 */
export type QueryThread = QueryClient & Answered<HistoryQueries>;

/** Starts query threads. */
export const QueryThread = {
	/** Starts the worker for the index named by `config` (in-process answers, still asynchronous, without one). */
	start(config: ResolvedConfig, options: { forceInProcess?: boolean } = {}): QueryThread {
		const script = options.forceInProcess ? null : workerScript();
		const client = new QueryClient(script ? new Worker(script, { workerData: { kind: QUERY_WORKER_KIND, config } }) : null, config);
		return Object.assign(client, client.questions);
	},
};

/** The mechanics of a query thread: the worker, its pending answers, the latest-wins queues (searches and counts; tree windows). */
class QueryClient {
	private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
	private nextId = 1;
	private searchRunning = false;
	private waitingSearch: { request: SearchRequest; resolve: (v: SearchResult) => void; reject: (e: Error) => void } | null = null;
	private waitingCount: { request: SearchRequest; resolve: (v: HitCount) => void; reject: (e: Error) => void } | null = null;
	/** The tree view's windows: a filter typed into a huge session's tree lays it out again per key. */
	private readonly trees = new LatestLane((request) => this.call({ method: "treeWindow", request }), "tree window");

	private local: HistoryService | null = null;

	constructor(
		private readonly worker: Worker | null,
		private readonly config: ResolvedConfig,
	) {
		worker?.on("message", (m: QueryReply) => {
			const p = this.pending.get(m.id);
			if (!p) return;
			this.pending.delete(m.id);
			if (m.ok) p.resolve(m.value);
			else p.reject(new Error(m.error));
		});
		worker?.on("error", (error) => this.failAll(error.message));
		worker?.on("exit", () => this.failAll("the query worker stopped"));
		worker?.unref();
	}

	/** Whether answers come from a worker thread. */
	get threaded(): boolean {
		return this.worker !== null;
	}

	/** A search; a newer search asked before this one started replaces it (this one rejects with SupersededError). */
	private latestSearch(request: SearchRequest): Promise<SearchResult> {
		return new Promise((resolve, reject) => {
			this.waitingSearch?.reject(new SupersededError());
			// A count not started yet is for an older query: the new search goes first, and its own count follows.
			this.waitingCount?.reject(new SupersededError());
			this.waitingCount = null;
			this.waitingSearch = { request, resolve, reject };
			this.pumpSearch();
		});
	}

	/**
	 * How many events match a search (up to the core's cap). It waits while a search runs or waits, so it never
	 * delays one that was asked first, and a newer count or search replaces it before it starts (SupersededError).
	 */
	private latestCount(request: SearchRequest): Promise<HitCount> {
		return new Promise((resolve, reject) => {
			this.waitingCount?.reject(new SupersededError());
			this.waitingCount = { request, resolve, reject };
			this.pumpSearch();
		});
	}

	/** Every question as a promise: search, count and treeWindow through their latest-wins queues, the others straight to the worker. */
	get questions(): Answered<HistoryQueries> {
		const each = (method: QueryName) => (request: unknown) =>
			method === "search"
				? this.latestSearch(request as SearchRequest)
				: method === "count"
					? this.latestCount(request as SearchRequest)
					: method === "treeWindow"
						? this.trees.ask(request)
						: this.call({ method, request });
		return Object.fromEntries(QUERY_NAMES.map((m) => [m, each(m)])) as unknown as Answered<HistoryQueries>;
	}

	/** Stops the worker; pending calls reject. */
	async close(): Promise<void> {
		this.local?.close();
		await this.worker?.terminate();
	}

	private pumpSearch(): void {
		if (this.searchRunning) return;
		const done = () => {
			this.searchRunning = false;
			this.pumpSearch();
		};
		if (this.waitingSearch) {
			const job = this.waitingSearch;
			this.waitingSearch = null;
			this.searchRunning = true;
			(this.call({ method: "search", request: job.request }) as Promise<SearchResult>).then(job.resolve, job.reject).finally(done);
		} else if (this.waitingCount) {
			const job = this.waitingCount;
			this.waitingCount = null;
			this.searchRunning = true;
			(this.call({ method: "count", request: job.request }) as Promise<HitCount>).then(job.resolve, job.reject).finally(done);
		}
	}

	private call(req: QueryRequest): Promise<unknown> {
		if (!this.worker) {
			// No worker script (TypeScript sources under a test runner): answer on a later turn of the loop, with the
			// worker's own code loaded here.
			return import("./query-worker.js").then(
				({ answer, HistoryService }) =>
					new Promise((resolve, reject) =>
						setImmediate(() => {
							try {
								this.local ??= HistoryService.open({ config: this.config, readonly: true });
								resolve(answer(this.local, req));
							} catch (error) {
								reject(error as Error);
							}
						}),
					),
			);
		}
		const id = this.nextId++;
		const worker = this.worker;
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			worker.postMessage({ id, ...req });
		});
	}

	private failAll(message: string): void {
		for (const p of this.pending.values()) p.reject(new Error(message));
		this.pending.clear();
	}
}

/** Questions of one kind, latest-wins: one asked while another runs waits, and a newer one replaces it unstarted. */
class LatestLane {
	private running = false;
	private waiting: { request: unknown; resolve: (v: unknown) => void; reject: (e: Error) => void } | null = null;

	constructor(
		private readonly run: (request: unknown) => Promise<unknown>,
		private readonly what: string,
	) {}

	ask(request: unknown): Promise<unknown> {
		return new Promise((resolve, reject) => {
			this.waiting?.reject(new SupersededError(this.what));
			this.waiting = { request, resolve, reject };
			this.pump();
		});
	}

	private pump(): void {
		const job = this.waiting;
		if (this.running || !job) return;
		this.waiting = null;
		this.running = true;
		this.run(job.request)
			.then(job.resolve, job.reject)
			.finally(() => {
				this.running = false;
				this.pump();
			});
	}
}
