/**
 * A cwd scope of more sessions than a scored match takes the scope token for (allowed.ts) filters by session ids;
 * statements that do not score take the exact scope token instead (CandidateFilter.exact). Both must select the same
 * matches: checked on the fixture corpus with real SQLite, the ids read straight from the sessions table.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CandidateFilter } from "../src/index/candidate-filter.js";
import { CandidateQuery } from "../src/index/candidates.js";
import { type IndexStore, openStore } from "../src/index/store.js";
import { scopeToken } from "../src/project/tokens.js";
import { parseQuery } from "../src/query/query-parse.js";
import { FRAGMENT_SLOTS } from "../src/shared/bounds.js";
import { type IndexedCorpus, indexedCorpus } from "./helpers/corpus.js";

let indexed: IndexedCorpus;
let store: IndexStore;
let cwd: string;
let ids: number[];

beforeAll(() => {
	indexed = indexedCorpus("pes-exact-scope-");
	store = openStore(indexed.indexPath, { readonly: true });
	// The cwd holding most sessions of those with no other cwd below them (the token of a folder covers those), and
	// its sessions' row ids.
	const top = store
		.prepare<[], { cwd: string }>(
			"SELECT cwd FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM sessions o WHERE o.cwd LIKE s.cwd || '/%') GROUP BY cwd ORDER BY count(*) DESC LIMIT 1",
		)
		.get();
	cwd = top?.cwd as string;
	ids = store
		.prepare<[string], { id: number }>("SELECT id FROM sessions WHERE cwd = ?")
		.all(cwd)
		.map((r) => r.id);
});
afterAll(() => {
	store.close();
	indexed.cleanup();
});

const byIds = (): CandidateFilter => ({ sessions: ids, exclude: null, scope: null });
const byIdsAndExact = (): CandidateFilter => ({ ...byIds(), exact: scopeToken(cwd) });
const query = (q: string, filter: CandidateFilter) => new CandidateQuery(store, parseQuery(q).match, filter);

describe("the exact scope token of unscored statements", () => {
	it("has sessions in that cwd and in others", () => {
		expect(ids.length).toBeGreaterThan(1);
		expect(store.prepare<[], { n: number }>("SELECT count(*) AS n FROM sessions").get()?.n).toBeGreaterThan(ids.length);
	});

	it.each(["retry_with_backoff", "package.json", "error", "the"])("selects what the ids select: %s", (q) => {
		const a = query(q, byIds());
		const b = query(q, byIdsAndExact());
		expect(b.window(16, 64, 10, false)).toEqual(a.window(16, 64, 10, false));
		expect(b.window(100_000, 64, 10, false)).toEqual(a.window(100_000, 64, 10, false));
		expect(b.count(10_000, 100_000)).toEqual(a.count(10_000, 100_000));
		const list = (c: CandidateQuery) => {
			const s = c.fragmentList(100_000, false);
			return s ? store.prepare<unknown[], { fid: number }>(s.sql).all(...s.params) : [];
		};
		expect(list(b)).toEqual(list(a));
		expect(list(a).length).toBeGreaterThan(0);
		// Scored statements still filter by the ids: same scores as without the token.
		expect(b.window(16, 64, 10)).toEqual(a.window(16, 64, 10));
	});

	it("counts a word's matches within the scope, as a scope token of fewer sessions does", () => {
		const q = "error";
		const inScope = store
			.prepare<[string, string], { n: number }>(
				`SELECT count(*) AS n FROM fts JOIN events e ON e.id = fts.rowid / ${FRAGMENT_SLOTS} WHERE fts MATCH ? AND e.session_id IN (SELECT id FROM sessions WHERE cwd = ?)`,
			)
			.get(parseQuery(q).match as string, cwd)?.n as number;
		expect(inScope).toBeGreaterThan(0);
		expect(query(q, byIdsAndExact()).indexMatches(1_000_000)).toBe(inScope);
		expect(query(q, byIds()).indexMatches(1_000_000)).toBeGreaterThan(inScope);
	});
});
