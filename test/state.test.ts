/** The reducer, table-driven: query editing, list window and paging, the back stack, the walk, scope and filters. */
import { describe, expect, it } from "vitest";
import { eventLayout, overlayLines } from "../components/core/layout.js";
import { eventDoc } from "../components/event/event-doc.js";
import { traceRows } from "../components/event/trace-rows.js";
import { helpLines } from "../components/root/help.js";
import type { KeyInfo } from "../components/root/keymap.js";
import { type Action, initialState, modeOf, reduce, type State, topLoc } from "../components/root/state.js";
import type { SearchResult } from "../src/shared/types.js";
import { brief, edge, makeEventData, makeHit, makeHits } from "./helpers/ink.js";

const SIZE = { columns: 80, rows: 24 }; // 5 hits visible, two lines each

function run(s: State, ...actions: Action[]): State {
	return actions.reduce(reduce, s);
}

function key(input: string, k: KeyInfo = {}): Action {
	return { type: "key", input, key: k };
}

function result(n: number, from = 0): SearchResult {
	return { hits: makeHits(n, from), notes: [], index: { sessions: 1, events: 1000, freshAt: null, pending: 0 } };
}

/** A state with `n` hits loaded and focus on the list. */
function withHits(n: number, overrides: { workspace?: string | null; focus?: State["focus"] } = {}): State {
	const s = initialState({ size: SIZE, workspace: overrides.workspace === undefined ? "/home/alice/code/app" : overrides.workspace });
	return { ...run(s, { type: "search-done", seq: s.hits.results.seq, more: 0, result: result(n) }), focus: overrides.focus ?? "list" };
}

describe("query editing", () => {
	it.each<[string, number, Action, string, number]>([
		["", 0, { type: "insert", text: "a" }, "a", 1],
		["ac", 1, { type: "insert", text: "b" }, "abc", 2],
		["ab", 2, { type: "insert", text: "line\nbreak" }, "abline break", 12],
		["abc", 3, { type: "delete-back" }, "ab", 2],
		["abc", 0, { type: "delete-back" }, "abc", 0],
		["a青铜", 3, { type: "delete-back" }, "a青", 2],
		["x🐢", 3, { type: "delete-back" }, "x", 1],
		["fix flaky test", 14, { type: "delete-word" }, "fix flaky ", 10],
		["fix flaky ", 10, { type: "delete-word" }, "fix ", 4],
		["abc", 3, { type: "clear-query" }, "", 0],
		["abc", 3, { type: "cursor", to: "home" }, "abc", 0],
		["abc", 0, { type: "cursor", to: "end" }, "abc", 3],
		["x🐢y", 3, { type: "cursor", to: "left" }, "x🐢y", 1],
		["x🐢y", 1, { type: "cursor", to: "right" }, "x🐢y", 3],
	])("%j at %i, %j → %j at %i", (query, cursor, action, q2, c2) => {
		const s = { ...initialState({ size: SIZE }), query: { text: query, cursor } };
		const next = reduce(s, action);
		expect([next.query.text, next.query.cursor]).toEqual([q2, c2]);
	});

	it("starts a new search on every edit, and only then", () => {
		const s = initialState({ size: SIZE });
		expect(reduce(s, { type: "insert", text: "ab" }).hits.results.seq).toBe(s.hits.results.seq + 1);
		expect(reduce(s, { type: "cursor", to: "home" }).hits.results.seq).toBe(s.hits.results.seq);
	});

	it("keeps the previous hits while the last word is one letter, and searches at the next", () => {
		let s = run(withHits(4, { focus: "query" }), { type: "insert", text: "retry" });
		const seq = s.hits.results.seq;
		s = reduce(s, { type: "insert", text: " l" });
		expect([s.hits.results.seq, s.hits.results.hits.length]).toEqual([seq, 4]);
		s = reduce(s, { type: "insert", text: "o" });
		expect(s.hits.results.seq).toBe(seq + 1);
		// Previous hits stay on screen while the new search runs.
		expect(s.hits.results.hits).toHaveLength(4);
	});

	it("maps keys against the state they act on: Tab then s types s (letters in the list are text); Tab then Ctrl+S cycles the scope", () => {
		const s = withHits(3, { focus: "query" });
		const next = run(s, key("", { tab: true }), key("s"));
		expect(modeOf(next)).toBe("query");
		expect(next.query.text).toBe("s");
		expect(next.hits.scope).toBe("all");
		const scoped = run(s, key("", { tab: true }), key("s", { ctrl: true }));
		expect(scoped.hits.scope).toBe("workspace");
		expect(modeOf(scoped)).toBe("list");
	});

	it("types `seq` in the hit list into the query: no scope change, no errors filter, no quit", () => {
		const next = run(withHits(3), key("s"), key("e"), key("q"));
		expect([next.query.text, next.hits.scope, next.hits.filters, next.exit]).toEqual(["seq", "all", {}, null]);
	});

	it("types letters in the query line, including q", () => {
		const next = run(initialState({ size: SIZE }), key("q"), key("?"));
		expect(next.query.text).toBe("q?");
		expect(next.exit).toBeNull();
	});
});

