/**
 * The reason a key cannot act, as data on its binding (lazygit's way): pressing it says why in the status line
 * instead of doing nothing, and help shows the reason under the key.
 */
import { describe, expect, it } from "vitest";
import { lineText } from "../components/core/styled.js";
import { helpLines } from "../components/root/help.js";
import { BINDINGS, disabledReason, type KeyInfo } from "../components/root/keymap.js";
import { type Action, initialState, reduce, type State } from "../components/root/state.js";
import { makeEventData, makeHits } from "./helpers/ink.js";

const SIZE = { columns: 100, rows: 30 };
const key = (input: string, k: KeyInfo = {}): Action => ({ type: "key", input, key: k });
const run = (s: State, ...actions: Action[]): State => actions.reduce(reduce, s);

function withHits(n: number, workspace: string | null = "/home/alice/code/app"): State {
	const s = initialState({ size: SIZE, workspace });
	const result = { hits: makeHits(n), notes: [], index: { sessions: 1, events: 100, freshAt: null, pending: 0 } };
	return run(s, { type: "search-done", seq: s.hits.results.seq, more: 0, result }, key("", { tab: true }));
}
/** An event opened from the first hit, its data not read yet. */
const loading = () => run(withHits(1), key("", { return: true }));
const loaded = () => run(loading(), { type: "event-done", key: "s1/e0", data: makeEventData("e0"), error: null });

describe("a key that cannot act says why", () => {
	const cases: Array<[string, () => State, Action, string]> = [
		["Enter in the trace panel while the event is read", () => run(loading(), { type: "toggle-panel" }), key("", { return: true }), "still reading the event"],
		["n before anything was found in the event", loaded, key("n"), "nothing to find yet: / types what to find"],
		["Ctrl+Y with no hit", () => withHits(0), key("y", { ctrl: true }), "no hit selected: type a query first"],
		["F7 with no hit", () => withHits(0), key("", { f7: true }), "no hit selected: type a query first"],
		["→ on a hit without copies", () => withHits(2), key("", { rightArrow: true }), "this hit has no copies in other sessions"],
		["Ctrl+S in the browser without a workspace", () => run(withHits(1, null), key("", { f2: true })), key("s", { ctrl: true }), "no workspace folder"],
	];
	it.each(cases)("%s", (_name, state, press, reason) => {
		const before = state();
		const after = reduce(before, press);
		expect(after.message?.text).toContain(reason);
		expect(after.message?.tone).toBe("warn");
		// Nothing else happened: the same screen, the same event stack, nothing asked of the world outside.
		expect(after.mode).toBe(before.mode);
		expect(after.events).toBe(before.events);
		expect(after.copy).toBe(before.copy);
		expect(after.task).toBe(before.task);
		// Help shows the same reason under the key.
		const help = helpLines(SIZE.columns, (b) => disabledReason(b, before)).map(lineText);
		expect(help.some((l) => l.includes(`not now: ${after.message?.text}`))).toBe(true);
	});

	it("an enabled key acts and help shows no reason for it", () => {
		const s = withHits(2);
		const copy = BINDINGS.find((b) => b.action.type === "copy-ref" && b.modes.includes("list"));
		expect(copy && disabledReason(copy, s)).toBeNull();
		expect(reduce(s, key("y", { ctrl: true })).copy).toEqual({ seq: 1, text: "s1 e0" });
		// One line per reason, no more: a state with a hit and no event shows none for the keys that need a hit.
		const lines = helpLines(SIZE.columns, (b) => disabledReason(b, s)).map(lineText);
		expect(lines.filter((l) => l.includes("no hit selected"))).toEqual([]);
	});
});
