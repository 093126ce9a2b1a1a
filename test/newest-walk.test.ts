/**
 * A newest-first page of a common match walks the newest events instead of scoring every match
 * (CandidateQuery.newestByWalk): its pages, forked copies and ties included, equal those of every match scored, for
 * words, phrases, prefix expansions, filters and offsets. Ground truth: the page of every match scored (newest() with
 * no walk), which test/search-order.test.ts checks against the fixture files' own timestamps.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CandidateFilter } from "../src/index/candidate-filter.js";
import { type Candidate, CandidateQuery } from "../src/index/candidates.js";
import { type IndexStore, openStore } from "../src/index/store.js";
import { matchOf, parseQuery } from "../src/query/query-parse.js";
import { type IndexedCorpus, indexedCorpus } from "./helpers/corpus.js";

let indexed: IndexedCorpus;
let store: IndexStore;
beforeAll(() => {
	indexed = indexedCorpus("pes-newest-walk-", { copy: false });
	indexed.service.close();
	store = openStore(indexed.indexPath, { readonly: true });
});
afterAll(() => {
	store.close();
	indexed.cleanup();
});

const NONE: CandidateFilter = { sessions: null, exclude: null, scope: null };

/** The filters of the table, built from the index's own sessions and times. */
function filters(): Array<[string, CandidateFilter]> {
	const sessions = store.db.prepare("SELECT id FROM sessions ORDER BY id").pluck().all() as number[];
	const middle = store.db
		.prepare("SELECT ts_ms FROM events WHERE ts_ms IS NOT NULL ORDER BY ts_ms LIMIT 1 OFFSET (SELECT count(*) / 2 FROM events)")
		.pluck()
		.get() as number;
	const last = sessions.at(-1) as number;
	const lastFrom = store.db.prepare("SELECT min(id) + 3 FROM events WHERE session_id = ?").pluck().get(last) as number;
	return [
		["no filter", NONE],
		["every other session", { ...NONE, sessions: sessions.filter((_, i) => i % 2 === 0) }],
		["tool results", { ...NONE, kinds: ["tool.result"] }],
		["user and assistant text", { ...NONE, kinds: ["user.text", "assistant.text"] }],
		["selected branch", { ...NONE, branchStates: ["selected"] }],
		["alternate branch", { ...NONE, branchStates: ["alternate"] }],
		["before the middle time", { ...NONE, beforeMs: middle }],
		["a session's own turn left out", { ...NONE, exclude: { session: last, fromEvent: lastFrom } }],
	];
}

/** Queries as the search builds them: words, a phrase, a prefix written as the terms it expands to. */
const QUERIES: Array<[string, (q: string) => string]> = [
	["the", (q) => parseQuery(q).match as string],
	["error", (q) => parseQuery(q).match as string],
	["to", (q) => parseQuery(q).match as string],
	['"in the"', (q) => parseQuery(q).match as string],
	["te", (q) => matchOf(parseQuery(q, { prefix: true }).terms, (prefix) => ["test", "tests", "text", "tell"].filter((t) => t.startsWith(prefix)))],
];

const PAGES: Array<[number, number]> = [
	[30, 0],
	[5, 0],
	[5, 3],
	[7, 21],
	[1, 60],
];

describe("a newest-first page found by walking the newest events", () => {
	it("equals the page of every match scored, for each query, filter and page; most of them walked", () => {
		let walked = 0;
		let cases = 0;
		for (const [text, match] of QUERIES) {
			for (const [name, filter] of filters()) {
				const q = new CandidateQuery(store, match(text), filter);
				for (const [limit, offset] of PAGES) {
					cases++;
					const scored: Candidate[] = q.newest(limit, offset, Number.MAX_SAFE_INTEGER);
					const walk = q.newestByWalk(limit, offset);
					if (walk === null) {
						// Only when the walk cannot fill the page: the events hold fewer matches than it needs.
						expect(scored.length, `${text} · ${name} · ${limit}@${offset}`).toBeLessThan(limit);
						continue;
					}
					walked++;
					expect(walk, `${text} · ${name} · ${limit}@${offset}`).toEqual(scored);
					expect(q.newest(limit, offset, 0)).toEqual(scored);
				}
			}
		}
		expect(walked).toBeGreaterThan(cases / 2);
	});

	it("ranks an entry's forked copies as every match scored does, and keeps them beside it", () => {
		const q = new CandidateQuery(store, parseQuery("the").match as string, NONE);
		const scored = q.newest(200, 0, Number.MAX_SAFE_INTEGER);
		// The fixture forks sessions: copies of one entry are on this page, second-ranked copies among them.
		expect(scored.some((c) => c.copy_rank > 1)).toBe(true);
		expect(q.newestByWalk(200, 0)).toEqual(scored);
	});
});
