/**
 * A partial answer about a common identifier (issue 28): the query names an identifier that more than PARTIAL_WINDOW
 * events hold, in prose that is partly elsewhere ("what happened with X last time"). Ground truth by hand: three
 * events hold the identifier and `happened`, the rest the identifier alone; of the three, the older the shorter
 * (bm25 would put the oldest first). Events holding more of the query come first, and among equals the
 * newest: bm25 over so common an identifier would check its phrase in every fragment holding it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { PARTIAL_WINDOW } from "../src/query/partial.js";
import type { HistoryService } from "../src/service/service.js";
import { linearSessionService, tempDir } from "./helpers/corpus.js";

const TOTAL = PARTIAL_WINDOW + 200;
/** The events that also hold `happened`, oldest first: among the newest, whose fragments a list reads first. */
const BOTH = [TOTAL - 300, TOTAL - 200, TOTAL - 100];
const id = (i: number) => `c${String(i).padStart(5, "0")}`;
const padding = (words: number) => Array.from({ length: words }, (_, k) => `filler${k}`).join(" ");

let t: ReturnType<typeof tempDir>;
let service: HistoryService;

beforeAll(() => {
	t = tempDir("pes-partial-common-");
	const texts = Array.from({ length: TOTAL }, (_, i) =>
		BOTH.includes(i) ? `it happened again in zq_retry_core ${padding(BOTH.indexOf(i) * 40)}` : `zq_retry_core gave up after ${i} tries ${padding(20)}`,
	);
	service = linearSessionService(t.dir, "common", "0199d000-0000-7000-8000-0000000000c5", texts, id);
});

afterAll(() => {
	service?.close();
	t.cleanup();
});

it("ranks the events holding more of the query first, and equals newest first, for an identifier most events hold", () => {
	const r = service.search({ query: "what happened with zq_retry_core last time", limit: 6 });
	expect(r.match).toBe("partial");
	expect(r.hits.map((h) => h.entryId)).toEqual([...[...BOTH].reverse(), TOTAL - 1, TOTAL - 2, TOTAL - 3].map(id));
});
