/**
 * Which sessions a search may return, decided per distinct cwd rather than per session when only cwds decide (the
 * caller's workspace, a cwd filter, its own session left out): reading every session's row cost a cwd-scoped
 * query's first run more than its ranking.
 */

import type { Catalog, SessionRow } from "../index/catalog.js";
import { cwdCounts, sessionCwd, sessionIdsWithCwds } from "../index/session-cwds.js";
import type { IndexStore } from "../index/store.js";
import { scopeFolders, scopeToken } from "../project/tokens.js";
import type { SearchFilters } from "../shared/types.js";
import { canonicalPathCached, isWithin } from "./authorize.js";
import type { Visibility } from "./visibility.js";

/**
 * Sessions a search may return: row ids (null when every session is allowed, or when the scope token alone selects
 * exactly the allowed ones) and a scope token that prefilters them.
 */
export interface Allowed {
	ids: number[] | null;
	/** An FTS token all allowed sessions' fragments carry, when one exists (see scopeToken); null otherwise. */
	scope: string | null;
	/**
	 * A scope token that alone selects exactly the allowed sessions, however many they are: what an unscored match
	 * (runSearch's newest-first window) filters by where `ids` would join every match; null or absent otherwise.
	 */
	exact?: string | null;
}

/**
 * Allowed sessions above this many get no scope token in a scored match: bm25 counts every fragment holding each of
 * the match's phrases, the scope token's too, and so many sessions' fragments cost a rare word more than a join.
 */
const SCOPED_SESSIONS = 5000;

/**
 * The most specific candidate folder (a cwd filter or the caller's root) that every allowed session's own cwd,
 * as written in its header, lies in: only then do all their fragments carry its token (symlinks can make the
 * canonical and the written path differ, and then no prefilter is used). `distinct`: the scopeFolders of each
 * distinct cwd of the `sessions` allowed sessions.
 */
export function commonScope(distinct: readonly string[][], sessions: number, candidates: readonly string[], bound = SCOPED_SESSIONS): string | null {
	if (sessions === 0 || sessions > bound) return null;
	let best: string | null = null;
	for (const candidate of candidates) {
		const c = scopeFolders(candidate)[0];
		if (c === undefined || (best !== null && c.length <= best.length)) continue;
		if (distinct.every((f) => f.includes(c))) best = c;
	}
	return best;
}

/**
 * allowedSessions when the cwds alone decide (no session ids or names, no start-time range, no session hidden as
 * possibly the caller's own), else null. The same answer as reading every session: the verdict of a cwd is that of
 * each session run in it, and the caller's own session (never asked for by id here) is left out by its id.
 */
export function allowedByCwd(store: IndexStore, visibility: Visibility, filters: SearchFilters, textual: boolean): Allowed | null {
	if (filters.sessionIds?.length || filters.sessions?.length || filters.startedAfter || filters.startedBefore || !visibility.hidesNoneAsOwn) return null;
	const cwds = (filters.cwds ?? []).map((c) => canonicalPathCached(c) ?? c);
	if (visibility.trusted && cwds.length === 0 && visibility.currentSession === null) return { ids: null, scope: null };
	const ownCwd = visibility.currentSession === null ? undefined : sessionCwd(store, visibility.currentSession);
	const verdict = (cwd: string) => {
		if (!visibility.allowsCwd(cwd)) return false;
		const own = canonicalPathCached(cwd) ?? cwd;
		return cwds.length === 0 || cwds.some((c) => (filters.cwdSubtree === false ? own === c : isWithin(c, own)));
	};
	const allowed: string[] = [];
	const others: string[] = [];
	let sessions = 0;
	for (const { cwd, sessions: n } of cwdCounts(store)) {
		// The caller's own session is one session of its cwd that is not allowed.
		const own = cwd === ownCwd ? 1 : 0;
		if (verdict(cwd)) {
			if (n > own) allowed.push(cwd);
			sessions += n - own;
			if (own) others.push(cwd);
		} else others.push(cwd);
	}
	const ids = () => sessionIdsWithCwds(store, allowed).filter((id) => id !== visibility.currentSession);
	const folder = commonScope(
		allowed.map((c) => scopeFolders(c)),
		sessions,
		[...cwds, ...(visibility.caller ? [visibility.caller.root] : [])],
		Number.POSITIVE_INFINITY,
	);
	if (folder === null) return { ids: ids(), scope: null };
	const bounded = sessions <= SCOPED_SESSIONS;
	// When exactly the allowed sessions carry the scope token, the token alone is the filter: no join per match. Only
	// the main FTS table has scope tokens: a listing without a query, or of system prompts, needs the ids.
	if (!textual || filters.kinds?.includes("system.prompt")) return { ids: ids(), scope: bounded ? scopeToken(folder) : null };
	const carried = others.some((c) => scopeFolders(c).includes(folder));
	const exact = carried ? null : scopeToken(folder);
	if (!bounded) return { ids: ids(), scope: null, exact };
	return { ids: carried ? ids() : null, scope: scopeToken(folder), exact };
}

/**
 * The sessions and events an untrusted caller may know exist (I17): totals never count sessions it may not see (they
 * would reveal that other projects exist), nor its own entries from the invoking message on. Per distinct cwd unless a
 * session hidden as possibly the caller's own needs the rows.
 */
export function visibleTotals(catalog: Catalog, visibility: Visibility): { sessions: number; events: number } {
	let sessions = 0;
	let events = 0;
	let own: SessionRow | undefined;
	if (visibility.hidesNoneAsOwn) {
		for (const c of cwdCounts(catalog.store)) {
			if (!visibility.allowsCwd(c.cwd)) continue;
			sessions += c.sessions;
			events += c.entries;
		}
		own = visibility.currentSession === null ? undefined : catalog.session(visibility.currentSession);
		if (own && !visibility.allowsSession(own)) own = undefined;
	} else {
		const visible = catalog.sessions().filter((s) => visibility.allowsSession(s));
		sessions = visible.length;
		events = visible.reduce((n, s) => n + s.entries, 0);
		own = visible.find((s) => s.id === visibility.currentSession);
	}
	if (own && visibility.cutoff !== null) events -= catalog.eventsFrom(own.id, visibility.cutoff);
	return { sessions, events };
}