describe("results", () => {
	it("drops answers to an older search", () => {
		const s = run(initialState({ size: SIZE }), { type: "insert", text: "a" });
		const stale = reduce(s, { type: "search-done", seq: s.hits.results.seq - 1, more: 0, result: result(3) });
		expect(stale.hits.results.hits).toEqual([]);
		const fresh = reduce(s, { type: "search-done", seq: s.hits.results.seq, more: 0, result: result(3) });
		expect(fresh.hits.results.hits).toHaveLength(3);
		expect(fresh.hits.results.exhausted).toBe(true);
	});

	it("keeps the selected hit across an index refresh", () => {
		const s = run(withHits(20), { type: "move", by: 7 });
		const refreshing = reduce(s, { type: "index-changed" });
		const hits = [...makeHits(3, 100), ...makeHits(20)];
		const done = reduce(refreshing, { type: "search-done", seq: refreshing.hits.results.seq, more: 0, result: { ...result(0), hits } });
		expect(done.hits.results.hits[done.hits.selected]?.entryId).toBe("e7");
	});

	it("keeps the hit selected when the refreshed answer arrives, not the one selected when it was asked", () => {
		// The cursor moves on while the search for new index data is on its way: the answer must not pull it back.
		const refreshing = reduce(run(withHits(20), { type: "move", by: 2 }), { type: "index-changed" });
		const moved = run(refreshing, { type: "move", by: 3 });
		expect(moved.hits.results.hits[moved.hits.selected]?.entryId).toBe("e5");
		const hits = [...makeHits(3, 100), ...makeHits(20)];
		const done = reduce(moved, { type: "search-done", seq: moved.hits.results.seq, more: 0, result: { ...result(0), hits } });
		expect(done.hits.results.hits[done.hits.selected]?.entryId).toBe("e5");
	});

	it("asks for no next page of a new search until its first page is in", () => {
		// The rows do not fill the list: the next page is asked for at once.
		let s = withHits(3);
		s = reduce(s, { type: "search-done", seq: s.hits.results.seq, more: 0, result: result(SIZE.rows + 2), limit: SIZE.rows + 2 });
		s = run(s, { type: "move", by: SIZE.rows });
		expect(s.hits.results.moreSeq).toBeGreaterThan(0);
		for (const change of [{ type: "insert", text: "ab" }, { type: "index-changed" }, { type: "cycle-scope" }] as Action[]) {
			const next = reduce(s, change);
			expect({ change: change.type, seq: next.hits.results.seq > s.hits.results.seq, moreSeq: next.hits.results.moreSeq }).toEqual({
				change: change.type,
				seq: true,
				moreSeq: 0,
			});
		}
	});

	it.each<[number, number, number, number]>([
		// hits, moves down, selected, window top (5 visible: the window moves only when the cursor leaves it)
		[20, 1, 1, 0],
		[20, 4, 4, 0],
		[20, 5, 5, 1],
		[20, 12, 12, 8],
		[20, 30, 19, 15],
		[3, 5, 2, 0],
	])("%i hits, %i × ↓ → selected %i, top %i", (n, moves, selected, top) => {
		let s = withHits(n);
		for (let i = 0; i < moves; i++) s = reduce(s, { type: "move", by: 1 });
		expect([s.hits.selected, s.hits.top]).toEqual([selected, top]);
	});

	it("goes back to the query line with ↑ on the first hit", () => {
		const s = reduce(withHits(5), { type: "move", by: -1 });
		expect(modeOf(s)).toBe("query");
	});

	it("asks for the next page near the end and appends it", () => {
		let s = withHits(50);
		s = reduce(s, { type: "page", dir: 1 });
		expect(s.hits.results.moreSeq).toBe(0);
		s = reduce(s, { type: "jump", to: "last" });
		expect(s.hits.results.moreSeq).toBe(1);
		expect(s.hits.results.loadingMore).toBe(true);
		s = reduce(s, { type: "search-done", seq: s.hits.results.seq, more: 1, result: result(30, 50) });
		expect(s.hits.results.hits).toHaveLength(80);
		expect(s.hits.results.exhausted).toBe(true);
		s = reduce(s, { type: "jump", to: "last" });
		expect(s.hits.selected).toBe(79);
	});
});

