/**
 * The explorer's actions the core and several features share, typed by what they act on: the query line, moving, the
 * filters, the overlays, the tree, loads finishing, the session browser, and the few that belong to the whole screen.
 * The event view's own actions are event/actions.ts; the union of all is root/actions.ts.
 */
import type { HitCount, ReadResult, SearchResult, SessionListResult, TreeFilterMode, TreeWindow } from "../../src/shared/types.js";
import type { Size } from "./explorer-service.js";
import type { KeyInfo } from "./keys.js";

/** Editing the query line. */
export type QueryAction =
	| { type: "insert"; text: string }
	| { type: "delete-back" }
	| { type: "delete-forward" }
	| { type: "delete-word" }
	| { type: "delete-word-back" }
	| { type: "delete-word-forward" }
	| { type: "kill-to-end" }
	| { type: "kill-to-start" }
	| { type: "clear-query" }
	| { type: "cursor"; to: "left" | "right" | "home" | "end" | "word-left" | "word-right" };

/** Moving in whatever has focus (the hit list, the event text, the trace panel, an overlay): routed by mode. */
export type NavAction =
	| { type: "focus"; to: "query" | "list" }
	| { type: "move"; by: number }
	| { type: "page"; dir: 1 | -1 | 0 }
	| { type: "jump"; to: "first" | "last" }
	| { type: "open" }
	| { type: "back" }
	| { type: "to-search" }
	| { type: "wheel"; dir: 1 | -1 | 0; at?: { x: number; y: number } };

/** The hit list's scope and filters. */
export type FilterAction =
	| { type: "expand-copies" }
	| { type: "cycle-scope" }
	| { type: "open-filters" }
	| { type: "toggle-errors" }
	| { type: "clear-filters" }
	| { type: "remove-last-chip" }
	| { type: "toggle-order" }
	| { type: "toggle-group" };

/** What can be done with an event outside the explorer: continue in pi, copy it as Markdown, page, edit, export its branch. */
export type TaskKind = "resume" | "copy-md" | "pager" | "editor" | "export";

/** Overlays: help, the filter picker, the fork picker. */
export type OverlayKeyAction =
	| { type: "help" }
	| { type: "filter-cycle"; dir: 1 | -1 }
	| { type: "filter-toggle" }
	| { type: "filter-clear-row" }
	| { type: "filter-reset" }
	| { type: "apply-filters" }
	| { type: "filter-edit-commit" }
	| { type: "filter-edit-cancel" }
	| { type: "pick"; index: number };

/** The tree view: open it (from a hit or an event), step through the query's hits, unfold or fold a stretch. */
export type TreeKeyAction =
	| { type: "open-tree" }
	| { type: "tree-hit"; dir: 1 | -1 }
	| { type: "tree-fold"; unfold: boolean }
	/** pi's /tree filter modes (a mode's key again: back to the default view), and `/` to type filter words. */
	| { type: "tree-filter"; mode: TreeFilterMode | "cycle" }
	| { type: "tree-type"; on: boolean };

/** Answers of the loaders the search, the tree and the tasks share; each carries the sequence number or key it answers, so stale ones are dropped. */
export type LoadAction =
	| { type: "search-done"; seq: number; more: number; result: SearchResult /** Hits asked for (default PAGE_SIZE). */; limit?: number }
	| { type: "count-done"; seq: number; total: HitCount }
	/** Grouped by session: how many events match in each of these sessions (the index's count, not the loaded rows). */
	| { type: "group-counts-done"; seq: number; counts: Record<string, HitCount> }
	| { type: "search-failed"; seq: number; error: string }
	| { type: "preview-done"; key: string; read: ReadResult | null; error: string | null }
	| { type: "tree-done"; key: string; gen: number; data: TreeWindow | null; error: string | null; scroll?: boolean }
	| { type: "task-done"; seq: number; text: string; tone: Message["tone"] }
	| { type: "index-changed" };

/** Whole-screen actions: a key to map, a resize, copying and quitting. */
export type ScreenAction =
	| { type: "key"; input: string; key: KeyInfo; paste?: boolean }
	| { type: "resize"; size: Size }
	| { type: "copy-ref" }
	| { type: "refresh" }
	| { type: "copy-done"; text: string; copied: boolean }
	| { type: "quit"; code: number }
	/** Ctrl+Z: give the terminal back to the shell (job control), and come back as it was on `fg`. */
	| { type: "suspend" }
	| { type: "resumed" }
	/** A refresh finished (the indexing state the launcher passes says so): its "reading…" message has done its job. */
	| { type: "refresh-done" }
	/** An earlier query onto the query line: ↑ on an empty line, or Ctrl+R (which matches the typed text). */
	| { type: "recall-query"; search: boolean };

/** The session browser and the go-to-ref prompt: opening them, the browser's sort and scope, the prompt's text and check. */
export type BrowseAction =
	| { type: "open-browser" }
	| { type: "browser-sort" }
	| { type: "browser-scope" }
	| { type: "sessions-done"; seq: number; result: SessionListResult }
	| { type: "sessions-failed"; seq: number; error: string }
	| { type: "open-goto" }
	| { type: "goto-submit" }
	| { type: "goto-edit"; value: string }
	| { type: "goto-key"; action: QueryAction }
	| { type: "goto-clear" }
	| { type: "goto-done"; seq: number; error: string | null; sessionId?: string };

/** A one-line message in the status bar. */
export interface Message {
	text: string;
	tone: "info" | "warn" | "error";
}
