/** Typed filters, table-driven: field validation, impossible combinations, chips, the mapping to the core, the picker's reducer, sort and group. */
import { describe, expect, it } from "vitest";
import { conflicts, type Filters, filterChips, type ScopeFilters, textError, toSearchFilters } from "../components/core/filter-fields.js";
import { applyProblem, openPicker, type PickerAction, reducePicker } from "../components/filters/filter-picker-state.js";
import type { KeyInfo } from "../components/root/keymap.js";
import { type Action, initialState, modeOf, reduce, type State } from "../components/root/state.js";
import { groupBySession } from "../components/search/hit-groups.js";
import type { SearchResult } from "../src/shared/types.js";
import { makeHit } from "./helpers/ink.js";

const NOW = Date.parse("2026-03-15T12:00:00Z");
const D = 86_400_000;
const NO_SCOPE: ScopeFilters = { cwd: null, sessionId: null };

describe("text values", () => {
	it.each<[Parameters<typeof textError>[0], string, string | null]>([
		["after", "2d", null],
		["after", "2026-01-31", null],
		["after", "last week", null],
		["before", "soon", "not a date: soon"],
		["before", "2026-99-01", "not a date: 2026-99-01"],
		["cwd", "/home/me/repo", null],
		["cwd", "C:\\work", null],
		["cwd", "repo", "not an absolute folder: repo"],
		["session", "a", "too short"],
		["session", "ab12", null],
		["tool", "bash, edit", null],
		["label", "", null],
	])("%s %j → %s", (key, value, error) => {
		const got = textError(key, value, NOW);
		if (error === null) expect(got).toBeNull();
		else expect(got).toContain(error);
	});
});

describe("combinations that cannot match", () => {
	it.each<[Filters, string[]]>([
		[{ after: "2026-03-10", before: "2026-03-01" }, ["after (2026-03-10) is later than before (2026-03-01): no event is in between"]],
		[{ after: "2d", before: "3d" }, ["after (2d) is later than before (3d): no event is in between"]],
		[{ after: "3d", before: "2d" }, []],
		[{ kinds: ["user.text"], roles: ["assistant"] }, ["no kind among user.text has role assistant"]],
		[{ kinds: ["summary.branch", "session.name"], roles: ["user", "toolResult"] }, ["no kind among summary.branch, session.name has role user or toolResult"]],
		[{ kinds: ["user.text", "tool.call"], roles: ["assistant"] }, []],
		[{ kinds: ["tool.result"], roles: ["toolResult"] }, []],
		// A kind whose role we do not know never claims a conflict.
		[{ kinds: ["system.prompt"], roles: ["user"] }, []],
	])("%j", (f, out) => {
		expect(conflicts(f, NOW)).toEqual(out);
	});

	it("refuses to apply invalid values before impossible combinations, naming the field", () => {
		expect(applyProblem({ after: "soon", kinds: ["user.text"], roles: ["assistant"] }, NOW)).toMatch(/^after: not a date: soon/);
		expect(applyProblem({ kinds: ["user.text"], roles: ["assistant"] }, NOW)).toBe("cannot match: no kind among user.text has role assistant");
		expect(applyProblem({ kinds: ["user.text"], roles: ["user"], after: "2d" }, NOW)).toBeNull();
	});
});

describe("chips and the mapping to the core", () => {
	it("shows one chip per set filter, in picker order", () => {
		const f: Filters = { before: "yesterday", kinds: ["user.text", "tool.call"], label: "checkpoint", error: false, selection: ["omitted"], tool: "bash" };
		expect(filterChips(f, NOW).map((c) => c.text)).toEqual([
			"kind:user.text,tool.call",
			"tool:bash",
			"label:checkpoint",
			"before:yesterday",
			"no errors",
			"selection:omitted",
		]);
		// An invalid text value is not applied, so it has no chip.
		expect(filterChips({ after: "soon" }, NOW)).toEqual([]);
	});

	it.each<[string, Filters, ScopeFilters, object]>([
		[
			"every row",
			{
				kinds: ["tool.result"],
				roles: ["toolResult"],
				tool: "bash, edit",
				file: "src/app.ts",
				label: "release",
				session: "ab12",
				after: "2d",
				before: "2026-03-15",
				error: true,
				branch: "alternate",
				selection: ["omitted", "summarized"],
			},
			NO_SCOPE,
			{
				kinds: ["tool.result"],
				roles: ["toolResult"],
				tools: ["bash", "edit"],
				files: ["src/app.ts"],
				labels: ["release"],
				sessions: ["ab12"],
				after: new Date(NOW - 2 * D).toISOString(),
				before: "2026-03-15",
				isError: true,
				branchStates: ["alternate"],
				selectionStates: ["omitted", "summarized"],
			},
		],
		["cwd inside the workspace scope narrows it", { cwd: "/w/pkg" }, { cwd: "/w", sessionId: null }, { cwds: ["/w/pkg"] }],
		["workspace inside the cwd row keeps the workspace", { cwd: "/" }, { cwd: "/w", sessionId: null }, { cwds: ["/w"] }],
		["session scope and a cwd row", { cwd: "/w" }, { cwd: null, sessionId: "s1" }, { sessionIds: ["s1"], cwds: ["/w"] }],
		["invalid values are left out", { after: "soon", cwd: "rel" }, NO_SCOPE, {}],
	])("%s", (_name, f, scope, out) => {
		expect(toSearchFilters(f, scope, NOW)).toEqual(out);
	});

	it("a cwd row outside the workspace scope matches no folder", () => {
		const cwds = toSearchFilters({ cwd: "/elsewhere" }, { cwd: "/w", sessionId: null }, NOW).cwds ?? [];
		expect(cwds).toHaveLength(1);
		expect(cwds[0]?.startsWith("/w/")).toBe(true);
	});
});

