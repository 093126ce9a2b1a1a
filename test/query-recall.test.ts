/**
 * The query line's memory (issue 31.9): what ↑ and Ctrl+R bring back, what is kept and how, and the file beside the
 * index (mode 0600, bounded, and a folder that cannot be written costs nothing but the memory).
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { initialRecall, RECALL_CHARS, RECALL_MAX, recallOlder, recordQuery } from "../components/search/query-recall.js";
import { loadQueryHistory, queryHistoryPath, saveQueryHistory } from "../src/cli/query-history.js";
import { tempDir } from "./helpers/corpus.js";

const t = tempDir("pes-recall-");
afterAll(() => t.cleanup());

describe("query recall", () => {
	it("↑ on an empty line walks from the newest query to older ones; ↑ on typed text does nothing", () => {
		let r = initialRecall();
		for (const q of ["webhook", "retry backoff", "kraken"]) r = recordQuery(r, q);
		expect(r.entries).toEqual(["kraken", "retry backoff", "webhook"]);
		const one = recallOlder(r, "", false);
		expect(one?.entries[one.at ?? -1]).toBe("kraken");
		const two = one && recallOlder(one, "kraken", false);
		expect(two?.entries[two.at ?? -1]).toBe("retry backoff");
		expect(recallOlder(r, "typed", false)).toBeNull();
	});

	it("Ctrl+R finds earlier queries holding the typed text, newest first, then older ones", () => {
		let r = initialRecall();
		for (const q of ["retry one", "webhook", "Retry two", "kraken"]) r = recordQuery(r, q);
		const a = recallOlder(r, "retry", true);
		expect(a?.entries[a.at ?? -1]).toBe("Retry two");
		const b = a && recallOlder(a, "Retry two", true);
		expect(b?.entries[b.at ?? -1]).toBe("retry one");
		expect(b && recallOlder(b, "retry one", true)).toBeNull();
	});

	it("keeps a query once (moved up when used again), not empty, one line, and bounded in count and length", () => {
		let r = initialRecall();
		r = recordQuery(recordQuery(recordQuery(r, "alpha"), "beta"), "  alpha ");
		expect(r.entries).toEqual(["alpha", "beta"]);
		expect(recordQuery(r, "   ")).toBe(r);
		expect(recordQuery(r, "x".repeat(RECALL_CHARS + 1))).toBe(r);
		expect(recordQuery(r, "two\nlines")).toBe(r);
		for (let i = 0; i < RECALL_MAX + 20; i++) r = recordQuery(r, `q${i}`);
		expect(r.entries).toHaveLength(RECALL_MAX);
		expect(r.entries[0]).toBe(`q${RECALL_MAX + 19}`);
	});
});

describe("the query history file", () => {
	it("lies beside the index, readable by its user only, and comes back as written", () => {
		const index = join(t.dir, "a", "index.sqlite");
		mkdirSync(join(t.dir, "a"));
		expect(saveQueryHistory(index, ["kraken", "webhook"])).toBe(true);
		expect(queryHistoryPath(index)).toBe(join(t.dir, "a", "query-history.json"));
		expect(statSync(queryHistoryPath(index)).mode & 0o777).toBe(0o600);
		expect(loadQueryHistory(index)).toEqual(["kraken", "webhook"]);
	});

	it("reads a damaged or hostile file as what is valid in it, and a missing one as none", () => {
		const index = join(t.dir, "b", "index.sqlite");
		mkdirSync(join(t.dir, "b"));
		expect(loadQueryHistory(index)).toEqual([]);
		writeFileSync(queryHistoryPath(index), "{not json");
		expect(loadQueryHistory(index)).toEqual([]);
		writeFileSync(queryHistoryPath(index), JSON.stringify(["ok", 7, "\u001b]52;c;x\u0007", "x".repeat(RECALL_CHARS + 1), "ok"]));
		expect(loadQueryHistory(index)).toEqual(["ok"]);
	});

	it("where nothing can be written: false, no error, and the explorer keeps the list in memory", () => {
		// A file where the folder should be: no write succeeds there, whoever runs the test (root ignores modes).
		const blocker = join(t.dir, "not-a-folder");
		writeFileSync(blocker, "");
		const index = join(blocker, "index.sqlite");
		expect(saveQueryHistory(index, ["kraken"])).toBe(false);
		expect(loadQueryHistory(index)).toEqual([]);
	});
});
