/**
 * event_search: ranks matching fragments with bm25 (per-kind weights), coalesces them into one hit per
 * (sessionId, entryId), applies structured filters and visibility, and builds snippets from the source lines.
 */

import { Catalog, type EventRow, type FragmentRow, type SessionRow, sessionSummary } from "../index/catalog.js";
import { FRAGMENT_SLOTS, KIND_COLUMN_INDEX, KIND_COLUMNS } from "../index/schema.js";
import type { IndexStore } from "../index/store.js";
import { searchSystemTexts } from "../index/system-texts.js";
import { projectEntry } from "../project/entry.js";
import { scopeFolders, scopeToken } from "../project/tokens.js";
import { clamp, LIMITS } from "../shared/bounds.js";
import { ArgumentError } from "../shared/errors.js";
import {
	BRANCH_STATES,
	type Hit,
	SELECTION_STATES,
	SEMANTIC_KINDS,
	type SearchFilters,
	type SearchRequest,
	type SearchResult,
	type SemanticKind,
} from "../shared/types.js";
import { readEntryAt } from "../source/locate.js";
import { canonicalPathCached, isWithin } from "./authorize.js";
import { type ParsedQuery, parseQuery } from "./query-parse.js";
import { buildSnippet } from "./snippet.js";
import { Visibility } from "./visibility.js";

const SHIFT = Math.log2(FRAGMENT_SLOTS);
const BM25_WEIGHTS = KIND_COLUMNS.map((c) => c.weight.toFixed(2)).join(", ");

/** Parses an ISO date or date-time; throws ArgumentError otherwise. */
export function parseTime(value: string, flag: string): number {
	const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
	if (!Number.isFinite(ms)) throw new ArgumentError(`${flag} must be an ISO date such as 2026-01-31 or 2026-01-31T12:00:00Z, not "${value}"`);
	return ms;
}

/** Checks filter values against the vocabularies; throws ArgumentError naming the allowed values. */
export function validateFilters(filters: SearchFilters): void {
	const check = <T extends string>(values: string[] | undefined, allowed: readonly T[], name: string) => {
		for (const v of values ?? []) if (!allowed.includes(v as T)) throw new ArgumentError(`unknown ${name} "${v}"; use one of: ${allowed.join(", ")}`);
	};
	check(filters.kinds, SEMANTIC_KINDS, "kind");
	check(filters.branchStates, BRANCH_STATES, "branch state");
	check(filters.selectionStates, SELECTION_STATES, "selection state");
	if (filters.after) parseTime(filters.after, "after");
	if (filters.before) parseTime(filters.before, "before");
}