describe("event view and back stack", () => {
	it("opens the selected hit and comes back to the same selection", () => {
		let s = run(withHits(10), { type: "move", by: 6 });
		const before = { selected: s.hits.selected, top: s.hits.top };
		s = reduce(s, { type: "open" });
		expect(modeOf(s)).toBe("event");
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s1", entryId: "e6" });
		s = reduce(s, { type: "event-done", key: "s1/e6", data: makeEventData("e6", { edges: [edge("parent", "p")], nodes: [brief("p")] }), error: null });
		s = reduce(s, { type: "walk", to: "parent" });
		expect(s.events.stack.map((l) => l.ref.entryId)).toEqual(["e6", "p"]);
		s = run(s, { type: "back" }, { type: "back" });
		expect(modeOf(s)).toBe("list");
		expect({ selected: s.hits.selected, top: s.hits.top }).toEqual(before);
		s = reduce(s, { type: "back" });
		expect(modeOf(s)).toBe("query");
	});

	it("highlights the new search's match when an event is opened again from another search", () => {
		// App's event cache hands the reducer the same EventData object both times.
		const data = makeEventData("x", { text: `about foo here\n${"filler\n".repeat(60)}then bar here\n${"filler\n".repeat(20)}` });
		const hitFor = (word: string) => makeHit({ entryId: "x", snippet: `about ${word} here`, marks: [[6, 9]] });
		const shown = (st: State) => {
			const loc = topLoc(st) as NonNullable<ReturnType<typeof topLoc>>;
			const doc = eventDoc(loc, eventLayoutWidth(st), st.events.wrap);
			return { scroll: loc.scroll, matches: (doc?.lines ?? []).flatMap((l) => l.line.filter((x) => x.tone === "match").map((x) => x.text)) };
		};
		let s = initialState({ size: SIZE, query: "foo" });
		s = { ...reduce(s, { type: "search-done", seq: s.hits.results.seq, more: 0, result: { ...result(0), hits: [hitFor("foo")] } }), focus: "list" };
		s = run(s, { type: "open" }, { type: "event-done", key: "s1/x", data, error: null });
		expect(shown(s)).toEqual({ scroll: 0, matches: ["foo"] });
		s = run(s, key("", { escape: true }), key("/"), key("u", { ctrl: true }), key("b"), key("a"), key("r"));
		s = run(
			s,
			{ type: "search-done", seq: s.hits.results.seq, more: 0, result: { ...result(0), hits: [hitFor("bar")] } },
			key("", { tab: true }),
			key("", { return: true }),
		);
		s = reduce(s, { type: "event-done", key: "s1/x", data, error: null });
		const again = shown(s);
		expect(again.matches).toEqual(["bar"]);
		// The view opens at the new match (line 62 of the document), not at the top where "foo" was.
		expect(again.scroll).toBeGreaterThan(50);
	});

	it("Esc in the query line clears it; on an empty query, at the top, it quits (exit 0)", () => {
		const s = { ...initialState({ size: SIZE }), query: { text: "abc", cursor: 3 } };
		const cleared = reduce(s, { type: "back" });
		expect([cleared.query.text, cleared.exit]).toEqual(["", null]);
		expect(reduce(cleared, { type: "back" }).exit).toBe(0);
	});

	it("q in the event view steps back one level and never quits", () => {
		let s = run(withHits(3), { type: "open" });
		expect(modeOf(s)).toBe("event");
		s = reduce(s, key("q"));
		expect([modeOf(s), s.exit]).toEqual(["list", null]);
	});

	it("opens a large fragment at the match's chunk when the preview found it past the head", () => {
		const s = withHits(1);
		const text = `${"x\n".repeat(5000)}needle here\n${"y\n".repeat(5000)}`;
		const withPreview: State = {
			...s,
			hits: {
				...s.hits,
				results: { ...s.hits.results, hits: [{ ...(s.hits.results.hits[0] as State["hits"]["results"]["hits"][0]), snippet: "a needle", marks: [[2, 8]] }] },
				preview: { key: "s1/e0#user.text:0", read: { ...makeEventData("e0", { text }).read }, error: null },
			},
		};
		const opened = reduce(withPreview, { type: "open" });
		const want = topLoc(opened)?.wanted;
		expect(want).toHaveLength(1);
		expect(want?.[0]?.fid).toBe("user.text:0");
		// The chunk starts shortly before the match (at char 10,000) so the match is in it.
		expect(want?.[0]?.offset).toBeGreaterThan(9000);
		expect(want?.[0]?.offset).toBeLessThanOrEqual(10000);
	});
});

