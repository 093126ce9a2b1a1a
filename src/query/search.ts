/**
 * event_search: ranks matching fragments with bm25 (per-kind weights), coalesces them into one hit per
 * (sessionId, entryId), applies structured filters and visibility, and builds snippets from the source lines.
 */

import type { CandidateFilter } from "../index/candidate-filter.js";
import { CandidateQuery } from "../index/candidates.js";
import { Catalog, type EventRow, type FragmentRow, type SessionRow, sessionSummary } from "../index/catalog.js";
import type { IndexStore } from "../index/store.js";
import { prefixTerms } from "../index/vocabulary.js";
import { boundFragment, type ProjectedEvent, projectEntry } from "../project/entry.js";
import { scopeFolders, scopeToken } from "../project/tokens.js";
import { clamp, LIMITS } from "../shared/bounds.js";
import { ArgumentError } from "../shared/errors.js";
import { parseTime, validateFilters } from "../shared/filters.js";
import { type Hit, type HitCount, PARTIAL_NOTE, SEARCH_ORDERS, type SearchFilters, type SearchRequest, type SearchResult } from "../shared/types.js";
import { readEntryAtCached } from "../source/locate.js";
import type { ParsedEntry } from "../source/parse.js";
import { type Allowed, allowedByCwd, commonScope, visibleTotals } from "./allowed.js";
import { canonicalPathCached, isWithin } from "./authorize.js";
import type { PartialAnswer } from "./partial.js";
import { partialTier } from "./partial-tier.js";
import { matchOf, type ParsedQuery, parseQuery, type QueryTerm, quote } from "./query-parse.js";
import { inflectedMatch, withForms, wordsOf } from "./query-words.js";
import { commonLoneTerm, newestIfCommon, RANK_WINDOW, runSearch } from "./rank-window.js";
import { buildSnippet } from "./snippet.js";
import { SUGGESTION_CAP, type Suggestion } from "./suggest.js";
import { Visibility } from "./visibility.js";

/** Session rows allowed by visibility and the session/cwd filters; ids null when the scope token (or nothing) limits them. */
function allowedSessions(catalog: Catalog, visibility: Visibility, filters: SearchFilters, textual: boolean): Allowed {
	const byCwd = allowedByCwd(catalog.store, visibility, filters, textual);
	if (byCwd) return byCwd;
	const started = filters.startedAfter || filters.startedBefore;
	const named = filters.sessions?.length ? filters.sessions.map((n) => n.trim().toLowerCase()) : null;
	const restrict = !visibility.trusted || filters.sessionIds?.length || named || filters.cwds?.length || started || visibility.currentSession !== null;
	if (!restrict) return { ids: null, scope: null };
	const wantIds = filters.sessionIds?.length ? new Set(filters.sessionIds) : null;
	const cwds = (filters.cwds ?? []).map((c) => canonicalPathCached(c) ?? c);
	const from = filters.startedAfter ? parseTime(filters.startedAfter, "after") : -Infinity;
	const to = filters.startedBefore ? parseTime(filters.startedBefore, "before") : Infinity;
	const out: number[] = [];
	const folders: string[][] = [];
	// Thousands of sessions share a few cwds: each cwd's folders and filter verdict are worked out once per search.
	const foldersOf = memo(scopeFolders);
	const cwdAllowed = memo((cwd: string) => {
		const own = canonicalPathCached(cwd) ?? cwd;
		return cwds.some((c) => (filters.cwdSubtree === false ? own === c : isWithin(c, own)));
	});
	for (const s of catalog.sessions()) {
		if (!visibility.allowsSession(s)) continue;
		if (wantIds && !wantIds.has(s.public_id)) continue;
		if (named && !named.some((n) => s.public_id.toLowerCase().startsWith(n) || (s.name ?? "").toLowerCase().includes(n))) continue;
		// A session without a readable start time is outside every start-time range.
		if (started && !(Date.parse(s.created) >= from && Date.parse(s.created) <= to)) continue;
		// The caller's own session only when asked for by id (I17).
		if (s.id === visibility.currentSession && !wantIds?.has(s.public_id)) continue;
		if (cwds.length && !cwdAllowed(s.cwd)) continue;
		out.push(s.id);
		folders.push(foldersOf(s.cwd));
	}
	const folder = commonScope([...new Set(folders)], folders.length, [...cwds, ...(visibility.caller ? [visibility.caller.root] : [])]);
	if (folder === null) return { ids: out, scope: null };
	// When exactly the allowed sessions carry the scope token, the token alone is the filter: no join per match. Only
	// the main FTS table has scope tokens: a listing without a query, or of system prompts, needs the ids.
	if (!textual || filters.kinds?.includes("system.prompt")) return { ids: out, scope: scopeToken(folder) };
	const allowed = new Set(out);
	const others = catalog.sessions().some((s) => !allowed.has(s.id) && foldersOf(s.cwd).includes(folder));
	return { ids: others ? out : null, scope: scopeToken(folder) };
}

