/**
 * The explorer's load cache across a change of the index. A search asked before the first index was built and
 * answered after it (the query thread was busy, as on a loaded machine) was kept in the cache that the index change
 * had just emptied: the search asked again for the new data found it there and showed "No hits" and "0 sessions"
 * over a full index until the next change. Ground truth: the fixture corpus's manifest (where a needle is planted).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ExplorerService } from "../components/core/explorer-service.js";
import type { Action } from "../components/root/actions.js";
import { firstPageLoad, LoadCache } from "../components/root/explorer-loads.js";
import { initialState, type State } from "../components/root/state.js";
import type { HistoryService } from "../src/service/service.js";
import type { SearchRequest, SearchResult } from "../src/shared/types.js";
import { type IndexedCorpus, indexedCorpus, needleById } from "./helpers/corpus.js";

const SIZE = { columns: 100, rows: 30 };

/** The real service; each search reads the index when asked and answers when released (a busy query thread). */
function held(service: HistoryService): { service: ExplorerService; release: () => void } {
	const waiting: Array<() => void> = [];
	return {
		service: {
			search: (request: SearchRequest) => {
				const answer = service.search(request);
				return new Promise<SearchResult>((resolve) => waiting.push(() => resolve(answer)));
			},
			read: (r) => service.read(r),
			trace: (r) => service.trace(r),
			forkAbove: (r) => service.forkAbove(r),
			status: () => service.status(),
		},
		release: () => {
			for (const go of waiting.splice(0)) go();
		},
	};
}

function searched(action: Action | Action[]): SearchResult {
	const a = Array.isArray(action) ? action[0] : action;
	if (a?.type !== "search-done") throw new Error(`expected search-done, got ${JSON.stringify(a)}`);
	return a.result;
}

describe("a load answered after the index changed", () => {
	let corpus: IndexedCorpus | null = null;
	afterEach(() => {
		corpus?.cleanup();
		corpus = null;
	});

	it("does not stand in for the new data: the search asked again reads the new index", async () => {
		corpus = indexedCorpus("pes-load-cache-", { refresh: false });
		const needle = needleById(corpus.manifest, "N00033");
		const text = needle.text.slice(0, 9);
		const state: State = { ...initialState({ size: SIZE }), query: { text, cursor: text.length } };
		const cache = new LoadCache();
		const slow = held(corpus.service);

		// Asked while the index is empty; its answer comes only after the index was built and the cache emptied.
		const before = firstPageLoad(slow.service, state, cache).load();
		corpus.service.refresh();
		cache.forget();
		slow.release();
		const stale = searched(await before);
		expect(stale.hits).toHaveLength(0);
		expect(stale.index?.events ?? 0).toBe(0);

		const again = searched(await firstPageLoad(corpus.service, state, cache).load());
		const planted = needle.occurrences.map((o) => o.entryId);
		expect(again.hits.map((h) => h.entryId)).toContain(planted[0]);
		expect(again.index?.sessions).toBeGreaterThan(0);
	});

	it("keeps what was read while the index stayed the same, and nothing read across a change", () => {
		const cache = new LoadCache();
		const result = { hits: [] } as unknown as SearchResult;
		const same = cache.reading();
		same.page("q", result);
		expect(cache.page("q")).toBe(result);

		const across = cache.reading();
		cache.forget();
		expect(cache.page("q")).toBeUndefined();
		across.page("q", result);
		across.event("e", { ref: { sessionId: "s", entryId: "e" } } as never);
		expect(cache.page("q")).toBeUndefined();
		expect(cache.event("e")).toBeUndefined();
	});
});
