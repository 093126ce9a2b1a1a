/** The go-to-ref prompt's slice: what ink-text-input's edits do, paste markers, Enter inside an edit, checks. */
import { describe, expect, it } from "vitest";
import { type GotoAction, type GotoState, openGoto, reduceGoto } from "../components/goto-state.js";

const S = "019c7793-6605-7207-a552-425b327b6318";
const run = (actions: GotoAction[], from: GotoState = openGoto()) => actions.reduce(reduceGoto, from);

describe("reduceGoto", () => {
	const cases: Array<[string, GotoAction[], Partial<GotoState>]> = [
		["an edit sets the text", [{ type: "goto-edit", value: `${S} e1` }], { value: `${S} e1`, checking: null }],
		["bracketed-paste markers ink-text-input lets through are dropped", [{ type: "goto-edit", value: "[200~" }], { value: "" }],
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
		[
			"Ctrl+U clears, and the letter ink-text-input would insert is dropped",
			[{ type: "goto-edit", value: "abc" }, { type: "goto-clear" }, { type: "goto-edit", value: "abcu" }],
			{ value: "", inputKey: 1, swallow: false },
		],
		["another Ctrl+letter is swallowed", [{ type: "goto-edit", value: "ab" }, { type: "goto-swallow" }, { type: "goto-edit", value: "abk" }], { value: "ab" }],
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
