/**
 * `pi-history search`, shared by the full command line (commands.ts, meow) and the fast start path (search-fast.ts):
 * a user waits for this command's start on every call, so this module loads no flag parser, React or Ink.
 */
import { formatProgress, formatSearch, makeStyle, neutralize, safeJson } from "../present/text.js";
import type { HistoryService } from "../service/service.js";
import { ArgumentError, IndexUnavailableError, NotFoundError, SourceChangedError } from "../shared/errors.js";
import { searchFilters } from "../shared/filters.js";
import { SEARCH_ORDERS, type SearchFilters, type SearchOrder } from "../shared/types.js";
import { colorWanted } from "./color.js";

/** Where `search` stops counting the matches it does not show. */
export const CLI_TOTAL_CAP = 1000;

/** The flags `search` reads, as meow gives them (camelCase, repeatable ones as lists). */
export interface SearchFlags {
	sessionsDir?: string[];
	index?: string;
	workspace?: string;
	json?: boolean;
	color?: boolean;
	refresh?: boolean;
	limit?: number;
	snippetChars?: number;
	session?: string[];
	cwd?: string[];
	kind?: string[];
	type?: string[];
	role?: string[];
	tool?: string[];
	after?: string;
	before?: string;
	error?: boolean;
	branch?: string[];
	selection?: string[];
	file?: string[];
	label?: string[];
	order?: string;
}

/** Comma-separated or repeated values as one list; undefined when none is left. */
export function list(values: string[] | undefined): string[] | undefined {
	const out = (values ?? [])
		.flatMap((v) => v.split(","))
		.map((v) => v.trim())
		.filter(Boolean);
	return out.length ? out : undefined;
}

/** A numeric flag's value, or a usage error when it is not a number. */
export function count(value: number | undefined, flag: string): number | undefined {
	if (value === undefined) return undefined;
	if (!Number.isFinite(value)) throw new ArgumentError(`--${flag} must be a number`);
	return value;
}

/** The hit order `--order` names (relevance by default), or a usage error for another word. */
export function orderOf(flags: SearchFlags): SearchOrder | undefined {
	if (flags.order === undefined) return undefined;
	const order = SEARCH_ORDERS.find((o) => o === flags.order);
	if (!order) throw new ArgumentError(`--order must be ${SEARCH_ORDERS.join(" or ")} for search`);
	return order;
}

/** Writes a result to stdout, ending with one newline. */
export function write(text: string): void {
	process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Writes a note or an error to stderr. */
export function note(text: string): void {
	// Notes and errors carry file paths and session text: never raw to the terminal (I21).
	process.stderr.write(`${neutralize(text)}\n`);
}

/** The search filters the flags name, checked (a wrong --kind is a usage error). */
export function filtersOf(flags: SearchFlags): SearchFilters {
	return searchFilters(
		{
			sessionIds: list(flags.session),
			cwds: list(flags.cwd),
			workspace: flags.workspace,
			kinds: list(flags.kind),
			types: list(flags.type),
			roles: list(flags.role),
			tools: list(flags.tool),
			after: flags.after,
			before: flags.before,
			isError: flags.error,
			branchStates: list(flags.branch),
			selectionStates: list(flags.selection),
			files: list(flags.file),
			labels: list(flags.label),
		},
		process.cwd(),
	);
}

/**
 * A refresh with a progress line on a terminal's stderr (none with --json or without a terminal); `everyFile` stats
 * every indexed file, where a search's check stats a bounded sample of a large history's (quick-check.ts).
 */
export async function refreshWithProgress(service: HistoryService, full: boolean, json: boolean, everyFile = false) {
	const tty = process.stderr.isTTY === true && !json;
	let last = 0;
	const summary = await service.refreshAsync({
		full,
		everyFile,
		onProgress: (p) => {
			if (!tty) return;
			const now = Date.now();
			if (now - last < 100 && p.phase !== "done") return;
			last = now;
			process.stderr.write(`\r\u001b[2K${formatProgress(p, now)}`);
		},
	});
	if (tty) process.stderr.write("\r\u001b[2K");
	return summary;
}

/**
 * Runs `search` on an opened service (closed here): refresh unless --no-refresh, search with a bounded count, print.
 * `filters` are checked before the service is opened, so a usage error opens nothing.
 */
export async function runSearch(flags: SearchFlags, words: string[], filters: SearchFilters, service: HistoryService): Promise<number> {
	const color = colorWanted(flags.color) && process.stdout.isTTY === true;
	try {
		if (flags.refresh !== false) {
			const summary = await refreshWithProgress(service, false, flags.json === true);
			for (const e of summary.errors) note(`problem: ${e.file}: ${e.error}`);
			for (const n of summary.notes) note(`note: ${n}`);
		}
		const result = service.search({
			query: words.join(" "),
			filters,
			limit: count(flags.limit, "limit"),
			snippetChars: count(flags.snippetChars, "snippet-chars"),
			order: orderOf(flags),
			// A bounded count, so the text can say how many are not shown: past CLI_TOTAL_CAP it says "N+", since
			// counting further cost more than the rest of the command on a common word (issue 29).
			total: true,
			totalCap: CLI_TOTAL_CAP,
		});
		if (flags.json) write(safeJson(result, 2));
		else write(formatSearch(result, makeStyle(color)));
		for (const n of result.notes) note(`note: ${n}`);
		return 0;
	} finally {
		service.close();
	}
}

/** The exit code of a command that failed, after saying why on stderr (one line; the stack with PI_HISTORY_DEBUG). */
export function failed(error: unknown): number {
	if (error instanceof ArgumentError) {
		note(`pi-history: ${error.message}`);
		return 2;
	}
	if (error instanceof NotFoundError || error instanceof SourceChangedError || error instanceof IndexUnavailableError) {
		note(`pi-history: ${error.message}`);
		return 1;
	}
	note(`pi-history: ${(error as Error).message ?? String(error)}`);
	if (process.env.PI_HISTORY_DEBUG) note((error as Error).stack ?? "");
	return 1;
}
