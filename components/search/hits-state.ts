/**
 * The hit list's slice: scope and filters (what is asked), the results and their paging (what came back), the window
 * over them (selection and top row), and the preview of the selected hit. Sizes come in as an argument: the slice
 * owns no layout.
 */
import { type Hit, type HitCount, type IndexFreshness, type ReadResult, refKey, type SearchOrder } from "../../src/shared/types.js";
import type { LoadAction } from "../core/actions.js";
import type { Size } from "../core/explorer-service.js";
import { type Filters, nextScope, PAGE_SIZE, type Scope, type ScopeSession } from "../core/filters.js";
import { searchLayout, visibleHits } from "../core/layout.js";
import { clampIndex, windowTop } from "../core/list-window.js";
import { hitTotal, num } from "../core/numbers.js";
import { sessionLabel } from "../core/session-label.js";
import { groupBySession } from "./hit-groups.js";

/** The hits of the current search and what is being asked for. */
export interface Results {
	/** Grows with every new search (query, scope, filters, index change); stale answers are dropped. */
	seq: number;
	/** Whether the answer to `seq` is still pending; a failed search is answered too, with `error` set. */
	status: "loading" | "ready";
	/** The rows: every hit, or one per session when grouped. */
	hits: Hit[];
	/** Every hit loaded, in the core's order (what the rows are grouped from). */
	all: Hit[];
	/** Grouped: session id → how many loaded hits its row stands for (empty when not grouped). */
	groups: Record<string, number>;
	/** Grouped: session id → how many events match in that session, as the index counts them (asked per row shown). */
	sessionTotals?: Record<string, HitCount>;
	notes: string[];
	error: string | null;
	/** No more pages after these hits. */
	exhausted: boolean;
	/** Hits the service returned so far, copies included: the next page starts there (rows fold copies, so fewer). */
	fetched: number;
	/** Grows when the next page is wanted; 0 means none asked yet. */
	moreSeq: number;
	loadingMore: boolean;
	index: IndexFreshness | null;
	/** How many events match in all (the core counts them after the first page arrived); null until then. */
	total: HitCount | null;
	/** Ref key to select again when the new hits arrive (after an index change). */
	keep: string | null;
	/**
	 * Copies of one entry across a fork family (a /clone or --fork copies entries with their ids): the best-ranked
	 * copy is the row, and this maps its ref key to the other copies' session ids.
	 */
	copies: Record<string, Hit[]>;
	/** Rows whose copies were expanded (→): expanded again when the same search is run again (new index data). */
	expanded?: string[];
}

/** The preview pane's content for one hit. */
export interface PreviewState {
	key: string;
	read: ReadResult | null;
	error: string | null;
}

/** The hit list's state. */
export interface HitsState {
	scope: Scope;
	workspace: string | null;
	scopeSession: ScopeSession | null;
	filters: Filters;
	/** Hit order asked of the core. */
	order: SearchOrder;
	/** One row per session (its strongest hit). */
	group: boolean;
	results: Results;
	selected: number;
	top: number;
	preview: PreviewState | null;
	/** End was pressed: the cursor follows the end of the list as pages arrive (up to END_FOLLOW_MAX hits). */
	followEnd?: boolean;
	/** The user moved in this search's list: hits refilled for new index data keep the moved-to hit, else the top one. */
	moved?: boolean;
}

/** How far End keeps loading pages to reach the last hit; beyond it, End again goes on. */
export const END_FOLLOW_MAX = 500;

/** What the hit list's reducer does; the top reducer turns keys and other slices' changes into these. */
export type HitsAction =
	| { type: "select"; index: number; followEnd?: boolean }
	| { type: "search"; keep?: string | null }
	| { type: "resize" }
	| { type: "cycle-scope" }
	| { type: "expand-copies" }
	| { type: "set-filters"; filters: Filters }
	| { type: "set-order"; order: SearchOrder }
	| { type: "set-group"; group: boolean }
	| { type: "set-scope"; scope: Scope; session: ScopeSession | null }
	| Extract<LoadAction, { type: "search-done" | "search-failed" | "count-done" | "group-counts-done" | "preview-done" }>;

/** The first hit-list state: nothing loaded, the first search pending. */
export function initialHits(workspace: string | null, scope: Scope | undefined): HitsState {
	return {
		scope: scope === "workspace" && workspace ? "workspace" : "all",
		workspace,
		scopeSession: null,
		filters: {},
		order: "relevance",
		group: false,
		results: {
			seq: 1,
			status: "loading",
			hits: [],
			all: [],
			groups: {},
			notes: [],
			error: null,
			exhausted: false,
			fetched: 0,
			moreSeq: 0,
			loadingMore: false,
			index: null,
			total: null,
			keep: null,
			copies: {},
		},
		selected: 0,
		top: 0,
		preview: null,
	};
}

