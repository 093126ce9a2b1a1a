/**
 * The hit list's loads, off the render: the first page of hits for the query, scope and filters (cached until the
 * index changes, so Backspace through a query answers at once), the next pages, the bounded count of every match,
 * and the selected hit's preview. Each is keyed on what the reducer bumps when it wants it (useServiceLoad).
 */
import { useCallback, useRef } from "react";
import type { HitCount, SearchRequest, SearchResult } from "../../src/shared/types.js";
import type { ExplorerService } from "../core/explorer-service.js";
import { PAGE_SIZE, searchRequest } from "../core/filters.js";
import { loadPreview, runSearch } from "../event/loaders.js";
import { type Action, previewKey, type State, searchedText, selectedHit } from "../root/state.js";
import { firstPageSize, uncountedSessions } from "../search/hits-state.js";
import { useServiceLoad } from "./use-service-load.js";

const RESULT_CACHE = 64;
/**
 * Wait after the first page of hits arrived before counting all of them: the preview's read goes first, and keys
 * typed meanwhile cancel the count, so it never sits in the query thread before the next keystroke's search. A
 * count takes 15–90 ms on the bench's large corpus; at 50 ms it started between keys typed ~100 ms apart and the
 * next key's search waited behind it (results frames of 200 ms). The total is for a reader who paused.
 */
const COUNT_DELAY_MS = 300;

/** The search the state asks for, from hit `offset` on (0: the first page), `limit` hits (default a page). */
function requestOf(s: State, offset: number, limit?: number): SearchRequest {
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

/** Runs the hit list's loads for `state`; `forget` drops the cached first pages (new index data). */
export function useHitLoads(
	service: ExplorerService,
	state: State,
	dispatch: (action: Action) => void,
	searchDelay: number,
	previewDelay: number,
): { forget: () => void } {
	// Hits for the current query, scope and filters. First pages are cached until the index changes, so Backspace
	// through a query answers at once.
	const results = useRef(new Map<string, SearchResult>());
	const h = state.hits;
	const seq = h.results.seq;
	useServiceLoad(
		String(seq),
		async (): Promise<Action> => {
			// One screenful first (every hit costs a source read for its snippet); the next pages load as the cursor
			// moves. A search again for new index data asks for a whole page, so the selected hit keeps its place.
			const limit = h.results.keep ? PAGE_SIZE : firstPageSize(state.size);
			const request = requestOf(state, 0, limit);
			// Relative times resolve to a new instant on every search: within the hour, the cached answer still stands.
			const key = JSON.stringify({
				...request,
				filters: { ...request.filters, after: request.filters?.after?.slice(0, 13), before: request.filters?.before?.slice(0, 13) },
			});
			const cached = results.current.get(key);
			if (cached) return { type: "search-done", seq, more: 0, result: cached, limit };
			const out = await runSearch(service, request);
			if (!("result" in out)) return { type: "search-failed", seq, error: out.error };
			results.current.set(key, out.result);
			if (results.current.size > RESULT_CACHE) results.current.delete(results.current.keys().next().value as string);
			return { type: "search-done", seq, more: 0, result: out.result, limit };
		},
		(error) => ({ type: "search-failed", seq, error }),
		dispatch,
		seq === 1 ? 0 : searchDelay,
	);

	// The next page of hits, when the cursor nears the end of what is loaded (the reducer asks for one only once this
	// search's first page is in: newSearch in hits-state.ts).
	const moreSeq = h.results.moreSeq;
	useServiceLoad(
		moreSeq === 0 ? null : `${seq}+${moreSeq}`,
		async (): Promise<Action> => {
			const out = await runSearch(service, requestOf(state, h.results.fetched, PAGE_SIZE));
			return "result" in out
				? { type: "search-done", seq, more: moreSeq, result: out.result, limit: PAGE_SIZE }
				: { type: "search-failed", seq, error: out.error };
		},
		(error) => ({ type: "search-failed", seq, error }),
		dispatch,
	);

	// How many hits there are in all, once the first page is on screen and only when more than it match (a bounded
	// count in the core, off the input loop; the key changes with every search, which cancels a pending one).
	const r0 = h.results;
	const counting = service.count !== undefined && r0.status === "ready" && r0.error === null && !r0.exhausted && r0.total === null;
	useServiceLoad(
		counting ? `${seq}#count` : null,
		async (): Promise<Action> => {
			if (!service.count) return { type: "count-done", seq, total: { count: 0, atLeast: true } };
			return { type: "count-done", seq, total: await service.count(requestOf(state, 0)) };
		},
		// A failed count leaves the header as it was ("50+ hits").
		() => ({ type: "count-done", seq: -1, total: { count: 0, atLeast: true } }),
		dispatch,
		COUNT_DELAY_MS,
	);

	// Grouped by session: each row's "best of N hits in this session" counts that session's matches in the index (the
	// loaded rows are a page, not the session), for the rows on screen, one bounded count each.
	const uncounted = uncountedSessions(h, state.size);
	useServiceLoad(
		service.count && uncounted.length > 0 ? `${seq}#groups#${uncounted.join(",")}` : null,
		async (): Promise<Action> => {
			const counts: Record<string, HitCount> = {};
			const base = requestOf(state, 0);
			for (const id of uncounted) if (service.count) counts[id] = await service.count({ ...base, filters: { ...base.filters, sessionIds: [id] } });
			return { type: "group-counts-done", seq, counts };
		},
		// A failed count leaves the loaded counts ("2+").
		() => ({ type: "group-counts-done", seq: -1, counts: {} }),
		dispatch,
		COUNT_DELAY_MS,
	);

	// The preview of the selected hit.
	const pKey = previewKey(state);
	const hit = selectedHit(state);
	useServiceLoad(
		hit ? pKey : null,
		async (): Promise<Action> => ({ type: "preview-done", key: pKey ?? "", read: hit ? await loadPreview(service, hit) : null, error: null }),
		(error) => ({ type: "preview-done", key: pKey ?? "", read: null, error }),
		dispatch,
		previewDelay,
	);

	// Stable, so an effect that calls it runs only when its own inputs change.
	const forget = useCallback(() => results.current.clear(), []);
	return { forget };
}
