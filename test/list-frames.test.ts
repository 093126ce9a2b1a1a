/**
 * The search screen's lines against frames written out by hand (issue 31, items 4, 6 and 7): what the title counts,
 * what a grouped row says, and what a hit row keeps at narrow widths.
 */
import { describe, expect, it } from "vitest";
import { hitTotal } from "../components/core/numbers.js";
import { lineText } from "../components/core/styled.js";
import { hintsFor } from "../components/root/help.js";
import { copyRoles, groupCount, type Results } from "../components/search/hits-state.js";
import { hintLine, hitRows, type TitleInput, titleLine } from "../components/search/search-view.js";
import { statusLines } from "../components/search/status-lines.js";
import { makeHit } from "./helpers/ink.js";

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

const REF = "019c1234-aaaa-7bbb-8ccc-0123456789ab e1f2a3b4";
const NOT_COPIED = `not copied: tmux's set-clipboard is "off" and no clipboard tool worked; select it: ${REF}`;
const NO_PI =
	"pi is not on PATH; to continue there run: pi --session /home/user/.pi/agent/sessions/--home-user-project--/2026-04-01T00-00-00-000Z_019c1234-aaaa-7bbb-8ccc-0123456789ab.jsonl (copied the command with xclip)";
const bar = (text: string, width: number) =>
	statusLines({ text, tone: "warn" }, "lines 1–20 of 80 · event", hintLine(hintsFor("event"), width), width).map((l) => lineText(l).trimEnd());

describe("what the user must read is never cut (item 6)", () => {
	it("a ref to select wraps to the bar's second line whole, at 80 and 100 columns; at 140 it fits beside the hints", () => {
		expect(bar(NOT_COPIED, 80)).toEqual([
			`not copied: tmux's set-clipboard is "off" and no clipboard tool worked; select`,
			"it: 019c1234-aaaa-7bbb-8ccc-0123456789ab e1f2a3b4",
		]);
		expect(bar(NOT_COPIED, 100)).toEqual([
			`not copied: tmux's set-clipboard is "off" and no clipboard tool worked; select it:`,
			"019c1234-aaaa-7bbb-8ccc-0123456789ab e1f2a3b4",
		]);
		expect(bar(NOT_COPIED, 140)).toEqual([
			NOT_COPIED,
			"keys: commands · h parent · l child · j/k siblings · f forks · H fork above · t tree · / find · n/N next match · F7 continue in pi · ? help",
		]);
	});

	it("the command to run keeps its start, its file's id and the copy note; only the path's middle gives way", () => {
		expect(bar(NO_PI, 80)).toEqual([
			"pi is not on PATH; to continue there run: pi --session",
			"/home/user/.pi/age…-7bbb-8ccc-0123456789ab.jsonl (copied the command with xclip)",
		]);
		expect(bar(NO_PI, 100)).toEqual([
			"pi is not on PATH; to continue there run: pi --session",
			"/home/user/.pi/agent/sessi…19c1234-aaaa-7bbb-8ccc-0123456789ab.jsonl (copied the command with xclip)",
		]);
		expect(bar(NO_PI, 140)).toEqual([
			"pi is not on PATH; to continue there run: pi --session",
			"/home/user/.pi/agent/sessions/--home-user-…6-04-01T00-00-00-000Z_019c1234-aaaa-7bbb-8ccc-0123456789ab.jsonl (copied the command with xclip)",
		]);
	});

	it("the key hints leave out whole hints from the end and keep help, last", () => {
		expect(lineText(hintLine(hintsFor("event"), 80))).toBe("keys: commands · h parent · l child · j/k siblings · f forks · ? help");
		expect(lineText(hintLine(hintsFor("query"), 80))).toBe("typing: query · ↓/Tab hits · Enter open · Esc clear/quit · F1/Ctrl+G help");
		expect(lineText(hintLine(hintsFor("trace"), 100))).toBe("keys: commands · ↑↓ choose · Enter go · h parent · l child · j/k siblings · f forks · ? help");
		expect(lineText(hintLine(hintsFor("tree"), 80))).toBe("keys: commands · ↑↓ move · Enter open · n/N hits · →/← unfold · ? help");
	});
});

describe("hit rows at narrow widths and unfolded copies (item 7)", () => {
	const now = Date.parse("2026-01-04T00:00:00.000Z");
	const hit = makeHit({
		sessionId: "0199aaaa-0000-7000-8000-00000000c10e",
		session: { id: "0199aaaa-0000-7000-8000-00000000c10e", cwd: "/home/alice/code/payments-api", file: "/a.jsonl" },
	});
	const rows = (width: number, lines: 1 | 2) => hitRows(hit, width, now, false, lines, "c10e", 1).map((l) => lineText(l).trimEnd());

	it("drop the time, then the kind, then the folder's parents: the id part and the folder stay", () => {
		expect(rows(100, 2)).toEqual([" 3d ago     user.text  same entry in 2 sessions  #c10e …/code/payments-api", "  fix the flaky test"]);
		expect(rows(60, 2)).toEqual([" same entry in 2 sessions  #c10e …/code/payments-api", "  fix the flaky test"]);
		expect(rows(40, 2)).toEqual([" #c10e payments-api  same entry in 2 se…", "  fix the flaky test"]);
		expect(rows(60, 1)).toEqual([" user.text  same entry in 2 sessions  #c10e  fix the flaky …"]);
		expect(rows(40, 1)).toEqual([" same entry in 2 sessions  #c10e  fix t…"]);
	});

	it("copies of one entry unfolded into rows say which is the original and which the --fork or /clone copy", () => {
		const original = makeHit({ sessionId: "a", session: { id: "a", cwd: "/w", file: "/s/2026-04-01T10-00-00-000Z_a.jsonl" } });
		const copy = makeHit({ sessionId: "b", session: { id: "b", cwd: "/w", file: "/s/2026-04-01T11-00-00-000Z_b.jsonl" } });
		const other = makeHit({ sessionId: "c", entryId: "e2", session: { id: "c", cwd: "/w", file: "/s/2026-04-01T09-00-00-000Z_c.jsonl" } });
		// The copy ranked first (the row the copies were folded into): the order on screen does not decide.
		const roles = copyRoles([copy, original, other]);
		expect([...roles]).toEqual([
			["b/e1", "copy"],
			["a/e1", "original"],
		]);
		expect(lineText(hitRows(copy, 80, now, false, 2, "b", 0, "", roles.get("b/e1"))[0] ?? []).trimEnd()).toBe(
			" 3d ago     user.text  copy (--fork or /clone)  #b /w",
		);
		expect(lineText(hitRows(original, 80, now, false, 2, "a", 0, "", roles.get("a/e1"))[0] ?? []).trimEnd()).toBe(" 3d ago     user.text  original  #a /w");
	});
});
