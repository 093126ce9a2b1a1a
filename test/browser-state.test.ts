/** The session browser's slice: filtering, the three sorts, the selection kept by id, scope and stale answers. */
import { describe, expect, it } from "vitest";
import {
	type BrowserState,
	compareSessions,
	matchesFilter,
	openBrowser,
	reduceBrowser,
	selectedSession,
	visibleSessions,
} from "../components/browser/browser-state.js";
import { browserLines } from "../components/browser/browser-view.js";
import { BROWSER_KEYS } from "../components/root/help.js";
import type { SessionListing } from "../src/shared/types.js";

function session(id: string, over: Partial<SessionListing> = {}): SessionListing {
	return {
		id,
		cwd: "/home/a/proj",
		file: `/s/${id}.jsonl`,
		created: "2026-01-01T00:00:00.000Z",
		lastAt: "2026-01-01T00:00:00.000Z",
		events: 1,
		branches: 0,
		leafId: "e1",
		parent: null,
		forks: 0,
		...over,
	};
}

const A = session("aaaa-1111", { name: "webhook retries", events: 12, lastAt: "2026-03-01T10:00:00Z" });
const B = session("bbbb-2222", { cwd: "/home/a/other-proj", events: 40, lastAt: "2026-03-02T10:00:00Z" });
const C = session("cccc-3333", { name: "Alpha notes", cwd: "/srv/notes", events: 3, lastAt: "2026-02-01T10:00:00Z" });
const ALL = [A, B, C];

function ready(sessions: SessionListing[] = ALL): BrowserState {
	const b = openBrowser("/home/a", "all", 1);
	return reduceBrowser(b, { type: "sessions-done", seq: 1, result: { sessions, total: sessions.length, truncated: false } }, 10);
}
const ids = (b: BrowserState) => visibleSessions(b).map((s) => s.id);

describe("matchesFilter", () => {
	const cases: Array<[string, SessionListing, boolean]> = [
		["", A, true],
		["webhook", A, true],
		["WEBHOOK retr", A, true],
		["retries other", A, false],
		["other-proj", B, true],
		["bbbb", B, true],
		["3333", C, true],
		["/srv", C, true],
		["alpha srv", C, true],
		["webhook", B, false],
	];
	it.each(cases)("%j on %s", (filter, s, want) => expect(matchesFilter(s, filter)).toBe(want));
});

describe("compareSessions", () => {
	const cases: Array<[Parameters<typeof compareSessions>[0], string[]]> = [
		// Newest activity first.
		["activity", ["bbbb-2222", "aaaa-1111", "cccc-3333"]],
		// By name, case-insensitive; an unnamed session by its folder ("other-proj").
		["name", ["cccc-3333", "bbbb-2222", "aaaa-1111"]],
		// Most events first.
		["size", ["bbbb-2222", "aaaa-1111", "cccc-3333"]],
	];
	it.each(cases)("%s", (sort, want) => expect([...ALL].sort(compareSessions(sort)).map((s) => s.id)).toEqual(want));
});

describe("reduceBrowser", () => {
	it("cycles activity → name → size → activity and keeps the selected session selected", () => {
		let b = reduceBrowser(ready(), { type: "move", by: 1 }, 10);
		expect(selectedSession(b)?.id).toBe("aaaa-1111");
		const seen: string[] = [];
		for (let i = 0; i < 3; i++) {
			b = reduceBrowser(b, { type: "cycle-sort" }, 10);
			seen.push(b.sort);
			expect(selectedSession(b)?.id).toBe("aaaa-1111");
		}
		expect(seen).toEqual(["name", "size", "activity"]);
	});

	it("filters as you type, back to every session with Backspace, and clamps moves", () => {
		let b = ready();
		for (const c of "notes") b = reduceBrowser(b, { type: "insert", text: c }, 10);
		expect(ids(b)).toEqual(["cccc-3333"]);
		b = reduceBrowser(b, { type: "move", by: 5 }, 10);
		expect(selectedSession(b)?.id).toBe("cccc-3333");
		for (let i = 0; i < 5; i++) b = reduceBrowser(b, { type: "delete-back" }, 10);
		expect(ids(b)).toHaveLength(3);
		b = reduceBrowser(b, { type: "jump", to: "last" }, 10);
		expect(selectedSession(b)?.id).toBe("cccc-3333");
		expect(reduceBrowser(b, { type: "insert", text: "zzz" }, 10).selectedId).toBeNull();
	});

	it("toggles the scope with a new request, and drops an answer to an older one", () => {
		const b = ready();
		const scoped = reduceBrowser(b, { type: "cycle-scope" }, 10);
		expect(scoped.scope).toBe("workspace");
		expect(scoped.seq).toBe(b.seq + 1);
		expect(scoped.status).toBe("loading");
		const stale = reduceBrowser(scoped, { type: "sessions-done", seq: b.seq, result: { sessions: [C], total: 1, truncated: false } }, 10);
		expect(ids(stale)).toEqual(ids(b));
		const fresh = reduceBrowser(scoped, { type: "sessions-done", seq: scoped.seq, result: { sessions: [A, B], total: 2, truncated: false } }, 10);
		expect(ids(fresh)).toEqual(["bbbb-2222", "aaaa-1111"]);
		// Without a workspace folder there is only "all".
		expect(reduceBrowser(openBrowser(null, "workspace", 1), { type: "cycle-scope" }, 10).scope).toBe("all");
	});

	it("keeps the selection across a reload that adds sessions", () => {
		let b = reduceBrowser(ready(), { type: "move", by: 2 }, 10);
		expect(selectedSession(b)?.id).toBe("cccc-3333");
		b = reduceBrowser(b, { type: "reload" }, 10);
		const D = session("dddd-4444", { lastAt: "2026-04-01T00:00:00Z" });
		b = reduceBrowser(b, { type: "sessions-done", seq: b.seq, result: { sessions: [D, ...ALL], total: 4, truncated: false } }, 10);
		expect(selectedSession(b)?.id).toBe("cccc-3333");
	});
});

describe("browser view (I21)", () => {
	it("draws hostile names, folders and parent names as visible symbols, never as terminal control", () => {
		const evil = "\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u202egnp.exe\u009b31m";
		const child = session("eeee-5555", {
			name: evil,
			cwd: `/tmp/${evil}`,
			parent: { id: "ffff-6666", name: evil, origin: "clone" },
		});
		const b = ready([child]);
		const text = browserLines({ ...b, filter: "" }, 200, 20, Date.parse("2026-03-03T00:00:00Z"), BROWSER_KEYS)
			.map((l) => l.map((s) => s.text).join(""))
			.join("\n");
		expect(text).toContain("clone of");
		for (const bad of ["\u001b", "\u0007", "\u009b", "\u202e"]) expect(text).not.toContain(bad);
		// The escape is shown, not dropped: a reader can see something was there.
		expect(text).toMatch(/␛|\\x1b|\\u001b|ESC/);
	});
});
