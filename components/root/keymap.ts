/**
 * The one place that names keys: every binding (key, the modes it works in, the action, its help text) lives in
 * BINDINGS, and the help overlay and the status-bar hints are generated from the same table.
 *
 * While the query line has focus only ←/→, Home/End, ↑ (earlier queries), ↓ and PgDn (to the hits), Tab, Enter, Esc,
 * Backspace, Delete, F keys and readline's Ctrl/Alt keys act: every printable key is text. Letter commands work once focus is on the list or an event.
 */
import { refKey } from "../../src/shared/types.js";
import { type KeyInfo, keyName } from "../core/keys.js";
import { ALL, EVENT, type Mode, SEARCH } from "../core/modes.js";
import type { Action, QueryAction } from "./actions.js";
import type { Binding } from "./binding.js";
import { OVERLAY_BINDINGS } from "./keymap-overlays.js";
import { type State, selectedHit, topLoc } from "./state-core.js";

export { type KeyInfo, keyName } from "../core/keys.js";
export type { Binding } from "./binding.js";

/** Why a key on the selected hit cannot act: there is no hit. */
const NEEDS_HIT = (s: State): string | null => (selectedHit(s) ? null : "no hit selected: type a query first");

/** Why n/N cannot act on the open event: nothing was found in it yet. */
const NEEDS_FIND = (s: State): string | null => {
	const loc = topLoc(s);
	return loc && !loc.find ? "nothing to find yet: / types what to find" : null;
};

