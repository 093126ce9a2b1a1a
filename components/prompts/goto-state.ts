/**
 * The go-to-reference prompt's slice: the text in the prompt and its cursor (edited by the reducer with the query
 * line's keys, like the find prompt), why the last try failed, and the check that runs before landing (the ref must
 * name an indexed event). Parsing is ref-parse's; landing on the event is the top reducer's (it owns the back stack).
 */
import { type ParsedRef, parseRef } from "../../src/present/ref-parse.js";
import type { QueryAction } from "../core/actions.js";
import { reduceQuery } from "../core/line-edit.js";

/** The prompt's state. */
export interface GotoState {
	value: string;
	/** Where the cursor is in `value` (a UTF-16 offset on a cluster boundary). */
	cursor: number;
	/** Why the last ref could not be opened (shown in the prompt). */
	error: string | null;
	/** A parsed ref App is checking with the service; the answer carries the same seq. */
	checking: { seq: number; ref: ParsedRef } | null;
	seq: number;
}

/** What the prompt's reducer does. */
export type GotoAction =
	| { type: "goto-edit"; value: string }
	| { type: "goto-key"; action: QueryAction }
	| { type: "goto-submit" }
	| { type: "goto-clear" }
	| { type: "goto-done"; seq: number; error: string | null; sessionId?: string };

/** An empty prompt. */
export function openGoto(): GotoState {
	return { value: "", cursor: 0, error: null, checking: null, seq: 0 };
}

// A bracketed-paste marker left in pasted text (a terminal that splits it oddly): never kept.
const PASTE_MARK = /\u001b?\[20[01]~/g;
// Controls and bidi overrides never reach the screen, even in what the user pasted (I21).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text for the prompt: paste markers dropped, controls and bidi overrides as spaces. */
function clean(text: string): string {
	return text.replace(PASTE_MARK, "").replace(UNSAFE, " ");
}

/** The prompt's reducer. */
export function reduceGoto(g: GotoState, a: GotoAction): GotoState {
	switch (a.type) {
		case "goto-edit": {
			// Text and Enter read in one chunk (a paste ending in a newline): that is a submit.
			const enter = /[\r\n]+$/.test(a.value);
			const value = clean(a.value.replace(/[\r\n]+$/, ""));
			const next = { ...g, value, cursor: value.length, error: null };
			return enter ? reduceGoto(next, { type: "goto-submit" }) : next;
		}
		case "goto-key": {
			if (a.action.type === "insert") {
				const enter = /[\r\n]+$/.test(a.action.text);
				const text = clean(a.action.text.replace(/[\r\n]+$/, ""));
				const q = reduceQuery({ text: g.value, cursor: g.cursor }, { type: "insert", text });
				const next = { ...g, value: q.text, cursor: q.cursor, error: null };
				return enter ? reduceGoto(next, { type: "goto-submit" }) : next;
			}
			const q = reduceQuery({ text: g.value, cursor: g.cursor }, a.action);
			return q.text === g.value && q.cursor === g.cursor ? g : { ...g, value: q.text, cursor: q.cursor, error: q.text === g.value ? g.error : null };
		}
		case "goto-clear":
			return { ...g, value: "", cursor: 0, error: null };
		case "goto-submit": {
			const parsed = parseRef(g.value);
			if (!parsed.ok) return { ...g, error: parsed.error, checking: null };
			const seq = g.seq + 1;
			return { ...g, error: null, seq, checking: { seq, ref: parsed.ref } };
		}
		case "goto-done":
			if (g.checking?.seq !== a.seq) return g;
			return { ...g, checking: null, error: a.error };
	}
}
