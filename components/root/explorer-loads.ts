/**
 * The explorer's loads, for any host: what the state asks the service for (the first page of hits, the next pages,
 * the bounded count, the per-session counts when grouped, the selected hit's preview, the event on top of the back stack and its chunks,
 * the tree's window), each
 * as a key that changes when the reducer asks again and a load that answers with actions. The Ink App runs them
 * with useServiceLoad, pi's overlay with its driver; both drop an answer whose key is no longer asked for.
 */
import { errorText } from "../../src/present/text.js";
import type { HitCount, SearchRequest, SearchResult } from "../../src/shared/types.js";
import type { ExplorerService } from "../core/explorer-service.js";
import { PAGE_SIZE, searchRequest } from "../core/filters.js";
import type { EventData } from "../event/event-data.js";
import { loadChunk, loadEvent, loadPreview, runSearch } from "../event/loaders.js";
import { firstPageSize, uncountedSessions } from "../search/hits-state.js";
import { treeRead } from "../tree/tree-load.js";
import { topTree, treeBodyLines } from "../tree/tree-state.js";
import type { Action } from "./actions.js";
import { previewKey, type State, searchedText, selectedHit, topLoc } from "./state.js";

/** One load the state asks for: null key when it asks for none; a new key cancels the one before. */
export interface LoadSpec {
	key: string | null;
	load: () => Promise<Action | Action[]>;
	fail: (error: string) => Action;
}

const RESULT_CACHE = 64;
const EVENT_CACHE = 32;

/** The search the state asks for, from hit `offset` on (0: the first page), `limit` hits (default a page). */
export function hitsRequest(s: State, offset: number, limit?: number): SearchRequest {
	const h = s.hits;
	const request = searchRequest({
		query: searchedText(s.query.text),
		scope: h.scope,
		workspace: h.workspace,
		session: h.scopeSession,
		filters: h.filters,
		offset,
		now: Date.now(),
		order: h.order,
	});
	return limit === undefined ? request : { ...request, limit };
}

/**
 * What a host keeps between loads: first pages of hits (until the index changes, so Backspace through a query
 * answers at once) and events read for the back stack (read once per ref). An answer is kept only if the index did
 * not change while it was read: one asked before the change and answered after would stand in for the new data.
 */
export class LoadCache {
	private readonly pages = new Map<string, SearchResult>();
	private readonly events = new Map<string, EventData>();
	private epoch = 0;

	/** Drops what was read (the index gained data), and what loads under way will answer. */
	forget(): void {
		this.pages.clear();
		this.events.clear();
		this.epoch++;
	}

	/** A first page read before (`key`: its request). */
	page(key: string): SearchResult | undefined {
		return this.pages.get(key);
	}

	/** An event read before. */
	event(key: string): EventData | undefined {
		return this.events.get(key);
	}

	/** Starts a read: its answer goes through the returned function, which keeps it unless the index changed since. */
	reading(): { page: (key: string, value: SearchResult) => void; event: (key: string, value: EventData) => void } {
		const at = this.epoch;
		return {
			page: (key, value) => {
				if (at === this.epoch) remember(this.pages, key, value, RESULT_CACHE);
			},
			event: (key, value) => {
				if (at === this.epoch) remember(this.events, key, value, EVENT_CACHE);
			},
		};
	}
}

function remember<T>(m: Map<string, T>, key: string, value: T, max: number): void {
	m.set(key, value);
	if (m.size > max) m.delete(m.keys().next().value as string);
}

/** The first page of hits for the query, scope and filters. */
export function firstPageLoad(service: ExplorerService, s: State, cache: LoadCache): LoadSpec {
	const h = s.hits;
	const seq = h.results.seq;
	return {
		key: String(seq),
		load: async () => {
			// One screenful first (every hit costs a source read for its snippet); the next pages load as the cursor
			// moves. A search again for new index data asks for a whole page, so the selected hit keeps its place.
			const limit = h.results.keep ? PAGE_SIZE : firstPageSize(s.size);
			const request = hitsRequest(s, 0, limit);
			// Relative times resolve to a new instant on every search: within the hour, the cached answer still stands.
			const key = JSON.stringify({
				...request,
				filters: { ...request.filters, after: request.filters?.after?.slice(0, 13), before: request.filters?.before?.slice(0, 13) },
			});
			const cached = cache.page(key);
			if (cached) return { type: "search-done", seq, more: 0, result: cached, limit };
			const keep = cache.reading();
			const out = await runSearch(service, request);
			if (!("result" in out)) return { type: "search-failed", seq, error: out.error };
			keep.page(key, out.result);
			return { type: "search-done", seq, more: 0, result: out.result, limit };
		},
		fail: (error) => ({ type: "search-failed", seq, error }),
	};
}

/**
 * The next page of hits, when the cursor nears the end of what is loaded (the reducer asks for one only once this
 * search's first page is in: newSearch in hits-state.ts).
 */
