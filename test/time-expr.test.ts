/** The after/before time expressions every face accepts: ISO as written, relative forms counted back from a fixed clock. */
import { describe, expect, it } from "vitest";
import { searchFilters } from "../src/shared/filters.js";
import { parseTimeExpr } from "../src/shared/time-expr.js";

// A fixed clock in local time (the relative day names mean local midnights).
const NOW = new Date(2026, 2, 15, 14, 30, 0).getTime();
const H = 3_600_000;
const D = 24 * H;

describe("parseTimeExpr", () => {
	const valid: Array<[string, number]> = [
		["2026-01-31T12:00:00Z", Date.UTC(2026, 0, 31, 12)],
		["2026-01-31", Date.UTC(2026, 0, 31)],
		["2d", NOW - 2 * D],
		["3h", NOW - 3 * H],
		["90m", NOW - 90 * 60_000],
		["1w", NOW - 7 * D],
		["2 days ago", NOW - 2 * D],
		["  3 Hours  ", NOW - 3 * H],
		["1.5h", NOW - 1.5 * H],
		["now", NOW],
		["today", new Date(2026, 2, 15).getTime()],
		["yesterday", new Date(2026, 2, 14).getTime()],
		["last week", NOW - 7 * D],
		["Last Month", NOW - 30 * D],
		["past day", NOW - D],
	];
	it.each(valid)("%s", (text, ms) => {
		const t = parseTimeExpr(text, NOW);
		expect(t).toEqual({ ok: true, ms, iso: new Date(ms).toISOString() });
	});

	const invalid: Array<[string, RegExp]> = [
		["", /empty date/],
		["soon", /not a date: soon \(try /],
		["2026-13-45", /not a date: 2026-13-45$/],
		["3 fortnights", /not a date: 3 fortnights/],
		["last decade", /not a date/],
		["-2d", /not a date/],
	];
	it.each(invalid)("rejects %j", (text, error) => {
		const t = parseTimeExpr(text, NOW);
		expect(t.ok).toBe(false);
		if (!t.ok) expect(t.error).toMatch(error);
	});
});

describe("searchFilters times", () => {
	it("takes the same relative forms as the explorer (the CLI's --after/--before), ISO kept as written", () => {
		expect(searchFilters({ after: "2d", before: "2026-03-15" }, "/", NOW)).toEqual({ after: new Date(NOW - 2 * D).toISOString(), before: "2026-03-15" });
		expect(searchFilters({ after: "yesterday" }, "/", NOW).after).toBe(new Date(2026, 2, 14).toISOString());
		expect(() => searchFilters({ before: "whenever" }, "/", NOW)).toThrow(/before must be .* not "whenever"/);
	});
});