/** `f` remembering its answer for each argument. */
function memo<T>(f: (key: string) => T): (key: string) => T {
	const seen = new Map<string, T>();
	return (key) => {
		let value = seen.get(key);
		if (value === undefined) {
			value = f(key);
			seen.set(key, value);
		}
		return value;
	};
}

/** The index's candidate filter for checked search filters, the allowed sessions and the caller's visibility. */
function candidateFilter(filters: SearchFilters, allowed: Allowed, visibility: Visibility): CandidateFilter {
	const exclude =
		visibility.currentSession !== null && visibility.cutoff !== null ? { session: visibility.currentSession, fromEvent: visibility.cutoff } : null;
	return {
		sessions: allowed.ids,
		exclude,
		scope: allowed.scope,
		exact: allowed.exact ?? null,
		kinds: filters.kinds,
		types: filters.types,
		roles: filters.roles,
		tools: filters.tools,
		branchStates: filters.branchStates,
		selectionStates: filters.selectionStates,
		afterMs: filters.after ? parseTime(filters.after, "after") : undefined,
		beforeMs: filters.before ? parseTime(filters.before, "before") : undefined,
		isError: filters.isError,
		files: filters.files,
		labels: filters.labels,
	};
}

/** Projections of the entries readEntryAtCached keeps (the same object while its file is unchanged), by cwd. */
const projections = new WeakMap<ParsedEntry, { cwd: string; projected: ProjectedEvent }>();

/** projectEntry of a cached entry, projected once: joining a 186 KB tool call's arguments again cost a millisecond. */
function projectedOf(entry: ParsedEntry, cwd: string): ProjectedEvent {
	const known = projections.get(entry);
	if (known && known.cwd === cwd) return known.projected;
	const projected = projectEntry(entry, cwd);
	projections.set(entry, { cwd, projected });
	return projected;
}

/** Reads the hit's fragment text from the source and builds its snippet; falls back to the indexed preview. */
function snippetFor(
	catalog: Catalog,
	event: EventRow,
	session: SessionRow,
	fragment: FragmentRow | undefined,
	terms: QueryTerm[],
	chars: number,
): { snippet: string; marks: Array<[number, number]>; note?: string } {
	const fallback = () => ({
		snippet: event.preview.length > chars ? `${event.preview.slice(0, chars - 1)}…` : event.preview,
		marks: [] as Array<[number, number]>,
	});
	const located = readEntryAtCached(catalog.locator(event, session));
	if (!located.ok) return { ...fallback(), note: located.detail };
	const projected = projectedOf(located.entry, session.cwd);
	const target = fragment ? projected.fragments.find((f) => f.id === fragment.frag) : projected.fragments[0];
	if (!target) return fallback();
	const omitted =
		fragment && fragment.omit_start !== null && fragment.omit_end !== null ? ([fragment.omit_start, fragment.omit_end] as [number, number]) : null;
	if (typeof target.text === "string") return buildSnippet(target.text, terms, chars, omitted);
	// A long text: only its indexed head and tail are in memory, and they are all a snippet may show (I20).
	const bound = boundFragment(target.text);
	const around = bound.omitted ?? [bound.head.length, bound.head.length];
	return buildSnippet(bound.head + bound.tail, terms, chars, [bound.head.length, bound.head.length], around[1] - around[0]);
}

/** Where counting the matches of a search stops (HitCount.atLeast): bounds its cost on any history. */
export const TOTAL_CAP = 10_000;
/** How many matching fragments a count reads at most: with a filter that keeps few of them, the count's bound. */
export const TOTAL_SCAN = 100_000;

/** The candidate query of a parsed query: its few-term prefixes written as their terms (vocabulary.ts). */
function candidateQuery(store: IndexStore, parsed: ParsedQuery, filter: CandidateFilter): CandidateQuery {
	const expanded = parsed.terms.some((t) => t.prefix) ? matchOf(parsed.terms, (prefix) => prefixTerms(store, prefix)) : parsed.match;
	return new CandidateQuery(store, parsed.match, filter, expanded);
}

