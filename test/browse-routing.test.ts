/**
 * The session browser and the go-to prompt on the explorer's back stack, through the real reducer and keymap:
 * `b` from an event opens the browser over it, Enter opens a session at its materialized leaf, and Esc walks back
 * the same way (leaf → browser → the event it was opened from); a found ref lands on top of whatever was open.
 */
import { describe, expect, it } from "vitest";
import type { KeyInfo } from "../components/root/keymap.js";
import { type Action, initialState, modeOf, reduce, type State, topLoc } from "../components/root/state.js";
import type { SessionListing } from "../src/shared/types.js";

const SIZE = { columns: 100, rows: 30 };
const key = (input: string, k: KeyInfo = {}): Action => ({ type: "key", input, key: k });
const run = (s: State, ...actions: Action[]) => actions.reduce(reduce, s);
const ENTER = key("", { return: true });
const ESC = key("", { escape: true });

function listing(id: string, leafId: string | null, lastAt: string): SessionListing {
	return { id, cwd: "/p", file: `/f/${id}`, created: lastAt, lastAt, events: 3, branches: 0, leafId, parent: null, forks: 0 };
}
const SESSIONS = [
	listing("s-new", "leaf-new", "2026-03-02T00:00:00Z"),
	listing("s-old", "leaf-old", "2026-03-01T00:00:00Z"),
	listing("s-empty", null, "2026-01-01T00:00:00Z"),
];

/** The explorer started on an event (as `pi-history open` does), with the browser's listing answered. */
function onEvent(): State {
	return initialState({ size: SIZE, workspace: "/p", open: { sessionId: "s-x", entryId: "e-x" } });
}
function answered(s: State): State {
	const seq = s.browser?.seq ?? -1;
	return reduce(s, { type: "sessions-done", seq, result: { sessions: SESSIONS, total: SESSIONS.length, truncated: false } });
}

describe("browser on the back stack", () => {
	it("F2 → browser over the event; Enter → the tree at the leaf; Esc → the leaf; Esc → browser as left; Esc → the event", () => {
		let s = onEvent();
		expect(modeOf(s)).toBe("event");
		s = answered(run(s, key("", { f2: true })));
		expect(modeOf(s)).toBe("sessions");
		s = run(s, key("", { downArrow: true }), ENTER);
		expect(modeOf(s)).toBe("tree");
		expect(s.tree.stack.at(-1)?.request).toMatchObject({ sessionId: "s-old", entryId: "leaf-old" });
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s-old", entryId: "leaf-old" });
		expect(s.browser).toBeNull();
		expect(s.events.stack).toHaveLength(2);
		s = run(s, ESC);
		expect(modeOf(s)).toBe("event");
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s-old", entryId: "leaf-old" });
		s = run(s, ESC);
		expect(modeOf(s)).toBe("sessions");
		expect(s.browser?.selectedId).toBe("s-old");
		s = run(s, ESC);
		expect(modeOf(s)).toBe("event");
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s-x", entryId: "e-x" });
	});

	it("letters filter the browser instead of walking; a session without entries says so", () => {
		let s = answered(run(onEvent(), { type: "open-browser" }));
		s = run(s, key("h"), key("j"));
		expect(s.browser?.filter).toBe("hj");
		expect(topLoc(s)?.ref.entryId).toBe("e-x");
		s = run(s, key("u", { ctrl: true }), key("", { end: true }), ENTER);
		expect(s.message?.text).toMatch(/no entries/);
		expect(modeOf(s)).toBe("sessions");
	});

	it("F2 from the search screen and F2 again closes; an answer for an earlier browser is dropped", () => {
		const s0 = initialState({ size: SIZE, workspace: "/p" });
		const first = run(s0, key("", { f2: true }));
		const closed = run(first, key("", { f2: true }));
		expect(closed.browser).toBeNull();
		const again = run(closed, key("", { f2: true }));
		expect(again.browser?.seq).toBeGreaterThan(first.browser?.seq ?? 0);
		const stale = reduce(again, { type: "sessions-done", seq: first.browser?.seq ?? 0, result: { sessions: SESSIONS, total: 3, truncated: false } });
		expect(stale.browser?.result).toBeNull();
	});
});

describe("go to a ref on the back stack", () => {
	it("F3 in an event; a found ref lands on top; Esc comes back to the event", () => {
		let s = run(onEvent(), key("", { f3: true }));
		expect(modeOf(s)).toBe("goto");
		s = run(s, { type: "goto-edit", value: "pi-history read s-new leaf-new --fragment user.text:0" }, ENTER);
		const seq = s.goto?.checking?.seq ?? 0;
		expect(s.goto?.checking?.ref).toEqual({ sessionId: "s-new", entryId: "leaf-new", fragmentId: "user.text:0" });
		s = reduce(s, { type: "goto-done", seq, error: null });
		expect(s.goto).toBeNull();
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s-new", entryId: "leaf-new" });
		expect(topLoc(s)?.focusFragment).toBe("user.text:0");
		s = run(s, ESC);
		expect(topLoc(s)?.ref).toEqual({ sessionId: "s-x", entryId: "e-x" });
	});

	it("from the browser: the found ref lands, and Esc comes back to the browser", () => {
		let s = answered(run(initialState({ size: SIZE, workspace: "/p" }), key("", { f2: true })));
		s = run(s, key("", { f3: true }), { type: "goto-edit", value: "s-old leaf-old" }, ENTER);
		s = reduce(s, { type: "goto-done", seq: s.goto?.checking?.seq ?? 0, error: null, sessionId: "s-old" });
		expect(modeOf(s)).toBe("event");
		s = run(s, ESC);
		expect(modeOf(s)).toBe("sessions");
	});

	it("an unknown ref keeps the prompt open with the reason; Esc closes it", () => {
		let s = run(initialState({ size: SIZE }), key("", { f3: true }), { type: "goto-edit", value: "s-x nope" }, ENTER);
		s = reduce(s, { type: "goto-done", seq: s.goto?.checking?.seq ?? 0, error: "no event s-x/nope in the index" });
		expect(modeOf(s)).toBe("goto");
		expect(s.goto?.error).toBe("no event s-x/nope in the index");
		expect(run(s, ESC).goto).toBeNull();
		// F2 works there too: the browser instead of the prompt.
		const browsing = run(s, key("", { f2: true }));
		expect(modeOf(browsing)).toBe("sessions");
	});
});
