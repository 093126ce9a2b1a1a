/**
 * `session_search` (seed 003) answered by our index: the same ranked, coalesced, authorized search as event_search
 * (one hit per event, thinking, custom data and details never searchable), narrowed by an exact session cwd and a
 * session start-time range, and reshaped into the seed's hit fields with the raw bm25 score.
 */
import { Catalog } from "../index/catalog.js";
import type { IndexStore } from "../index/store.js";
import { parseTime } from "../shared/filters.js";
import type { SearchFilters, SessionSearchHit, SessionSearchRequest, SessionSearchResult } from "../shared/types.js";
import { CURRENT_SESSION_NOTE, search } from "./search.js";

/** The ISO bounds that parse, and a note for each one that does not (the input is at fault, not the index). */
function timeFilters(request: SessionSearchRequest): { filters: SearchFilters; notes: string[] } {
	const filters: SearchFilters = {};
	const notes: string[] = [];
	for (const [name, key] of [
		["after", "startedAfter"],
		["before", "startedBefore"],
	] as const) {
		const value = request[name];
		if (value === undefined || value.trim() === "") continue;
		try {
			parseTime(value.trim(), name);
			filters[key] = value.trim();
		} catch (error) {
			notes.push(`${(error as Error).message}; nothing searched`);
		}
	}
	return { filters, notes };
}

/** Runs a `session_search` for an authorized caller; `pending` is the number of files a refresh has not reached. */
export function sessionSearch(store: IndexStore, request: SessionSearchRequest, pending = 0): SessionSearchResult {
	const { filters, notes } = timeFilters(request);
	// FTS5 would reject an empty MATCH; ours would list the newest events, which is not what was asked.
	if (request.query.trim() === "") notes.push("the query is empty: give words to search for; nothing searched");
	if (notes.length > 0) return { hits: [], notes };
	if (request.cwd !== undefined && request.cwd !== "") {
		filters.cwds = [request.cwd];
		filters.cwdSubtree = false;
	}
	const result = search(
		store,
		{ query: request.query, filters, limit: request.limit, snippetChars: request.snippetChars, caller: request.caller, rawScores: true, exact: true },
		pending,
	);
	const catalog = new Catalog(store);
	const started = new Map<string, string | null>();
	const hits: SessionSearchHit[] = result.hits.map((h) => {
		if (!started.has(h.sessionId)) started.set(h.sessionId, catalog.sessionByPublicId(h.sessionId)?.created || null);
		return {
			session_id: h.sessionId,
			cwd: h.session.cwd || null,
			started_at: started.get(h.sessionId) ?? null,
			// Entries that are not messages (compaction, branch_summary, custom_message, session_info) name their type.
			role: h.role ?? h.entryType,
			timestamp: h.timestamp || null,
			snippet: h.snippet,
			score: h.score,
		};
	});
	// session_search has no sessionId parameter: the way in that event_search offers does not exist here.
	const shown = result.notes.map((n) => (n.startsWith(CURRENT_SESSION_NOTE) ? `${CURRENT_SESSION_NOTE}; session_search always leaves it out` : n));
	return { hits, notes: shown };
}
