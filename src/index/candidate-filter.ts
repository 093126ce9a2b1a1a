/**
 * What a set of event filters means in SQL for the candidate query (candidates.ts): the WHERE terms on `events e`,
 * how its matches are joined to their events, and the FTS5 MATCH expression with the scope token and the kinds' columns.
 */
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import type { SemanticKind } from "../shared/types.js";
import { KIND_COLUMNS } from "./schema.js";
import type { IndexStore } from "./store.js";

/** Event filters in index terms: session row ids, times in epoch ms, values already checked by the caller. */
export interface CandidateFilter {
	/** Session row ids a hit may come from; null when every session is allowed. */
	sessions: number[] | null;
	/** Events of this session from this event id on are left out (the caller's own, not yet settled turn). */
	exclude: { session: number; fromEvent: number } | null;
	/** An FTS token every allowed session's fragments carry, ANDed into the match as a prefilter. */
	scope: string | null;
	/**
	 * A scope token that alone selects exactly the `sessions`: statements that do not score (an unscored window or
	 * list, counts) filter by it instead of joining every match to its session; bm25 would count its fragments too.
	 */
	exact?: string | null;
	kinds?: SemanticKind[];
	types?: string[];
	roles?: string[];
	tools?: string[];
	branchStates?: string[];
	selectionStates?: string[];
	afterMs?: number;
	beforeMs?: number;
	isError?: boolean;
	files?: string[];
	labels?: string[];
}

function likeEscape(s: string): string {
	return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The WHERE terms (on `events e`) and their parameters for a filter. */
export function filterClauses(filter: CandidateFilter, selectionState: { sql: string; params: unknown[] }): { where: string[]; params: unknown[] } {
	const where: string[] = [];
	const params: unknown[] = [];
	if (filter.sessions !== null) {
		// Not an index constraint (the unary +): through events_filter, whose second column it is, SQLite would probe
		// every listed session for each match instead of testing the match's one session against the list.
		where.push("+e.session_id IN (SELECT value FROM json_each(?))");
		params.push(JSON.stringify(filter.sessions));
	}
	if (filter.exclude !== null) {
		where.push("NOT (e.session_id = ? AND e.id >= ?)");
		params.push(filter.exclude.session, filter.exclude.fromEvent);
	}
	const inList = (column: string, values: string[] | undefined) => {
		if (!values?.length) return;
		where.push(`${column} IN (${values.map(() => "?").join(", ")})`);
		params.push(...values);
	};
	inList("e.type", filter.types);
	inList("e.role", filter.roles);
	inList("e.branch_state", filter.branchStates);
	if (filter.selectionStates?.length) {
		// As readers see it: a compaction's pending runs (summary-runs.ts) summarize rows not written yet.
		where.push(`${selectionState.sql} IN (${filter.selectionStates.map(() => "?").join(", ")})`);
		params.push(...selectionState.params, ...filter.selectionStates);
	}
	if (filter.tools?.length) {
		const marks = filter.tools.map(() => "?").join(", ");
		where.push(`(e.tool_name IN (${marks}) OR EXISTS (SELECT 1 FROM tool_calls tc WHERE tc.event_id = e.id AND tc.name IN (${marks})))`);
		params.push(...filter.tools, ...filter.tools);
	}
	if (filter.afterMs !== undefined) {
		where.push("e.ts_ms >= ?");
		params.push(filter.afterMs);
	}
	if (filter.beforeMs !== undefined) {
		where.push("e.ts_ms <= ?");
		params.push(filter.beforeMs);
	}
	if (filter.isError === true) where.push("e.is_error = 1");
	if (filter.isError === false) where.push("coalesce(e.is_error, 0) = 0");
	if (filter.files?.length) {
		const ors = filter.files.map(() => "(fe.path = ? OR fe.path LIKE ? ESCAPE '\\')").join(" OR ");
		where.push(`EXISTS (SELECT 1 FROM file_evidence fe WHERE fe.event_id = e.id AND (${ors}))`);
		for (const f of filter.files) {
			const trimmed = f.replace(/^\.\//, "");
			params.push(f, `%/${likeEscape(trimmed)}`);
		}
	}
	if (filter.labels?.length) {
		const ors = filter.labels.map(() => "(e.cur_label LIKE ? ESCAPE '\\' OR (e.type = 'label' AND e.label LIKE ? ESCAPE '\\'))").join(" OR ");
		where.push(`(${ors})`);
		for (const l of filter.labels) params.push(`%${likeEscape(l)}%`, `%${likeEscape(l)}%`);
	}
	return { where, params };
}

/**
 * How a filtered statement joins its matches to their events (`events e`). SQLite reads them through the filter index
 * (schema.ts FILTER_INDEX) when it holds every column the filter tests, and through the events' rows otherwise or on an
 * index without it. A filter of branch states alone goes through events_branch, where each state's events lie
 * together: the planner, given it, read the rows instead, so it is named.
 */
export function filterJoin(store: IndexStore, filter: CandidateFilter): string {
	const events = testsBranchOnly(filter) && hasBranchIndex(store) ? "events e INDEXED BY events_branch" : "events e";
	return `fts JOIN ${events} ON e.id = fts.rowid / ${FRAGMENT_SLOTS}`;
}

/** True when a branch state is the only column of the events' rows the filter tests, beside their session and id. */
function testsBranchOnly(filter: CandidateFilter): boolean {
	const others = [filter.types, filter.roles, filter.tools, filter.selectionStates, filter.labels].some((v) => v?.length);
	return (filter.branchStates?.length ?? 0) > 0 && !others && filter.afterMs === undefined && filter.beforeMs === undefined && filter.isError === undefined;
}

/** Whether the index has events_branch: an index built before it gets it only from an open that may take seconds. */
function hasBranchIndex(store: IndexStore): boolean {
	return store.cached("branch-index", () => store.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'events_branch'").get() !== undefined);
}

/** The FTS5 MATCH expression: the query, ANDed with the scope token, limited to the kinds' columns. */
export function matchExpression(match: string, filter: CandidateFilter): string {
	const scoped = filter.scope ? `${match} AND "${filter.scope}"` : match;
	if (!filter.kinds?.length) return scoped;
	const kinds = filter.kinds;
	const cols = KIND_COLUMNS.filter((c) => kinds.includes(c.kind)).map((c) => c.column);
	return `{${cols.join(" ")}} : (${scoped})`;
}