/** How a did-you-mean suggestion's events in scope are counted (its tokens as one phrase). */
function suggestionCount(store: IndexStore, filter: CandidateFilter): (tokens: string[]) => number {
	return (tokens) => new CandidateQuery(store, quote(tokens.join(" ")), filter).countUpTo(SUGGESTION_CAP, TOTAL_SCAN);
}

/**
 * How many events match the request's query, scope and filters (its page, order and snippet size aside), forked
 * copies once, up to `cap`, reading at most `scan` matches; the same rules as search() decide what matches, so the
 * count is of the hits it pages through.
 */
export function countHits(store: IndexStore, request: SearchRequest, cap = TOTAL_CAP, scan = TOTAL_SCAN): HitCount {
	const filters = request.filters ?? {};
	validateFilters(filters);
	const parsed = parseQuery(request.query ?? "", { prefix: request.prefix === true });
	if (parsed.match === null && (request.query ?? "").trim() !== "") return { count: 0, atLeast: false };
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, request.caller);
	const allowed = allowedSessions(catalog, visibility, filters, parsed.match !== null);
	if (allowed.ids !== null && allowed.ids.length === 0) return { count: 0, atLeast: false };
	const filter = candidateFilter(filters, allowed, visibility);
	const query = candidateQuery(store, parsed, filter);
	let counted: { n: number; truncated: boolean } | undefined;
	if (request.exact !== true && parsed.match !== null) {
		// The same tiers as search(): every word (inflected forms too), else the partial matches. The words as written
		// are counted only when they have no other forms: the count with the forms holds theirs.
		const words = wordsOf(store, parsed);
		const inflected = inflectedMatch(words);
		counted = inflected !== null ? new CandidateQuery(store, parsed.match, filter, inflected).count(cap, scan) : query.count(cap, scan);
		if (counted.n === 0 && words.length >= 2) {
			// The answer search() pages through, cached: counting it does not rank it again.
			const { partial } = partialTier(store, parsed, words, filter, catalog.counts().events, suggestionCount(store, filter));
			if (partial) counted = { n: partial.total(), truncated: partial.truncated };
		}
	}
	counted ??= query.count(cap, scan);
	const n = counted.n + query.systemPrompts(cap + 1).length;
	return { count: Math.min(n, cap), atLeast: n > cap || counted.truncated };
}

/**
 * Runs a search (DESIGN §5 `event_search`); `pending` is the number of files a refresh has not reached yet, and
 * `tuning.rankWindow` replaces RANK_WINDOW (tests compare the windowed ranking with the exhaustive one).
 */
