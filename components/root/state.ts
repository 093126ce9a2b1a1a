/**
 * The explorer's top reducer, over the slices of state-core.ts (state apart from input and view, the ink-ui way). This
 * module owns only what spans them: focus and mode, the status-bar message, copy and exit requests, and the routing
 * of a key's action to the slice the current mode gives it to. Keys arrive as `key` actions and are mapped through
 * the keymap here, against the state they act on (two keys in one stdin chunk must not see a stale mode).
 */

import { refOf } from "../../src/present/text.js";
import { type EventRef, type Hit, refKey } from "../../src/shared/types.js";
import type { BrowserState } from "../browser/browser-state.js";
import { overTracePanel, searchLayout, visibleHits } from "../core/layout.js";
import { hitTotal, num } from "../core/numbers.js";
import { HEAD_CHARS, TAIL_CHARS } from "../event/event-data.js";
import { chunkAround } from "../event/fragment-windows.js";
import { hitHighlights, locateMatch } from "../event/matches.js";
import { newLoc } from "../event/stack-state.js";
import { traceRows } from "../event/trace-rows.js";
import { reduceGoto } from "../prompts/goto-state.js";
import { END_FOLLOW_MAX } from "../search/hits-state.js";
import { initialRecall, recallOlder, recordQuery } from "../search/query-recall.js";
import { initialTree, topTree } from "../tree/tree-state.js";
import type { Action, NavAction, QueryAction } from "./actions.js";
import { reduceBrowse, retryBrowse } from "./browse-routing.js";
import { pickerEnter, reduceFilterAction, removeLastChip } from "./filter-routing.js";
import { helpLines, keyFor } from "./help.js";
import { bindingFor, disabledReason, keyToAction } from "./keymap.js";
import {
	editQuery,
	focusOn,
	hits,
	info,
	overlay,
	previewKey,
	push,
	restoreView,
	type State,
	saveView,
	searchesFor,
	selectedHit,
	stack,
	topLoc,
	tree,
	uncover,
} from "./state-core.js";
import { requestTask, taskDone } from "./task-state.js";
import { openTree, treeCursorRef, treeNavigate, treeTyping } from "./tree-route.js";
import { goTarget, walk } from "./walk-route.js";

/** The help overlay's lines at the terminal's width, which its scroll is clamped to. */
const helpLength = (s: State): number => helpLines(s.size.columns, (b) => disabledReason(b, s)).length;

/** The status line while End loads pages on its way to the last hit. */
const END_LOADING = "loading hits up to the last";

export type { EventLoc } from "../event/stack-state.js";
export type { PreviewState, Results } from "../search/hits-state.js";
export type { Action, Message } from "./actions.js";
export type { Overlay } from "./overlay-state.js";
export {
	type InitOptions,
	initialState,
	type Mode,
	modeOf,
	previewKey,
	type SavedView,
	type State,
	searchedText,
	searchesFor,
	selectedHit,
	topLoc,
} from "./state-core.js";

/**
 * A large fragment opens at its match: when the preview (which read the fragment) places the match outside the
 * head and tail the event view shows first, the chunk holding it is loaded with the event and the view opens there.
 */
function matchChunk(s: State, highlights: string[]): { fid: string; offset: number } | undefined {
	const p = s.hits.preview;
	const f = p && p.key === previewKey(s) ? p.read?.fragments[0] : undefined;
	if (!f || highlights.length === 0) return undefined;
	const at = f.range[0] + locateMatch(f.text, highlights);
	if (at < HEAD_CHARS - 200 || at > f.totalChars - TAIL_CHARS) return undefined;
	return { fid: f.id, offset: chunkAround(at) };
}

function openHit(s: State): State {
	const hit = selectedHit(s);
	if (!hit)
		return info(
			s,
			s.hits.results.status === "loading"
				? "still searching…"
				: `no hit to open: type a query, or widen the scope (${keyFor("list", "cycle-scope")}) and filters (${keyFor("list", "open-filters")})`,
			"warn",
		);
	const highlights = hitHighlights(hit);
	const ref = { sessionId: hit.sessionId, entryId: hit.entryId };
	const at = matchChunk(s, highlights);
	return push(focusOn(remember(s), "list"), newLoc({ ref, highlights, focusFragment: hit.fragmentId, ...(at ? { at } : {}) }));
}