export function nextPageLoad(service: ExplorerService, s: State): LoadSpec {
	const h = s.hits;
	const seq = h.results.seq;
	const moreSeq = h.results.moreSeq;
	return {
		key: moreSeq === 0 ? null : `${seq}+${moreSeq}`,
		load: async () => {
			const out = await runSearch(service, hitsRequest(s, h.results.fetched, PAGE_SIZE));
			return "result" in out
				? { type: "search-done", seq, more: moreSeq, result: out.result, limit: PAGE_SIZE }
				: { type: "search-failed", seq, error: out.error };
		},
		fail: (error) => ({ type: "search-failed", seq, error }),
	};
}

/**
 * How many hits there are in all, once the first page is on screen and only when more than it match (a bounded count
 * in the core; the key changes with every search, which cancels a pending one). A failed count leaves "50+ hits".
 */
export function countLoad(service: ExplorerService, s: State): LoadSpec {
	const r = s.hits.results;
	const seq = r.seq;
	const counting = service.count !== undefined && r.status === "ready" && r.error === null && !r.exhausted && r.total === null;
	return {
		key: counting ? `${seq}#count` : null,
		load: async () => {
			if (!service.count) return { type: "count-done", seq, total: { count: 0, atLeast: true } };
			return { type: "count-done", seq, total: await service.count(hitsRequest(s, 0)) };
		},
		fail: () => ({ type: "count-done", seq: -1, total: { count: 0, atLeast: true } }),
	};
}

/** The preview of the selected hit. */
export function previewLoad(service: ExplorerService, s: State): LoadSpec {
	const pKey = previewKey(s);
	const hit = selectedHit(s);
	return {
		key: hit ? pKey : null,
		load: async () => ({ type: "preview-done", key: pKey ?? "", read: hit ? await loadPreview(service, hit) : null, error: null }),
		fail: (error) => ({ type: "preview-done", key: pKey ?? "", read: null, error }),
	};
}

/** The event on top of the back stack, when it has not been read yet (the cache serves a ref read before). */
export function eventLoad(service: ExplorerService, s: State, cache: LoadCache): LoadSpec {
	const top = topLoc(s);
	const topKey = top?.key ?? "";
	return {
		key: top !== null && top.data === null && top.error === null ? `${topKey}@${s.events.stack.length}` : null,
		load: async () => {
			let data = cache.event(topKey);
			if (!data && top) {
				const keep = cache.reading();
				data = await loadEvent(service, top.ref);
				keep.event(topKey, data);
			}
			return { type: "event-done", key: topKey, data: data ?? null, error: data ? null : "no event" };
		},
		fail: (error) => ({ type: "event-done", key: topKey, data: null, error }),
	};
}

/** Chunks of the top event's large fragments the view asked for (scrolling near text not loaded yet, a find's match). */
export function chunkLoad(service: ExplorerService, s: State): LoadSpec {
	const top = topLoc(s);
	const topKey = top?.key ?? "";
	const wanted = top ? top.wanted : [];
	return {
		key: top && wanted.length > 0 ? `${topKey}|${wanted.map((w) => `${w.fid}@${w.offset}`).join(",")}` : null,
		load: () =>
			Promise.all(
				wanted.map(async ({ fid: fragmentId, offset }): Promise<Action> => {
					try {
						const window = top ? await loadChunk(service, top.ref, fragmentId, offset) : null;
						return { type: "page-done", key: topKey, fragmentId, offset, window, error: null };
					} catch (error) {
						return { type: "page-done", key: topKey, fragmentId, offset, window: null, error: errorText(error) };
					}
				}),
			),
		fail: (error) => ({ type: "page-done", key: topKey, fragmentId: "", offset: -1, window: null, error }),
	};
}

/** The window of the top tree view it does not hold yet (first read, a change, or rows scrolled into view). */
export function treeLoad(service: ExplorerService, s: State): LoadSpec {
	const need = treeRead(service, topTree(s.tree), treeBodyLines(s.size), s.tree.stack.length);
	return { key: need.key, load: need.run, fail: need.fail };
}

/**
 * Grouped by session: each row's "best of N hits in this session" counts that session's matches in the index (the
 * loaded rows are a page, not the session), for the rows on screen, one bounded count each.
 */
export function groupCountsLoad(service: ExplorerService, s: State): LoadSpec {
	const seq = s.hits.results.seq;
	const uncounted = uncountedSessions(s.hits, s.size);
	return {
		key: service.count && uncounted.length > 0 ? `${seq}#groups#${uncounted.join(",")}` : null,
		load: async () => {
			const counts: Record<string, HitCount> = {};
			const base = hitsRequest(s, 0);
			for (const id of uncounted) if (service.count) counts[id] = await service.count({ ...base, filters: { ...base.filters, sessionIds: [id] } });
			return { type: "group-counts-done", seq, counts };
		},
		// A failed count leaves the loaded counts ("2+").
		fail: () => ({ type: "group-counts-done", seq: -1, counts: {} }),
	};
}
