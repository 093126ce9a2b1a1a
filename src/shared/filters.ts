/**
 * Search filters from what a face was given (CLI flags, tool arguments, the explorer's options): one mapping and one
 * validation, so every face drops empty values, resolves relative folders and names bad values the same way.
 */
import { resolve } from "node:path";
import { ArgumentError } from "./errors.js";
import { isWindowsPath } from "./paths.js";
import { parseTimeExpr } from "./time-expr.js";
import { BRANCH_STATES, type BranchState, SELECTION_STATES, SEMANTIC_KINDS, type SearchFilters, type SelectionState, type SemanticKind } from "./types.js";

/** Filter values as a face received them: unchecked strings, lists that may be empty, blanks meaning "not given". */
export interface FilterArgs {
	sessionIds?: readonly string[];
	sessions?: readonly string[];
	cwds?: readonly string[];
	/** Only sessions whose cwd is this folder or below it; exclusive with `cwds`. */
	workspace?: string;
	kinds?: readonly string[];
	types?: readonly string[];
	roles?: readonly string[];
	tools?: readonly string[];
	after?: string;
	before?: string;
	isError?: boolean;
	branchStates?: readonly string[];
	selectionStates?: readonly string[];
	files?: readonly string[];
	labels?: readonly string[];
}

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
	if (filters.startedAfter) parseTime(filters.startedAfter, "after");
	if (filters.startedBefore) parseTime(filters.startedBefore, "before");
}

/** A folder argument as an absolute path: relative to `base` (the caller's cwd); Windows-style paths kept as written. */
export function resolveFolder(folder: string, base: string): string {
	return isWindowsPath(folder) ? folder : resolve(base, folder);
}

/**
 * The checked SearchFilters for a face's arguments: blanks dropped, folders resolved against `base`, every value
 * checked against its vocabulary, relative times (`2d`, `yesterday`) made ISO against `now`. Throws ArgumentError (usage error) for anything the core cannot take.
 */
export function searchFilters(args: FilterArgs, base: string, now: number = Date.now()): SearchFilters {
	const list = (values: readonly string[] | undefined) => {
		const kept = (values ?? []).filter((v) => v.trim() !== "");
		return kept.length ? kept : undefined;
	};
	const text = (value: string | undefined) => (value?.trim() ? value : undefined);
	const cwds = list(args.cwds);
	const workspace = text(args.workspace);
	if (cwds && workspace) throw new ArgumentError("use either --cwd or --workspace, not both");
	const folders = workspace ? [workspace] : cwds;
	const filters: SearchFilters = {
		sessionIds: list(args.sessionIds),
		sessions: list(args.sessions),
		cwds: folders?.map((f) => resolveFolder(f, base)),
		kinds: list(args.kinds) as SemanticKind[] | undefined,
		types: list(args.types),
		roles: list(args.roles),
		tools: list(args.tools),
		after: timeArg(text(args.after), "after", now),
		before: timeArg(text(args.before), "before", now),
		isError: typeof args.isError === "boolean" ? args.isError : undefined,
		branchStates: list(args.branchStates) as BranchState[] | undefined,
		selectionStates: list(args.selectionStates) as SelectionState[] | undefined,
		files: list(args.files),
		labels: list(args.labels),
	};
	for (const key of Object.keys(filters) as Array<keyof SearchFilters>) if (filters[key] === undefined) delete filters[key];
	validateFilters(filters);
	return filters;
}

/** A time argument as the ISO instant the core takes: ISO kept as written, relative forms resolved against `now`. */
function timeArg(value: string | undefined, flag: string, now: number): string | undefined {
	if (value === undefined) return undefined;
	if (/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return value.trim();
	const t = parseTimeExpr(value, now);
	if (!t.ok)
		throw new ArgumentError(`${flag} must be an ISO date such as 2026-01-31 or a relative time such as 2d, 3h, yesterday or last week, not "${value}"`);
	return t.iso;
}
