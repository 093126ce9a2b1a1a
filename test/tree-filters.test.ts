/**
 * pi's /tree filters in the tree view (issue 31.8), drawn by the tree view's own line code from the index's windows,
 * against frames drawn by hand from the session pi's SessionManager wrote: bookkeeping rows (label, model and
 * thinking changes, custom entries) hidden by default and shown by `all`; user-only, no-tools, labeled-only; typed
 * words; a tool result row shows its call; a session that names the root as parent without copying is "new
 * session after", not a fork. The keys go through the explorer's reducer (Ctrl+O cycles, Ctrl+U toggles, `/` types).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idTail } from "../components/core/session-label.js";
import type { KeyInfo } from "../components/root/keymap.js";
import { type Action, initialState, modeOf, reduce, type State } from "../components/root/state.js";
import { queryTerms, treeLines } from "../components/tree/tree-lines.js";
import { reduceTree, topTree, treeBodyLines, treeLoad } from "../components/tree/tree-state.js";
import type { HistoryService } from "../src/service/service.js";
import type { TreeFilterMode } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { assistant, createSession, SessionManager, toolResult, user } from "./helpers/pi-sessions.js";

let tmp: ReturnType<typeof tempDir>;
let service: HistoryService;
let rootId = "";
let firstUser = "";
let newId = "";

beforeAll(() => {
	tmp = tempDir();
	const dir = join(tmp.dir, "sessions");
	const sm = createSession("/work/filters", dir);
	firstUser = sm.appendMessage(user("fix the webhook retries"));
	sm.appendLabelChange(firstUser, "start");
	sm.appendModelChange("anthropic", "claude-opus-4");
	sm.appendMessage(assistant("", [{ id: "c1", name: "read", arguments: { path: "src/hook.ts" } }]));
	sm.appendMessage(toolResult("c1", "read", "export function hook() {}"));
	sm.appendMessage(assistant("The retry loop never backs off."));
	sm.appendThinkingLevelChange("high");
	sm.appendCustomEntry("my-ext", { n: 1 });
	sm.appendMessage(user("add a backoff"));
	sm.appendMessage(assistant("", [{ id: "c2", name: "edit", arguments: { path: "src/hook.ts" } }]));
	sm.appendMessage(toolResult("c2", "edit", "ok"));
	sm.appendMessage(assistant("Added exponential backoff."));
	rootId = sm.getSessionId();
	const next = SessionManager.create("/work/filters", dir);
	next.newSession({ parentSession: sm.getSessionFile() as string });
	next.appendMessage(user("next day: ship it"));
	next.appendMessage(assistant("Shipped."));
	newId = next.getSessionId();
	service = openService(dir, join(tmp.dir, "index.sqlite"));
	service.refresh();
});
afterAll(() => {
	service.close();
	tmp.cleanup();
});

/** The frame of the whole tree under a filter, as the tree view draws it (no cursor). */
function frame(filter: TreeFilterMode, text?: string): string[] {
	const w = service.treeWindow({ sessionId: rootId, filter, ...(text ? { text } : {}), top: 0, count: 100 });
	const lines = treeLines({
		rows: w.rows,
		offset: w.start,
		total: w.total,
		cursor: -1,
		top: 0,
		height: 100,
		width: 100,
		terms: queryTerms(""),
		rootSession: rootId,
	});
	return lines.map((l) =>
		l
			.map((s) => s.text)
			.join("")
			.trimEnd(),
	);
}

