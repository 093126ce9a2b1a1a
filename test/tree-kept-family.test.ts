/**
 * The tree view of a big fork family is read from its kept layout (issue 32 item 3): the indexer lays the family out
 * (root and forks as one tree, per filter mode) and the first open reads a few chunks, never the sessions' shapes or
 * rows. Ground truth is the whole layout: the same requests on a second index of the same files that keeps no
 * layout, opened read-only, so every answer there is laid out whole. Written by pi's own SessionManager: a root of a
 * few thousand entries with rewinds, a /fork with its own turns and a fork of that fork, a --fork copy of every entry
 * and a new session naming the root as its parent; then turns appended to the fork.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/index/store.js";
import { LAYOUT_MIN } from "../src/query/tree-layout.js";
import { keepLayouts } from "../src/query/tree-layout-keep.js";
import { treeWindow } from "../src/query/tree-window.js";
import { TREE_FILTER_MODES, type TreeWindow, type TreeWindowRequest } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { assistant, createSession, SessionManager, toolResult, user } from "./helpers/pi-sessions.js";

let tmp: ReturnType<typeof tempDir>;
let dir = "";
/** The index that keeps layouts (as the explorer's indexer does), and one that never does (the whole layout). */
let kept = "";
let whole = "";
let rootId = "";
let forkId = "";
let forkFile = "";
let grandId = "";
let copied = "";
let forkOwn = "";

/** A few turns of a session: prompt, a tool call and its result, a reply; every so often back up the path. */
function turns(sm: SessionManager, count: number, tag: string): string[] {
	const ids: string[] = [];
	for (let t = 0; t < count; t++) {
		const u = sm.appendMessage(user(`${tag} turn ${t}`));
		const a = sm.appendMessage(assistant(t % 3 === 0 ? `reading ${t}` : "", [{ id: `call_${tag}_${t}`, name: "read", arguments: { path: `src/${t}.ts` } }]));
		const r = sm.appendMessage(toolResult(`call_${tag}_${t}`, "read", `contents ${t}`, t % 31 === 7));
		const b = sm.appendMessage(assistant(`done ${t}`));
		ids.push(u, a, r, b);
		if (t % 19 === 18) sm.branch(ids[ids.length - 9] as string);
		if (t === 40) sm.appendLabelChange(u, "checkpoint");
	}
	return ids;
}

function refresh(path: string, keep: boolean, maxWholeEntries?: number, spill?: boolean): ReturnType<ReturnType<typeof openService>["keepTreeLayouts"]> | null {
	const service = openService(dir, path);
	try {
		service.refresh();
		return keep ? service.keepTreeLayouts({ ...(maxWholeEntries === undefined ? {} : { maxWholeEntries }), ...(spill === undefined ? {} : { spill }) }) : null;
	} finally {
		service.close();
	}
}

beforeAll(() => {
	tmp = tempDir("pes-tree-family-");
	dir = join(tmp.dir, "sessions");
	kept = join(tmp.dir, "kept.sqlite");
	whole = join(tmp.dir, "whole.sqlite");
	const sm = createSession("/work/fam", dir);
	const ids = turns(sm, 700, "root");
	rootId = sm.getSessionId();
	const rootFile = sm.getSessionFile() as string;
	copied = ids[ids.length - 120] as string;
	// /fork of the path up to an older entry, its own turns; a fork of that fork; a --fork copy; a new session after.
	forkFile = SessionManager.open(rootFile, dir).createBranchedSession(copied) as string;
	const fork = SessionManager.open(forkFile, dir);
	forkId = fork.getSessionId();
	const own = turns(fork, 30, "fork");
	forkOwn = own[10] as string;
	const grand = SessionManager.open(SessionManager.open(forkFile, dir).createBranchedSession(own[20] as string) as string, dir);
	grandId = grand.getSessionId();
	turns(grand, 5, "grand");
	turns(SessionManager.forkFrom(rootFile, "/work/other", dir), 3, "copy");
	const next = SessionManager.create("/work/fam", dir);
	next.newSession({ parentSession: rootFile });
	turns(next, 2, "next");
	refresh(whole, false);
});
afterAll(() => tmp.cleanup());

/** Statements that read a session's shape or all its rows, or write (an open laying the family out). */
const wholeSql = (sql: string[]) =>
	sql.filter((s) => /FROM tree_shape|e\.id BETWEEN|WHERE e\.session_id = \? ORDER BY e\.id|^\s*(INSERT|DELETE|UPDATE)\b/i.test(s));

