/**
 * Issue 28 on a history written by hand (ground truth: the texts below): partial matches rank by how much of the
 * query an event holds, rarer words first; English inflections find each other, exact forms first; words that
 * match nothing are named, with the nearest words that do.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSearchForModel } from "../src/present/model-text.js";
import { formatSearch, makeStyle } from "../src/present/text.js";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";

const SESSION = "0199d000-0000-7000-8000-0000000000b2";
const CWD = "/tmp/partial";
/** Entry id → text of one user message each. */
const TEXTS: Record<string, string> = {
	all: "zyxrare bravo charlie",
	most: "zyxrare bravo",
	rare: "zyxrare",
	quokka: "quokka seen once",
	wombat1: "wombat here",
	wombat2: "wombat there",
	fix: "fix the parser",
	fixed: "fixed the lexer",
	fixing: "fixing the printer",
	error: "an error appeared",
	errors: "errors everywhere",
	code: "handleErrors threw EADDRINUSE",
	path: "see src/fixes.ts",
	...Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`filler${i}`, `bravo charlie filler number ${i}`])),
};

let t: ReturnType<typeof tempDir>;
let service: HistoryService;

beforeAll(() => {
	t = tempDir("pes-partial-");
	const dir = join(t.dir, "sessions", "--tmp-partial--");
	mkdirSync(dir, { recursive: true });
	const ts = (i: number) => new Date(Date.UTC(2026, 6, 1) + i * 1000).toISOString();
	const lines = [`${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: ts(0), cwd: CWD })}\n`];
	Object.entries(TEXTS).forEach(([id, text], i) => {
		const message = { role: "user", content: [{ type: "text", text }], timestamp: 1 };
		const parentId = i === 0 ? null : (Object.keys(TEXTS)[i - 1] as string);
		lines.push(`${JSON.stringify({ type: "message", id, parentId, timestamp: ts(i + 1), message })}\n`);
	});
	writeFileSync(join(dir, "2026-07-01T00-00-00-000Z_p.jsonl"), lines.join(""));
	service = openService(join(t.dir, "sessions"), join(t.dir, "index.sqlite"));
	service.refresh();
});

afterAll(() => {
	service?.close();
	t.cleanup();
});

const ids = (query: string, limit = 10) => service.search({ query, limit }).hits.map((h) => h.entryId);

describe("partial matches", () => {
	it("rank all words above most words above the rarest word alone, and say which word matched nothing", () => {
		const r = service.search({ query: "zyxrare bravo charlie nowhere", limit: 10 });
		expect(r.hits.map((h) => h.entryId)).toEqual(["all", "most", "rare"]);
		expect(r.match).toBe("partial");
		expect(r.unmatched).toEqual(["nowhere"]);
		expect(r.notes).toContain("no event holds `nowhere`");
	});

	it.each([
		["the rarer of two words first", "quokka wombat nowhere", ["quokka", "wombat2", "wombat1"]],
		["two words that never meet", "zyxrare quokka", ["quokka", "rare", "most", "all"]],
	])("%s: %s", (_name, query, expected) => {
		expect(ids(query)).toEqual(expected);
	});

	it("answers every word first, unchanged, whenever some event holds them all", () => {
		const r = service.search({ query: "zyxrare bravo", limit: 10 });
		expect(r.hits.map((h) => h.entryId)).toEqual(["most", "all"]);
		expect(r.match).toBeUndefined();
		expect(r.unmatched).toBeUndefined();
	});

	it("says it is partial in the model's text, the CLI's text and --json", () => {
		const r = service.search({ query: "zyxrare nowhere", limit: 10 });
		const model = formatSearchForModel(r, { query: "zyxrare nowhere", root: CWD, includesCurrent: false }).text;
		expect(model).toMatch(/^3 partial hits for /);
		expect(model).toContain("- no event holds `nowhere`");
		expect(formatSearch(r, makeStyle(false)).split("\n")[0]).toBe("partial match: no event holds every word; none holds `nowhere`");
		expect(JSON.parse(JSON.stringify(r))).toMatchObject({ match: "partial", unmatched: ["nowhere"] });
	});

	it("grows a 10-hit answer's text for the model by at most 10% to say that it is partial", () => {
		const r = service.search({ query: "filler nowhere", limit: 10 });
		expect(r.hits).toHaveLength(10);
		const view = { query: "filler nowhere", root: CWD, includesCurrent: false };
		const partial = formatSearchForModel(r, view).text.length;
		const plain = formatSearchForModel({ hits: r.hits, notes: [], index: r.index }, view).text.length;
		expect(partial / plain).toBeLessThanOrEqual(1.1);
	});

	it("names the nearest words of the index for a word that matches nothing, and uses them to rank", () => {
		const alone = service.search({ query: "zyxare", limit: 10 });
		expect(alone.hits).toEqual([]);
		expect(alone.notes).toContain("no event holds `zyxare`; did you mean `zyxrare` (3 events)?");
		const typo = service.search({ query: "zyxare bravo", limit: 10 });
		expect(typo.hits.map((h) => h.entryId).slice(0, 2)).toEqual(["most", "all"]);
		expect(typo.unmatched).toEqual(["zyxare"]);
	});

	it("counts the partial hits it pages through, the did-you-mean stand-in's included", () => {
		// `zyxare` is a typo of `zyxrare` (3 events), which picks the candidates; `bravo` alone is in 26 events.
		const all = service.search({ query: "zyxare bravo", limit: 50 });
		expect(all.hits.map((h) => h.entryId)).toEqual(["most", "all", "rare"]);
		const page = service.search({ query: "zyxare bravo", limit: 2, total: true });
		expect(page.total).toEqual({ count: 3, atLeast: false });
		expect(service.count({ query: "zyxare bravo" })).toEqual({ count: 3, atLeast: false });
		expect(service.search({ query: "zyxare bravo", limit: 2, offset: 2 }).hits.map((h) => h.entryId)).toEqual(["rare"]);
	});

	it("leaves session_search to seed 003's contract: every word or nothing", () => {
		const r = service.sessionSearch({ query: "zyxrare nowhere", limit: 10, snippetChars: 100, caller: { root: CWD } });
		expect(r.hits).toEqual([]);
		expect(r.notes.join(" ")).not.toContain("nowhere");
	});
});

