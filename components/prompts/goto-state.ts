/**
 * The go-to-reference prompt's slice: the text in the prompt (edited by ink-text-input), why the last try failed,
 * and the check that runs before landing (the ref must name an indexed event). Parsing is ref-parse's; landing on the
 * event is the top reducer's (it owns the back stack).
 */
import { type ParsedRef, parseRef } from "../../src/present/ref-parse.js";

/** The prompt's state. */
export interface GotoState {
	value: string;
	/** Why the last ref could not be opened (shown in the prompt). */
	error: string | null;
	/** A parsed ref App is checking with the service; the answer carries the same seq. */
	checking: { seq: number; ref: ParsedRef } | null;
	seq: number;
	/** Bumped to give the text input a fresh cursor at the end (after a paste went in around it). */
	inputKey: number;
	/**
	 * The next edit ink-text-input reports is dropped: it inserts Ctrl+letters as text (Ctrl+U would add a "u"),
	 * and the keymap already acted on that key. Keys reach the explorer's handler before ink-text-input's.
	 */
	swallow: boolean;
}

/** What the prompt's reducer does. */
export type GotoAction =
	| { type: "goto-edit"; value: string }
	| { type: "goto-submit" }
	| { type: "goto-paste" }
	| { type: "goto-clear" }
	| { type: "goto-swallow" }
	| { type: "goto-done"; seq: number; error: string | null; sessionId?: string };

/** An empty prompt. */
export function openGoto(): GotoState {
	return { value: "", error: null, checking: null, seq: 0, inputKey: 0, swallow: false };
}

// Bracketed-paste markers reach ink-text-input as text (Ink passes them on as keys it does not know): never keep them.
const PASTE_MARK = /\[20[01]~/;

/** The prompt's reducer. */
export function reduceGoto(g: GotoState, a: GotoAction): GotoState {
	switch (a.type) {
		case "goto-edit": {
			if (g.swallow) return { ...g, swallow: false };
			if (PASTE_MARK.test(a.value)) return g;
			// Text and Enter read in one chunk reach ink-text-input as text ending in a newline: that is a submit.
			const enter = /[\r\n]+$/.test(a.value);
			// Controls and bidi overrides never reach the screen, even in what the user pasted (I21).
			const value = a.value.replace(/[\r\n]+$/, "").replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " ");
			const next = { ...g, value, error: null };
			return enter ? reduceGoto(next, { type: "goto-submit" }) : next;
		}
		case "goto-paste":
			return { ...g, inputKey: g.inputKey + 1 };
		case "goto-clear":
			return { ...g, value: "", error: null, inputKey: g.inputKey + 1, swallow: true };
		case "goto-swallow":
			return { ...g, swallow: true };
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