function eventLayoutWidth(s: State): number {
	return eventLayout(s.size).bodyWidth;
}

describe("walk", () => {
	const opened = (data: ReturnType<typeof makeEventData>) => {
		const s = reduce(withHits(1), { type: "open" });
		return reduce(
			{
				...s,
				events: {
					...s.events,
					stack: [
						{
							...(topLoc(s) as NonNullable<ReturnType<typeof topLoc>>),
							key: `s1/${data.trace.node.entryId}`,
							ref: { sessionId: "s1", entryId: data.trace.node.entryId },
						},
					],
				},
			},
			{
				type: "event-done",
				key: `s1/${data.trace.node.entryId}`,
				data,
				error: null,
			},
		);
	};

	it.each<[string, ReturnType<typeof makeEventData>, Action, string | null, RegExp | null]>([
		["parent", makeEventData("c", { edges: [edge("parent", "p")], nodes: [brief("p")] }), { type: "walk", to: "parent" }, "p", null],
		["no parent at the root", makeEventData("r"), { type: "walk", to: "parent" }, null, /root of the session/],
		[
			"dangling parent",
			makeEventData("c", { edges: [edge("parent", "gone", { note: "dangling" })] }),
			{ type: "walk", to: "parent" },
			null,
			/not in the index/,
		],
		["only child", makeEventData("p", { edges: [edge("child", "c")], nodes: [brief("c")] }), { type: "walk", to: "child" }, "c", null],
		[
			"child toward the leaf at a fork",
			makeEventData("p", {
				edges: [edge("child", "a"), edge("child", "b"), edge("toward-leaf", "b")],
				nodes: [brief("a", { branchState: "alternate" }), brief("b")],
			}),
			{ type: "walk", to: "child" },
			"b",
			/1 other branch/,
		],
		["materialized leaf", makeEventData("leaf"), { type: "walk", to: "child" }, null, /materialized leaf/],
		["branch end", makeEventData("x", { branchState: "alternate" }), { type: "walk", to: "child" }, null, /branch ends here/],
		[
			"next sibling by time",
			makeEventData("b", {
				edges: [edge("sibling", "a"), edge("sibling", "c")],
				nodes: [brief("a", { timestamp: "2025-12-31T00:00:00Z" }), brief("c", { timestamp: "2026-01-03T00:00:00Z" })],
			}),
			{ type: "walk", to: "next-sibling" },
			"c",
			/sibling 3 of 3/,
		],
		[
			"previous sibling",
			makeEventData("b", { edges: [edge("sibling", "a")], nodes: [brief("a", { timestamp: "2025-12-01T00:00:00Z" })] }),
			{ type: "walk", to: "prev-sibling" },
			"a",
			null,
		],
		["no siblings", makeEventData("b"), { type: "walk", to: "next-sibling" }, null, /no siblings/],
		["append after", makeEventData("b", { appendAfter: brief("z") }), { type: "walk", to: "append-next" }, "z", /append order/],
		["append before at the start", makeEventData("b"), { type: "walk", to: "append-prev" }, null, /first entry of the file/],
	])("%s", (_name, data, action, goesTo, message) => {
		const s = reduce(opened(data), action);
		if (goesTo) expect(topLoc(s)?.ref.entryId).toBe(goesTo);
		else expect(s.events.stack).toHaveLength(1);
		if (message) expect(s.message?.text).toMatch(message);
	});

	it("lists every candidate at an unresolved fork and goes to the one picked", () => {
		const data = makeEventData("p", {
			branchState: "alternate",
			edges: [edge("child", "a"), edge("child", "b"), edge("fork-of", "f1", { sessionId: "s2", direction: "in" })],
			nodes: [brief("a", { branchState: "alternate" }), brief("b", { branchState: "alternate" }), brief("f1", { sessionId: "s2" })],
		});
		let s = reduce(opened(data), { type: "walk", to: "child" });
		expect(modeOf(s)).toBe("fork");
		expect(s.overlay?.type === "fork" && s.overlay.candidates.map((c) => `${c.via}:${c.ref.sessionId}/${c.ref.entryId}`)).toEqual([
			"child:s1/a",
			"child:s1/b",
			"forked session:s2/f1",
		]);
		s = reduce(s, { type: "pick", index: 2 });
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s2", entryId: "f1" });
		expect(s.message?.text).toMatch(/forked session/);
		s = reduce(s, { type: "back" });
		expect(topLoc(s)?.ref.entryId).toBe("p");
	});

	it("walks up to the nearest fork through a seek the App runs (H)", () => {
		let s = reduce(opened(makeEventData("deep")), { type: "walk", to: "fork-up" });
		expect(s.events.seek).toEqual({ seq: 1, from: { sessionId: "s1", entryId: "deep" } });
		expect(reduce(s, { type: "seek-done", seq: 0, target: null, error: null })).toBe(s);
		const none = reduce(s, { type: "seek-done", seq: 1, target: null, error: null });
		expect([none.events.seek, none.message?.text]).toEqual([null, "no fork above: the path from the root to here has no other branch"]);
		s = reduce(s, { type: "seek-done", seq: 1, target: { ref: { sessionId: "s1", entryId: "f" }, steps: 3, branches: 2 }, error: null });
		expect(topLoc(s)?.ref.entryId).toBe("f");
		expect(s.message?.text).toMatch(/fork 3 step\(s\) up: 2 branches/);
	});

	it("goes where the chosen trace row points", () => {
		const data = makeEventData("c", { edges: [edge("parent", "p"), edge("child", "k")], nodes: [brief("p"), brief("k")] });
		let s = run(opened(data), { type: "toggle-panel" });
		expect(modeOf(s)).toBe("trace");
		s = run(s, { type: "move", by: 1 }, { type: "open" }); // rows: parent, child
		expect(topLoc(s)?.ref.entryId).toBe("k");
		expect(modeOf(s)).toBe("trace");
	});
});

