/**
 * Filters as a person types them, for the explorer (components may not import src/shared/filters directly): the
 * face-independent mapping and its time expressions, so the explorer's typed filters and the CLI's flags mean the same.
 */
import { type FilterArgs, searchFilters } from "../shared/filters.js";
import { isWindowsPath } from "../shared/paths.js";
import { parseTimeExpr, type TimeExpr } from "../shared/time-expr.js";
import type { SearchFilters } from "../shared/types.js";

export type { FilterArgs, TimeExpr };

/** A time expression (ISO, `2d`, `yesterday`, `last week`) against `now`; never throws. */
export function timeExpr(text: string, now: number): TimeExpr {
	return parseTimeExpr(text, now);
}

/** Whether a folder is absolute (POSIX or Windows). */
export function isAbsoluteFolder(path: string): boolean {
	return path.startsWith("/") || isWindowsPath(path);
}

/** The core's filters for typed values, through the mapping every face uses (folders must already be absolute). */
export function typedSearchFilters(args: FilterArgs, now: number): SearchFilters {
	return searchFilters(args, "/", now);
}
