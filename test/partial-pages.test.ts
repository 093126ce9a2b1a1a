/**
 * A partial answer paged through (issue 28): hundreds of events hold the query's one matching word, in runs of equal
 * score longer than a page. Ground truth by hand: every event holds `zqpage` 1, 2 or 3 times in one short message of
 * equal other words, so bm25 ranks 3 > 2 > 1 occurrences; events of equal score come newest first.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";

const EVENTS = 300;
const id = (i: number) => `e${String(i).padStart(3, "0")}`;
const times = (i: number) => 1 + (i % 3);

let t: ReturnType<typeof tempDir>;
let service: HistoryService;

beforeAll(() => {
	t = tempDir("pes-partial-pages-");
	const dir = join(t.dir, "sessions", "--tmp-pages--");
	mkdirSync(dir, { recursive: true });
	const ts = (i: number) => new Date(Date.UTC(2026, 6, 1) + i * 1000).toISOString();
	const lines = [`${JSON.stringify({ type: "session", version: 3, id: "0199d000-0000-7000-8000-0000000000c3", timestamp: ts(0), cwd: "/tmp/pages" })}\n`];
	for (let i = 0; i < EVENTS; i++) {
		const text = `${"zqpage ".repeat(times(i))}item${i}`;
		const message = { role: "user", content: [{ type: "text", text }], timestamp: 1 };
		lines.push(`${JSON.stringify({ type: "message", id: id(i), parentId: i === 0 ? null : id(i - 1), timestamp: ts(i + 1), message })}\n`);
	}
	writeFileSync(join(dir, "2026-07-01T00-00-00-000Z_pages.jsonl"), lines.join(""));
	service = openService(join(t.dir, "sessions"), join(t.dir, "index.sqlite"));
	service.refresh();
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