describe("the picker's reducer", () => {
	const run = (...actions: PickerAction[]) => actions.reduce(reducePicker, openPicker({}));
	it.each<[string, PickerAction[], Filters]>([
		[
			"space adds kinds, in the row's order",
			[{ type: "cycle", dir: 1 }, { type: "toggle" }, { type: "cycle", dir: -1 }, { type: "toggle" }],
			{ kinds: ["user.text", "assistant.text"] },
		],
		["space again drops a value", [{ type: "toggle" }, { type: "toggle" }], {}],
		[
			"several roles",
			[{ type: "move", by: 1 }, { type: "toggle" }, { type: "cycle", dir: 1 }, { type: "cycle", dir: 1 }, { type: "toggle" }],
			{ roles: ["user", "toolResult"] },
		],
		["← from the first value wraps to the last", [{ type: "move", by: 1 }, { type: "cycle", dir: -1 }, { type: "toggle" }], { roles: ["custom"] }],
		[
			"error cycles any → errors only → no errors",
			[
				{ type: "move", by: 9 },
				{ type: "cycle", dir: 1 },
				{ type: "cycle", dir: 1 },
			],
			{ error: false },
		],
		["selection omitted", [{ type: "move", by: 11 }, { type: "cycle", dir: 1 }, { type: "cycle", dir: 1 }, { type: "toggle" }], { selection: ["omitted"] }],
		[
			"typing a label, kept on Enter",
			[
				{ type: "move", by: 4 },
				{ type: "edit-start" },
				{ type: "edit-text", text: "check" },
				{ type: "edit-text", text: "checkpoint " },
				{ type: "edit-commit" },
			],
			{ label: "checkpoint" },
		],
		["Esc drops the typing", [{ type: "move", by: 7 }, { type: "edit-start" }, { type: "edit-text", text: "2d" }, { type: "edit-cancel" }], {}],
		[
			"moving while typing does nothing",
			[{ type: "move", by: 7 }, { type: "edit-start" }, { type: "move", by: 1 }, { type: "edit-text", text: "2d" }, { type: "edit-commit" }],
			{ after: "2d" },
		],
		[
			"a paste's controls never reach the value",
			[{ type: "move", by: 4 }, { type: "edit-start" }, { type: "edit-text", text: "a\u001b[31mb" }, { type: "edit-commit" }],
			{ label: "a[31mb" },
		],
		["Delete clears the row", [{ type: "toggle" }, { type: "clear-row" }], {}],
		["x clears all", [{ type: "toggle" }, { type: "move", by: 9 }, { type: "cycle", dir: 1 }, { type: "reset" }], {}],
	])("%s", (_name, actions, draft) => {
		const p = run(...actions);
		expect(p.draft).toEqual(draft);
	});
});

describe("group by session", () => {
	it("keeps each session's strongest hit as its row, sessions in first-hit order, with counts", () => {
		const hits = [
			makeHit({ sessionId: "a", entryId: "a1", score: 5 }),
			makeHit({ sessionId: "b", entryId: "b1", score: 9 }),
			makeHit({ sessionId: "a", entryId: "a2", score: 7 }),
			makeHit({ sessionId: "c", entryId: "c1", score: 1 }),
			makeHit({ sessionId: "a", entryId: "a3", score: 7 }),
		];
		const g = groupBySession(hits);
		expect(g.hits.map((h) => `${h.sessionId}/${h.entryId}`)).toEqual(["a/a2", "b/b1", "c/c1"]);
		// Event identity is kept: the row is the very hit object the core returned.
		expect(g.hits[0]).toBe(hits[2]);
		expect(g.counts).toEqual({ a: 3, b: 1, c: 1 });
	});
});

