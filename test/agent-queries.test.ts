/**
 * Issue 28: queries as models write them. Ground truth: the generator's manifest (test/helpers/agent-queries.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResult } from "../src/shared/types.js";
import { type AgentQuery, agentQueries } from "./helpers/agent-queries.js";
import { type IndexedCorpus, indexedCorpus } from "./helpers/corpus.js";

let indexed: IndexedCorpus;
beforeAll(() => {
	indexed = indexedCorpus("pes-agent-", { copy: false });
});
afterAll(() => indexed.cleanup());

const refs = (r: SearchResult) => r.hits.map((h) => `${h.sessionId}/${h.entryId}`);

/** Recall@10 and precision of a set of queries: the share of wanted events in the first 10 hits, per query. */
function measure(queries: AgentQuery[]) {
	let recall = 0;
	let top = 0;
	let rPrecision = 0;
	const misses: string[] = [];
	for (const q of queries) {
		const got = refs(indexed.service.search({ query: q.query, limit: 10 }));
		const found = q.wanted.filter((w) => got.includes(w)).length;
		recall += found / q.wanted.length;
		if (q.wanted.includes(got[0] ?? "")) top++;
		// R-precision: of the first |wanted| hits, how many are wanted.
		rPrecision += got.slice(0, q.wanted.length).filter((g) => q.wanted.includes(g)).length / q.wanted.length;
		if (found < q.wanted.length) misses.push(`${q.style} ${q.query}: ${found}/${q.wanted.length}`);
	}
	const n = queries.length;
	return { n, recall: recall / n, top1: top / n, rPrecision: rPrecision / n, misses };
}

describe("agent-style queries over the generator's needles", () => {
	it("finds the needle's events in the first 10 hits of 95% of wordy, spaced, misspelled and inflected queries", () => {
		const queries = agentQueries(indexed.manifest);
		expect(queries.length).toBeGreaterThanOrEqual(100);
		const all = measure(queries);
		const styles = ["filler", "spaced", "misspelled", "inflected"].map((s) => [s, measure(queries.filter((q) => q.style === s))] as const);
		console.log(JSON.stringify({ all: { ...all, misses: all.misses.length }, styles: styles.map(([s, m]) => [s, m.n, m.recall, m.top1, m.rPrecision]) }));
		console.log(all.misses.join("\n"));
		expect(all.recall).toBeGreaterThanOrEqual(0.95);
		expect(all.top1).toBeGreaterThanOrEqual(0.9);
		expect(all.rPrecision).toBeGreaterThanOrEqual(0.85);
	});
});
