/**
 * A hit's snippet comes from its source line as the file holds it now (I10), also when an earlier search in the same
 * process already read that line: the search keeps the lines of settled files in memory, and must notice a file
 * replaced under it even when its size and modification time were restored.
 */
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { openService } from "./helpers/corpus.js";
import { copySmallCorpus, scratch, sessionFiles } from "./helpers/reliability.js";

const { fresh } = scratch("pes-snippet-source-");
// Whole seconds, long past: the files count as settled, so their lines are kept between searches.
const PAST = 1_700_000_000;

describe("snippets read from the source files", () => {
	let dir: string;
	let service: HistoryService;

	beforeAll(() => {
		dir = copySmallCorpus(fresh("corpus"));
		for (const f of sessionFiles(dir)) utimesSync(f, PAST, PAST);
		service = openService(dir, join(dirname(dir), "index.sqlite"));
		service.refresh();
	});
	afterAll(() => service.close());

	it("shows the same snippets when the same search runs again", () => {
		const first = service.search({ query: "ECONNREFUSED", limit: 20 });
		expect(first.hits.length).toBeGreaterThan(0);
		for (const h of first.hits) expect(h.snippet).toContain("ECONNREFUSED");
		const again = service.search({ query: "ECONNREFUSED", limit: 20 });
		expect(again.hits.map((h) => [h.entryId, h.snippet, h.marks])).toEqual(first.hits.map((h) => [h.entryId, h.snippet, h.marks]));
	});

	it("shows what a file holds now after it was replaced with the same size and modification time", () => {
		const before = service.search({ query: "ECONNREFUSED", limit: 20 }).hits;
		const file = sessionFiles(dir).find((f) => readFileSync(f, "utf8").includes("ECONNREFUSED")) as string;
		const text = readFileSync(file, "utf8");
		const inFile = before.filter((h) => h.session.file === file);
		expect(inFile.length).toBeGreaterThan(0);
		writeFileSync(file, text.replaceAll("ECONNREFUSED", "ECONNRESETXX"));
		utimesSync(file, PAST, PAST);
		// No refresh: the index still says these entries match, but their snippets come from the file as it is.
		const after = service.search({ query: "ECONNREFUSED", limit: 20 }).hits;
		for (const h of after.filter((x) => x.session.file === file)) {
			expect(h.snippet).not.toContain("ECONNREFUSED");
			expect(h.marks).toEqual([]);
		}
		for (const h of after.filter((x) => x.session.file !== file)) expect(h.snippet).toContain("ECONNREFUSED");
	});
});