describe("English inflections", () => {
	// A camelCase part (handleErrors → errors) and a path's word (src/fixes.ts → fixes) are words of the index too.
	it.each([
		["fixed", "fixed", ["fixed", "fixing", "fix", "path"]],
		["fixes", "path", ["fixing", "fixed", "fix", "path"]],
		["fix", "fix", ["fix", "fixing", "fixed", "path"]],
		["errors", "errors", ["errors", "error", "code"]],
		["error", "error", ["error", "errors", "code"]],
	])("%s finds its other forms, its own form first (%s)", (query, first, expected) => {
		const got = ids(query);
		expect(got[0]).toBe(first);
		expect([...got].sort()).toEqual([...expected].sort());
	});

	it("marks the other form in the snippet of a hit found through it", () => {
		const hits = service.search({ query: "fixed", limit: 10 }).hits;
		const marked = (id: string) => {
			const hit = hits.find((h) => h.entryId === id);
			return hit?.marks.map(([from, to]) => hit.snippet.slice(from, to));
		};
		expect(marked("fixed")).toEqual(["fixed"]);
		expect(marked("fixing")).toEqual(["fixing"]);
		expect(marked("path")).toEqual(["fixes"]);
	});

	it.each([
		["an error code in capitals", "ERRORS", ["errors", "code"]],
		["an identifier", "handleError", []],
		["a path", "src/fixed.ts", []],
		["a quoted phrase", '"fixed the"', ["fixed"]],
	])("leaves %s exact: %s", (_name, query, expected) => {
		expect(ids(query)).toEqual(expected);
	});
});

describe("did-you-mean for a common word", () => {
	it("says the suggestion is in over 1000 events instead of counting all of them", () => {
		const t2 = tempDir("pes-partial-common-");
		try {
			const dir = join(t2.dir, "sessions", "--tmp-common--");
			mkdirSync(dir, { recursive: true });
			const id = "0199d000-0000-7000-8000-0000000000c3";
			const ts = (i: number) => new Date(Date.UTC(2026, 6, 2) + i * 1000).toISOString();
			const lines = [`${JSON.stringify({ type: "session", version: 3, id, timestamp: ts(0), cwd: "/tmp/common" })}\n`];
			for (let i = 0; i < 1005; i++) {
				const message = { role: "user", content: [{ type: "text", text: `retry with backoff ${i}` }], timestamp: 1 };
				lines.push(`${JSON.stringify({ type: "message", id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: ts(i + 1), message })}\n`);
			}
			writeFileSync(join(dir, "2026-07-02T00-00-00-000Z_c.jsonl"), lines.join(""));
			const common = openService(join(t2.dir, "sessions"), join(t2.dir, "index.sqlite"));
			try {
				common.refresh();
				expect(common.search({ query: "backofff", limit: 10 }).notes).toContain("no event holds `backofff`; did you mean `backoff` (over 1000 events)?");
			} finally {
				common.close();
			}
		} finally {
			t2.cleanup();
		}
	});
});
