/**
 * A query of one very common word (issue 29, the 5 GB row): past LONE_WORD_SCORED matches in scope it is listed newest
 * first with a note, as a common phrase is; below that its newest matches are ranked by bm25. Ground truth by hand:
 * every event holds the word once and the newest is also the longest, so bm25 ranks it after the shorter ones and
 * newest first ranks it first.
 */
import { appendFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONE_WORD_SCORED, RANK_WINDOW } from "../src/query/rank-window.js";
import type { HistoryService } from "../src/service/service.js";
import { linearSessionService, tempDir } from "./helpers/corpus.js";

const id = (i: number) => `c${String(i).padStart(6, "0")}`;
const texts = (n: number) => Array.from({ length: n }, (_, i) => (i === n - 1 ? `zorbLax item${i} ${"and then some more ".repeat(8)}` : `zorbLax item${i}`));

let t: ReturnType<typeof tempDir>;
let many: HistoryService;
let fewer: HistoryService;
let grow: HistoryService;
const MANY = LONE_WORD_SCORED + 10;
/** More than a window, so only its newest are ranked, but fewer than LONE_WORD_SCORED. */
const FEWER = RANK_WINDOW + 500;
/** Just under LONE_WORD_SCORED, until GROWN more are appended. */
const BELOW = LONE_WORD_SCORED - 5;
const GROWN = 20;

beforeAll(() => {
	t = tempDir("pes-lone-word-");
	many = linearSessionService(`${t.dir}/many`, "many", "0199d000-0000-7000-8000-0000000000e1", texts(MANY), id);
	fewer = linearSessionService(`${t.dir}/fewer`, "fewer", "0199d000-0000-7000-8000-0000000000e2", texts(FEWER), id);
	grow = linearSessionService(`${t.dir}/grow`, "grow", "0199d000-0000-7000-8000-0000000000e3", texts(BELOW), id);
}, 120_000);

afterAll(() => {
	many?.close();
	fewer?.close();
	grow?.close();
	t.cleanup();
});

describe("a query of one common word", () => {
	it("is ranked by bm25 while it has fewer matches than LONE_WORD_SCORED: the long newest event is not first", () => {
		const r = fewer.search({ query: "zorbLax", limit: 10 });
		expect(r.hits).toHaveLength(10);
		expect(r.hits.map((h) => h.entryId)).not.toContain(id(FEWER - 1));
		expect(r.notes.join("\n")).not.toMatch(/newest first/);
	});

	it("is listed newest first, with a note that says so, once it has more", () => {
		const r = many.search({ query: "zorbLax", limit: 10 });
		expect(r.hits.map((h) => h.entryId)).toEqual(Array.from({ length: 10 }, (_, i) => id(MANY - 1 - i)));
		expect(r.notes.join("\n")).toContain(`\`zorbLax\` has more than 65,536 matches here: newest first`);
		// A second page goes on where the first stopped.
		const next = many.search({ query: "zorbLax", limit: 10, offset: 10 });
		expect(next.hits.map((h) => h.entryId)).toEqual(Array.from({ length: 10 }, (_, i) => id(MANY - 11 - i)));
	});

	it("is still ranked when the caller asks for raw scores", () => {
		const r = many.search({ query: "zorbLax", limit: 10, rawScores: true });
		expect(r.hits.map((h) => h.entryId)).not.toContain(id(MANY - 1));
	});

	it("is listed newest first once appended matches take it past the bound, in the same process that ranked it before", () => {
		expect(grow.search({ query: "zorbLax", limit: 10 }).notes.join("\n")).not.toMatch(/newest first/);
		// The same lines the helper writes, continuing its chain: entry i at second i + 1.
		const dir = join(t.dir, "grow", "sessions", "--tmp-grow--");
		const file = join(dir, readdirSync(dir)[0] as string);
		const ts = (i: number) => new Date(Date.UTC(2026, 6, 1) + i * 1000).toISOString();
		for (let i = BELOW; i < BELOW + GROWN; i++) {
			const message = { role: "user", content: [{ type: "text", text: `zorbLax item${i}` }], timestamp: 1 };
			appendFileSync(file, `${JSON.stringify({ type: "message", id: id(i), parentId: id(i - 1), timestamp: ts(i + 1), message })}\n`);
		}
		grow.refresh();
		const r = grow.search({ query: "zorbLax", limit: 10 });
		expect(r.notes.join("\n")).toContain("`zorbLax` has more than 65,536 matches here: newest first");
		expect(r.hits.map((h) => h.entryId)).toEqual(Array.from({ length: 10 }, (_, i) => id(BELOW + GROWN - 1 - i)));
	});
});
