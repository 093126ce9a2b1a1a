/**
 * The explorer's actions, typed by the slice that owns them: the query line, the hit list, the event stack, the
 * overlays, loads finishing, the view's measure of the event document, and the few that belong to the whole screen.
 * The keymap produces the first groups; App's loaders produce the `*-done` ones and App's render `measured`.
 */
import type { EventRef, FragmentWindow, HitCount, ReadResult, SearchResult, SessionListResult, TreeResult } from "../../src/shared/types.js";
import type { DocMetrics } from "../event/doc-metrics.js";
import type { EventData } from "../event/loaders.js";
import type { WalkTo } from "../event/stack-state.js";
import type { KeyInfo } from "../root/keymap.js";
import type { Size } from "./explorer-service.js";

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

/** The event view and the tree walk. */
export type EventAction =
	| { type: "walk"; to: WalkTo }
	| { type: "toggle-panel" }
	| { type: "toggle-wrap" }
	| { type: "find-open" }
	| { type: "find-cancel" }
	| { type: "find-submit" }
	| { type: "find-step"; dir: 1 | -1 }
	| { type: "task"; task: TaskKind };

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
export type TreeKeyAction = { type: "open-tree" } | { type: "tree-hit"; dir: 1 | -1 } | { type: "tree-fold"; unfold: boolean };

/** Answers of App's loaders; each carries the sequence number or key it answers, so stale ones are dropped. */
export type LoadAction =
	| { type: "search-done"; seq: number; more: number; result: SearchResult /** Hits asked for (default PAGE_SIZE). */; limit?: number }
	| { type: "count-done"; seq: number; total: HitCount }
	| { type: "search-failed"; seq: number; error: string }
	| { type: "preview-done"; key: string; read: ReadResult | null; error: string | null }
	| { type: "event-done"; key: string; data: EventData | null; error: string | null }
	| { type: "page-done"; key: string; fragmentId: string; offset: number; window: FragmentWindow | null; error: string | null }
	| { type: "find-done"; seq: number; match: { fid: string; at: number } | null; wrapped: boolean; error: string | null }
	| { type: "seek-done"; seq: number; target: { ref: EventRef; steps: number; branches: number } | null; error: string | null }
	| { type: "tree-done"; key: string; gen: number; data: TreeResult | null; error: string | null }
	| { type: "task-done"; seq: number; text: string; tone: Message["tone"] }
	| { type: "index-changed" };

/** The numbers of the event document on screen, measured by the view for the event stack's reducer (`key`: the event's). */
export type ViewAction = { type: "measured"; key: string; metrics: DocMetrics };

/** Whole-screen actions: a key to map, a resize, copying and quitting. */
export type ScreenAction =
	| { type: "key"; input: string; key: KeyInfo; paste?: boolean }
	| { type: "resize"; size: Size }
	| { type: "copy-ref" }
	| { type: "refresh" }
	| { type: "copy-done"; text: string; copied: boolean }
	| { type: "quit"; code: number };

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
	| { type: "goto-clear" }
	| { type: "goto-swallow" }
	| { type: "goto-done"; seq: number; error: string | null; sessionId?: string };

/** Everything a key or a finished load can do. */
export type Action =
	| QueryAction
	| NavAction
	| FilterAction
	| EventAction
	| OverlayKeyAction
	| TreeKeyAction
	| LoadAction
	| ViewAction
	| ScreenAction
	| BrowseAction;

/** A one-line message in the status bar. */
export interface Message {
	text: string;
	tone: "info" | "warn" | "error";
}
