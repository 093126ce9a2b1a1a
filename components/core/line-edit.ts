/**
 * A line being edited (the query line's slice, and the find prompt and a filter value, which edit alike): its text and cursor, and the edits a shell's readline makes (Ctrl+A/E/U/W/K, Alt+B/F,
 * Alt+Backspace, Delete). Positions move by grapheme cluster, so a CJK character or an emoji is one step.
 */
import type { QueryAction } from "./actions.js";
import { clusters } from "./text-width.js";

/** The query text and where the cursor is in it (a UTF-16 offset on a cluster boundary). */
export interface QueryState {
	text: string;
	cursor: number;
}

function prevBoundary(q: string, at: number): number {
	const parts = clusters(q.slice(0, at));
	return at - (parts.at(-1)?.length ?? 0);
}

function nextBoundary(q: string, at: number): number {
	const first = clusters(q.slice(at))[0];
	return at + (first?.length ?? 0);
}

// Readline's word for Alt+B/F/D and Alt+Backspace: a run of letters and digits (Ctrl+W's word is a run of non-spaces).
const WORD = /[\p{L}\p{N}_]/u;

function wordLeft(q: string, at: number): number {
	let i = at;
	while (i > 0 && !WORD.test(q[i - 1] as string)) i--;
	while (i > 0 && WORD.test(q[i - 1] as string)) i--;
	return i;
}

function wordRight(q: string, at: number): number {
	let i = at;
	while (i < q.length && !WORD.test(q[i] as string)) i++;
	while (i < q.length && WORD.test(q[i] as string)) i++;
	return i;
}

function cut(q: QueryState, from: number, to: number): QueryState {
	if (from === to) return q;
	return { text: q.text.slice(0, from) + q.text.slice(to), cursor: from };
}

/** The query slice's reducer: returns the same object when nothing changed, so callers can tell an edit happened. */
export function reduceQuery(q: QueryState, a: QueryAction): QueryState {
	const { text, cursor } = q;
	switch (a.type) {
		case "insert": {
			// A paste's line breaks and tabs become spaces: the query is one line.
			const clean = a.text.replace(/[\r\n\t]+/g, " ");
			if (!clean) return q;
			return { text: text.slice(0, cursor) + clean + text.slice(cursor), cursor: cursor + clean.length };
		}
		case "delete-back":
			return cut(q, prevBoundary(text, cursor), cursor);
		case "delete-forward":
			return cut(q, cursor, nextBoundary(text, cursor));
		case "delete-word":
			return cut(q, text.slice(0, cursor).replace(/\S+\s*$/, "").length, cursor);
		case "delete-word-back":
			return cut(q, wordLeft(text, cursor), cursor);
		case "delete-word-forward":
			return cut(q, cursor, wordRight(text, cursor));
		case "kill-to-end":
			return cut(q, cursor, text.length);
		case "kill-to-start":
			return cut(q, 0, cursor);
		case "clear-query":
			return text === "" ? q : { text: "", cursor: 0 };
		case "cursor": {
			const to =
				a.to === "home"
					? 0
					: a.to === "end"
						? text.length
						: a.to === "left"
							? prevBoundary(text, cursor)
							: a.to === "right"
								? nextBoundary(text, cursor)
								: a.to === "word-left"
									? wordLeft(text, cursor)
									: wordRight(text, cursor);
			return to === cursor ? q : { text, cursor: to };
		}
	}
}
