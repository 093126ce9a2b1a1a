/**
 * A partial answer's candidates' window (issue 29, the 5 GB row): when the lone candidates' word's matches reach back
 * far past its COMMON (8,192) oldest, every list reads only its COMMON newest; before that, every match is a candidate.
 * Ground truth by hand: the ten oldest events hold the identifier and a prose word of the query, every later one the
 * identifier alone, so an unbounded answer ranks the ten oldest first and a bounded one never reaches them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { linearSessionService, tempDir } from "./helpers/corpus.js";

const COMMON = 8192;
const OLD = 10;
const id = (i: number) => `w${String(i).padStart(6, "0")}`;
/** With `long`, the newest event is also the longest: bm25 would rank it last among its equals, newest first first. */
const texts = (n: number, long = false) =>
	Array.from({ length: n }, (_, i) =>
		i < OLD ? `zorbLax quuxish old${i}` : long && i === n - 1 ? `zorbLax item${i} ${"and then some more ".repeat(8)}` : `zorbLax item${i}`,
	);
const QUERY = "zorbLax quuxish nowherezz";

let t: ReturnType<typeof tempDir>;
let far: HistoryService;
let near: HistoryService;
/** Matches nine times as far back as the COMMON oldest do; and four times, under the eight times that bound the lists. */
const FAR = 9 * COMMON;
const NEAR = 4 * COMMON;

beforeAll(() => {
	t = tempDir("pes-partial-window-");
	far = linearSessionService(`${t.dir}/far`, "far", "0199d000-0000-7000-8000-0000000000d1", texts(FAR, true), id);
	near = linearSessionService(`${t.dir}/near`, "near", "0199d000-0000-7000-8000-0000000000d2", texts(NEAR, true), id);
}, 120_000);

afterAll(() => {
	far?.close();
	near?.close();
	t.cleanup();
});

describe("a partial answer's candidates' window", () => {
	it("ranks the oldest events holding the most words first while the identifier's matches do not reach far back", () => {
		const r = near.search({ query: QUERY, limit: OLD + 2, total: true });
		expect(r.match).toBe("partial");
		expect(r.unmatched).toEqual(["nowherezz"]);
		expect(new Set(r.hits.slice(0, OLD).map((h) => h.entryId))).toEqual(new Set(Array.from({ length: OLD }, (_, i) => id(i))));
		// The identifier is counted to COMMON, a bound: not scored by bm25 (which would count all its matches and rank the
		// long newest event last among its equals), its equals newest first.
		expect(r.hits[OLD]?.entryId).toBe(id(NEAR - 1));
		expect(r.hits[OLD + 1]?.entryId).toBe(id(NEAR - 2));
		expect(r.total?.atLeast).toBe(false);
	});

	it("reads only the identifier's 8,192 newest matches once they reach far back, and says more events hold the words", () => {
		const r = far.search({ query: QUERY, limit: 20, total: true });
		expect(r.match).toBe("partial");
		expect(r.unmatched).toEqual(["nowherezz"]);
		// The newest events holding the identifier, none of the old ones, which lie past its window: its equals newest
		// first, not by bm25, which would count every match in the history first.
		expect(r.hits.map((h) => h.entryId)).toEqual(Array.from({ length: 20 }, (_, i) => id(FAR - 1 - i)));
		expect(r.total?.atLeast).toBe(true);
	});
});