describe("every view change is undoable", () => {
	it("a session row followed from the trace panel comes back, with the event stack, query and cursor, on Esc", () => {
		let s = run(withHits(10, { focus: "query" }), { type: "insert", text: "retry logic" }, { type: "cursor", to: "left" });
		s = reduce(s, { type: "search-done", seq: s.hits.results.seq, more: 0, result: result(10) });
		s = run(s, { type: "focus", to: "list" }, { type: "move", by: 3 }, { type: "open" });
		const data = makeEventData("e3", {
			edges: [edge("parent", "p"), { ...edge("fork-of", "x", { direction: "in" }), to: { sessionId: "s9", entryId: null } }],
			nodes: [brief("p")],
		});
		s = run(s, { type: "event-done", key: "s1/e3", data, error: null }, { type: "walk", to: "parent" });
		s = reduce(s, {
			type: "event-done",
			key: "s1/p",
			data: makeEventData("p", { edges: [{ ...edge("fork-of", "x", { direction: "in" }), to: { sessionId: "s9", entryId: null } }] }),
			error: null,
		});
		s = reduce(s, { type: "toggle-panel" });
		const rows = traceRows(topLoc(s)?.data as NonNullable<ReturnType<typeof topLoc>>["data"] & object);
		const at = rows.findIndex((r) => r.target?.kind === "session");
		expect(at).toBeGreaterThanOrEqual(0);
		const before = { stack: s.events.stack.map((l) => l.ref.entryId), query: s.query, selected: s.hits.selected, panel: topLoc(s)?.panel };
		s = run(s, { type: "move", by: at }, { type: "open" });
		expect([s.events.stack.length, s.hits.scope, s.query.text]).toEqual([0, "session", ""]);
		s = reduce(s, key("", { escape: true }));
		expect({ stack: s.events.stack.map((l) => l.ref.entryId), query: s.query, selected: s.hits.selected, panel: topLoc(s)?.panel }).toEqual({
			...before,
		});
		expect(s.hits.scope).toBe("all");
		expect(topLoc(s)?.traceCursor).toBe(at);
	});

	it("/ in an event opens the find prompt (Esc closes it); Esc in the event goes back to the hits", () => {
		let s = run(withHits(3), { type: "open" }, { type: "event-done", key: "s1/e0", data: makeEventData("e0"), error: null });
		s = reduce(s, key("/"));
		expect(modeOf(s)).toBe("find");
		s = reduce(s, key("", { escape: true }));
		expect([modeOf(s), topLoc(s)?.ref.entryId]).toEqual(["event", "e0"]);
		s = reduce(s, key("", { escape: true }));
		expect(modeOf(s)).toBe("list");
	});
});