/** Every binding, in the order help lists them. */
export const BINDINGS: Binding[] = [
	// Query line.
	{ keys: ["left", "ctrl+b"], modes: ["query"], action: { type: "cursor", to: "left" }, help: "move the cursor left" },
	{ keys: ["right", "ctrl+f"], modes: ["query"], action: { type: "cursor", to: "right" }, help: "move the cursor right" },
	{ keys: ["alt+b", "alt+left", "ctrl+left"], modes: ["query"], action: { type: "cursor", to: "word-left" }, help: "cursor one word left" },
	{ keys: ["alt+f", "alt+right", "ctrl+right"], modes: ["query"], action: { type: "cursor", to: "word-right" }, help: "cursor one word right" },
	{ keys: ["home", "ctrl+a"], modes: ["query"], action: { type: "cursor", to: "home" }, help: "cursor to the start" },
	{ keys: ["end", "ctrl+e"], modes: ["query"], action: { type: "cursor", to: "end" }, help: "cursor to the end" },
	{
		keys: ["backspace"],
		modes: ["query"],
		action: { type: "delete-back" },
		help: "delete the character before the cursor; on an empty query, remove the last filter chip",
	},
	{ keys: ["delete", "ctrl+d"], modes: ["query"], action: { type: "delete-forward" }, help: "delete the character under the cursor" },
	{ keys: ["ctrl+w"], modes: ["query"], action: { type: "delete-word" }, help: "delete back to the previous space" },
	{ keys: ["alt+backspace"], modes: ["query"], action: { type: "delete-word-back" }, help: "delete the word before the cursor" },
	{ keys: ["alt+d"], modes: ["query"], action: { type: "delete-word-forward" }, help: "delete the word after the cursor" },
	{ keys: ["ctrl+u"], modes: ["query"], action: { type: "kill-to-start" }, help: "delete from the start of the line to the cursor" },
	{ keys: ["ctrl+k"], modes: ["query"], action: { type: "kill-to-end" }, help: "delete from the cursor to the end of the line" },
	{
		keys: ["down", "tab"],
		modes: ["query"],
		action: { type: "focus", to: "list" },
		help: "go to the hit list",
		hint: "hits",
		hintKeys: "↓/Tab",
		hintOrder: 0.1,
	},
	{ keys: ["pgdn"], modes: ["query"], action: { type: "page", dir: 1 }, help: "go to the hit list, one page down" },
	{
		keys: ["up"],
		modes: ["query"],
		action: { type: "recall-query", search: false },
		help: "on an empty query line: the last query searched with; again: older ones (kept next to the index)",
	},
	{ keys: ["enter"], modes: ["query"], action: { type: "open" }, help: "open the selected hit", hint: "open", hintOrder: 0.2 },
	{
		keys: ["esc"],
		modes: ["query"],
		action: { type: "back" },
		help: "clear the query; on an empty query, quit",
		hint: "clear/quit",
		hintKeys: "Esc",
		hintOrder: 0.3,
	},

	// Hit list.
	{
		keys: ["up", "down"],
		modes: ["list"],
		action: { type: "move", by: 0 },
		help: "previous / next hit (↑ on the first hit goes to the query)",
		hint: "move",
		hintKeys: "↑↓",
		hintOrder: 1,
	},
	{ keys: ["pgup", "pgdn"], modes: ["list"], action: { type: "page", dir: 0 }, help: "page up / down" },
	{ keys: ["home"], modes: ["list"], action: { type: "jump", to: "first" }, help: "first hit" },
	{ keys: ["end"], modes: ["list"], action: { type: "jump", to: "last" }, help: "last hit (loads more)" },
	{ keys: ["enter"], modes: ["list"], action: { type: "open" }, help: "open the hit: exact event, trace panel", hint: "open", hintOrder: 2 },
	{
		keys: ["right"],
		modes: ["list"],
		action: { type: "expand-copies" },
		help: 'show every copy of a "same entry in N sessions" row',
		disabled: (s) => {
			const h = selectedHit(s);
			return h && (s.hits.results.copies[refKey(h)]?.length ?? 0) > 0 ? null : "this hit has no copies in other sessions";
		},
	},
	{
		keys: ["tab", "shift+tab"],
		modes: ["list"],
		action: { type: "focus", to: "query" },
		help: "back to the query line",
		hint: "query",
		hintKeys: "Tab",
		hintOrder: 8,
	},
	{ keys: ["backspace"], modes: ["list"], action: { type: "delete-back" }, help: "edit the query: letters and Backspace go to it" },
	// Like letters, the query line's word and line deletions edit the query from here (focus goes back to it).
	{ keys: ["ctrl+w"], modes: ["list"], action: { type: "delete-word" }, help: "edit the query: delete its last word (Ctrl+U: the whole line)" },
	{ keys: ["ctrl+u"], modes: ["list"], action: { type: "kill-to-start" }, help: "edit the query: delete it whole" },
	{ keys: ["esc"], modes: ["list"], action: { type: "back" }, help: "back to the query line" },

	// Search screen commands: Ctrl and function keys, since every printable key is text there.
	{
		keys: ["ctrl+s"],
		modes: SEARCH,
		action: { type: "cycle-scope" },
		help: "scope: all sessions → this workspace → this hit's session",
		hint: "scope",
		hintOrder: 4,
	},
	{
		keys: ["ctrl+o"],
		modes: SEARCH,
		action: { type: "open-filters" },
		help: "filters: kind, role, tool, file, label, cwd, session, after/before, error, branch, selection",
		hint: "filters",
		hintOrder: 5,
	},
	{ keys: ["ctrl+x"], modes: SEARCH, action: { type: "toggle-errors" }, help: "errors only on / off", hint: "errors", hintOrder: 3 },
	{
		keys: ["ctrl+r"],
		modes: SEARCH,
		action: { type: "recall-query", search: true },
		help: "earlier queries holding the typed text, newest first; again: older (a shell's reverse search)",
	},
	{ keys: ["alt+r"], modes: SEARCH, action: { type: "clear-filters" }, help: "reset: clear all filters" },
	{
		keys: ["f4", "alt+s"],
		modes: SEARCH,
		action: { type: "toggle-order" },
		help: "sort hits: relevance ⇄ newest first",
		hint: "sort",
		hintKeys: "F4",
		hintOrder: 5.5,
	},
	{
		keys: ["f6", "alt+g"],
		modes: SEARCH,
		action: { type: "toggle-group" },
		help: "group hits by session: each session's strongest hit, with its count",
		hint: "group",
		hintKeys: "F6",
		hintOrder: 5.6,
	},
	{
		keys: ["ctrl+y"],
		modes: SEARCH,
		action: { type: "copy-ref" },
		help: "copy the selected hit's ref (sessionId entryId)",
		hint: "copy ref",
		hintOrder: 10,
		disabled: NEEDS_HIT,
	},
	{ keys: ["f1", "ctrl+g"], modes: SEARCH, action: { type: "help" }, help: "help (this guide)", hint: "help", hintOrder: 6.5 },
	{
		keys: ["ctrl+t"],
		modes: SEARCH,
		action: { type: "open-tree" },
		help: "tree of the selected hit's session and its forks, centred on it",
		hint: "tree",
		hintOrder: 5.5,
		disabled: NEEDS_HIT,
	},
	{
		keys: ["f7"],
		modes: SEARCH,
		action: { type: "task", task: "resume" },
		help: "continue in pi on the selected hit's session (pi 1.x with this extension opens on its branch)",
		disabled: NEEDS_HIT,
	},

	// Event view.
	{ keys: ["up", "down"], modes: ["event"], action: { type: "move", by: 0 }, help: "scroll the event text" },
	{ keys: ["pgup", "pgdn", "space"], modes: ["event"], action: { type: "page", dir: 0 }, help: "scroll a page (space: down)" },
	{ keys: ["g", "home"], modes: ["event"], action: { type: "jump", to: "first" }, help: "top of the event" },
	{ keys: ["G", "end"], modes: ["event"], action: { type: "jump", to: "last" }, help: "end of the event (metadata, source)" },
	{
		keys: ["h", "left"],
		modes: EVENT,
		action: { type: "walk", to: "parent" },
		help: "parent (crosses into the parent session for forks)",
		hint: "parent",
		hintKeys: "h",
		hintOrder: 1,
	},
	{
		keys: ["l", "right"],
		modes: EVENT,
		action: { type: "walk", to: "child" },
		help: "child toward the materialized leaf; at a fork, choose",
		hint: "child",
		hintKeys: "l",
		hintOrder: 2,
	},
	{
		keys: ["H"],
		modes: EVENT,
		action: { type: "walk", to: "fork-up" },
		help: "up to the nearest fork: where another branch leaves this path",
		hint: "fork above",
		hintOrder: 4.5,
	},
	{
		keys: ["j"],
		modes: EVENT,
		action: { type: "walk", to: "next-sibling" },
		help: "next sibling (another branch from the same parent)",
		hint: "siblings",
		hintKeys: "j/k",
		hintOrder: 3,
	},
	{ keys: ["k"], modes: EVENT, action: { type: "walk", to: "prev-sibling" }, help: "previous sibling" },
	{
		keys: ["f"],
		modes: EVENT,
		action: { type: "walk", to: "forks" },
		help: "fork candidates: every child and forked session, to pick from",
		hint: "forks",
		hintOrder: 4,
	},
	{ keys: ["["], modes: EVENT, action: { type: "walk", to: "append-prev" }, help: "append order: entry written just before (file order)" },
	{
		keys: ["]"],
		modes: EVENT,
		action: { type: "walk", to: "append-next" },
		help: "append order: entry written just after",
		hint: "file order",
		hintKeys: "[ ]",
		hintOrder: 9,
	},
	{
		keys: ["t"],
		modes: EVENT,
		action: { type: "open-tree" },
		help: "tree of this event's session and its forks, centred on it",
		hint: "tree",
		hintOrder: 4.7,
	},
	{
		keys: ["/"],
		modes: EVENT,
		action: { type: "find-open" },
		help: "find text in this event (the whole text, however large)",
		hint: "find",
		hintKeys: "/",
		hintOrder: 5,
	},
	{ keys: ["s"], modes: EVENT, action: { type: "to-search" }, help: "straight back to the search, query line (Esc there comes back here)" },
	{
		keys: ["n"],
		modes: EVENT,
		action: { type: "find-step", dir: 1 },
		help: "next match of the find (wraps around)",
		hint: "next match",
		hintKeys: "n/N",
		hintOrder: 5.1,
		disabled: NEEDS_FIND,
	},
	{
		keys: ["N"],
		modes: EVENT,
		action: { type: "find-step", dir: -1 },
		help: "previous match of the find",
		disabled: NEEDS_FIND,
	},
	{
		keys: ["enter"],
		modes: ["find"],
		action: { type: "find-submit" },
		help: "find the typed text from the top (empty: clear the find); the query line's editing keys edit it",
		hint: "find",
		hintOrder: 1,
	},
	{ keys: ["esc"], modes: ["find"], action: { type: "find-cancel" }, help: "close the find prompt", hint: "cancel", hintKeys: "Esc", hintOrder: 2 },
	{ keys: ["w"], modes: EVENT, action: { type: "toggle-wrap" }, help: "wrap long lines / cut them with …" },
	{
		keys: ["tab", "shift+tab"],
		modes: EVENT,
		action: { type: "toggle-panel" },
		help: "switch between the text and the trace panel",
		hint: "panel",
		hintKeys: "Tab",
		hintOrder: 6.7,
	},
	{ keys: ["enter"], modes: ["event"], action: { type: "toggle-panel" }, help: "focus the trace panel" },
	{ keys: ["up", "down"], modes: ["trace"], action: { type: "move", by: 0 }, help: "choose a trace row", hint: "choose", hintKeys: "↑↓", hintOrder: 0 },
	{ keys: ["pgup", "pgdn"], modes: ["trace"], action: { type: "page", dir: 0 }, help: "trace rows, a page" },
	{ keys: ["g", "home"], modes: ["trace"], action: { type: "jump", to: "first" }, help: "first trace row" },
	{ keys: ["G", "end"], modes: ["trace"], action: { type: "jump", to: "last" }, help: "last trace row" },
	{
		keys: ["enter"],
		modes: ["trace"],
		action: { type: "open" },
		help: "go to the chosen row's event (a session row opens its hits)",
		hint: "go",
		hintOrder: 0.5,
		disabled: (s) => {
			const loc = topLoc(s);
			return loc && !loc.data && !loc.error ? "still reading the event: its trace rows come with it" : null;
		},
	},
	{
		keys: ["esc", "backspace"],
		modes: EVENT,
		action: { type: "back" },
		help: "back (a stack: all the way to the hit list)",
		hint: "back",
		hintKeys: "Esc",
		hintOrder: 6,
	},
	{ keys: ["q"], modes: EVENT, action: { type: "back" }, help: "step back (like Esc); never quits", hint: "back", hintKeys: "q", hintOrder: 6.1 },
	{
		keys: ["y"],
		modes: EVENT,
		action: { type: "copy-ref" },
		help: "copy the ref (sessionId entryId) of the event or the chosen trace row",
		hint: "copy ref",
		hintOrder: 10,
	},
	{ keys: ["?", "f1", "ctrl+g"], modes: EVENT, action: { type: "help" }, help: "help (this guide)", hint: "help", hintKeys: "?", hintOrder: 6.5 },
	{
		// Launching a program or writing a file takes a deliberate key, never a letter: a word typed into the event
		// view by mistake (one Esc too few) must not start pi, an editor or a pager, nor write an export.
		keys: ["f7"],
		modes: EVENT,
		action: { type: "task", task: "resume" },
		help: "continue in pi: pi --session on this event's file (pi 1.x with this extension opens on the event's branch)",
		hint: "continue in pi",
		hintKeys: "F7",
		hintOrder: 5.5,
	},
	{ keys: ["m"], modes: EVENT, action: { type: "task", task: "copy-md" }, help: "copy the event as Markdown" },
	{ keys: ["ctrl+p"], modes: EVENT, action: { type: "task", task: "pager" }, help: "open the exact text in $PAGER (default less)" },
	{ keys: ["ctrl+e"], modes: EVENT, action: { type: "task", task: "editor" }, help: "open the exact text in $EDITOR (a temporary copy)" },
	{ keys: ["ctrl+x"], modes: EVENT, action: { type: "task", task: "export" }, help: "export the branch (root → event) as Markdown to a file" },

	...OVERLAY_BINDINGS,

	// Everywhere.
	{ keys: ["ctrl+c"], modes: ALL, action: { type: "quit", code: 130 }, help: "quit from anywhere", hint: "quit", hintOrder: 7 },
	{ keys: ["ctrl+z"], modes: ALL, action: { type: "suspend" }, help: "suspend to the shell (fg comes back here, as it was)" },
	{
		keys: ["wheelup", "wheeldown"],
		modes: ALL,
		action: { type: "wheel", dir: 0 },
		help: "mouse wheel: scroll the hits, the event text, the trace panel or the open overlay (off with --no-mouse)",
	},
];

