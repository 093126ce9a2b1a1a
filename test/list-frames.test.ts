/**
 * The search screen's lines against frames written out by hand (issue 31, items 4, 6 and 7): what the title counts,
 * what a grouped row says, and what a hit row keeps at narrow widths.
 */
import { describe, expect, it } from "vitest";
import { hitTotal } from "../components/core/numbers.js";
import { lineText } from "../components/core/styled.js";
import { groupCount, type Results } from "../components/search/hits-state.js";
import { type TitleInput, titleLine } from "../components/search/search-view.js";

const TITLE: TitleInput = {
	banner: null,
	scope: "all",
	workspace: null,
	session: null,
	filters: {},
	count: 18,
	more: true,
	total: null,
	loading: false,
	query: "webhook",
};

describe("hit counts (item 4)", () => {
	it("a total equal to the loaded rows is exact, not 18+", () => {
		expect(lineText(titleLine({ ...TITLE, total: { count: 18, atLeast: false } }, 60))).toBe("pi-history                           [all sessions]  18 hits");
		// Until the count came, and at the count's cap, a "+" says there may be more.
		expect(lineText(titleLine(TITLE, 60))).toBe("pi-history                          [all sessions]  18+ hits");
		expect(hitTotal(18, false, { count: 18, atLeast: true })).toBe("18+");
	});

	it("grouped, the title counts hits and the sessions their rows are, not the rows as hits", () => {
		const grouped = { ...TITLE, group: true, count: 56, sessions: 9, total: { count: 1234, atLeast: false } };
		expect(lineText(titleLine(grouped, 80))).toBe("pi-history                [all sessions] [by session]  1,234 hits in 9+ sessions");
		expect(lineText(titleLine({ ...grouped, more: false, count: 2, sessions: 1, total: null }, 70))).toBe(
			"pi-history            [all sessions] [by session]  2 hits in 1 session",
		);
	});

	it("a grouped row's count is the index's count of its session, the loaded ones only until it came", () => {
		const r = { groups: { a: 2, b: 1 }, exhausted: false, sessionTotals: {} } as unknown as Results;
		expect(groupCount(r, "a")).toBe("2+");
		expect(groupCount({ ...r, sessionTotals: { a: { count: 13, atLeast: false } } }, "a")).toBe("13");
		expect(groupCount({ ...r, sessionTotals: { b: { count: 1, atLeast: false } } }, "b")).toBe("");
		expect(groupCount({ ...r, exhausted: true }, "a")).toBe("2");
	});
});
