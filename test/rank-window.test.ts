/**
 * Ranking with early termination (search.ts RANK_WINDOW): a query that matches more fragments than the window ranks
 * only the newest of them. Checked against the exhaustive ranking of the same index (window = every match): equal
 * wherever the query matches no more than the window; beyond it, exactly the exhaustive ranking of the window's
 * events, which are those of the most recently written session files.
 */
import { readdirSync, statSync, utimesSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IndexStore, openStore } from "../src/index/store.js";
import { parseQuery } from "../src/query/query-parse.js";
import { newestNote } from "../src/query/rank-window.js";
import { search } from "../src/query/search.js";
import { FRAGMENT_SLOTS } from "../src/shared/bounds.js";
import type { Hit, SearchRequest } from "../src/shared/types.js";
import { type IndexedCorpus, indexedCorpus } from "./helpers/corpus.js";

let indexed: IndexedCorpus;
let store: IndexStore;
/** The session file written last (its mtime set to now, every other file to a day earlier) before the cold index. */
let newest: string;

function sessionFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: "utf8" })
		.filter((f) => f.endsWith(".jsonl"))
		.map((f) => join(dir, f));
}

beforeAll(() => {
	indexed = indexedCorpus("pes-rank-window-", { refresh: false });
	const files = sessionFiles(indexed.corpus).sort((a, b) => statSync(b).size - statSync(a).size);
	const dayAgo = new Date(Date.now() - 86_400_000);
	for (const f of files) utimesSync(f, dayAgo, dayAgo);
	newest = files[0] as string;
	utimesSync(newest, new Date(), new Date());
	indexed.service.refresh();
	store = openStore(indexed.indexPath, { readonly: true });
});
afterAll(() => {
	store.close();
	indexed.cleanup();
});

const EVERYTHING = Number.MAX_SAFE_INTEGER;
const ref = (h: Hit) => `${h.sessionId}/${h.entryId}`;
const run = (query: string, window: number, extra: Partial<SearchRequest> = {}) =>
	search(store, { query, limit: 50, rawScores: true, ...extra }, 0, { rankWindow: window }).hits;

/** Every hit of the exhaustive ranking, best first, page by page. */
function exhaustive(query: string): Hit[] {
	const all: Hit[] = [];
	for (let offset = 0; ; offset += 50) {
		const page = run(query, EVERYTHING, { offset });
		all.push(...page);
		if (page.length < 50) return all;
	}
}

/** Matching FTS rowids, newest first (the highest rowids), straight from the FTS table. */
function matchingRowids(query: string): number[] {
	const match = parseQuery(query).match as string;
	return store
		.prepare<[string], { rowid: number }>("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC")
		.all(match)
		.map((r) => r.rowid);
}

/** Common words of the fixture corpus: each matches many more fragments than the small windows below. */
const COMMON = ["the", "file", "error", "test"];