/** The hit under the cursor. */
export function hitAt(h: HitsState): Hit | null {
	return h.results.hits[h.selected] ?? null;
}

/** Key of the preview the selected hit needs (ref and fragment), or null without a hit. */
export function previewKeyOf(h: HitsState): string | null {
	const hit = hitAt(h);
	return hit ? `${refKey(hit)}#${hit.fragmentId ?? ""}` : null;
}

/**
 * Hits the first search asks for: one screenful (and two for copies folded into rows), not a whole page. Every hit
 * costs a read of its source line for the snippet, so a keystroke's frame waits for the rows it shows only; the
 * next page is asked for as soon as the cursor moves (maybeMore) or when the rows do not fill the list.
 */
export function firstPageSize(size: Size): number {
	return Math.min(PAGE_SIZE, visibleHits(searchLayout(size)) + 2);
}

/** Asks for the next page of hits when the cursor comes within a page of the end. */
function maybeMore(h: HitsState, size: Size): HitsState {
	const r = h.results;
	if (r.exhausted || r.loadingMore || r.status !== "ready" || r.hits.length === 0) return h;
	const page = visibleHits(searchLayout(size));
	if (h.selected < r.hits.length - page - 5) return h;
	return { ...h, results: { ...r, moreSeq: r.moreSeq + 1, loadingMore: true } };
}

/** Asks for the next page when the rows do not fill the list (copies folded, rows grouped, a taller terminal). */
function fillList(h: HitsState, size: Size): HitsState {
	const r = h.results;
	if (r.exhausted || r.loadingMore || r.status !== "ready" || r.hits.length === 0) return h;
	if (r.hits.length >= visibleHits(searchLayout(size))) return h;
	return { ...h, results: { ...r, moreSeq: r.moreSeq + 1, loadingMore: true } };
}

function newSearch(h: HitsState, keep: string | null): HitsState {
	// A search kept for new index data (keep set) keeps the expanded rows too; any other starts folded.
	const expanded = keep === null ? [] : (h.results.expanded ?? []);
	// The old hits stay on screen until the new ones arrive, but not their paging: a page of the new search is asked
	// for only after its own first page (with the old count as offset it skipped hits, and through the query thread's
	// latest-wins it replaced the first page, leaving the old hits under the new query).
	return {
		...h,
		followEnd: false,
		moved: keep === null ? false : h.moved === true,
		results: { ...h.results, seq: h.results.seq + 1, status: "loading", error: null, moreSeq: 0, loadingMore: false, keep, expanded },
	};
}

/** Puts the copies of the rows in `keys` right under their row (what → did before the list was searched again). */
function expandRows(hits: Hit[], copies: Record<string, Hit[]>, keys: readonly string[]): { hits: Hit[]; copies: Record<string, Hit[]> } {
	if (keys.length === 0) return { hits, copies };
	const out: Hit[] = [];
	const left = { ...copies };
	for (const h of hits) {
		out.push(h);
		const k = refKey(h);
		if (keys.includes(k) && left[k]) {
			out.push(...left[k]);
			delete left[k];
		}
	}
	return { hits: out, copies: left };
}

/** Same entry, same fragment, same time: a copy a fork or clone made of one event. */
const copyKey = (h: Hit) => `${h.entryId}\u0000${h.fragmentId ?? ""}\u0000${h.timestamp}`;

/** Folds copies of one entry into the first (best-ranked) hit, after the hits already shown. */
function groupCopies(shown: Hit[], copies: Record<string, Hit[]>, incoming: Hit[]): { hits: Hit[]; copies: Record<string, Hit[]> } {
	const rowOf = new Map(shown.map((h) => [copyKey(h), refKey(h)]));
	const out = { ...copies };
	const hits: Hit[] = [];
	for (const h of incoming) {
		const row = rowOf.get(copyKey(h));
		if (row === undefined) {
			rowOf.set(copyKey(h), refKey(h));
			hits.push(h);
		} else if (row !== refKey(h)) out[row] = [...(out[row] ?? []), h];
	}
	return { hits, copies: out };
}

/** The rows for every loaded hit: themselves, or one per session. */
function rows(all: Hit[], group: boolean): Pick<Results, "hits" | "all" | "groups"> {
	if (!group) return { hits: all, all, groups: {} };
	const g = groupBySession(all);
	return { hits: g.hits, all, groups: g.counts };
}