function likeEscape(s: string): string {
	return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface Candidate {
	eid: number;
	best: number;
	n: number;
	fid: number | null;
}

/** Sessions a search may return: row ids (null when every session is allowed) and a scope token that prefilters them. */
interface Allowed {
	ids: number[] | null;
	/** An FTS token all allowed sessions' fragments carry, when one exists (see scopeToken); null otherwise. */
	scope: string | null;
}

/** Session rows allowed by visibility and the session/cwd filters; null when every session is allowed. */
function allowedSessions(catalog: Catalog, visibility: Visibility, filters: SearchFilters): Allowed {
	const restrict = !visibility.trusted || filters.sessionIds?.length || filters.cwds?.length || visibility.currentSession !== null;
	if (!restrict) return { ids: null, scope: null };
	const wantIds = filters.sessionIds?.length ? new Set(filters.sessionIds) : null;
	const cwds = (filters.cwds ?? []).map((c) => canonicalPathCached(c) ?? c);
	const out: number[] = [];
	const folders: string[][] = [];
	for (const s of catalog.sessions()) {
		if (!visibility.allowsSession(s)) continue;
		if (wantIds && !wantIds.has(s.public_id)) continue;
		// The caller's own session only when asked for by id (I17).
		if (s.id === visibility.currentSession && !wantIds?.has(s.public_id)) continue;
		if (cwds.length) {
			const own = canonicalPathCached(s.cwd) ?? s.cwd;
			if (!cwds.some((c) => (filters.cwdSubtree === false ? own === c : isWithin(c, own)))) continue;
		}
		out.push(s.id);
		folders.push(scopeFolders(s.cwd));
	}
	return { ids: out, scope: commonScope(folders, [...cwds, ...(visibility.caller ? [visibility.caller.root] : [])]) };
}

/**
 * The most specific candidate folder (a cwd filter or the caller's root) that every allowed session's own cwd,
 * as written in its header, lies in: only then do all their fragments carry its token (symlinks can make the
 * canonical and the written path differ, and then no prefilter is used).
 */
function commonScope(folders: string[][], candidates: string[]): string | null {
	if (folders.length === 0 || folders.length > 5000) return null;
	let best: string | null = null;
	for (const candidate of candidates) {
		const c = scopeFolders(candidate)[0];
		if (c === undefined || (best !== null && c.length <= best.length)) continue;
		if (folders.every((f) => f.includes(c))) best = c;
	}
	return best === null ? null : scopeToken(best);
}

interface Sql {
	where: string[];
	params: unknown[];
	/** A scope token ANDed into the full-text match (see allowedSessions). */
	scope: string | null;
}

function filterSql(filters: SearchFilters, allowed: Allowed, visibility: Visibility): Sql {
	const where: string[] = [];
	const params: unknown[] = [];
	const sessions = allowed.ids;
	if (sessions !== null) {
		where.push("e.session_id IN (SELECT value FROM json_each(?))");
		params.push(JSON.stringify(sessions));
	}
	if (visibility.currentSession !== null && visibility.cutoff !== null) {
		where.push("NOT (e.session_id = ? AND e.id >= ?)");
		params.push(visibility.currentSession, visibility.cutoff);
	}
	const inList = (column: string, values: string[] | undefined) => {
		if (!values?.length) return;
		where.push(`${column} IN (${values.map(() => "?").join(", ")})`);
		params.push(...values);
	};
	inList("e.type", filters.types);
	inList("e.role", filters.roles);
	inList("e.branch_state", filters.branchStates);
	inList("e.selection_state", filters.selectionStates);
	if (filters.tools?.length) {
		const marks = filters.tools.map(() => "?").join(", ");
		where.push(`(e.tool_name IN (${marks}) OR EXISTS (SELECT 1 FROM tool_calls tc WHERE tc.event_id = e.id AND tc.name IN (${marks})))`);
		params.push(...filters.tools, ...filters.tools);
	}
	if (filters.after) {
		where.push("e.ts_ms >= ?");
		params.push(parseTime(filters.after, "after"));
	}
	if (filters.before) {
		where.push("e.ts_ms <= ?");
		params.push(parseTime(filters.before, "before"));
	}
	if (filters.isError === true) where.push("e.is_error = 1");
	if (filters.isError === false) where.push("coalesce(e.is_error, 0) = 0");
	if (filters.files?.length) {
		const ors = filters.files.map(() => "(fe.path = ? OR fe.path LIKE ? ESCAPE '\\')").join(" OR ");
		where.push(`EXISTS (SELECT 1 FROM file_evidence fe WHERE fe.event_id = e.id AND (${ors}))`);
		for (const f of filters.files) {
			const trimmed = f.replace(/^\.\//, "");
			params.push(f, `%/${likeEscape(trimmed)}`);
		}
	}
	if (filters.labels?.length) {
		const ors = filters.labels.map(() => "(e.cur_label LIKE ? ESCAPE '\\' OR (e.type = 'label' AND e.label LIKE ? ESCAPE '\\'))").join(" OR ");
		where.push(`(${ors})`);
		for (const l of filters.labels) params.push(`%${likeEscape(l)}%`, `%${likeEscape(l)}%`);
	}
	return { where, params, scope: allowed.scope };
}

function kindColumns(kinds: SemanticKind[] | undefined): string | null {
	if (!kinds?.length) return null;
	const cols = KIND_COLUMNS.filter((c) => kinds.includes(c.kind)).map((c) => c.column);
	return `{${cols.join(" ")}}`;
}

/** The FTS5 MATCH expression: the query, ANDed with the scope token, limited to the kinds' columns. */
function matchExpression(parsed: ParsedQuery, filters: SearchFilters, sql: Sql): string {
	const scoped = sql.scope ? `${parsed.match} AND "${sql.scope}"` : (parsed.match as string);
	const columns = kindColumns(filters.kinds);
	return columns ? `${columns} : (${scoped})` : scoped;
}

/**
 * Copies of one entry in forked files (same entryId, byte-identical line) are separate events, but only the
 * best-ranked copy keeps its place: the others rank after every distinct event, so a fork family cannot fill a page.
 */
const RANKED_ORDER = "ORDER BY (copy_rank > 1), best, ts_ms DESC, eid DESC";

interface Window {
	rows: Array<Candidate & { copy_rank: number }>;
	exhausted: boolean;
}

/**
 * Ranks within the best `k` fragments (or the `k` newest events without a query). Exact for the page as long as
 * the window holds enough distinct events: an event's best fragment is in the window whenever any of its
 * fragments is, and the first copy of an entry in the window is its best-ranked copy overall.
 */
function rankWindow(store: IndexStore, parsed: ParsedQuery, filters: SearchFilters, sql: Sql, k: number): Window {
	const where = sql.where.length ? `AND ${sql.where.join(" AND ")}` : "";
	if (parsed.match !== null) {
		const match = matchExpression(parsed, filters, sql);
		// With event filters, filter inside the window (one join per match) so the window holds only kept events;
		// without, join only the window's rows.
		const m = sql.where.length
			? `SELECT fts.rowid AS fid, bm25(fts, ${BM25_WEIGHTS}) AS score FROM fts JOIN events e ON e.id = (fts.rowid >> ${SHIFT})
				WHERE fts MATCH ? ${where} ORDER BY score LIMIT ?`
			: `SELECT rowid AS fid, bm25(fts, ${BM25_WEIGHTS}) AS score FROM fts WHERE fts MATCH ? ORDER BY score LIMIT ?`;
		const query = `
			WITH m AS MATERIALIZED (${m}),
			hits AS (
				SELECT e.id AS eid, min(m.score) AS best, count(*) AS n, m.fid AS fid, e.entry_id, e.line_hash, e.ts_ms
				FROM m JOIN events e ON e.id = (m.fid >> ${SHIFT})
				GROUP BY e.id
			),
			ranked AS (SELECT *, row_number() OVER (PARTITION BY entry_id, line_hash ORDER BY best, ts_ms DESC, eid DESC) AS copy_rank FROM hits)
			SELECT eid, best, n, fid, copy_rank, (SELECT count(*) FROM m) AS window FROM ranked ${RANKED_ORDER}`;
		const rows = store.prepare<unknown[], Candidate & { copy_rank: number; window: number }>(query).all(match, ...sql.params, k);
		const seen = rows[0]?.window ?? 0;
		return { rows, exhausted: seen < k };
	}
	const mask = (filters.kinds ?? []).reduce((m, kind) => m | (1 << (KIND_COLUMN_INDEX.get(kind) as number)), 0);
	const kindWhere = mask ? `AND (e.kinds & ${mask}) <> 0` : "";
	const query = `
		WITH hits AS MATERIALIZED (SELECT e.id AS eid, 0.0 AS best, 0 AS n, NULL AS fid, e.entry_id, e.line_hash, e.ts_ms FROM events e
			WHERE 1 ${where} ${kindWhere} ORDER BY e.ts_ms DESC, e.id DESC LIMIT ?),
		ranked AS (SELECT *, row_number() OVER (PARTITION BY entry_id, line_hash ORDER BY ts_ms DESC, eid DESC) AS copy_rank FROM hits)
		SELECT eid, best, n, fid, copy_rank FROM ranked ORDER BY (copy_rank > 1), ts_ms DESC, eid DESC`;
	const rows = store.prepare<unknown[], Candidate & { copy_rank: number }>(query).all(...sql.params, k);
	return { rows, exhausted: rows.length < k };
}

/** Ranked, coalesced candidates for one page: widens the window until the page is exact. */
function runSearch(store: IndexStore, parsed: ParsedQuery, filters: SearchFilters, sql: Sql, limit: number, offset = 0): Candidate[] {
	const need = limit + offset;
	// Every round scores all matches again, so rounds are few: a window, a window widened by how many of the first
	// one the filters kept, then every match.
	let k = Math.max(256, need * 8);
	for (let round = 1; ; round++) {
		const w = rankWindow(store, parsed, filters, sql, k);
		const distinct = w.rows.reduce((n, r) => n + (r.copy_rank === 1 ? 1 : 0), 0);
		const grow = Math.min(64, Math.max(4, Math.ceil((2 * need) / Math.max(1, distinct))));
		const nextK = round >= 2 ? Number.MAX_SAFE_INTEGER : k * grow;
		if (w.exhausted || distinct >= need) {
			const page = w.rows.slice(offset, offset + limit);
			// An event's other matching fragments may lie outside the window: count them for the page, in one pass
			// over the matches without scoring (FTS5 decodes the whole doclist even for a rowid range).
			if (!w.exhausted && parsed.match !== null && page.length > 0) {
				const match = matchExpression(parsed, filters, sql);
				const counts = store
					.prepare<[string, string], { eid: number; n: number }>(
						`SELECT rowid >> ${SHIFT} AS eid, count(*) AS n FROM fts WHERE fts MATCH ? GROUP BY eid HAVING eid IN (SELECT value FROM json_each(?))`,
					)
					.all(match, JSON.stringify(page.map((c) => c.eid)));
				const byEvent = new Map(counts.map((r) => [r.eid, r.n]));
				for (const c of page) c.n = byEvent.get(c.eid) ?? c.n;
			}
			return page;
		}
		k = nextK;
	}
}

/** Reads the hit's fragment text from the source and builds its snippet; falls back to the indexed preview. */
function snippetFor(
	catalog: Catalog,
	event: EventRow,
	session: SessionRow,
	fragment: FragmentRow | undefined,
	parsed: ParsedQuery,
	chars: number,
): { snippet: string; marks: Array<[number, number]>; note?: string } {
	const fallback = () => ({
		snippet: event.preview.length > chars ? `${event.preview.slice(0, chars - 1)}…` : event.preview,
		marks: [] as Array<[number, number]>,
	});
	const located = readEntryAt(catalog.locator(event, session));
	if (!located.ok) return { ...fallback(), note: located.detail };
	const projected = projectEntry(located.entry, session.cwd);
	const target = fragment ? projected.fragments.find((f) => f.id === fragment.frag) : projected.fragments[0];
	if (!target) return fallback();
	const omitted =
		fragment && fragment.omit_start !== null && fragment.omit_end !== null ? ([fragment.omit_start, fragment.omit_end] as [number, number]) : null;
	return buildSnippet(target.text, parsed.terms, chars, omitted);
}

/** Runs a search (DESIGN §5 `event_search`); `pending` is the number of files a refresh has not reached yet. */
export function search(store: IndexStore, request: SearchRequest, pending = 0): SearchResult {
	const filters = request.filters ?? {};
	validateFilters(filters);
	const limit = clamp(request.limit, LIMITS.limit);
	const snippetChars = clamp(request.snippetChars, LIMITS.snippetChars);
	const parsed = parseQuery(request.query ?? "", { prefix: request.prefix === true });
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, request.caller);
	const notes = [...parsed.notes];
	const counts = catalog.counts();
	const index = { sessions: counts.sessions, events: counts.events, freshAt: counts.freshAt, pending };
	if (!visibility.trusted) {
		// Totals never count sessions the caller may not see (I17): they would reveal that other projects exist.
		const visible = catalog.sessions().filter((s) => visibility.allowsSession(s));
		index.sessions = visible.length;
		index.events = visible.reduce((n, s) => n + s.entries, 0);
	}

	if (parsed.match === null && (request.query ?? "").trim() !== "") return { hits: [], notes, index };
	const allowed = allowedSessions(catalog, visibility, filters);
	const sql = filterSql(filters, allowed, visibility);
	const offset = Math.max(0, Math.trunc(Number.isFinite(request.offset) ? (request.offset as number) : 0));
	const none = allowed.ids !== null && allowed.ids.length === 0;
	let candidates = none ? [] : runSearch(store, parsed, filters, sql, limit, offset);
	// System prompt sections live in their own deduplicated table: searched only when the kind is asked for.
	if (!none && parsed.match !== null && filters.kinds?.includes("system.prompt")) {
		const system = searchSystemTexts(store, parsed.match, sql.where, sql.params, FRAGMENT_SLOTS, offset + limit).slice(offset);
		candidates = [...candidates, ...system].sort((a, b) => a.best - b.best).slice(0, limit);
	}

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
		const snip = snippetFor(catalog, event, session, fragment, parsed, snippetChars);
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
			score: c.fid === null ? 0 : Math.round(-c.best * 1000) / 1000,
			matchedFragments: c.n,
			snippet: snip.snippet,
			marks: snip.marks,
			...(event.cur_label ? { label: event.cur_label } : event.type === "label" && event.label ? { label: event.label } : {}),
			session: sessionSummary(session),
		});
	}
	if (stale > 0) notes.push(`${stale} hit(s) come from files that changed since indexing; run \`pi-history index\` to refresh`);
	if (hits.length === 0 && offset === 0) notes.push(...explainEmpty(store, catalog, visibility, parsed, filters, pending));
	return { hits, notes, index };
}

function toolNameOf(catalog: Catalog, event: EventRow, frag: string): { toolName?: string } {
	const call = catalog.callsOf(event.id).find((c) => c.frag === frag);
	return call ? { toolName: call.name } : {};
}

const FILTER_NAMES: Array<[keyof SearchFilters, string]> = [
	["sessionIds", "session"],
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
];

function countMatches(store: IndexStore, catalog: Catalog, visibility: Visibility, parsed: ParsedQuery, filters: SearchFilters): number {
	const allowed = allowedSessions(catalog, visibility, filters);
	if (allowed.ids !== null && allowed.ids.length === 0) return 0;
	return runSearch(store, parsed, filters, filterSql(filters, allowed, visibility), 1).length;
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
			notes.push(`your current session has hits; it is excluded unless you pass sessionId ${current.public_id}`);
		}
	}
	if (!visibility.trusted && visibility.caller) notes.push(`searched sessions whose cwd is under ${visibility.caller.root}`);
	if (pending > 0) notes.push(`${pending} session file(s) are not indexed yet; ask again shortly`);
	if (notes.length === 0) notes.push(parsed.match === null ? "no events match these filters" : "no events match this query");
	return notes;
}