describe("ranking within the newest matches", () => {
	it("has common words in the fixture corpus to rank", () => {
		expect(COMMON.filter((q) => matchingRowids(q).length >= 40).length).toBeGreaterThanOrEqual(3);
	});

	it("equals the exhaustive ranking wherever the query matches no more than the window", () => {
		for (const q of COMMON) {
			const n = matchingRowids(q).length;
			expect(run(q, n)).toEqual(run(q, EVERYTHING));
			expect(run(q, n + 100)).toEqual(run(q, EVERYTHING));
		}
	});

	it("beyond the window, returns the exhaustive ranking of the window's events: same scores, counts and order", () => {
		let compared = 0;
		for (const q of COMMON) {
			const rowids = matchingRowids(q);
			const full = exhaustive(q);
			const byRef = new Map(full.map((h) => [ref(h), h]));
			for (const window of [8, 24]) {
				if (rowids.length <= window + 10) continue;
				// The window: the newest `window` matches, less the event of the next older match (it may have more).
				const oldest = Math.floor((rowids[window] as number) / FRAGMENT_SLOTS);
				const inWindow = new Set(
					rowids
						.slice(0, window)
						.map((r) => Math.floor(r / FRAGMENT_SLOTS))
						.filter((e) => e > oldest),
				);
				const events = store.prepare<[string], { id: number; ref: string }>(
					"SELECT e.id, s.public_id || '/' || e.entry_id AS ref FROM events e JOIN sessions s ON s.id = e.session_id WHERE e.id IN (SELECT value FROM json_each(?))",
				);
				const windowRefs = new Set(events.all(JSON.stringify([...inWindow])).map((r) => r.ref));
				const hits = run(q, window, { limit: 5 });
				expect(hits.length).toBe(Math.min(5, windowRefs.size));
				for (const h of hits) {
					expect(windowRefs.has(ref(h))).toBe(true);
					// The same score and match count as when every match is ranked: the window holds whole events.
					expect(h.score).toBe(byRef.get(ref(h))?.score);
					expect(h.matchedFragments).toBe(byRef.get(ref(h))?.matchedFragments);
				}
				// Among the window's events the page is the exhaustive order, forked copies of one entry aside: an entry is in
				// the window when any copy of it is, and the exhaustive ranking may name it by a copy the window does not hold.
				const entry = (h: Hit) => `${h.entryId}\u0000${h.snippet}`;
				const windowEntries = new Set(full.filter((h) => windowRefs.has(ref(h))).map(entry));
				const expected = full.filter((h) => windowEntries.has(entry(h)));
				const distinct = (list: Hit[]) => list.filter((h, i) => list.findIndex((o) => entry(o) === entry(h)) === i);
				expect(distinct(hits).map((h) => h.score)).toEqual(
					distinct(expected)
						.map((h) => h.score)
						.slice(0, distinct(hits).length),
				);
				compared++;
			}
		}
		expect(compared).toBeGreaterThanOrEqual(3);
	});

	it("takes the window from the most recently written session file", () => {
		const file = relative(indexed.corpus, newest);
		for (const q of COMMON) {
			const rowids = matchingRowids(q);
			const own = store
				.prepare<[string, string], { n: number }>(
					`SELECT count(*) AS n FROM fts JOIN events e ON e.id = fts.rowid / ${FRAGMENT_SLOTS} JOIN sessions s ON s.id = e.session_id
					JOIN files f ON f.id = s.file_id WHERE fts MATCH ? AND f.path LIKE '%' || ?`,
				)
				.get(parseQuery(q).match as string, file)?.n as number;
			if (own < 12 || rowids.length <= own + 10) continue;
			// Fewer than the newest file's own matches: every hit comes from it.
			const hits = run(q, own - 4, { limit: 5 });
			expect(hits.length).toBe(5);
			for (const h of hits) expect(h.session.file.endsWith(file)).toBe(true);
			return;
		}
		throw new Error("no common word with enough matches in the newest file");
	});
});

/** Phrases of several tokens that the fixture corpus holds more often than the small windows below. */
const PHRASES = ["retry_with_backoff", '"cannot read properties"', "package.json", "src/index"];

/** The window's events of a query, as runSearch takes them: the newest `window` matches less the next older one's event. */
function windowEvents(query: string, window: number): Array<{ entry: string; ts: number }> {
	const rowids = matchingRowids(query);
	const oldest = rowids.length > window ? Math.floor((rowids[window] as number) / FRAGMENT_SLOTS) : -1;
	const ids = [...new Set(rowids.slice(0, window).map((r) => Math.floor(r / FRAGMENT_SLOTS)))].filter((e) => e > oldest);
	return store
		.prepare<[string], { entry: string; ts: number }>("SELECT entry_id AS entry, ts_ms AS ts FROM events WHERE id IN (SELECT value FROM json_each(?))")
		.all(JSON.stringify(ids));
}