/** Groups or ungroups the rows in place, keeping the selected event selected (its session's row when grouping). */
function regroup(h: HitsState, group: boolean, size: Size): HitsState {
	const was = hitAt(h);
	const results = { ...h.results, ...rows(h.results.all, group) };
	let sel = was ? results.hits.findIndex((x) => refKey(x) === refKey(was)) : 0;
	if (sel < 0 && was) sel = results.hits.findIndex((x) => x.sessionId === was.sessionId);
	sel = clampIndex(Math.max(0, sel), results.hits.length);
	const top = windowTop(sel, h.top, visibleHits(searchLayout(size)), results.hits.length);
	return maybeMore({ ...h, group, results, selected: sel, top }, size);
}

function searchDone(h: HitsState, a: Extract<LoadAction, { type: "search-done" }>, size: Size): HitsState {
	const r = h.results;
	if (a.seq !== r.seq) return h;
	if (a.more > 0) {
		if (a.more !== r.moreSeq) return h;
		const seen = new Set([...r.hits, ...Object.values(r.copies).flat()].map((x) => refKey(x)));
		const fresh = a.result.hits.filter((x) => !seen.has(refKey(x)));
		const grouped = groupCopies(r.all, r.copies, fresh);
		const exhausted = a.result.hits.length < (a.limit ?? PAGE_SIZE) || fresh.length === 0;
		const next = {
			...h,
			results: {
				...r,
				...rows([...r.all, ...grouped.hits], h.group),
				copies: grouped.copies,
				exhausted,
				fetched: r.fetched + a.result.hits.length,
				loadingMore: false,
			},
		};
		if (!h.followEnd) return maybeMore(next, size);
		// End was pressed: go on to the new last hit, and load on while there is more (within END_FOLLOW_MAX).
		const n = next.results.hits.length;
		const sel = n - 1;
		const follow = !exhausted && n < END_FOLLOW_MAX;
		const moved = { ...next, selected: sel, top: windowTop(sel, h.top, visibleHits(searchLayout(size)), n), followEnd: follow };
		return follow ? maybeMore(moved, size) : moved;
	}
	const folded = groupCopies([], {}, a.result.hits);
	const grouped = expandRows(folded.hits, folded.copies, r.keep ? (r.expanded ?? []) : []);
	const shown = rows(grouped.hits, h.group);
	const hits = shown.hits;
	// The hit to keep is the one selected now: the cursor may have moved while the search was on its way. Until the
	// user moves, the selection stays on the top hit, whatever the new hits above the old top one (as fzf does).
	const now = hitAt(h);
	const keep = !h.moved ? null : r.keep && now ? refKey(now) : r.keep;
	const keepAt = keep ? hits.findIndex((x) => refKey(x) === keep) : -1;
	const results: Results = {
		...r,
		status: "ready",
		...shown,
		notes: a.result.notes,
		error: null,
		copies: grouped.copies,
		exhausted: a.result.hits.length < (a.limit ?? PAGE_SIZE),
		fetched: a.result.hits.length,
		loadingMore: false,
		index: a.result.index,
		total: a.result.total ?? null,
		sessionTotals: {},
		keep: null,
	};
	const stay = r.keep !== null && h.moved === true;
	const sel = clampIndex(keepAt >= 0 ? keepAt : stay ? Math.min(h.selected, Math.max(0, hits.length - 1)) : 0, hits.length);
	const top = windowTop(sel, keepAt >= 0 || stay ? h.top : 0, visibleHits(searchLayout(size)), hits.length);
	return fillList({ ...h, results, selected: sel, top }, size);
}