/**
 * Every window of a request, each through a fresh connection to `path` (read-only: nothing kept there); `spillFrom`:
 * tree-window.ts's bound on a family laid out at an open a chunk at a time (default: never, the whole layout).
 */
function windows(
	path: string,
	req: Omit<TreeWindowRequest, "count" | "top">,
	spillFrom = Number.POSITIVE_INFINITY,
): { first: TreeWindow; pages: TreeWindow[]; sql: string[] } {
	const store = openStore(path, { readonly: path === whole });
	try {
		const first = treeWindow(store, { ...req, count: 120 }, { spillFrom });
		const pages: TreeWindow[] = [];
		for (let top = 0; top < first.total; top += 1000) pages.push(treeWindow(store, { ...req, top, count: 1000 }, { spillFrom }));
		return { first, pages, sql: store.preparedSql() };
	} finally {
		store.close();
	}
}

/** The kept layout's (at `path`) answers to a request equal the whole layout's, and were read without laying anything out. */
function same(req: Omit<TreeWindowRequest, "count" | "top">, path = kept): TreeWindow {
	const a = windows(path, req);
	const b = windows(whole, req);
	expect(a.first).toEqual(b.first);
	expect(a.pages).toEqual(b.pages);
	expect(wholeSql(a.sql)).toEqual([]);
	return a.first;
}