describe("a query of one common phrase", () => {
	it("has phrases in the fixture corpus that match more than the windows", () => {
		for (const q of PHRASES) expect(matchingRowids(q).length, q).toBeGreaterThan(40);
	});

	it("ranks every match exactly when the phrase matches no more than the window, with no note", () => {
		for (const q of PHRASES) {
			const n = matchingRowids(q).length;
			const exact = search(store, { query: q, limit: 50 }, 0, { rankWindow: n });
			expect(exact.hits).toEqual(search(store, { query: q, limit: 50 }, 0, { rankWindow: EVERYTHING }).hits);
			expect(exact.hits.some((h) => h.score !== 0)).toBe(true);
			expect(exact.notes).not.toContain(newestNote(parseQuery(q), n));
		}
	});

	it("lists the window's matching events newest first, unscored, and says so, when it matches more", () => {
		for (const q of PHRASES) {
			for (const window of [8, 24]) {
				const result = search(store, { query: q, limit: 5 }, 0, { rankWindow: window });
				expect(result.notes).toContain(newestNote(parseQuery(q), window));
				const page = result.hits.filter((h, i) => result.hits.findIndex((o) => o.entryId === h.entryId) === i);
				expect(page.length).toBe(5);
				for (const h of result.hits) expect(h.score).toBe(0);
				// The window's entries by time, newest first (forked copies of an entry share its time).
				const byEntry = new Map<string, number>();
				for (const e of windowEvents(q, window)) byEntry.set(e.entry, Math.max(byEntry.get(e.entry) ?? -1, e.ts));
				const times = [...byEntry.values()].sort((a, b) => b - a);
				expect(page.map((h) => Date.parse(h.timestamp as string))).toEqual(times.slice(0, page.length));
				for (const h of page) expect(byEntry.has(h.entryId)).toBe(true);
			}
		}
	});

	it("lists every matching event of a widened window once, distinct entries newest first, then their forked copies", () => {
		let copies = 0;
		for (const q of PHRASES) {
			const matched = new Set(matchingRowids(q).map((r) => Math.floor(r / FRAGMENT_SLOTS)));
			const events = store
				.prepare<[string], { session: string; entry: string; ts: number }>(
					`SELECT s.public_id AS session, e.entry_id AS entry, e.ts_ms AS ts FROM events e JOIN sessions s ON s.id = e.session_id
					WHERE e.id IN (SELECT value FROM json_each(?))`,
				)
				.all(JSON.stringify([...matched]));
			// Window 8 widens fourfold until it holds every match: the pages then list every event.
			expect(search(store, { query: q, limit: 50 }, 0, { rankWindow: 8 }).notes, q).toContain(newestNote(parseQuery(q), 8));
			const hits: Hit[] = [];
			for (let offset = 0; hits.length === offset; offset += 50) hits.push(...search(store, { query: q, limit: 50, offset }, 0, { rankWindow: 8 }).hits);
			expect(new Set(hits.map(ref)), q).toEqual(new Set(events.map((e) => `${e.session}/${e.entry}`)));
			expect(hits.length, q).toBe(events.length);
			const firstCopy = hits.findIndex((h, i) => hits.findIndex((o) => o.entryId === h.entryId) < i);
			const distinct = firstCopy < 0 ? hits : hits.slice(0, firstCopy);
			expect(new Set(distinct.map((h) => h.entryId)).size, q).toBe(new Set(events.map((e) => e.entry)).size);
			const times = distinct.map((h) => Date.parse(h.timestamp as string));
			expect(times, q).toEqual([...times].sort((a, b) => b - a));
			copies += hits.length - distinct.length;
		}
		// The fixture forks sessions: some of these entries have copies.
		expect(copies).toBeGreaterThan(0);
	});

	it("orders a widened window's events of one time by their identity, and folds copies in that order", () => {
		let tied = 0;
		for (const q of PHRASES) {
			const matched = new Set(matchingRowids(q).map((r) => Math.floor(r / FRAGMENT_SLOTS)));
			// The documented order (candidates.ts IDENTITY_ORDER) in SQL: time, then the session's start and id, then seq.
			const ordered = store
				.prepare<[string], { session: string; entry: string; hash: string; ts: number }>(
					`SELECT s.public_id AS session, e.entry_id AS entry, e.line_hash AS hash, e.ts_ms AS ts FROM events e JOIN sessions s ON s.id = e.session_id
					WHERE e.id IN (SELECT value FROM json_each(?)) ORDER BY e.ts_ms DESC, s.created DESC, s.public_id DESC, e.seq DESC`,
				)
				.all(JSON.stringify([...matched]));
			const seen = new Set<string>();
			const distinct: string[] = [];
			const copies: string[] = [];
			for (const e of ordered) {
				const family = `${e.entry}\0${e.hash}`;
				(seen.has(family) ? copies : distinct).push(`${e.session}/${e.entry}`);
				seen.add(family);
			}
			tied += ordered.filter((e, i) => i > 0 && ordered[i - 1]?.ts === e.ts).length;
			const hits: Hit[] = [];
			for (let offset = 0; hits.length === offset; offset += 50) hits.push(...search(store, { query: q, limit: 50, offset }, 0, { rankWindow: 8 }).hits);
			expect(hits.map(ref), q).toEqual([...distinct, ...copies]);
		}
		// Forked copies share their entry's time: the identity decides which copy is listed first.
		expect(tied).toBeGreaterThan(0);
	});

	it("pages on newest first: the next page is the rest of a page as long as both", () => {
		const q = PHRASES[0] as string;
		const next = search(store, { query: q, limit: 5, offset: 5 }, 0, { rankWindow: 8 });
		expect(next.notes).not.toContain(newestNote(parseQuery(q), 8));
		const both = search(store, { query: q, limit: 10 }, 0, { rankWindow: 8 });
		expect(next.hits.length).toBe(5);
		expect(next.hits.map(ref)).toEqual(both.hits.slice(5).map(ref));
	});

	it("lists newest first within a cwd filter too, only that cwd's events", () => {
		const q = PHRASES[0] as string;
		const top = store
			.prepare<[string], { cwd: string; n: number }>(
				`SELECT s.cwd, count(*) AS n FROM fts JOIN events e ON e.id = fts.rowid / ${FRAGMENT_SLOTS} JOIN sessions s ON s.id = e.session_id
				WHERE fts MATCH ? GROUP BY s.cwd ORDER BY n DESC LIMIT 1`,
			)
			.get(parseQuery(q).match as string);
		expect(top?.n).toBeGreaterThan(20);
		const cwd = top?.cwd as string;
		const result = search(store, { query: q, limit: 5, filters: { cwds: [cwd], cwdSubtree: false } }, 0, { rankWindow: 8 });
		expect(result.notes).toContain(newestNote(parseQuery(q), 8));
		expect(result.hits.length).toBe(5);
		for (const h of result.hits) expect(h.session.cwd).toBe(cwd);
		const times = result.hits.map((h) => Date.parse(h.timestamp as string));
		expect(times).toEqual([...times].sort((a, b) => b - a));
	});

	it("lists a common phrase typed as you type (its last token a prefix) newest first too", () => {
		const q = PHRASES[0] as string;
		const typed = search(store, { query: q.slice(0, -2), prefix: true, limit: 5 }, 0, { rankWindow: 8 });
		expect(typed.notes).toContain(newestNote(parseQuery(q.slice(0, -2), { prefix: true }), 8));
		const times = typed.hits.map((h) => Date.parse(h.timestamp as string));
		expect(times).toEqual([...times].sort((a, b) => b - a));
		expect(typed.hits.every((h) => h.score === 0)).toBe(true);
	});

	it("orders newest-first pages of a common phrase the same unscored as scored", () => {
		for (const q of PHRASES) {
			const unscored = search(store, { query: q, limit: 20, order: "newest" }, 0, { rankWindow: 8 });
			const scored = search(store, { query: q, limit: 20, order: "newest", rawScores: true }, 0, { rankWindow: 8 });
			expect(unscored.hits.map(ref)).toEqual(scored.hits.map(ref));
			expect(unscored.hits.every((h) => h.score === 0)).toBe(true);
			expect(scored.hits.every((h) => h.score < 0)).toBe(true);
			// Within the window the page is scored as before.
			const n = matchingRowids(q).length;
			expect(search(store, { query: q, limit: 20, order: "newest" }, 0, { rankWindow: n }).hits.every((h) => h.score !== 0)).toBe(true);
		}
	});

	it("scores a common phrase when raw bm25 scores are asked for (session_search)", () => {
		const q = PHRASES[0] as string;
		const raw = search(store, { query: q, limit: 5, rawScores: true }, 0, { rankWindow: 8 });
		expect(raw.notes).not.toContain(newestNote(parseQuery(q), 8));
		expect(raw.hits.every((h) => h.score < 0)).toBe(true);
	});

	it("ranks a common phrase with another word by bm25", () => {
		const result = search(store, { query: `${PHRASES[0]} the`, limit: 5 }, 0, { rankWindow: 8 });
		expect(result.hits.length).toBeGreaterThan(0);
		expect(result.hits.every((h) => h.score !== 0)).toBe(true);
		expect(result.notes.some((n) => n.includes("newest first"))).toBe(false);
	});
});