function copyRef(s: State, ref: EventRef | null): State {
	if (!ref) return info(s, "nothing selected to copy", "warn");
	const text = refOf(ref);
	// The launcher reports what the copy really did (copy-done); until then, and without one, the ref is shown to select.
	return { ...s, copy: { seq: (s.copy?.seq ?? 0) + 1, text }, message: { text: `ref ${text}  (pi-history read ${text})`, tone: "info" } };
}

/** Moving, opening and going back: what they mean depends on the mode, so they are routed to that mode's slice. */
function navigate(s: State, a: NavAction): State {
	const mode = s.mode;
	if (mode === "tree") return treeNavigate(s, a);
	const loc = topLoc(s);
	const listPage = Math.max(1, visibleHits(searchLayout(s.size)) - 1);
	switch (a.type) {
		case "focus":
			if (a.to === "list" && s.hits.results.hits.length === 0) return info(focusOn(s, "list"), "no hits yet: Tab or / goes back to the query", "warn");
			return focusOn(s, a.to);
		case "move":
			if (mode === "list") {
				if (a.by < 0 && s.hits.selected === 0) return focusOn(s, "query");
				return hits(s, { type: "select", index: s.hits.selected + a.by });
			}
			if (mode === "event") return stack(s, { type: "scroll", by: a.by });
			if (mode === "trace") return stack(s, { type: "trace-move", by: a.by });
			return overlay(s, { type: "move", by: a.by, helpLength: helpLength(s) });
		case "page": {
			const dir = a.dir === 0 ? 1 : a.dir;
			if (mode === "query" || mode === "list") return hits(focusOn(s, "list"), { type: "select", index: s.hits.selected + dir * listPage });
			if (mode === "event") return stack(s, { type: "scroll-page", dir });
			if (mode === "trace") return stack(s, { type: "trace-page", dir });
			return overlay(s, { type: "page", dir, helpLength: helpLength(s) });
		}
		case "jump": {
			const first = a.to === "first";
			if (mode === "list") {
				// End follows the end of the list as pages arrive, so it lands on the last hit (within END_FOLLOW_MAX).
				const moved = hits(s, { type: "select", index: first ? 0 : s.hits.results.hits.length - 1, followEnd: !first });
				return !first && !s.hits.results.exhausted ? info(moved, `${END_LOADING} (at most ${END_FOLLOW_MAX})…`) : moved;
			}
			if (mode === "event") return stack(s, { type: "scroll", by: first ? -Number.MAX_SAFE_INTEGER / 2 : Number.MAX_SAFE_INTEGER / 2 });
			if (mode === "trace") return stack(s, { type: "trace-move", by: first ? -1e9 : 1e9 });
			return s;
		}
		case "open": {
			if (mode === "query" || mode === "list") return openHit(s);
			if (mode === "trace" && loc) {
				const row = loc.data ? traceRows(loc.data)[loc.traceCursor] : undefined;
				if (!row) return s;
				if (!row.target) return info(s, `${row.rel}: nothing to go to from this row`, "warn");
				return goTarget(s, row.target);
			}
			if (s.overlay?.type === "fork") return reduce(s, { type: "pick", index: s.overlay.cursor });
			if (s.overlay?.type === "filters") return pickerEnter(s);
			return s;
		}
		case "back":
			if (s.overlay) return overlay(s, { type: "close" });
			if (loc) {
				// An event opened from the session browser goes back to the browser, as it was.
				const popped = stack(s, { type: "pop" });
				return loc.returnTo ? { ...popped, browser: loc.returnTo as BrowserState, mode: "sessions" } : popped;
			}
			if (s.history.length > 0) return restoreView(s);
			if (s.focus === "list") return focusOn(s, "query");
			if (s.query.text !== "") return editQuery(remember(s), { type: "clear-query" });
			// The top: nothing open, no query. Esc here is the deliberate way out (Ctrl+C works everywhere); after a
			// walk one Esc too many must not lose it, so the first Esc only asks.
			return s.walked ? info(s, ESC_AGAIN) : { ...s, exit: 0 };
		case "to-search":
			return uncover({ ...stack(saveView(s), { type: "clear" }), tree: initialTree(), overlay: null, focus: "query" });
		case "wheel": {
			// The wheel scrolls what has focus: hits one by one (from the query line too), event text three lines a notch.
			const dir = a.dir === 0 ? 1 : a.dir;
			if (mode === "query" || mode === "list") {
				if ((dir < 0 && s.hits.selected === 0) || s.hits.results.hits.length === 0) return s;
				return hits(focusOn(s, "list"), { type: "select", index: s.hits.selected + dir });
			}
			if (mode === "event" || mode === "trace") {
				// The pane under the pointer scrolls, whichever has focus (without a position: the focused one).
				const trace = a.at ? overTracePanel(s.size, a.at) : mode === "trace";
				return stack(s, trace ? { type: "trace-move", by: dir } : { type: "scroll", by: 3 * dir });
			}
			return overlay(s, { type: "move", by: mode === "help" ? 3 * dir : dir, helpLength: helpLength(s) });
		}
	}
}