/** The query line's editing actions, which also edit a filter value and the find prompt. */
const EDIT_TYPES = new Set("insert cursor delete-back delete-forward delete-word delete-word-back delete-word-forward kill-to-end kill-to-start".split(" "));

const DIRECTIONAL: Record<string, number> = { up: -1, down: 1, left: -1, right: 1, pgup: -1, pgdn: 1, space: 1, wheelup: -1, wheeldown: 1 };

/** The binding a key press has in a mode, or null. */
export function bindingFor(mode: Mode, input: string, key: KeyInfo): Binding | null {
	const name = keyName(input, key);
	return name === null ? null : (BINDINGS.find((b) => b.modes.includes(mode) && b.keys.includes(name)) ?? null);
}

/** Why a binding cannot act in this state, or null when it can. */
export function disabledReason(b: Binding, s: State): string | null {
	return b.disabled?.(s) ?? null;
}

/** The action a key press means in a mode, or null when it means nothing there. */
export function keyToAction(mode: Mode, input: string, key: KeyInfo): Action | null {
	const name = keyName(input, key);
	if (name !== null) {
		for (const b of BINDINGS) {
			if (!b.modes.includes(mode) || !b.keys.includes(name)) continue;
			const a = b.action;
			// One binding covers a key pair; the key picks the direction or the index.
			if (a.type === "move") return { type: "move", by: DIRECTIONAL[name] ?? 1 };
			if (a.type === "page") return { type: "page", dir: (DIRECTIONAL[name] ?? 1) as 1 | -1 };
			if (a.type === "wheel") return { type: "wheel", dir: (DIRECTIONAL[name] ?? 1) as 1 | -1, ...(key.x && key.y ? { at: { x: key.x, y: key.y } } : {}) };
			if (a.type === "filter-cycle") return { type: "filter-cycle", dir: name === "left" ? -1 : 1 };
			if (a.type === "pick") return { type: "pick", index: Number(name) - 1 };
			if (a.type === "tree-fold") return { type: "tree-fold", unfold: name === "right" };
			return a;
		}
	}
	if (mode === "filter-edit" || mode === "find" || mode === "goto") {
		// A filter value and the find and go-to prompts edit like the query line: its editing keys, then text.
		const edit = keyToAction("query", input, key);
		if (!edit || !EDIT_TYPES.has(edit.type)) return null;
		return mode === "goto" ? { type: "goto-key", action: edit as QueryAction } : edit;
	}
	if (mode === "query" || mode === "list" || mode === "sessions") {
		// Text: printable input, including a paste of several characters; control keys without a binding do nothing.
		// In the hit list too: typing never fires a command by surprise, it goes on with the query.
		if (key.ctrl || key.meta || key.escape) return null;
		const text = input.replace(/[\u0000-\u001f\u007f]/g, "");
		return text.length > 0 ? { type: "insert", text } : null;
	}
	return null;
}
