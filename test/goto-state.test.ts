/** The go-to-ref prompt's slice: edits with the query line's keys, paste markers, Enter inside a paste, checks. */
import { describe, expect, it } from "vitest";
import { type GotoAction, type GotoState, openGoto, reduceGoto } from "../components/prompts/goto-state.js";
import { resolveSessionId } from "../src/present/ref-parse.js";

const S = "019c7793-6605-7207-a552-425b327b6318";
const run = (actions: GotoAction[], from: GotoState = openGoto()) => actions.reduce(reduceGoto, from);

describe("reduceGoto", () => {
	const cases: Array<[string, GotoAction[], Partial<GotoState>]> = [
		["an edit sets the text", [{ type: "goto-edit", value: `${S} e1` }], { value: `${S} e1`, checking: null }],
		["bracketed-paste markers left in an edit are dropped", [{ type: "goto-edit", value: "[200~" }], { value: "" }],
		[
			"a marker after the pasted text is dropped too",
			[
				{ type: "goto-edit", value: "a b" },
				{ type: "goto-edit", value: "a b[201~" },
			],
			{ value: "a b" },
		],
		["control characters and bidi overrides become spaces", [{ type: "goto-edit", value: "a\u001b[31mb\u202ec" }], { value: "a [31mb c" }],
		[
			"Enter read with the text submits it",
			[{ type: "goto-edit", value: `${S} e1\r` }],
			{ value: `${S} e1`, checking: { seq: 1, ref: { sessionId: S, entryId: "e1" } } },
		],
		[
			"a bad ref says why and checks nothing",
			[{ type: "goto-edit", value: "pi-history search x" }, { type: "goto-submit" }],
			{ checking: null, error: "pi-history search names no event: paste a read, trace or open line" },
		],
		["Ctrl+U clears", [{ type: "goto-edit", value: "abc" }, { type: "goto-clear" }], { value: "", cursor: 0 }],
		[
			"typed keys edit at the cursor, like the query line",
			[
				{ type: "goto-key", action: { type: "insert", text: "s1 e2" } },
				{ type: "goto-key", action: { type: "cursor", to: "left" } },
				{ type: "goto-key", action: { type: "delete-back" } },
				{ type: "goto-key", action: { type: "insert", text: "x" } },
			],
			{ value: "s1 x2", cursor: 4 },
		],
		[
			"a pasted ref ending in a newline submits it",
			[{ type: "goto-key", action: { type: "insert", text: `${S} e1\n` } }],
			{ value: `${S} e1`, checking: { seq: 1, ref: { sessionId: S, entryId: "e1" } } },
		],
		["a paste's controls become spaces", [{ type: "goto-key", action: { type: "insert", text: "a\u001bb\u202ec" } }], { value: "a b c" }],
	];
	it.each(cases)("%s", (_name, actions, want) => expect(run(actions)).toMatchObject(want));

	it("keeps only the answer to the latest check", () => {
		const first = run([{ type: "goto-edit", value: `${S} e1` }, { type: "goto-submit" }]);
		const second = reduceGoto(first, { type: "goto-submit" });
		expect(second.checking?.seq).toBe(2);
		expect(reduceGoto(second, { type: "goto-done", seq: 1, error: "late" })).toBe(second);
		expect(reduceGoto(second, { type: "goto-done", seq: 2, error: `no event ${S}/e1 in the index` })).toMatchObject({
			checking: null,
			error: `no event ${S}/e1 in the index`,
		});
	});
});

describe("resolveSessionId", () => {
	const listing = (id: string) => ({ id, cwd: "/p", file: "/f", created: "", lastAt: null, events: 1, branches: 0, leafId: "e", parent: null, forks: 0 });
	const all = [listing("019be2c2-9f33-7094-a319-1274f826a4f8"), listing("019be2f9-b8e0-7229-bd50-a470e01c7e5c"), listing("my-custom-id")];
	const cases: Array<[string, { id: string } | RegExp]> = [
		["019be2c2-9f33-7094-a319-1274f826a4f8", { id: "019be2c2-9f33-7094-a319-1274f826a4f8" }],
		["my-custom-id", { id: "my-custom-id" }],
		// The tail the explorer shows (#…), with or without the #.
		["#f826a4f8", { id: "019be2c2-9f33-7094-a319-1274f826a4f8" }],
		["7e5c", { id: "019be2f9-b8e0-7229-bd50-a470e01c7e5c" }],
		// A prefix, as pi's --fork takes it; dashes do not matter.
		["019be2f9b8e0", { id: "019be2f9-b8e0-7229-bd50-a470e01c7e5c" }],
		["019be2", /matches 2 sessions/],
		["abc", /no session abc/],
		["deadbeef", /no session deadbeef/],
	];
	it.each(cases)("%s", (short, want) => {
		const out = resolveSessionId(short, all);
		if (want instanceof RegExp) expect("error" in out ? out.error : "").toMatch(want);
		else expect(out).toEqual(want);
	});
});
