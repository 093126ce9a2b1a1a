/**
 * The tree view's reducer slice through the explorer's reducer and keymap: Ctrl+T on a hit and `t` on an event open
 * it centred on that event, ↑↓ move, n/N step through the query's hits, →/← unfold and fold, Enter opens the row's
 * event over the tree (and a fork's head crosses into its file), Esc comes back exactly to where each view was.
 */
import { describe, expect, it } from "vitest";
import type { KeyInfo } from "../components/root/keymap.js";
import { type Action, initialState, modeOf, reduce, type State, topLoc } from "../components/root/state.js";
import { entryKey, forkKey, windowOf } from "../components/tree/tree-layout.js";
import { cursorRow, topTree, treeBodyLines, treeLoad } from "../components/tree/tree-state.js";
import type { SearchResult, TreeEntry, TreeResult } from "../src/shared/types.js";
import { brief, edge, makeEventData, makeHits } from "./helpers/ink.js";

const SIZE = { columns: 80, rows: 24 };
const FORK = "s2-fork";

const run = (s: State, ...actions: Action[]) => actions.reduce(reduce, s);

/** The answer to the read the top tree asks for now (the window a whole answer gives, laid out as the index would). */
function answer(s: State, result: TreeResult, key?: string): Action {
	const t = topTree(s.tree);
	const load = t ? treeLoad(t, treeBodyLines(SIZE)) : null;
	if (!t || !load) throw new Error("the tree asks for nothing");
	return { type: "tree-done", key: key ?? t.key, gen: load.gen, scroll: load.scroll, data: windowOf(result, load.request), error: null };
}
const key = (input: string, k: KeyInfo = {}): Action => ({ type: "key", input, key: k });
const ESC = key("", { escape: true });
const ENTER = key("", { return: true });
const DOWN = key("", { downArrow: true });
const RIGHT = key("", { rightArrow: true });
const LEFT = key("", { leftArrow: true });
const CTRL_T = key("t", { ctrl: true });

function e(id: string, parentId: string | null, role: string, preview: string, extra: Partial<TreeEntry> = {}): TreeEntry {
	return {
		entryId: id,
		parentId,
		entryType: "message",
		role,
		kind: role === "user" ? "user.text" : "assistant.text",
		preview,
		timestamp: "2026-01-01T00:00:00.000Z",
		branchState: "selected",
		selectionState: "direct",
		...extra,
	};
}

/** e0 (user) → e1..e8 (plain) → e9 (user, leaf); e4 and e7 match "retry"; a fork continues from e9. */
function data(focus: string | null, hits = false): TreeResult {
	const entries = [e("e0", null, "user", "start")];
	for (let i = 1; i <= 8; i++) entries.push(e(`e${i}`, `e${i - 1}`, "assistant", `step ${i}`, hits && (i === 4 || i === 7) ? { hit: true } : {}));
	entries.push(e("e9", "e8", "user", "end"));
	return {
		session: { id: "s1", cwd: "/p", file: "/p/a.jsonl" },
		leafId: "e9",
		entries,
		forks: [
			{
				session: { id: FORK, cwd: "/q", file: "/q/b.jsonl" },
				forkPoint: "e9",
				copied: 10,
				copiedAll: true,
				entries: [e("f1", "e9", "user", "forked")],
				forks: [],
			},
		],
		focus: focus ? { sessionId: "s1", entryId: focus } : null,
		hits: hits ? 2 : 0,
		notes: [],
	};
}

function withHits(query = ""): State {
	const s0 = initialState({ size: SIZE, query });
	const result: SearchResult = { hits: makeHits(10), notes: [], index: { sessions: 1, events: 100, freshAt: null, pending: 0 } };
	return { ...run(s0, { type: "search-done", seq: s0.hits.results.seq, more: 0, result }), focus: "list", mode: "list" };
}

/** Opens the tree from the hit list on hit `at` and delivers its data. */
function openedTree(at: number, query = "", hits = false): State {
	let s = run(withHits(query), { type: "move", by: at }, CTRL_T);
	const t = topTree(s.tree);
	if (!t) throw new Error("no tree opened");
	s = reduce(s, answer(s, data(`e${at}`, hits)));
	return s;
}

const cursorKey = (s: State) => topTree(s.tree)?.cursor;

describe("opening the tree", () => {
	it("Ctrl+T on a hit asks for that hit's session tree, centred on it, with the query", () => {
		const s = run(withHits("retry"), { type: "move", by: 3 }, CTRL_T);
		expect(modeOf(s)).toBe("tree");
		expect(topTree(s.tree)?.request).toEqual({ sessionId: "s1", entryId: "e3", query: "retry" });
		const done = reduce(s, answer(s, data("e3")));
		expect(cursorKey(done)).toBe(entryKey("s1", "e3"));
	});

	it("drops an answer for another request", () => {
		const s = run(withHits(), CTRL_T);
		const stale = reduce(s, answer(s, data("e0"), "other"));
		expect(topTree(stale.tree)?.data).toBeNull();
	});

	it("says why when there is no hit to open it on", () => {
		const s = run({ ...initialState({ size: SIZE }), focus: "list", mode: "list" }, CTRL_T);
		expect(modeOf(s)).toBe("list");
		expect(s.message?.text).toMatch(/no hit selected/);
	});

	it("t in the event view opens it over the event; Esc comes back to the same event", () => {
		let s = run(withHits(), { type: "move", by: 2 }, ENTER);
		s = reduce(s, { type: "event-done", key: "s1/e2", data: makeEventData("e2", { edges: [edge("parent", "e1")], nodes: [brief("e1")] }), error: null });
		s = reduce(s, key("t"));
		expect(modeOf(s)).toBe("tree");
		expect(topTree(s.tree)?.depth).toBe(1);
		s = reduce(s, ESC);
		expect(modeOf(s)).toBe("event");
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s1", entryId: "e2" });
		expect(s.tree.stack).toEqual([]);
	});

	it("t from the trace panel opens the tree; Enter there opens the event with its text focused", () => {
		let s = run(withHits(), { type: "move", by: 2 }, ENTER);
		s = reduce(s, { type: "event-done", key: "s1/e2", data: makeEventData("e2", { edges: [edge("parent", "e1")], nodes: [brief("e1")] }), error: null });
		s = reduce(s, key("", { tab: true }));
		expect(modeOf(s)).toBe("trace");
		s = reduce(s, key("t"));
		s = reduce(s, answer(s, data("e2")));
		s = reduce(s, ENTER);
		expect(modeOf(s)).toBe("event");
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s1", entryId: "e2" });
		expect(s.events.stack.length).toBe(2);
	});
});

