/**
 * The search screen's title and empty-list lines from the explorer's state, for every host (the Ink SearchScreen
 * and pi's overlay draw the same chips, counts and empty-list help).
 */
import type { IndexStatus } from "../../src/shared/types.js";
import type { IndexingState } from "../core/explorer-service.js";
import type { StyledLine } from "../core/styled.js";
import { emptyLines, titleLine } from "../search/search-view.js";
import { EMPTY_LIST_KEYS } from "./help.js";
import type { State } from "./state.js";

/** The title line: banner, scope, filters, order, how many hits. */
export function searchTitle(s: State, banner: string | null, width: number): StyledLine {
	const h = s.hits;
	const r = h.results;
	return titleLine(
		{
			banner,
			scope: h.scope,
			workspace: h.workspace,
			session: h.scopeSession,
			filters: h.filters,
			order: h.order,
			group: h.group,
			count: h.group ? r.all.length : r.hits.length,
			more: !r.exhausted,
			total: r.total,
			...(h.group ? { sessions: r.hits.length } : {}),
			loading: r.status === "loading" && r.hits.length === 0,
			query: s.query.text,
		},
		width,
	);
}

/** What an empty hit list says (searching, an error, no match and why, the keys that widen the search). */
export function emptyListLines(s: State, indexing: IndexingState, status: IndexStatus | null): ReturnType<typeof emptyLines> {
	const h = s.hits;
	const r = h.results;
	return emptyLines({
		loading: r.status === "loading",
		error: r.error,
		query: s.query.text,
		notes: r.notes,
		scope: h.scope,
		filters: h.filters,
		indexEvents: r.index?.events ?? null,
		indexing,
		status,
		keys: EMPTY_LIST_KEYS,
	});
}