describe("scope, filters, copy, quit", () => {
	it("cycles all → workspace → session (of the hit selected when the cycle began) → all", () => {
		let s = withHits(3);
		s = reduce(s, { type: "cycle-scope" });
		expect(s.hits.scope).toBe("workspace");
		s = reduce({ ...s, hits: { ...s.hits, results: { ...s.hits.results, hits: [] } } }, { type: "cycle-scope" });
		expect([s.hits.scope, s.hits.scopeSession?.id]).toEqual(["session", "s1"]);
		s = reduce(s, { type: "cycle-scope" });
		expect(s.hits.scope).toBe("all");
	});

	it("skips the workspace scope when there is no workspace", () => {
		const s = reduce(withHits(3, { workspace: null }), { type: "cycle-scope" });
		expect(s.hits.scope).toBe("session");
	});

	it("applies picked filters and toggles errors only", () => {
		// Row 0 is kind: Space adds the value under the cursor; row 9 is error: → changes it.
		let s = run(withHits(3), { type: "open-filters" }, { type: "filter-toggle" }, { type: "move", by: 9 }, { type: "filter-cycle", dir: 1 });
		expect(s.overlay?.type === "filters" && s.overlay.draft).toEqual({ kinds: ["user.text"], error: true });
		const seq = s.hits.results.seq;
		s = reduce(s, { type: "open" });
		expect([s.hits.filters, s.overlay, s.hits.results.seq]).toEqual([{ kinds: ["user.text"], error: true }, null, seq + 1]);
		s = reduce(s, { type: "toggle-errors" });
		expect(s.hits.filters).toEqual({ kinds: ["user.text"] });
		s = reduce(s, { type: "clear-filters" });
		expect(s.hits.filters).toEqual({});
	});

	it("keeps the filter picker and its draft when ? is pressed there", () => {
		let s = run(withHits(3), key("o", { ctrl: true }), key(" "));
		const draft = s.overlay?.type === "filters" ? s.overlay.draft : null;
		expect(draft).toEqual({ kinds: ["user.text"] });
		s = reduce(s, key("?"));
		expect(modeOf(s)).toBe("filters");
		expect(s.overlay?.type === "filters" && s.overlay.draft).toEqual(draft);
	});

	it("stops scrolling help at its end, so ↑ after holding ↓ moves at once", () => {
		let s = reduce(withHits(3), key("", { f1: true }));
		expect(modeOf(s)).toBe("help");
		for (let i = 0; i < 500; i++) s = reduce(s, key("", { downArrow: true }));
		const last = helpLines(SIZE.columns).length - overlayLines(SIZE);
		expect(last).toBeGreaterThan(0);
		expect(s.overlay?.type === "help" && s.overlay.scroll).toBe(last);
		s = reduce(s, key("", { upArrow: true }));
		expect(s.overlay?.type === "help" && s.overlay.scroll).toBe(last - 1);
		s = run(s, key("", { pageDown: true }), key("", { pageDown: true }));
		expect(s.overlay?.type === "help" && s.overlay.scroll).toBe(last);
	});

	it("copies the selected ref and quits with the code asked for", () => {
		const s = reduce(withHits(3), { type: "copy-ref" });
		expect(s.copy).toEqual({ seq: 1, text: "s1 e0" });
		expect(reduce(s, { type: "quit", code: 0 }).exit).toBe(0);
	});
});

