/**
 * The hit list's loads, off the render: the first page of hits for the query, scope and filters (cached until the
 * index changes, so Backspace through a query answers at once), the next pages, the bounded count of every match,
 * and the selected hit's preview. What each asks for is root/explorer-loads.ts (shared with pi's overlay); each is
 * keyed on what the reducer bumps when it wants it (useServiceLoad).
 */
import { useCallback, useRef } from "react";
import type { ExplorerService } from "../core/explorer-service.js";
import { countLoad, firstPageLoad, groupCountsLoad, LoadCache, nextPageLoad, previewLoad } from "../root/explorer-loads.js";
import type { Action, State } from "../root/state.js";
import { useServiceLoad } from "./use-service-load.js";

/**
 * Wait after the first page of hits arrived before counting all of them: the preview's read goes first, and keys
 * typed meanwhile cancel the count, so it never sits in the query thread before the next keystroke's search. A
 * count takes 15–90 ms on the bench's large corpus; at 50 ms it started between keys typed ~100 ms apart and the
 * next key's search waited behind it (results frames of 200 ms). The total is for a reader who paused.
 */
const COUNT_DELAY_MS = 300;

/** Runs the hit list's loads for `state`; `forget` drops the cached first pages (new index data). */
export function useHitLoads(
	service: ExplorerService,
	state: State,
	dispatch: (action: Action) => void,
	searchDelay: number,
	previewDelay: number,
): { forget: () => void } {
	const cache = useRef(new LoadCache());
	const first = firstPageLoad(service, state, cache.current);
	useServiceLoad(first.key, first.load, first.fail, dispatch, state.hits.results.seq === 1 ? 0 : searchDelay);
	const next = nextPageLoad(service, state);
	useServiceLoad(next.key, next.load, next.fail, dispatch);
	const count = countLoad(service, state);
	useServiceLoad(count.key, count.load, count.fail, dispatch, COUNT_DELAY_MS);
	const groups = groupCountsLoad(service, state);
	useServiceLoad(groups.key, groups.load, groups.fail, dispatch, COUNT_DELAY_MS);
	const preview = previewLoad(service, state);
	useServiceLoad(preview.key, preview.load, preview.fail, dispatch, previewDelay);
	// Stable, so an effect that calls it runs only when its own inputs change.
	const forget = useCallback(() => cache.current.forget(), []);
	return { forget };
}