export function search(store: IndexStore, request: SearchRequest, pending = 0, tuning: { rankWindow?: number } = {}): SearchResult {
	const filters = request.filters ?? {};
	validateFilters(filters);
	if (request.order !== undefined && !SEARCH_ORDERS.includes(request.order))
		throw new ArgumentError(`unknown order "${String(request.order)}"; use one of: ${SEARCH_ORDERS.join(", ")}`);
	const limit = clamp(request.limit, LIMITS.limit);
	const snippetChars = clamp(request.snippetChars, LIMITS.snippetChars);
	const parsed = parseQuery(request.query ?? "", { prefix: request.prefix === true });
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, request.caller);
	const notes = [...parsed.notes, ...visibility.notes];
	// The id that reaches the caller's own session (sessionId=…): its public id, which a same-id twin's header id is not.
	const own = visibility.currentPublicId !== null ? { currentSessionId: visibility.currentPublicId } : {};
	const counts = catalog.counts();
	const index = { sessions: counts.sessions, events: counts.events, freshAt: counts.freshAt, pending };
	// Totals an untrusted caller may know of (I17).
	if (!visibility.trusted) Object.assign(index, visibleTotals(catalog, visibility));

	if (parsed.match === null && (request.query ?? "").trim() !== "")
		return { hits: [], notes, index, ...own, ...(request.total ? { total: { count: 0, atLeast: false } } : {}) };
	const allowed = allowedSessions(catalog, visibility, filters, parsed.match !== null);
	const query = candidateQuery(store, parsed, candidateFilter(filters, allowed, visibility));
	const offset = Math.max(0, Math.trunc(Number.isFinite(request.offset) ? (request.offset as number) : 0));
	const newest = request.order === "newest";
	const window = tuning.rankWindow ?? RANK_WINDOW;
	// In newest order a common lone term is not scored either: the order is time's, and bm25 would count every match.
	const newestScored = !newest || request.rawScores === true || !commonLoneTerm(query, parsed, window);
	const fetch = (q: CandidateQuery, n: number, from: number) => (newest ? q.newest(n, from, undefined, newestScored) : runSearch(q, n, from, window));
	const none = allowed.ids !== null && allowed.ids.length === 0;
	const listed = none || newest || request.rawScores ? null : newestIfCommon(query, parsed, limit, offset, window);
	if (listed !== null && offset === 0) notes.push(listed.note);
	let candidates = none ? [] : (listed?.page ?? fetch(query, limit, offset));
	let partial: PartialAnswer | null = null;
	let suggestions = new Map<string, Suggestion[]>();
	// Hits of the tiers after "every word as written" mark the words' other forms too; those of the first tier never.
	let widened: QueryTerm[] = parsed.terms;
	const later = new Set<number>();
	if (!none && request.exact !== true && parsed.match !== null && candidates.length < limit) {
		// Events that hold every word as written come first, unchanged; then those holding some word only in another
		// form; only when no event holds every word in any form, the best partial matches.
		const filter = candidateFilter(filters, allowed, visibility);
		const first = candidates.length > 0 ? offset + candidates.length : offset === 0 ? 0 : fetch(query, offset, 0).length;
		const words = wordsOf(store, parsed);
		const inflected = inflectedMatch(words);
		widened = withForms(parsed, words);
		let second = 0;
		if (inflected !== null) {
			const exact = new Set(first > 0 ? fetch(query, first, 0).map((c) => c.eid) : []);
			const rest = fetch(new CandidateQuery(store, parsed.match, filter, inflected), first + offset + limit, 0).filter((c) => !exact.has(c.eid));
			const from = Math.max(0, offset - first);
			const added = rest.slice(from, from + limit - candidates.length);
			for (const c of added) later.add(c.eid);
			candidates = [...candidates, ...added];
			second = rest.length;
		}
		if (first === 0 && second === 0) {
			const tier = partialTier(store, parsed, words, filter, counts.events, suggestionCount(store, filter));
			suggestions = tier.suggestions;
			partial = tier.partial;
			if (partial) candidates = partial.page(offset, limit);
		}
	}
	// System prompt sections live in their own deduplicated table: searched only when the kind is asked for.
	const system = candidates.length === 0 && allowed.ids?.length === 0 ? [] : query.systemPrompts(offset + limit).slice(offset);
	if (system.length) candidates = [...candidates, ...system].sort((a, b) => (newest ? 0 : a.best - b.best)).slice(0, limit);

	const hits: Hit[] = [];
	const sessionCache = new Map<number, SessionRow | undefined>();
	let stale = 0;
	for (const c of candidates) {
		const event = catalog.event(c.eid);
		if (!event) continue;
		if (!sessionCache.has(event.session_id)) sessionCache.set(event.session_id, catalog.session(event.session_id));
		const session = sessionCache.get(event.session_id);
		if (!session || !visibility.allowsEvent(event, session)) continue;
		const fragment = c.fid !== null ? catalog.fragment(event, c.fid) : catalog.fragments(event)[0];
		// A partial hit's snippet looks for the words it holds: one it lacks would be looked for through all its text.
		const held = partial?.written(c.eid);
		const terms = held ? widened.filter((_, i) => held.includes(i)) : later.has(c.eid) ? widened : parsed.terms;
		const snip = snippetFor(catalog, event, session, fragment, terms, snippetChars);
		if (snip.note) stale++;
		hits.push({
			sessionId: session.public_id,
			entryId: event.entry_id,
			fragmentId: fragment?.frag ?? null,
			entryType: event.type,
			kind: fragment?.kind ?? null,
			...(event.role ? { role: event.role } : {}),
			...(event.tool_name ? { toolName: event.tool_name } : fragment?.kind === "tool.call" ? toolNameOf(catalog, event, fragment.frag) : {}),
			timestamp: event.ts,
			...(event.is_error !== null ? { isError: event.is_error === 1 } : {}),
			branchState: event.branch_state,
			contextRole: event.context_role,
			selectionState: event.selection_state,
			...(event.edit_state && event.edit_by ? { contextEdit: { state: event.edit_state, by: event.edit_by } } : {}),
			...(event.type === "context_edit" && event.ref_id ? { targetId: event.ref_id } : {}),
			score: c.fid === null ? 0 : request.rawScores ? c.best : Math.round(-c.best * 1000) / 1000 || 0,
			matchedFragments: c.n,
			snippet: snip.snippet,
			marks: snip.marks,
			...(event.cur_label ? { label: event.cur_label } : event.type === "label" && event.label ? { label: event.label } : {}),
			session: sessionSummary(session),
		});
	}
	if (stale > 0) notes.push(`${stale} hit(s) come from files that changed since indexing; run \`pi-history index\` to refresh`);
	// A copy: the partial answer is kept for the next page and the count.
	const unmatched = [...(partial?.unmatched ?? suggestions.keys())];
	if (partial && hits.length > 0) notes.unshift(PARTIAL_NOTE);
	if (offset === 0) notes.push(...unmatched.map((w) => unmatchedNote(w, suggestions.get(w) ?? [])));
	if (hits.length === 0 && offset === 0) notes.push(...explainEmpty(store, catalog, visibility, parsed, filters, pending));
	return {
		hits,
		notes,
		index,
		...own,
		...(partial && hits.length > 0 ? { match: "partial" as const, unmatched } : {}),
		...(request.total ? { total: countHits(store, request, request.totalCap ?? TOTAL_CAP) } : {}),
	};
}