describe("the tree view of a fork family from its kept layout", () => {
	it("the indexer lays the family out once per filter mode, under its root", () => {
		expect(refresh(kept, true)).toEqual({ appended: 0, whole: TREE_FILTER_MODES.length, left: 0 });
		const w = windows(whole, { sessionId: rootId, filter: "all" }).first;
		expect(w.forks).toBe(4);
		expect(w.entries).toBeLessThan(LAYOUT_MIN);
		expect(refresh(kept, true)).toEqual({ appended: 0, whole: 0, left: 0 });
	});

	it("every filter mode's rows, fork heads included, equal the whole layout's at the first open", () => {
		for (const filter of TREE_FILTER_MODES) same({ sessionId: rootId, filter });
		const all = windows(kept, { sessionId: rootId, filter: "all" }).pages.flatMap((p) => p.rows);
		expect(all.filter((r) => r.type === "fork").map((r) => r.sessionId)).toContain(grandId);
	});

	it("opened from a fork, on its own entry, on an entry it copied, on a fork head, with folds opened", () => {
		same({ sessionId: forkId });
		same({ sessionId: forkId, entryId: forkOwn });
		// A copied entry shows as the root's row: the focus walks up the chain.
		const w = same({ sessionId: forkId, entryId: copied, filter: "no-tools" });
		expect(w.focus).toEqual({ sessionId: rootId, entryId: copied });
		same({ sessionId: grandId, cursor: `fork:${grandId}` });
		const folds = windows(kept, { sessionId: rootId }).pages.flatMap((p) => p.rows.filter((r) => r.type === "fold"));
		const opened = [folds[0], folds.at(-1)].map((r) => r?.stretch as string);
		same({ sessionId: rootId, unfolded: opened, cursor: opened[1] as string });
		expect(() => windows(kept, { sessionId: forkId, entryId: "no-such-entry" })).toThrow(/no-such-entry/);
	});

	it("turns appended to a fork: the indexer lays the family out again, the first open reads it", () => {
		turns(SessionManager.open(forkFile, dir), 4, "more");
		refresh(whole, false);
		refresh(kept, false);
		// Before the indexer's pass the kept layout is stale: the open lays the family out itself, the same rows.
		const stale = windows(kept, { sessionId: rootId, filter: "all" });
		expect(stale.first).toEqual(windows(whole, { sessionId: rootId, filter: "all" }).first);
		expect(wholeSql(stale.sql)).not.toEqual([]);
		// An open only reads (the explorer's is read-only): the indexer lays out every mode.
		expect(refresh(kept, true)).toEqual({ appended: 0, whole: TREE_FILTER_MODES.length, left: 0 });
		for (const filter of TREE_FILTER_MODES) same({ sessionId: forkId, filter });
	});

	it("the indexer's bound on a layout held whole counts its nodes, not the copies forks hold of their parent's entries", () => {
		const rows = windows(whole, { sessionId: rootId, filter: "all" }).pages.flatMap((p) => p.rows);
		const forks = rows.flatMap((r) => (r.type === "fork" ? [r.fork] : []));
		const root = windows(whole, { sessionId: rootId }).first.entries;
		// Nodes: the root's entries, each fork's head and the entries it wrote.
		const nodes = forks.reduce((sum, f) => sum + 1 + f.own, root);
		const entries = forks.reduce((sum, f) => sum + f.copied + f.own, root);
		expect(entries).toBeGreaterThan(2 * nodes);
		// Without laying out a chunk at a time (pi's sliced pass): left past the bound.
		const bounded = join(tmp.dir, "bounded.sqlite");
		expect(refresh(bounded, true, nodes - 1, false)).toEqual({ appended: 0, whole: 0, left: TREE_FILTER_MODES.length });
		expect(refresh(bounded, true, nodes, false)).toEqual({ appended: 0, whole: TREE_FILTER_MODES.length, left: 0 });
	});

	it("a family past what the indexer holds in memory is laid out a chunk at a time: every answer equals the whole layout's", () => {
		const spilled = join(tmp.dir, "spilled.sqlite");
		refresh(whole, false);
		// The root's entries are read from its kept shape a chunk at a time, its forks' own entries held.
		expect(refresh(spilled, true, 1000)).toEqual({ appended: 0, whole: TREE_FILTER_MODES.length, left: 0 });
		expect(readdirSync(tmp.dir).filter((f) => f.startsWith("pi-event-search-layout-"))).toEqual([]);
		for (const filter of TREE_FILTER_MODES) same({ sessionId: rootId, filter }, spilled);
		same({ sessionId: forkId, entryId: forkOwn }, spilled);
		expect(same({ sessionId: forkId, entryId: copied, filter: "no-tools" }, spilled).focus).toEqual({ sessionId: rootId, entryId: copied });
		same({ sessionId: grandId, cursor: `fork:${grandId}` }, spilled);
		const folds = windows(spilled, { sessionId: rootId }).pages.flatMap((p) => p.rows.filter((r) => r.type === "fold"));
		const opened = [folds[0], folds.at(-1)].map((r) => r?.stretch as string);
		same({ sessionId: rootId, unfolded: opened, cursor: opened[1] as string }, spilled);
		// Forks holding more nodes than the bound: left, nothing kept of them.
		const few = join(tmp.dir, "few.sqlite");
		refresh(few, false);
		const store = openStore(few);
		try {
			expect(keepLayouts(store, { maxWholeEntries: 1000, spill: true, maxHeld: 10 })).toEqual({ appended: 0, whole: 0, left: TREE_FILTER_MODES.length });
			expect(store.db.prepare("SELECT count(*) AS n FROM tree_layout").get()).toEqual({ n: 0 });
		} finally {
			store.close();
		}
	});

	it("an open with no kept layout of a family past SPILL_FROM lays it out a chunk at a time, read-only: the same rows", () => {
		const chunked = (sql: string[]) => sql.some((q) => /FROM tree_shape WHERE session_id = \? AND chunk = \?/.test(q));
		for (const filter of TREE_FILTER_MODES) {
			const open = windows(whole, { sessionId: rootId, filter }, 1000);
			expect(open.first).toEqual(windows(whole, { sessionId: rootId, filter }).first);
			expect(open.pages).toEqual(windows(whole, { sessionId: rootId, filter }).pages);
			expect(chunked(open.sql)).toBe(true);
			expect(open.sql.filter((q) => /^\s*(INSERT|DELETE|UPDATE)\b/i.test(q))).toEqual([]);
		}
		const fromFork = windows(whole, { sessionId: forkId, entryId: forkOwn }, 1000);
		expect(fromFork.pages).toEqual(windows(whole, { sessionId: forkId, entryId: forkOwn }).pages);
		// A filter typed in the tree view: the same rows as when laid out in memory.
		for (const [filter, text] of [
			["default", "fork turn"],
			["all", "src"],
			["no-tools", "done"],
			["default", "nowhere-in-this-family"],
		] as const) {
			const typed = windows(whole, { sessionId: rootId, filter, text }, 1000);
			const inMemory = windows(whole, { sessionId: rootId, filter, text });
			expect(typed.first.total > 10, text).toBe(!text.startsWith("nowhere"));
			expect(typed.pages).toEqual(inMemory.pages);
			expect(chunked(typed.sql)).toBe(true);
		}
	});
});
