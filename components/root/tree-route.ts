/**
 * Routing into and inside the tree view: Ctrl+T on a hit and `t` on an event open the tree of that session's fork
 * family centred on it; moving keys go to the tree slice; Enter opens a row's event over the tree (the back stack),
 * a fork's head crosses into that file, a fold row unfolds; Esc closes the tree, back to the exact view it was opened
 * from (which the tree never changed).
 */
import type { NavAction } from "../core/actions.js";
import { type KeyInfo, keyName } from "../core/keys.js";
import { newLoc } from "../event/stack-state.js";
import { queryTerms } from "../tree/tree-lines.js";
import { cursorRow, rowRef, topTree } from "../tree/tree-state.js";
import { keyFor } from "./help.js";
import { info, push, type State, selectedHit, stack, topLoc, tree } from "./state-core.js";

/** Opens an event over the tree, its text focused (a push keeps the trace panel of the event below, not wanted here). */
function openOver(s: State, ref: { sessionId: string; entryId: string }, highlights: string[], note: string): State {
	const next = push(s, newLoc({ ref, highlights }), note);
	return topLoc(next)?.panel === "trace" ? { ...stack(next, { type: "toggle-panel" }), message: next.message } : next;
}

/** Opens the tree of the selected hit's (search screen) or the open event's session, centred on it. */
export function openTree(s: State, mode: string): State {
	const query = s.query.text.trim();
	let ref: { sessionId: string; entryId: string } | null = null;
	if (mode === "query" || mode === "list") {
		const h = selectedHit(s);
		if (!h) return info(s, "no hit selected: the tree opens on the selected hit's session", "warn");
		ref = { sessionId: h.sessionId, entryId: h.entryId };
	} else ref = topLoc(s)?.ref ?? null;
	if (!ref) return s;
	const opened = tree({ ...s, overlay: null }, { type: "tree-open", request: { ...ref, ...(query ? { query } : {}) }, depth: s.events.stack.length });
	return info(opened, `reading the tree of session ${ref.sessionId}…`);
}

/** The moving keys in the tree view. */
export function treeNavigate(s: State, a: NavAction): State {
	const t = topTree(s.tree);
	if (!t) return s;
	switch (a.type) {
		case "move":
			return tree(s, { type: "tree-move", by: a.by });
		case "wheel":
			// Tree rows are one line each: a notch moves three, like the event text.
			return tree(s, { type: "tree-move", by: 3 * (a.dir === -1 ? -1 : 1) });
		case "page":
			return tree(s, { type: "tree-page", dir: a.dir === -1 ? -1 : 1 });
		case "jump":
			return tree(s, { type: "tree-jump", to: a.to });
		case "back":
			return tree(s, { type: "tree-pop" });
		case "open": {
			if (t.error) return info(s, `cannot open: ${t.error}`, "warn");
			const row = cursorRow(t);
			if (!row) return info(s, "still reading the tree…", "warn");
			if (row.type === "fold") return tree(s, { type: "tree-fold", unfold: true });
			const highlights = queryTerms(t.request.query ?? "");
			if (row.type === "fork") {
				// Crossing into the fork's file: its first own entry, else its copy of the fork point.
				const f = row.fork;
				const entryId = f.firstOwn ?? (f.newSession ? null : f.forkPoint);
				if (!entryId) return info(s, "this fork has no entry to open", "warn");
				return openOver(s, { sessionId: f.session.id, entryId }, highlights, `crossed into the forked session ${f.session.id}`);
			}
			const ref = rowRef(row);
			if (!ref) return s;
			return openOver(s, ref, highlights, `${keyFor("event", "back")} comes back to the tree`);
		}
		case "focus":
		case "to-search":
			return s;
	}
}

/** The ref of the tree row under the cursor (for `y`). */
export function treeCursorRef(s: State): { sessionId: string; entryId: string } | null {
	const t = topTree(s.tree);
	return t ? rowRef(cursorRow(t)) : null;
}

/**
 * A key while the tree's filter line takes typing (after `/`): text edits the words (the rows are read again per
 * change), Backspace, Ctrl+W and Ctrl+U delete, Enter keeps the words, Esc clears them. Null: not a typing key
 * (arrows, pages, Ctrl+C), which keeps its meaning.
 */
export function treeTyping(s: State, text: string, input: string, key: KeyInfo): State | null {
	const name = keyName(input, key);
	if (name === "enter") return tree(s, { type: "tree-type", on: false });
	if (name === "esc") return tree(tree(s, { type: "tree-text", text: "" }), { type: "tree-type", on: false });
	const chars = Array.from(text);
	if (name === "backspace" || name === "delete") return tree(s, { type: "tree-text", text: chars.slice(0, -1).join("") });
	if (name === "ctrl+u") return tree(s, { type: "tree-text", text: "" });
	if (name === "ctrl+w" || name === "alt+backspace") return tree(s, { type: "tree-text", text: text.replace(/\S+\s*$/, "") });
	if (key.ctrl || key.meta || key.escape || key.tab) return null;
	const typed = input.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
	if (!typed) return null;
	return tree(s, { type: "tree-text", text: text + typed });
}
