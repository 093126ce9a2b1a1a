/**
 * The session browser's slice: the listing the query thread answered, the filter typed over it, the sort, the scope
 * (this workspace / all) and the selected session. The selection is kept by session id, so re-sorting, filtering
 * and a reload (new sessions indexed) keep the cursor on the same session. Pure: filtering and sorting are plain
 * functions the view and the tests call too.
 */
import type { SessionListing, SessionListResult } from "../../src/shared/types.js";
import { clampIndex, windowTop } from "../core/list-window.js";
import { cwdTail } from "../core/session-label.js";

/** How the list is ordered: newest activity first, by name (A→Z), or by number of events (most first). */
export type BrowserSort = "activity" | "name" | "size";

export const BROWSER_SORTS: readonly BrowserSort[] = ["activity", "name", "size"];

/** The session browser's state. */
export interface BrowserState {
	scope: "workspace" | "all";
	/** The "this workspace" folder (null: only "all" exists). */
	workspace: string | null;
	sort: BrowserSort;
	filter: string;
	/** The selected session's id (null: the first row). */
	selectedId: string | null;
	/** First visible row, kept while the cursor stays inside the window. */
	top: number;
	/** Bumped for every listing wanted; App loads it and answers with the same number. */
	seq: number;
	status: "loading" | "ready" | "failed";
	result: SessionListResult | null;
	error: string | null;
}

/** What the browser's reducer does. */
export type BrowserAction =
	| { type: "insert"; text: string }
	| { type: "delete-back" }
	| { type: "clear-filter" }
	| { type: "move"; by: number }
	| { type: "jump"; to: "first" | "last" }
	| { type: "cycle-sort" }
	| { type: "cycle-scope" }
	| { type: "reload" }
	| { type: "sessions-done"; seq: number; result: SessionListResult }
	| { type: "sessions-failed"; seq: number; error: string };

/** A browser about to load: in the workspace when the search is scoped to it, else over all sessions. */
export function openBrowser(workspace: string | null, scope: "workspace" | "all", seq: number): BrowserState {
	return {
		scope: workspace ? scope : "all",
		workspace,
		sort: "activity",
		filter: "",
		selectedId: null,
		top: 0,
		seq,
		status: "loading",
		result: null,
		error: null,
	};
}

/** The name a session sorts and shows by: its name, else the last folder of its cwd. */
export function sessionTitle(s: SessionListing): string {
	return s.name || cwdTail(s.cwd);
}

/** True when every word of `filter` is in the session's name, cwd or id (case-insensitive). */
export function matchesFilter(s: SessionListing, filter: string): boolean {
	const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
	if (words.length === 0) return true;
	const hay = `${s.name ?? ""}\n${s.cwd}\n${s.id}`.toLowerCase();
	return words.every((w) => hay.includes(w));
}

const activity = (s: SessionListing) => Date.parse(s.lastAt ?? s.created) || 0;

/** The order of a sort; ties fall back to newest activity, then id, so the order is total. */
export function compareSessions(sort: BrowserSort): (a: SessionListing, b: SessionListing) => number {
	const byActivity = (a: SessionListing, b: SessionListing) => activity(b) - activity(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
	if (sort === "name") return (a, b) => sessionTitle(a).localeCompare(sessionTitle(b), undefined, { sensitivity: "base" }) || byActivity(a, b);
	if (sort === "size") return (a, b) => b.events - a.events || byActivity(a, b);
	return byActivity;
}

/** The rows on screen: the listing filtered by the typed text, in the chosen order. */
export function visibleSessions(b: BrowserState): SessionListing[] {
	const all = b.result?.sessions ?? [];
	return all.filter((s) => matchesFilter(s, b.filter)).sort(compareSessions(b.sort));
}

/** The selected row's index among the visible rows (0 when the selected session is not among them). */
export function selectedIndex(b: BrowserState, rows: SessionListing[] = visibleSessions(b)): number {
	const i = b.selectedId === null ? -1 : rows.findIndex((s) => s.id === b.selectedId);
	return Math.max(0, i);
}

/** The selected session, if any row is visible. */
export function selectedSession(b: BrowserState): SessionListing | null {
	const rows = visibleSessions(b);
	return rows[selectedIndex(b, rows)] ?? null;
}

function select(b: BrowserState, index: number, height: number): BrowserState {
	const rows = visibleSessions(b);
	const i = clampIndex(index, rows.length);
	return { ...b, selectedId: rows[i]?.id ?? null, top: windowTop(i, b.top, height, rows.length) };
}

/** The browser's reducer; `height` is the number of list rows on screen (for paging and the window). */
export function reduceBrowser(b: BrowserState, a: BrowserAction, height: number): BrowserState {
	switch (a.type) {
		case "insert":
			return select({ ...b, filter: b.filter + a.text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "") }, 0, height);
		case "delete-back":
			return select({ ...b, filter: Array.from(b.filter).slice(0, -1).join("") }, 0, height);
		case "clear-filter":
			return select({ ...b, filter: "" }, 0, height);
		case "move":
			return select(b, selectedIndex(b) + a.by, height);
		case "jump":
			return select(b, a.to === "first" ? 0 : Number.MAX_SAFE_INTEGER, height);
		case "cycle-sort": {
			const sort = BROWSER_SORTS[(BROWSER_SORTS.indexOf(b.sort) + 1) % BROWSER_SORTS.length] as BrowserSort;
			// The selected session stays selected; the window follows it to its new place.
			const next = { ...b, sort };
			return select(next, selectedIndex(next), height);
		}
		case "cycle-scope":
			if (!b.workspace) return b;
			return { ...b, scope: b.scope === "all" ? "workspace" : "all", seq: b.seq + 1, status: "loading", top: 0 };
		case "reload":
			return { ...b, seq: b.seq + 1, status: b.result ? b.status : "loading" };
		case "sessions-done": {
			if (a.seq !== b.seq) return b;
			const next = { ...b, status: "ready" as const, result: a.result, error: null };
			const rows = visibleSessions(next);
			const keep = rows.findIndex((s) => s.id === b.selectedId);
			return select(next, Math.max(0, keep), height);
		}
		case "sessions-failed":
			return a.seq === b.seq ? { ...b, status: "failed", error: a.error } : b;
	}
}
