/**
 * The filter indexes (schema.ts FILTER_INDEX and events_branch): filtered searches read the events' filter columns
 * through them. An index built before they existed gets them from a writable open, except the extension's (inside pi,
 * whose event loop must not wait for it), and a search answers the same with them and without them.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HistoryService } from "../src/service/service.js";
import type { Hit, SearchFilters } from "../src/shared/types.js";
import { type IndexedCorpus, indexedCorpus, needleById } from "./helpers/corpus.js";

let indexed: IndexedCorpus;

beforeAll(() => {
	indexed = indexedCorpus("pes-filter-index-");
	indexed.service.close();
});
afterAll(() => indexed.cleanup());

/** Whether the index has both filter indexes (null: one without the other). */
function hasFilterIndex(): boolean | null {
	const db = new Database(indexed.indexPath, { readonly: true });
	try {
		const has = (name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
		return has("events_filter") === has("events_branch") ? has("events_filter") : null;
	} finally {
		db.close();
	}
}

function dropFilterIndex(): void {
	const db = new Database(indexed.indexPath);
	try {
		db.exec("DROP INDEX events_filter; DROP INDEX events_branch");
	} finally {
		db.close();
	}
}

/** Opens the index as `options` say, runs `body`, closes it. */
function withService<T>(options: { addFilterIndex?: boolean; readonly?: boolean }, body: (service: HistoryService) => T): T {
	const service = HistoryService.open({ config: indexed.config, ...options });
	try {
		return body(service);
	} finally {
		service.close();
	}
}

const refs = (hits: Hit[]) => hits.map((h) => `${h.sessionId}/${h.entryId}`).sort();

/** Filtered answers with their ground truth from the generator's manifest, and a few without one to compare. */
function answers(service: HistoryService): { truth: Record<"alternate" | "alternateExpected" | "errors" | "errorsExpected", string[]>; pages: string } {
	const find = (query: string, filters: SearchFilters, limit = 50) => service.search({ query, filters, limit, total: true });
	const offPath = needleById(indexed.manifest, "N00001");
	const failed = needleById(indexed.manifest, "N00002");
	const truth = {
		alternate: refs(find(`"${offPath.text}"`, { branchStates: ["alternate"] }).hits),
		alternateExpected: offPath.occurrences.filter((o) => o.onLeafPath === false).map((o) => `${o.sessionId}/${o.entryId}`),
		errors: refs(find(`"${failed.text}"`, { isError: true }).hits),
		errorsExpected: failed.occurrences.map((o) => `${o.sessionId}/${o.entryId}`),
	};
	const pages = [
		find("error", { roles: ["assistant"] }, 20),
		find("the", { branchStates: ["selected"], types: ["message"] }, 20),
		find("", { branchStates: ["alternate"] }, 20),
		find("the", { branchStates: ["alternate"] }, 20),
		service.search({ query: "the", filters: { branchStates: ["alternate"] }, limit: 20, order: "newest" }),
	].map((r) => JSON.stringify([r.hits.map((h) => [h.sessionId, h.entryId, h.score, h.snippet]), r.total]));
	return { truth, pages: pages.join("\n") };
}

describe("the filter index", () => {
	it("is in a new index, and filtered answers through it are the manifest's", () => {
		expect(hasFilterIndex()).toBe(true);
		const { truth } = withService({ readonly: true }, answers);
		expect(truth.alternate.length).toBeGreaterThan(0);
		expect(truth.alternate).toEqual([...truth.alternateExpected].sort());
		expect(truth.errors).toEqual([...truth.errorsExpected].sort());
	});

	it("answers the same without it, and an older index gets it from any writable open but the extension's", () => {
		const withIndex = withService({ readonly: true }, answers);
		dropFilterIndex();
		// The extension's open, and a read-only one, leave the index as they found it.
		const without = withService({ addFilterIndex: false }, answers);
		expect(hasFilterIndex()).toBe(false);
		expect(withService({ readonly: true }, answers)).toEqual(without);
		expect(without).toEqual(withIndex);
		// The command line's and the explorer's opens add it.
		withService({}, () => undefined);
		expect(hasFilterIndex()).toBe(true);
		expect(withService({ readonly: true }, answers)).toEqual(withIndex);
	});
});
