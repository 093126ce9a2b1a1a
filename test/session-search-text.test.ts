/**
 * session_search's pure pieces: argument clamping into seed 003's bounds, and its fixed text and details shapes.
 * Ground truth: the seed's documented bounds and its "Real output for a hit" block, copied by hand.
 */
import { describe, expect, it } from "vitest";
import {
	formatSessionSearch,
	indexingNotes,
	type RawSessionSearchArgs,
	type SessionSearchArgs,
	sessionSearchArgs,
	sessionSearchDetails,
	visibleText,
} from "../src/present/session-search-text.js";
import type { SessionSearchHit } from "../src/shared/types.js";

/** The hit of seed 003's usage example. */
const SEED_HIT: SessionSearchHit = {
	session_id: "9f2c1d84-6a0e-4b3a-9a67-2f9c1c7e55aa",
	cwd: "C:/Users/HOME/proj/agent-governance",
	started_at: "2026-10-02T08:10:00.000Z",
	role: "assistant",
	timestamp: "2026-10-02T08:14:11.402Z",
	snippet: "the FTS5 index uses tokenize='trigram' so substring matches inside a word still return the message",
	score: -1.8703,
};

describe("session_search arguments", () => {
	const base = { query: "q" };
	it.each<[string, RawSessionSearchArgs, Partial<SessionSearchArgs>]>([
		["defaults", base, { limit: 5, snippetChars: 200 }],
		["limit 0 clamps up to 1", { ...base, limit: 0 }, { limit: 1 }],
		["limit 999 clamps down to 50", { ...base, limit: 999 }, { limit: 50 }],
		["a negative limit clamps to 1", { ...base, limit: -3 }, { limit: 1 }],
		["a fractional limit is truncated", { ...base, limit: 2.9 }, { limit: 2 }],
		["a numeric string counts", { ...base, limit: "7" }, { limit: 7 }],
		["an unreadable number is the default", { ...base, limit: "five" }, { limit: 5 }],
		["infinity is out of range, not missing", { ...base, limit: Number.POSITIVE_INFINITY }, { limit: 50 }],
		["snippetChars 99999 clamps to 2000", { ...base, snippetChars: 99999 }, { snippetChars: 2000 }],
		["snippetChars 0 clamps to the smallest snippet", { ...base, snippetChars: 0 }, { snippetChars: 40 }],
		[
			"filters are trimmed",
			{ ...base, cwd: " /a/b ", after: "2026-10-01", before: " 2026-10-31T00:00:00Z" },
			{ cwd: "/a/b", after: "2026-10-01", before: "2026-10-31T00:00:00Z" },
		],
	])("%s", (_name, raw, expected) => {
		expect(sessionSearchArgs(raw)).toMatchObject(expected);
	});

	it("treats blank optional filters as unset", () => {
		expect(sessionSearchArgs({ query: "q", cwd: "  ", after: "", before: undefined })).toEqual({ query: "q", limit: 5, snippetChars: 200 });
	});
});

describe("session_search notes about indexing", () => {
	it.each<[string, Parameters<typeof indexingNotes>, string[]]>([
		["a pass that ran", [{ ran: true, indexed: 2, pending: 0 }], ["indexed 2 transcript(s), 0 still pending"]],
		["a pass cut by its budget", [{ ran: true, indexed: 25, pending: 40 }], ["indexed 25 transcript(s), 40 still pending"]],
		[
			"a pass that did not run",
			[{ ran: false, reason: "the index is busy (another process is writing it)", pending: 3 }],
			["indexing did not run: the index is busy (another process is writing it); 3 still pending"],
		],
		[
			"a first call that created the index",
			[{ ran: true, indexed: 1, pending: 0 }, "/x/index.sqlite"],
			["session index not found at /x/index.sqlite; created it", "indexed 1 transcript(s), 0 still pending"],
		],
	])("%s", (_name, args, expected) => {
		expect(indexingNotes(...args)).toEqual(expected);
	});
});

describe("session_search text and details", () => {
	it("renders the seed's example output exactly", () => {
		const text = formatSessionSearch({ query: "trigram tokenizer", limit: 3, notes: ["indexed 2 transcript(s), 0 still pending"], hits: [SEED_HIT] });
		expect(text).toBe(
			[
				'session_search "trigram tokenizer" — 1 hit(s) (limit 3)',
				"note: indexed 2 transcript(s), 0 still pending",
				"- 9f2c1d84-6a0e-4b3a-9a67-2f9c1c7e55aa | C:/Users/HOME/proj/agent-governance | 2026-10-02T08:14:11.402Z | assistant | score -1.8703",
				"  the FTS5 index uses tokenize='trigram' so substring matches inside a word still return the message",
			].join("\n"),
		);
	});

	it("keeps the header and notes for an empty result", () => {
		expect(
			formatSessionSearch({ query: "zebracorn", limit: 5, notes: ["indexed 0 transcript(s), 0 still pending", "no events match this query"], hits: [] }),
		).toBe('session_search "zebracorn" — 0 hit(s) (limit 5)\nnote: indexed 0 transcript(s), 0 still pending\nnote: no events match this query');
	});

	it.each<[string, number, string]>([
		["four decimals", -1.87031, "score -1.8703"],
		["tiny scores of a small history keep significant digits", -0.0000034349, "score -0.000003435"],
	])("formats bm25 with %s", (_name, score, expected) => {
		const text = formatSessionSearch({ query: "q", limit: 5, notes: [], hits: [{ ...SEED_HIT, score }] });
		expect(text.split("\n")[1]?.endsWith(expected)).toBe(true);
	});

	it("shows control characters and bidi overrides from session text as visible symbols (I21)", () => {
		const hit = { ...SEED_HIT, snippet: "red \u001b[31mALERT\u001b[0m \u009b2J \u202etxt.exe\nnext line", cwd: "/tmp/\u0007bell" };
		const text = formatSessionSearch({ query: "alert\u001b]52;c;x\u0007", limit: 5, notes: [], hits: [hit] });
		expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
		expect(text).toContain("red ␛[31mALERT␛[0m \ufffd2J \u2426txt.exe next line");
		expect(text).toContain("/tmp/␇bell");
		expect(visibleText("a\u007fb")).toBe("a␡b");
	});

	it("stays within pi's 50 KB tool output and says how many hits the text shows", () => {
		const hits = Array.from({ length: 50 }, (_, i) => ({ ...SEED_HIT, session_id: `s${i}`, snippet: "é".repeat(2000) }));
		const text = formatSessionSearch({ query: "é", limit: 50, notes: [], hits });
		expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024);
		const shown = text.split("\n").filter((l) => l.startsWith("- ")).length;
		expect(shown).toBeGreaterThan(0);
		expect(shown).toBeLessThan(50);
		expect(text.split("\n").at(-1)).toBe(`note: output cut at 50 KB: ${shown} of 50 hit(s) shown above (all are in details); lower limit or snippetChars`);
	});

	it("gives details the seed's shape, field order, hit order and raw scores", () => {
		const second = { ...SEED_HIT, session_id: "b", score: -0.5 };
		const d = sessionSearchDetails([SEED_HIT, second]);
		expect(Object.keys(d)).toEqual(["count", "results"]);
		expect(d.count).toBe(2);
		expect(Object.keys(d.results[0] ?? {})).toEqual(["session_id", "cwd", "started_at", "role", "timestamp", "snippet", "score"]);
		expect(d.results.map((r) => r.score)).toEqual([-1.8703, -0.5]);
		expect(sessionSearchDetails([])).toEqual({ count: 0, results: [] });
	});
});