/** Typing into a filter value or the find prompt: the query line's editing keys, on that field. */
function editField(s: State, a: QueryAction): State {
	return s.mode === "find" ? stack(s, { type: "find-key", action: a }) : overlay(s, { type: "picker", action: { type: "edit-key", action: a } });
}

/** Keeps the query on the line in the query history: it was searched with (a hit opened, the line cleared, quit). */
function remember(s: State): State {
	const recall = recordQuery(s.recall ?? initialRecall(), s.query.text);
	return recall === s.recall ? s : { ...s, recall };
}

/** Puts the next older remembered query on the query line (↑ on an empty line, Ctrl+R matching the typed text). */
function recall(s: State, search: boolean): State {
	const r = s.recall ?? initialRecall();
	const next = recallOlder(r, s.query.text, search);
	if (!next || next.at === null) {
		// ↑ on a line with text of its own means nothing here (↓ goes to the hits): it stays quiet.
		if (!search && s.query.text.trim() !== "" && !(r.at !== null && r.entries[r.at] === s.query.text)) return s;
		if (r.entries.length === 0) return info(s, "no earlier queries yet: a query is remembered when you open a hit, clear it or quit", "warn");
		const needle = r.at !== null && r.entries[r.at] === s.query.text ? r.needle : search ? s.query.text.trim() : "";
		return info(s, needle ? `no older query holds “${needle}”` : "no older query", "warn");
	}
	const text = next.entries[next.at] as string;
	const moved = { ...focusOn(s, "query"), recall: next, query: { text, cursor: text.length } };
	const searched = searchesFor(text) ? hits(moved, { type: "search" }) : moved;
	return info(searched, `earlier query ${next.at + 1} of ${next.entries.length} · ↑ or Ctrl+R: older · Esc clears`);
}

/** What the refresh key says until the refresh is done. */
const REFRESHING = "reading new session lines…";

/** What the first Esc at the top says after a walk. */
export const ESC_AGAIN = "Esc again to quit (Ctrl+C quits at once)";

/** Nothing open and nothing typed: where Esc quits. */
function atTop(s: State): boolean {
	return !s.overlay && !s.browser && !s.goto && s.events.stack.length === 0 && s.history.length === 0 && s.focus === "query" && s.query.text === "";
}

