/**
 * The reducer's side of the wheel and of the tasks on an event: a wheel notch moves the hit selection, scrolls the
 * event text three lines, moves the trace cursor, scrolls help; `c`/F7, `m`, `v`, `e`, `E` record a task on the
 * right event and session file (the event in view, or the selected hit), and say what starts.
 */
import { describe, expect, it } from "vitest";
import { eventLayout } from "../components/core/layout.js";
import type { KeyInfo } from "../components/root/keymap.js";
import { type Action, initialState, modeOf, reduce, type State, topLoc } from "../components/root/state.js";
import type { SearchResult } from "../src/shared/types.js";
import { brief, edge, makeEventData, makeHits } from "./helpers/ink.js";

const SIZE = { columns: 80, rows: 24 };

const run = (s: State, ...actions: Action[]): State => actions.reduce(reduce, s);
const key = (input: string, k: KeyInfo = {}): Action => ({ type: "key", input, key: k });
const wheel = (dir: "up" | "down"): Action => key("", dir === "up" ? { wheelUp: true } : { wheelDown: true });

function withHits(n: number, focus: State["focus"] = "list"): State {
	const s = initialState({ size: SIZE });
	const result: SearchResult = { hits: makeHits(n), notes: [], index: { sessions: 1, events: 1000, freshAt: null, pending: 0 } };
	return { ...run(s, { type: "search-done", seq: s.hits.results.seq, more: 0, result }), focus };
}

/** The first hit opened, its event loaded: `lines` lines of text and a trace with three rows to choose from. */
function opened(lines = 80): State {
	const data = makeEventData("e0", {
		text: Array.from({ length: lines }, (_, i) => `line ${i}`).join("\n"),
		edges: [edge("parent", "p"), edge("child", "c1"), edge("child", "c2")],
		nodes: [brief("p"), brief("c1"), brief("c2")],
	});
	return run(withHits(3), key("", { return: true }), { type: "event-done", key: "s1/e0", data, error: null });
}

describe("mouse wheel", () => {
	it("moves the hit selection one hit a notch, from the query line too, never above the first hit", () => {
		let s = withHits(10, "query");
		s = run(s, wheel("down"), wheel("down"));
		expect([modeOf(s), s.hits.selected]).toEqual(["list", 2]);
		s = run(s, wheel("up"), wheel("up"), wheel("up"));
		expect([modeOf(s), s.hits.selected]).toEqual(["list", 0]);
		expect(run(withHits(0, "query"), wheel("down")).focus).toBe("query");
	});

	it("scrolls the event text three lines a notch, and the trace panel's rows one a notch when it has focus", () => {
		let s = opened();
		const top = topLoc(s)?.scroll ?? 0;
		s = run(s, wheel("down"), wheel("down"));
		expect(topLoc(s)?.scroll).toBe(top + 6);
		s = run(s, wheel("up"));
		expect(topLoc(s)?.scroll).toBe(top + 3);
		s = run(s, key("", { tab: true }), wheel("down"));
		expect(modeOf(s)).toBe("trace");
		expect(topLoc(s)?.traceCursor).toBe(1);
		expect(topLoc(s)?.scroll).toBe(top + 3);
	});

	it("scrolls the pane under the pointer, whichever has focus (stacked and side by side)", () => {
		for (const size of [SIZE, { columns: 130, rows: 30 }]) {
			let s = { ...opened(), size };
			s = reduce(s, { type: "resize", size });
			const l = eventLayout(size);
			const overPanel = l.side ? { x: l.bodyWidth + 5, y: 5 } : { x: 5, y: 2 + l.bodyLines + 3 };
			const overBody = { x: 3, y: 4 };
			const top = topLoc(s)?.scroll ?? 0;
			s = run(s, key("", { wheelDown: true, ...overPanel }));
			expect([modeOf(s), topLoc(s)?.traceCursor, topLoc(s)?.scroll]).toEqual(["event", 1, top]);
			s = run(s, key("", { tab: true }), key("", { wheelDown: true, ...overBody }));
			expect([modeOf(s), topLoc(s)?.traceCursor, topLoc(s)?.scroll]).toEqual(["trace", 1, top + 3]);
		}
	});

	it("scrolls help when help is open", () => {
		const s = run(opened(), key("?"), wheel("down"));
		expect(s.overlay?.type === "help" ? s.overlay.scroll : -1).toBe(3);
	});
});

describe("tasks on an event", () => {
	it.each<[string, Action, string, string]>([
		["F7 continues in pi", key("", { f7: true }), "resume", "starting pi…"],
		["m copies Markdown", key("m"), "copy-md", "reading the event to copy it as Markdown…"],
		["Ctrl+P opens the pager", key("p", { ctrl: true }), "pager", "reading the event for the pager…"],
		["Ctrl+E opens the editor", key("e", { ctrl: true }), "editor", "reading the event for the editor…"],
		["Ctrl+X exports the branch", key("x", { ctrl: true }), "export", "reading the branch from the root to this event…"],
	])("%s on the event in view, with its session file", (_name, action, kind, message) => {
		const s = run(opened(), action);
		expect(s.task).toEqual({ seq: 1, kind, ref: { sessionId: "s1", entryId: "e0" }, file: "/x/s1.jsonl", cwd: "/home/alice/code/app" });
		expect(s.message?.text).toBe(message);
	});

	it("F7 on the search screen continues in pi on the selected hit's session", () => {
		const s = run(withHits(3), key("", { downArrow: true }), key("", { f7: true }));
		expect(s.task).toEqual({ seq: 1, kind: "resume", ref: { sessionId: "s1", entryId: "e1" }, file: "/x.jsonl", cwd: "/home/alice/code/app" });
	});

	it("waits for the event: no task before it has loaded; no hit, no task", () => {
		const loading = run(withHits(3), key("", { return: true }), key("", { f7: true }));
		expect(loading.task).toBeNull();
		expect(loading.message?.text).toBe("still loading the event…");
		expect(run(withHits(0, "query"), key("", { f7: true })).task).toBeNull();
	});

	it("the launcher's answer is the status line; a second task gets a new sequence number", () => {
		let s = run(opened(), key("m"), { type: "task-done", seq: 1, text: "copied the event as Markdown (20 characters) with xclip", tone: "info" });
		expect(s.message).toEqual({ text: "copied the event as Markdown (20 characters) with xclip", tone: "info" });
		s = run(s, key("x", { ctrl: true }));
		expect(s.task?.seq).toBe(2);
	});
});