describe("inside the tree", () => {
	it("↓ moves to the next row; the folded stretch is one row; → unfolds it and ← folds it back", () => {
		let s = openedTree(0);
		expect(cursorKey(s)).toBe(entryKey("s1", "e0"));
		s = reduce(s, DOWN);
		expect(cursorRow(topTree(s.tree) as never)?.type).toBe("fold");
		s = reduce(s, RIGHT);
		expect(cursorKey(s)).toBe(entryKey("s1", "e1"));
		// The rows are laid out again where the index is: the answer keeps the cursor on the stretch's first row.
		s = reduce(s, answer(s, data("e0")));
		expect(cursorKey(s)).toBe(entryKey("s1", "e1"));
		s = run(s, DOWN, DOWN);
		expect(cursorKey(s)).toBe(entryKey("s1", "e3"));
		s = run(s, LEFT);
		s = reduce(s, answer(s, data("e0")));
		expect(cursorRow(topTree(s.tree) as never)?.type).toBe("fold");
	});

	it("n and N step through the query's hits, wrapping, and say which hit it is", () => {
		let s = openedTree(0, "retry", true);
		s = reduce(s, key("n"));
		expect(cursorKey(s)).toBe(entryKey("s1", "e4"));
		expect(s.message?.text).toBe("hit 1 of 2");
		s = reduce(s, key("n"));
		expect(cursorKey(s)).toBe(entryKey("s1", "e7"));
		s = reduce(s, key("n"));
		expect(cursorKey(s)).toBe(entryKey("s1", "e4"));
		expect(s.message?.text).toBe("hit 1 of 2 (from the top)");
		s = reduce(s, key("N"));
		expect(cursorKey(s)).toBe(entryKey("s1", "e7"));
	});

	it("n without a query says so and stays", () => {
		const s = reduce(openedTree(0), key("n"));
		expect(cursorKey(s)).toBe(entryKey("s1", "e0"));
		expect(s.message?.tone).toBe("warn");
	});

	it("Enter opens the row's event over the tree; Esc comes back to the tree at the same row, Esc again to the hits", () => {
		let s = openedTree(9);
		expect(cursorKey(s)).toBe(entryKey("s1", "e9"));
		s = reduce(s, ENTER);
		expect(modeOf(s)).toBe("event");
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s1", entryId: "e9" });
		s = reduce(s, ESC);
		expect(modeOf(s)).toBe("tree");
		expect(cursorKey(s)).toBe(entryKey("s1", "e9"));
		s = reduce(s, ESC);
		expect(modeOf(s)).toBe("list");
		expect(s.hits.selected).toBe(9);
	});

	it("Enter on a fork's head crosses into that file: its first own entry, on the back stack", () => {
		let s = run(openedTree(9), DOWN);
		expect(cursorKey(s)).toBe(forkKey(FORK));
		s = reduce(s, ENTER);
		expect(topLoc(s)?.ref).toEqual({ sessionId: FORK, entryId: "f1" });
		expect(s.message?.text).toMatch(/crossed into the forked session/);
		s = reduce(s, ESC);
		expect(cursorKey(s)).toBe(forkKey(FORK));
	});

	it("reads the tree again when the index changed, keeping the row under the cursor; an older answer is dropped", () => {
		let s = run(openedTree(9), DOWN);
		s = reduce(s, { type: "index-changed" });
		expect(topTree(s.tree)?.want).toBe(2);
		const grown = data("e9");
		grown.entries.push(e("e10", "e9", "user", "a line pi wrote meanwhile"));
		s = reduce(s, { ...answer(s, data("e0")), gen: 1 } as Action);
		expect(topTree(s.tree)?.have).toBe(1);
		s = reduce(s, answer(s, grown));
		expect(topTree(s.tree)?.data?.entries).toBe(11);
		expect(cursorKey(s)).toBe(forkKey(FORK));
	});

	it("y copies the row's ref", () => {
		const s = reduce(openedTree(9), key("y"));
		expect(s.copy?.text).toBe("s1 e9");
	});

	it("s from an event opened in the tree goes to the query; Esc brings back the event and then the tree", () => {
		let s = run(openedTree(9), ENTER, key("s"));
		expect(modeOf(s)).toBe("query");
		expect(s.tree.stack).toEqual([]);
		s = reduce(s, ESC);
		// Esc on a non-empty query would clear it; the query is empty here, so Esc restores the view left.
		expect(modeOf(s)).toBe("event");
		s = reduce(s, ESC);
		expect(modeOf(s)).toBe("tree");
	});
});