function reduceKey(s: State, a: Extract<Action, { type: "key" }>): State {
	// A paste is text for the query line, never a run of commands.
	const mode = s.mode;
	const typing = mode === "tree" ? topTree(s.tree) : null;
	const typed = typing?.typing ? treeTyping({ ...s, message: null }, typing.text, a.input, a.paste ? {} : a.key) : null;
	if (typed) return typed;
	if (a.paste && (mode === "filter-edit" || mode === "find")) return editField(s, { type: "insert", text: a.input });
	if (a.paste) {
		if (mode === "sessions") return reduce({ ...s, message: null }, { type: "insert", text: a.input });
		if (mode === "goto" && s.goto) return { ...s, goto: reduceGoto(s.goto, { type: "goto-key", action: { type: "insert", text: a.input } }) };
		return mode === "query" || mode === "list" ? editQuery({ ...s, message: null }, { type: "insert", text: a.input }) : s;
	}
	// A key that cannot act here says why (the binding's reason), instead of doing nothing.
	const binding = bindingFor(mode, a.input, a.key);
	const reason = binding ? disabledReason(binding, s) : null;
	if (reason) return info(s, reason, "warn");
	const action = keyToAction(mode, a.input, a.key);
	if (!action) return s;
	// The second Esc right after the question quits; any other key in between withdrew it (it clears the message).
	if (action.type === "back" && s.message?.text === ESC_AGAIN && atTop(s)) return { ...s, exit: 0 };
	// A key clears the last message unless the action sets a new one.
	const next = reduce({ ...s, message: null }, action);
	return next.events.stack.length > 0 && !next.walked ? { ...next, walked: true } : next;
}

