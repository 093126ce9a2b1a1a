/**
 * The query thread's worker (query-thread.ts starts it): answers the explorer's questions through its own read-only
 * connection, one at a time, and warms up while the explorer loads.
 */
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import type { ResolvedConfig } from "../shared/config.js";
import { isQueryName } from "../shared/queries.js";
import { QUERY_WORKER_KIND, type QueryReply, type QueryRequest } from "./query-thread.js";
import { HistoryService } from "./service.js";

export { HistoryService };

/** Answers one question by name; a name that is not a question (close, refresh …) is refused, not called. */
export function answer(service: HistoryService, req: QueryRequest): unknown {
	if (!isQueryName(req.method)) throw new Error(`not a question: ${String(req.method)}`);
	const ask = service[req.method] as (request: unknown) => unknown;
	return ask.call(service, req.request);
}

/**
 * What the worker searches when it starts, and throws away: searches like the explorer's (a page of hits with
 * snippets; a prefix, then a word and a prefix) compile the statements, read the index's first pages and let V8
 * compile the search and snippet code. Without them the first keys typed took 3–5× as long as later ones.
 */
const WARM_QUERIES = ["th", "the in"];

/** Opens the index, or null when it cannot be read yet (at first launch the indexer may not have created it). */
function openReadonly(config: ResolvedConfig): HistoryService | null {
	try {
		return HistoryService.open({ config, readonly: true });
	} catch {
		return null;
	}
}

function runWorker(config: ResolvedConfig): void {
	const port = parentPort;
	if (!port) return;
	// Opened as the worker starts (the launcher starts it while React and Ink load), and again on a request after a
	// failure.
	let service: HistoryService | null = openReadonly(config);
	// The warm-up runs one search per turn of the loop, so a request that arrives waits for one search at most.
	let warmQueue = service ? [...WARM_QUERIES] : [];
	let warm: ReturnType<typeof setTimeout> | null = null;
	const warmNext = () => {
		const query = warmQueue.shift();
		if (!service || query === undefined) return;
		try {
			service.search({ query, prefix: true, limit: 50 });
		} catch {
			warmQueue = [];
		}
		warm = warmQueue.length ? setTimeout(warmNext, 0) : null;
	};
	warm = setTimeout(warmNext, 0);
	port.on("message", (m: QueryRequest & { id: number }) => {
		if (warm) clearTimeout(warm);
		try {
			service ??= HistoryService.open({ config, readonly: true });
			port.postMessage({ id: m.id, ok: true, value: answer(service, m) } satisfies QueryReply);
			if (warmQueue.length) warm = setTimeout(warmNext, 0);
		} catch (error) {
			try {
				service?.close();
			} catch {
				// closing a broken connection may fail too
			}
			service = null;
			port.postMessage({ id: m.id, ok: false, error: (error as Error).message ?? String(error) } satisfies QueryReply);
		}
	});
}

if (!isMainThread && (workerData as { kind?: string } | null)?.kind === QUERY_WORKER_KIND) runWorker((workerData as { config: ResolvedConfig }).config);