function toolNameOf(catalog: Catalog, event: EventRow, frag: string): { toolName?: string } {
	const call = catalog.callsOf(event.id).find((c) => c.frag === frag);
	return call ? { toolName: call.name } : {};
}

const FILTER_NAMES: Array<[keyof SearchFilters, string]> = [
	["sessionIds", "session"],
	["sessions", "session"],
	["cwds", "cwd"],
	["kinds", "kind"],
	["types", "type"],
	["roles", "role"],
	["tools", "tool"],
	["after", "after"],
	["before", "before"],
	["isError", "error"],
	["branchStates", "branch"],
	["selectionStates", "selection"],
	["files", "file"],
	["labels", "label"],
	["startedAfter", "after"],
	["startedBefore", "before"],
];

/** Names a word that matched nothing in scope, with the index's nearest terms that do. */
function unmatchedNote(word: string, near: Suggestion[]): string {
	const first = `no event holds \`${word}\``;
	if (near.length === 0) return first;
	const options = near.map((s) => `\`${s.text}\` (${s.events > SUGGESTION_CAP ? `over ${SUGGESTION_CAP}` : s.events} event${s.events === 1 ? "" : "s"})`);
	return `${first}; did you mean ${options.join(" or ")}?`;
}

/** How an empty result says that the caller's own session, left out by default, has hits (I17). */
export const CURRENT_SESSION_NOTE = "your current session has hits";

function countMatches(store: IndexStore, catalog: Catalog, visibility: Visibility, parsed: ParsedQuery, filters: SearchFilters): number {
	const allowed = allowedSessions(catalog, visibility, filters, parsed.match !== null);
	if (allowed.ids !== null && allowed.ids.length === 0) return 0;
	return runSearch(candidateQuery(store, parsed, candidateFilter(filters, allowed, visibility)), 1).length;
}

/** Says why a search came back empty: which filter emptied it, the current-session exclusion, pending indexing. */
function explainEmpty(store: IndexStore, catalog: Catalog, visibility: Visibility, parsed: ParsedQuery, filters: SearchFilters, pending: number): string[] {
	const notes: string[] = [];
	const active = FILTER_NAMES.filter(([key]) => {
		const v = filters[key];
		return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null && v !== "";
	});
	for (const [key, name] of active) {
		const without: SearchFilters = { ...filters, [key]: undefined };
		if (countMatches(store, catalog, visibility, parsed, without) > 0) notes.push(`no hits with the ${name} filter; there are hits without it`);
	}
	if (visibility.currentSession !== null && !filters.sessionIds?.length) {
		const current = catalog.session(visibility.currentSession);
		if (current && countMatches(store, catalog, visibility, parsed, { ...filters, sessionIds: [current.public_id] }) > 0) {
			notes.push(`${CURRENT_SESSION_NOTE}; it is excluded unless you pass sessionId ${current.public_id}`);
		}
	}
	if (!visibility.trusted && visibility.caller) notes.push(`searched sessions whose cwd is under ${visibility.caller.root}`);
	if (pending > 0) notes.push(`${pending} session file(s) are not indexed yet; ask again shortly`);
	if (notes.length === 0) notes.push(parsed.match === null ? "no events match these filters" : "no events match this query");
	return notes;
}