describe("pi's /tree filters, drawn", () => {
	const head = () => `  ↳ new session after #${idTail(newId)} · /work/filters · 2 entries`;

	it("default: bookkeeping and tool-only replies hidden, each result shows its call; the new session comes after the leaf", () => {
		expect(frame("default")).toEqual([
			"  • [start] user: fix the webhook retries",
			"  • result of read path: src/hook.ts: export function hook() {}",
			"  • assistant: The retry loop never backs off.",
			"  • user: add a backoff",
			"  • result of edit path: src/hook.ts: ok",
			"  • assistant: Added exponential backoff.",
			head(),
			"  user: next day: ship it",
			"  assistant: Shipped.",
		]);
	});

	it("no-tools hides the results too; user-only and labeled-only keep only those rows (children hang from what shows)", () => {
		expect(frame("no-tools")).toEqual([
			"  • [start] user: fix the webhook retries",
			"  • assistant: The retry loop never backs off.",
			"  • user: add a backoff",
			"  • assistant: Added exponential backoff.",
			head(),
			"  user: next day: ship it",
			"  assistant: Shipped.",
		]);
		expect(frame("user-only")).toEqual(["  • [start] user: fix the webhook retries", "  • user: add a backoff", head(), "  user: next day: ship it"]);
		expect(frame("labeled-only")).toEqual(["  • [start] user: fix the webhook retries", head()]);
	});

	it("all shows the bookkeeping rows (folded as plain stretches); typed words keep the rows that hold them", () => {
		expect(frame("all")).toEqual([
			"  • [start] user: fix the webhook retries",
			"  … 7 entries …",
			"  • user: add a backoff",
			"  … 3 entries …",
			head(),
			"  user: next day: ship it",
			"  assistant: Shipped.",
		]);
		expect(frame("default", "BACKOFF")).toEqual(["  • user: add a backoff", "  • assistant: Added exponential backoff.", head()]);
	});
});

describe("the filter keys", () => {
	const key = (input: string, k: KeyInfo = {}): Action => ({ type: "key", input, key: k });
	const SIZE = { columns: 100, rows: 30 };
	/** Answers the reads the top tree asks for from the real service, until it asks for none. */
	function settle(s: State): State {
		for (let i = 0; i < 5; i++) {
			const t = topTree(s.tree);
			const load = t ? treeLoad(t, treeBodyLines(s.size)) : null;
			if (!t || !load) return s;
			s = reduce(s, { type: "tree-done", key: t.key, gen: load.gen, scroll: load.scroll, data: service.treeWindow(load.request), error: null });
		}
		return s;
	}
	const users = (s: State) => (topTree(s.tree)?.data?.rows ?? []).filter((r) => r.type === "entry").map((r) => (r.type === "entry" ? r.entry.role : ""));

	it("Ctrl+O cycles the modes, Ctrl+U toggles user-only, / types words and Esc clears them", () => {
		const s0 = initialState({ size: SIZE });
		let s: State = settle({ ...s0, mode: "tree", tree: reduceTree(s0.tree, { type: "tree-open", request: { sessionId: rootId }, depth: 0 }, SIZE).tree });
		expect(modeOf(s)).toBe("tree");
		expect(topTree(s.tree)?.data?.hidden).toBe(6);
		s = settle(reduce(s, key("o", { ctrl: true })));
		expect(topTree(s.tree)?.filter).toBe("no-tools");
		s = settle(reduce(s, key("u", { ctrl: true })));
		expect(users(s)).toEqual(["user", "user", "user"]);
		s = settle(reduce(s, key("u", { ctrl: true })));
		expect(topTree(s.tree)?.filter).toBe("default");
		// `/`: letters are words of the filter, not commands (n, y, q would step, copy, go back).
		s = reduce(s, key("/"));
		for (const c of "ship") s = settle(reduce(s, key(c)));
		expect(modeOf(s)).toBe("tree");
		expect(s.copy).toBeFalsy();
		expect(topTree(s.tree)?.text).toBe("ship");
		s = settle(reduce(s, key("", { return: true })));
		expect(topTree(s.tree)?.typing).toBe(false);
		expect(topTree(s.tree)?.data?.rows.map((r) => r.type)).toEqual(["fork", "entry", "entry"]);
		s = settle(reduce(reduce(s, key("/")), key("", { escape: true })));
		expect(topTree(s.tree)?.text).toBe("");
		expect(topTree(s.tree)?.data?.total).toBe(9);
	});
});