/** The hit list's reducer. */
export function reduceHits(h: HitsState, a: HitsAction, size: Size): HitsState {
	switch (a.type) {
		case "select": {
			const sel = clampIndex(a.index, h.results.hits.length);
			const top = windowTop(sel, h.top, visibleHits(searchLayout(size)), h.results.hits.length);
			const follow = a.followEnd === true && !h.results.exhausted;
			return maybeMore({ ...h, selected: sel, top, followEnd: follow, moved: h.moved === true || sel !== h.selected }, size);
		}
		case "search":
			return newSearch(h, a.keep ?? null);
		case "resize":
			return fillList({ ...h, top: windowTop(h.selected, h.top, visibleHits(searchLayout(size)), h.results.hits.length) }, size);
		case "cycle-scope": {
			// "This session" is the selected hit's session, remembered from the moment there was one (the workspace
			// step in between may have no hits at all).
			const hit = hitAt(h);
			const session =
				h.scope === "session" && h.scopeSession
					? h.scopeSession
					: hit
						? { id: hit.sessionId, label: sessionLabel(hit.session, hit.sessionId) }
						: h.scopeSession;
			const scope = nextScope(h.scope, h.workspace !== null, session !== null);
			return newSearch({ ...h, scope, scopeSession: session, selected: 0, top: 0 }, null);
		}
		case "expand-copies": {
			// The copies of the selected row's entry become rows of their own, right under it.
			const hit = hitAt(h);
			const more = hit ? h.results.copies[refKey(hit)] : undefined;
			if (!hit || !more || h.group) return h;
			const { [refKey(hit)]: _shown, ...copies } = h.results.copies;
			const hits = [...h.results.hits.slice(0, h.selected + 1), ...more, ...h.results.hits.slice(h.selected + 1)];
			return { ...h, results: { ...h.results, hits, all: hits, copies, expanded: [...(h.results.expanded ?? []), refKey(hit)] } };
		}
		case "set-scope":
			return newSearch({ ...h, scope: a.scope, scopeSession: a.session, selected: 0, top: 0 }, null);
		case "set-filters":
			return newSearch({ ...h, filters: a.filters, selected: 0, top: 0 }, null);
		case "set-order":
			return newSearch({ ...h, order: a.order, selected: 0, top: 0 }, null);
		case "set-group":
			return regroup(h, a.group, size);
		case "search-done":
			return searchDone(h, a, size);
		case "count-done":
			if (a.seq !== h.results.seq) return h;
			return { ...h, results: { ...h.results, total: a.total } };
		case "group-counts-done":
			if (a.seq !== h.results.seq) return h;
			return { ...h, results: { ...h.results, sessionTotals: { ...h.results.sessionTotals, ...a.counts } } };
		case "search-failed":
			if (a.seq !== h.results.seq) return h;
			return { ...h, results: { ...h.results, status: "ready", error: a.error, loadingMore: false, exhausted: true } };
		case "preview-done":
			if (a.key !== previewKeyOf(h)) return h;
			return { ...h, preview: { key: a.key, read: a.read, error: a.error } };
	}
}

/**
 * How many hits a grouped row stands for, as its "best of N" says it: the index's count of the session's matches once
 * it came ("13", "10,000+"), else the loaded ones, with a "+" while more pages may hold more; "" for a single hit.
 */
export function groupCount(r: Results, sessionId: string): string {
	const known = r.sessionTotals?.[sessionId];
	if (known) return known.count > 1 || known.atLeast ? `${num(known.count)}${known.atLeast ? "+" : ""}` : "";
	const loaded = r.groups[sessionId] ?? 0;
	if (r.exhausted) return loaded > 1 ? num(loaded) : "";
	return loaded > 0 ? `${num(loaded)}+` : "";
}

/** groupCount for every grouped row's session. */
export function groupLabels(r: Results): Record<string, string> {
	const out: Record<string, string> = {};
	for (const h of r.hits) out[h.sessionId] = groupCount(r, h.sessionId);
	return out;
}

/** Sessions of the grouped rows from `top` on (a screenful and a little) whose count the index has not given yet. */
export function uncountedSessions(h: HitsState, size: Size): string[] {
	const r = h.results;
	if (!h.group || r.status !== "ready" || r.error !== null) return [];
	const rows = r.hits.slice(h.top, h.top + visibleHits(searchLayout(size)) + 4);
	return rows.map((x) => x.sessionId).filter((id, i, all) => all.indexOf(id) === i && r.sessionTotals?.[id] === undefined);
}

/** Where the selection is, as the status line says it: "hit 3 of 1,234", or grouped "session 3 of 56+". */
export function listPosition(h: HitsState): string {
	const r = h.results;
	if (h.group) return `session ${h.selected + 1} of ${num(r.hits.length)}${r.exhausted ? "" : "+"}`;
	return `hit ${h.selected + 1} of ${hitTotal(r.hits.length, r.exhausted, r.total)}`;
}

/** When a session file was made: pi names it by its start time, and a fork or clone is made after its source. */
const madeAt = (h: Hit) => `${h.session.file.replace(/^.*[\\/]/, "")}\u0000${h.sessionId}`;

/**
 * Rows that are copies of one entry in several sessions (expanded with →): ref key → whether the row is the original
 * (the oldest session holding the entry: the others were made from it by a --fork or /clone) or a copy.
 */
export function copyRoles(hits: readonly Hit[]): Map<string, "original" | "copy"> {
	const families = new Map<string, Hit[]>();
	for (const h of hits) families.set(copyKey(h), [...(families.get(copyKey(h)) ?? []), h]);
	const out = new Map<string, "original" | "copy">();
	for (const family of families.values()) {
		if (new Set(family.map((h) => h.sessionId)).size < 2) continue;
		const first = family.reduce((a, b) => (madeAt(b) < madeAt(a) ? b : a));
		for (const h of family) out.set(refKey(h), h === first ? "original" : "copy");
	}
	return out;
}
