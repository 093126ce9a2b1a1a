import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IndexedCorpus, indexedCorpus, PROJECT_ROOT } from "./helpers/corpus.js";
import { fullMatchAnswer, recallQueries } from "./helpers/full-match-answers.js";

/** Answers captured from the code before issue 28 (PES_WRITE_BASELINE=1 writes them again). */
const BASELINE = join(PROJECT_ROOT, "test", "fixtures", "agent-queries", "full-match-baseline.json");

let indexed: IndexedCorpus;
beforeAll(() => {
	indexed = indexedCorpus("pes-baseline-", { copy: false });
});
afterAll(() => indexed.cleanup());

describe("full-match answers (issue 28: all words first, unchanged)", () => {
	it("answers every recall query with the same bytes as before partial matches and inflections", () => {
		const answers = Object.fromEntries(recallQueries(indexed.manifest).map((q) => [q, fullMatchAnswer(indexed.service, q)]));
		if (process.env.PES_WRITE_BASELINE === "1") writeFileSync(BASELINE, `${JSON.stringify(answers, null, "\t")}\n`);
		const before = JSON.parse(readFileSync(BASELINE, "utf8")) as typeof answers;
		expect(Object.keys(answers)).toEqual(Object.keys(before));
		// An empty answer is not a full match: its notes may now name the words that matched nothing.
		const full = Object.entries(answers).filter(([q]) => !before[q]?.json.startsWith('{"hits":[]'));
		expect(full.length).toBeGreaterThan(100);
		for (const [q, a] of full) expect(a, q).toEqual(before[q]);
	});
});