describe("sort, group and chips in the explorer's state", () => {
	const key = (input: string, k: KeyInfo = {}): Action => ({ type: "key", input, key: k });
	const result = (
		hits = [
			makeHit({ sessionId: "a", entryId: "a1", score: 2 }),
			makeHit({ sessionId: "b", entryId: "b1", score: 3 }),
			makeHit({ sessionId: "a", entryId: "a2", score: 4 }),
		],
	): SearchResult => ({
		hits,
		notes: [],
		index: { sessions: 2, events: 3, freshAt: null, pending: 0 },
	});
	const loaded = (s: State) => reduce(s, { type: "search-done", seq: s.hits.results.seq, more: 0, result: result() });
	const start = () => loaded(initialState({ size: { columns: 100, rows: 30 } }));

	it("F4 and Alt+S switch the order and search again; F6 and Alt+G group the loaded hits without a new search", () => {
		let s = start();
		const seq = s.hits.results.seq;
		s = reduce(s, key("", { f4: true }));
		expect([s.hits.order, s.hits.results.seq]).toEqual(["newest", seq + 1]);
		s = reduce(s, key("s", { meta: true }));
		expect(s.hits.order).toBe("relevance");
		s = loaded(s);
		s = reduce(s, { type: "move", by: 0 });
		s = { ...s, hits: { ...s.hits, selected: 1 } }; // b/b1
		const before = s.hits.results.seq;
		s = reduce(s, key("", { f6: true }));
		expect(s.hits.results.seq).toBe(before);
		expect(s.hits.results.hits.map((h) => h.entryId)).toEqual(["a2", "b1"]);
		expect(s.hits.results.groups).toEqual({ a: 2, b: 1 });
		// The selected event stays selected.
		expect(s.hits.results.hits[s.hits.selected]?.entryId).toBe("b1");
		s = reduce(s, key("g", { meta: true }));
		expect(s.hits.results.hits.map((h) => h.entryId)).toEqual(["a1", "b1", "a2"]);
		expect(s.hits.results.hits[s.hits.selected]?.entryId).toBe("b1");
	});

	it("a new search while grouped comes back grouped", () => {
		let s = reduce(start(), key("", { f6: true }));
		s = reduce(s, { type: "insert", text: "zz" });
		s = loaded(s);
		expect(s.hits.results.hits.map((h) => h.entryId)).toEqual(["a2", "b1"]);
	});

	it("Backspace on an empty query removes the chips one by one, the last first", () => {
		let s = { ...start(), hits: { ...start().hits, filters: { kinds: ["user.text"], label: "x", after: "2d" } as Filters } };
		s = reduce(s, key("", { backspace: true }));
		expect(s.hits.filters).toEqual({ kinds: ["user.text"], label: "x" });
		expect(s.message?.text).toBe("removed after:2d · 2 left");
		s = reduce(s, key("", { backspace: true }));
		s = reduce(s, key("", { backspace: true }));
		expect(s.hits.filters).toEqual({});
		// With text on the query line, Backspace edits the text.
		s = reduce(reduce({ ...s, hits: { ...s.hits, filters: { label: "x" } } }, { type: "insert", text: "ab" }), key("", { backspace: true }));
		expect([s.query.text, s.hits.filters]).toEqual(["a", { label: "x" }]);
	});

	it("Ctrl+O, a label typed into its row, Enter keeps it, Ctrl+O applies; an invalid date is refused with the reason", () => {
		let s = reduce(start(), key("o", { ctrl: true }));
		for (let i = 0; i < 4; i++) s = reduce(s, key("", { downArrow: true }));
		s = reduce(s, key("", { return: true }));
		expect(modeOf(s)).toBe("filter-edit");
		// Letters are text while typing: x (reset) and F (cancel) type themselves.
		s = reduce(reduce(s, key("x")), key("F"));
		expect(s.overlay?.type === "filters" && s.overlay.edit).toEqual({ text: "xF", cursor: 2 });
		s = reduce(reduce(s, key("", { backspace: true })), key("u", { ctrl: true }));
		expect(s.overlay?.type === "filters" && s.overlay.edit).toEqual({ text: "", cursor: 0 });
		s = reduce(s, key("release"));
		s = reduce(s, key("", { return: true }));
		expect(modeOf(s)).toBe("filters");
		for (let i = 0; i < 3; i++) s = reduce(s, key("", { downArrow: true }));
		s = reduce(s, key("", { return: true }));
		s = reduce(s, key("someday"));
		s = reduce(s, key("", { return: true }));
		s = reduce(s, key("o", { ctrl: true }));
		expect(modeOf(s)).toBe("filters");
		expect(s.message?.text).toMatch(/^after: not a date: someday/);
		s = reduce(s, key("", { delete: true }));
		s = reduce(s, key("o", { ctrl: true }));
		expect([modeOf(s), s.hits.filters]).toEqual(["query", { label: "release" }]);
	});
});
