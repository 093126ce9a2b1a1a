/** Scope and filters: what the picker offers, how they read as chips, and the SearchRequest they become. */

import { shortPath } from "../../src/present/text.js";
import type { Hit, SearchOrder, SearchRequest } from "../../src/shared/types.js";
import { type Filters, toSearchFilters } from "./filter-fields.js";

/** Which sessions a search covers. */
export type Scope = "all" | "workspace" | "session";

export { type Chip, type Filters, filterChips, ROLES } from "./filter-fields.js";

/** The session a "this session" scope means. */
export interface ScopeSession {
	id: string;
	label: string;
}

/**
 * The query's `label:TEXT` (or `label:"two words"`) fields, taken out of the text: label text is not in the full-text
 * index, so it is found as a filter, like the picker's label row and the CLI's --label.
 */
export function splitQuery(query: string): { text: string; labels: string[] } {
	if (!/(^|\s)label:/i.test(query)) return { text: query, labels: [] };
	const labels: string[] = [];
	const text = query
		.replace(/(^|\s)label:(?:"([^"]*)"?|(\S*))/gi, (_m, lead: string, quoted: string | undefined, bare: string | undefined) => {
			const l = (quoted ?? bare ?? "").trim();
			if (l) labels.push(l);
			return lead;
		})
		.replace(/\s+/g, " ")
		.replace(/^ /, "");
	// A trailing space stays: it ends the last word (an exact word, not a prefix), as without a label field.
	return { text: text.trim() === "" ? "" : text, labels };
}

/** Tool names seen in the hits, first-seen order. */
export function toolsIn(hits: readonly Pick<Hit, "toolName">[]): string[] {
	return [...new Set(hits.map((h) => h.toolName).filter((t): t is string => typeof t === "string"))];
}

/** The chip for the scope. */
export function scopeChip(scope: Scope, workspace: string | null, session: ScopeSession | null): string {
	if (scope === "workspace" && workspace) return `workspace ${shortPath(workspace, 2)}`;
	if (scope === "session" && session) return `session ${session.label}`;
	return "all sessions";
}

/** The next scope in the cycle all → workspace → session → all, skipping what is not available. */
export function nextScope(scope: Scope, hasWorkspace: boolean, hasSession: boolean): Scope {
	const order: Scope[] = ["all", "workspace", "session"];
	const ok = (s: Scope) => s === "all" || (s === "workspace" && hasWorkspace) || (s === "session" && hasSession);
	let i = order.indexOf(scope);
	for (let step = 0; step < order.length; step++) {
		i = (i + 1) % order.length;
		const candidate = order[i] as Scope;
		if (ok(candidate)) return candidate;
	}
	return "all";
}

/** Hits asked for per page; the list asks for the next page as the cursor nears the end. */
export const PAGE_SIZE = 50;

/** Inputs of a search request. */
export interface RequestInput {
	query: string;
	scope: Scope;
	workspace: string | null;
	session: ScopeSession | null;
	filters: Filters;
	offset: number;
	now: number;
	order?: SearchOrder;
}

/** The SearchRequest for the current query, scope, filters and order (prefix matching: search as you type). */
export function searchRequest(input: RequestInput): SearchRequest {
	const q = splitQuery(input.query);
	const filters = toSearchFilters(
		input.filters,
		{
			cwd: input.scope === "workspace" && input.workspace ? input.workspace : null,
			sessionId: input.scope === "session" && input.session ? input.session.id : null,
		},
		input.now,
	);
	if (q.labels.length > 0) filters.labels = [...(filters.labels ?? []), ...q.labels];
	return {
		query: q.text,
		prefix: prefixWorthy(q.text),
		filters,
		limit: PAGE_SIZE,
		...(input.offset > 0 ? { offset: input.offset } : {}),
		...(input.order === "newest" ? { order: "newest" as const } : {}),
	};
}

/**
 * Search as you type matches the last word as a prefix once it has two characters: a one-letter prefix matches
 * nearly every event and costs the most (≈300 ms on a 150 MB history against ≈20 ms for two letters).
 */
export function prefixWorthy(query: string): boolean {
	const last = /(\S+)$/.exec(query)?.[1] ?? "";
	return [...last.replace(/^"/, "")].length >= 2;
}