/** The reducer: routes each action to its slice (or, for keys, through the keymap first). */
export function reduce(s: State, a: Action): State {
	if (a.type !== "key") {
		const routed = reduceBrowse(s, a);
		if (routed) return routed;
	}
	switch (a.type) {
		case "key":
			return reduceKey(s, a);
		case "resize": {
			const next = { ...s, size: a.size };
			return tree(stack(hits(next, { type: "resize" }), { type: "resize" }), { type: "tree-resize" });
		}
		case "insert": {
			const mode = s.mode;
			if (mode === "filter-edit" || mode === "find") return editField(s, a);
			return mode === "query" || mode === "list" ? editQuery(s, a) : s;
		}
		case "delete-back":
			if (s.mode === "filter-edit" || s.mode === "find") return editField(s, a);
			// Backspace on an empty query takes the filter chips off one by one, the last first.
			if ((s.mode === "query" || s.mode === "list") && s.query.text === "" && Object.keys(s.hits.filters).length > 0) return removeLastChip(s);
			return editQuery(s, a);
		case "delete-forward":
		case "delete-word":
		case "delete-word-back":
		case "delete-word-forward":
		case "kill-to-end":
		case "kill-to-start":
		case "clear-query":
		case "cursor":
			return s.mode === "filter-edit" || s.mode === "find" ? editField(s, a) : editQuery(s, a);
		case "focus":
		case "move":
		case "page":
		case "jump":
		case "open":
		case "back":
		case "to-search":
		case "wheel":
			return navigate(s, a);
		case "pick": {
			if (s.overlay?.type !== "fork") return s;
			const c = s.overlay.candidates[a.index];
			if (!c) return info(s, `there is no branch ${a.index + 1}`, "warn");
			const note = c.via === "forked session" ? "crossed into the forked session" : undefined;
			return goTarget(uncover({ ...s, overlay: null }), { kind: "event", ref: c.ref, brief: c.brief }, note);
		}
		case "walk":
			return walk(s, a.to);
		case "open-tree":
			return openTree(s, s.mode);
		case "tree-hit":
		case "tree-fold":
		case "tree-filter":
		case "tree-type":
			return s.mode === "tree" ? tree(s, a) : s;
		case "tree-done":
			return tree(s, a);
		case "toggle-panel":
			return stack(s, a);
		case "find-open":
		case "find-cancel":
		case "find-submit":
		case "find-step":
		case "find-done":
			return stack(s, a);

		case "toggle-wrap": {
			const next = stack(s, a);
			return topLoc(s) ? info(next, next.events.wrap ? "long lines wrap" : "long lines are cut with …") : next;
		}
		case "expand-copies": {
			const n = selectedHit(s) ? (s.hits.results.copies[refKey(selectedHit(s) as Hit)]?.length ?? 0) : 0;
			return n === 0
				? info(s, "this hit has no copies in other sessions")
				: info(hits(s, a), `${n} more cop${n === 1 ? "y" : "ies"} of this entry, from sessions forked or cloned from each other`);
		}
		case "cycle-scope": {
			const next = hits(s, a);
			const h = next.hits;
			const what = h.scope === "all" ? "all sessions" : h.scope === "workspace" ? `sessions under ${h.workspace}` : `session ${h.scopeSession?.id ?? ""}`;
			return info(next, `scope: ${what}`);
		}
		case "open-filters":
		case "toggle-errors":
		case "clear-filters":
		case "remove-last-chip":
		case "toggle-order":
		case "toggle-group":
		case "filter-cycle":
		case "filter-toggle":
		case "filter-clear-row":
		case "filter-reset":
		case "apply-filters":
		case "filter-edit-commit":
		case "filter-edit-cancel":
			return reduceFilterAction(s, a);
		case "help":
			return overlay(s, { type: "open-help" });
		case "copy-ref": {
			const mode = s.mode;
			const loc = topLoc(s);
			if (mode === "tree") return copyRef(s, treeCursorRef(s));
			if (mode === "list") {
				const h = selectedHit(s);
				return copyRef(s, h ? { sessionId: h.sessionId, entryId: h.entryId } : null);
			}
			if (mode === "trace" && loc?.data) {
				const row = traceRows(loc.data)[loc.traceCursor];
				if (row?.target?.kind === "event") return copyRef(s, row.target.ref);
			}
			return copyRef(s, loc?.ref ?? null);
		}
		case "refresh":
			return info({ ...s, refresh: s.refresh + 1 }, REFRESHING);
		case "refresh-done":
			// The status line goes back to the index state, which now says what the refresh did.
			return s.message?.text === REFRESHING ? { ...s, message: null } : s;
		case "copy-done":
			return info(s, a.text, a.copied ? "info" : "warn");
		case "task":
			return requestTask(s, a.task);
		case "task-done":
			return taskDone(s, a.text, a.tone);
		case "quit":
			return { ...remember(s), exit: a.code };
		case "recall-query":
			return recall(s, a.search);
		case "suspend":
			return info({ ...s, suspend: (s.suspend ?? 0) + 1 }, "suspended: fg in the shell comes back here");
		case "resumed":
			return info(s, "back from the shell (Ctrl+Z suspends)");
		case "search-done": {
			const next = hits(s, a);
			// End stopped following (the last hit, or its bound): say where it stopped instead of "loading…".
			if (s.hits.followEnd && !next.hits.followEnd && s.message?.text.startsWith(END_LOADING)) {
				const r = next.hits.results;
				if (r.exhausted) return { ...next, message: null };
				const of = hitTotal(r.hits.length, false, r.total);
				return info(next, `End stopped at hit ${num(r.hits.length)} of ${of} (it loads up to ${END_FOLLOW_MAX}); End again loads more`);
			}
			return next;
		}
		case "search-failed":
		case "count-done":
		case "group-counts-done":
		case "preview-done":
			return hits(s, a);
		case "event-done": {
			let next = stack(s, a);
			const top = topLoc(next);
			if (top?.key !== a.key || !top.data || top.queued.length === 0) return next;
			const queued = top.queued;
			next = stack(next, { type: "dequeue" });
			for (const to of queued) next = walk(next, to);
			return next;
		}
		case "page-done":
			return stack(s, a);
		case "seek-done": {
			if (a.seq !== s.events.seek?.seq) return s;
			const done = stack(s, { type: "seek-clear" });
			if (a.error) return info(done, `cannot walk up: ${a.error}`, "error");
			if (!a.target) return info(done, "no fork above: the path from the root to here has no other branch", "warn");
			const note = `fork ${a.target.steps} step(s) up: ${a.target.branches} branches continue here (f lists them, l follows the leaf path)`;
			return goTarget(done, { kind: "event", ref: a.target.ref, brief: null }, note);
		}
		case "index-changed": {
			const h = selectedHit(s);
			// An open tree is read again too (keeping its row), so lines pi writes meanwhile appear in it.
			return retryBrowse(tree(hits(s, { type: "search", keep: h ? refKey(h) : null }), { type: "tree-stale" }));
		}
		// Handled by reduceBrowse above; here only when no browser or prompt is there to take them.
		case "open-browser":
		case "browser-sort":
		case "browser-scope":
		case "sessions-done":
		case "sessions-failed":
		case "open-goto":
		case "goto-submit":
		case "goto-edit":
		case "goto-clear":
		case "goto-key":
		case "goto-done":
			return s;
	}
}
