/**
 * A partial answer paged through (issue 28): hundreds of events hold the query's one matching word, in runs of equal
 * score longer than a page. Ground truth by hand: every event holds `zqpage` 1, 2 or 3 times in one short message of
 * equal other words, so bm25 ranks 3 > 2 > 1 occurrences; events of equal score come newest first.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { linearSessionService, tempDir } from "./helpers/corpus.js";

const EVENTS = 300;
const id = (i: number) => `e${String(i).padStart(3, "0")}`;
const times = (i: number) => 1 + (i % 3);

let t: ReturnType<typeof tempDir>;
let service: HistoryService;

beforeAll(() => {
	t = tempDir("pes-partial-pages-");
	const texts = Array.from({ length: EVENTS }, (_, i) => `${"zqpage ".repeat(times(i))}item${i}`);
	service = linearSessionService(t.dir, "pages", "0199d000-0000-7000-8000-0000000000c3", texts, id);
});

afterAll(() => {
	service?.close();
	t.cleanup();
});

it("pages through a partial answer in its full order, and counts every event of it", () => {
	const newestFirst = Array.from({ length: EVENTS }, (_, i) => EVENTS - 1 - i);
	const expected = [3, 2, 1].flatMap((n) => newestFirst.filter((i) => times(i) === n)).map(id);
	const query = "zqpage nowherezz";
	const paged: string[] = [];
	for (let offset = 0; offset < EVENTS + 50; offset += 50) {
		const r = service.search({ query, limit: 50, offset });
		if (r.hits.length > 0) expect(r.match).toBe("partial");
		paged.push(...r.hits.map((h) => h.entryId));
	}
	expect(paged).toEqual(expected);
	expect(service.search({ query, limit: 5, total: true }).total).toEqual({ count: EVENTS, atLeast: false });
	// A later page asked for first is the same page.
	expect(service.search({ query: "zqpage nowhereyy", limit: 50, offset: 150 }).hits.map((h) => h.entryId)).toEqual(expected.slice(150, 200));
});
