/** Scope and filters: what the picker offers, how they read as chips, and the SearchRequest they become. */

import { shortPath } from "../src/present/text.js";
import { BRANCH_STATES, type BranchState, type Hit, SEMANTIC_KINDS, type SearchFilters, type SearchRequest, type SemanticKind } from "../src/shared/types.js";

/** Which sessions a search covers. */
export type Scope = "all" | "workspace" | "session";

/** Time ranges the picker offers, counted back from now. */
export const TIME_RANGES = ["24h", "7d", "30d", "365d"] as const;
/** A time range of the picker. */
export type TimeRange = (typeof TIME_RANGES)[number];

const RANGE_MS: Record<TimeRange, number> = { "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000, "365d": 365 * 86_400_000 };

/** The filters a person can set in the picker (one value each keeps the chips short). */
export interface Filters {
	kind?: SemanticKind;
	role?: string;
	tool?: string;
	error?: boolean;
	branch?: BranchState;
	since?: TimeRange;
	/** Events carrying this label (pi's `label` entries and the labelled entries; a substring, any case). */
	label?: string;
}

/** The session a "this session" scope means. */
export interface ScopeSession {
	id: string;
	label: string;
}

/** Roles pi writes on message entries. */
export const ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom"] as const;
/** Pi's built-in tools; tools seen in the current hits are added to the picker. */
export const COMMON_TOOLS = ["bash", "read", "edit", "write", "grep", "find", "ls"] as const;

/** One row of the filter picker: its label and the values it cycles through (undefined = any). */
export interface FilterField {
	key: keyof Filters;
	label: string;
	values: Array<Filters[keyof Filters]>;
	show(value: Filters[keyof Filters]): string;
}

/** The picker's rows; `tools` and `labels` extend the tool and label lists with names seen in the hits. */
export function filterFields(tools: readonly string[] = [], labels: readonly string[] = []): FilterField[] {
	const toolList = [...new Set([...COMMON_TOOLS, ...tools])];
	const any = (v: unknown) => (v === undefined ? "any" : String(v));
	return [
		{ key: "kind", label: "kind", values: [undefined, ...SEMANTIC_KINDS], show: any },
		{ key: "role", label: "role", values: [undefined, ...ROLES], show: any },
		{ key: "tool", label: "tool", values: [undefined, ...toolList], show: any },
		{ key: "error", label: "error", values: [undefined, true, false], show: (v) => (v === undefined ? "any" : v ? "errors only" : "no errors") },
		{ key: "branch", label: "branch", values: [undefined, ...BRANCH_STATES], show: (v) => (v === undefined ? "any" : String(v)) },
		{ key: "since", label: "time", values: [undefined, ...TIME_RANGES], show: (v) => (v === undefined ? "any time" : `last ${String(v)}`) },
		// Labels seen in the hits (and the one set); any other label is typed in the query as label:TEXT.
		{ key: "label", label: "label", values: [undefined, ...labels], show: (v) => (v === undefined ? "any (or type label:TEXT)" : String(v)) },
	];
}

/** Steps a filter row to its next (dir 1) or previous (dir -1) value, wrapping around. */
export function cycleFilter(filters: Filters, field: FilterField, dir: 1 | -1): Filters {
	const current = filters[field.key];
	const at = Math.max(0, field.values.indexOf(current));
	const next = field.values[(at + dir + field.values.length) % field.values.length];
	const out: Filters = { ...filters };
	if (next === undefined) delete out[field.key];
	else (out as Record<string, unknown>)[field.key] = next;
	return out;
}

/** Labels seen in the hits, first-seen order (the picker offers them). */
export function labelsIn(hits: readonly Pick<Hit, "label">[]): string[] {
	return [...new Set(hits.map((h) => h.label).filter((l): l is string => typeof l === "string" && l !== ""))];
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

/** Tool names seen in the hits, first-seen order (the picker offers them besides the common tools). */
export function toolsIn(hits: readonly Pick<Hit, "toolName">[]): string[] {
	return [...new Set(hits.map((h) => h.toolName).filter((t): t is string => typeof t === "string"))];
}

/** Short chip texts for the active filters, in picker order. */
export function filterChips(filters: Filters): string[] {
	const out: string[] = [];
	if (filters.kind) out.push(`kind:${filters.kind}`);
	if (filters.role) out.push(`role:${filters.role}`);
	if (filters.tool) out.push(`tool:${filters.tool}`);
	if (filters.error !== undefined) out.push(filters.error ? "errors only" : "no errors");
	if (filters.branch) out.push(`branch:${filters.branch}`);
	if (filters.since) out.push(`last ${filters.since}`);
	if (filters.label) out.push(`label:${filters.label}`);
	return out;
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
}

/** The SearchRequest for the current query, scope and filters (prefix matching: search as you type). */
export function searchRequest(input: RequestInput): SearchRequest {
	const f = input.filters;
	const filters: SearchFilters = {};
	if (input.scope === "workspace" && input.workspace) filters.cwds = [input.workspace];
	if (input.scope === "session" && input.session) filters.sessionIds = [input.session.id];
	if (f.kind) filters.kinds = [f.kind];
	if (f.role) filters.roles = [f.role];
	if (f.tool) filters.tools = [f.tool];
	if (f.error !== undefined) filters.isError = f.error;
	if (f.branch) filters.branchStates = [f.branch];
	if (f.since) filters.after = new Date(input.now - RANGE_MS[f.since]).toISOString();
	const q = splitQuery(input.query);
	const labels = [...(f.label ? [f.label] : []), ...q.labels];
	if (labels.length > 0) filters.labels = labels;
	return { query: q.text, prefix: prefixWorthy(q.text), filters, limit: PAGE_SIZE, ...(input.offset > 0 ? { offset: input.offset } : {}) };
}

/**
 * Search as you type matches the last word as a prefix once it has two characters: a one-letter prefix matches
 * nearly every event and costs the most (≈300 ms on a 150 MB history against ≈20 ms for two letters).
 */
export function prefixWorthy(query: string): boolean {
	const last = /(\S+)$/.exec(query)?.[1] ?? "";
	return [...last.replace(/^"/, "")].length >= 2;
}