describe("large fragments and resize", () => {
	it("keeps the list selection visible and the event scroll in range after a resize", () => {
		let s = run(withHits(20), { type: "move", by: 12 });
		s = reduce(s, { type: "resize", size: { columns: 60, rows: 12 } });
		expect(s.hits.selected).toBe(12);
		expect(s.hits.top).toBeLessThanOrEqual(12);
		const lines = "line\n".repeat(100);
		s = reduce(s, { type: "open" });
		s = reduce(s, { type: "event-done", key: "s1/e12", data: makeEventData("e12", { text: lines }), error: null });
		s = reduce(s, { type: "jump", to: "last" });
		const loc = topLoc(s) as NonNullable<ReturnType<typeof topLoc>>;
		s = reduce(s, { type: "resize", size: { columns: 80, rows: 60 } });
		const doc = eventDoc(loc, 80, true);
		expect(topLoc(s)?.scroll).toBeLessThanOrEqual(doc?.lines.length ?? 0);
	});
});

describe("the reducer reads the event document's numbers itself", () => {
	// An event loaded (event-done), and a burst of keys read with the answer: no render comes in between.
	const loaded = () => {
		const s = reduce(withHits(1), { type: "open" });
		return reduce(s, { type: "event-done", key: "s1/e0", data: makeEventData("e0", { text: "line\n".repeat(100) }), error: null });
	};

	it("keys read in the same chunk as the event's answer scroll its document at once, in order", () => {
		const s = run(loaded(), { type: "jump", to: "last" }, { type: "move", by: -1 });
		const doc = eventDoc(topLoc(s) as NonNullable<ReturnType<typeof topLoc>>, eventLayoutWidth(s), s.events.wrap);
		const last = (doc?.lines.length ?? 0) - eventLayout(s.size).bodyLines;
		expect(last).toBeGreaterThan(10);
		expect(topLoc(s)?.scroll).toBe(last - 1);
	});

	it("a taller terminal at the last line keeps the view on the new last page, without a render between", () => {
		const short = run(loaded(), { type: "jump", to: "last" });
		const s = reduce(short, { type: "resize", size: { columns: 80, rows: 40 } });
		const doc = eventDoc(topLoc(s) as NonNullable<ReturnType<typeof topLoc>>, eventLayoutWidth(s), s.events.wrap);
		expect(topLoc(s)?.scroll).toBe((doc?.lines.length ?? 0) - eventLayout(s.size).bodyLines);
	});
});
