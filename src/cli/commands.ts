/** pi-history with arguments: the commands and the explorer's flags over the shared index (parses flags with meow, wires the core). */
import meow from "meow";
import type { Filters } from "../../components/core/filters.js";
import { parseRef, resolveSessionId } from "../present/ref-parse.js";
import { errorText, formatRead, formatRefresh, formatStatus, formatTrace, makeStyle, neutralize, safeJson } from "../present/text.js";
import type { HistoryService } from "../service/service.js";
import { resolveConfig } from "../shared/config.js";
import { ArgumentError } from "../shared/errors.js";
import { checkArgs } from "./args.js";
import { colorWanted } from "./color.js";
import { chooseHistory } from "./history-choice.js";
import { count, failed, filtersOf, note, orderOf, refreshWithProgress, runSearch, write } from "./search-command.js";
import { startTui } from "./tui-start.js";

const help = `
	Usage
	  $ pi-history                         interactive explorer (needs a terminal)
	  $ pi-history search <query…>         search events
	  $ pi-history read <sessionId> <entryId>
	  $ pi-history trace <sessionId> <entryId>
	  $ pi-history open <sessionId> <entryId>   the explorer, on that event (any ref y copies or the tools print)
	  $ pi-history index [--full]          refresh the index
	  $ pi-history status                  counts, size, freshness

	Query: words and "quoted phrases". Events holding every word come first (fix also finds fixed, fixing); when
	none does, the best partial matches, with the words that matched nothing named. Everything else is literal text.

	Global options
	  --sessions-dir DIR   index only this dir (repeatable); default: pi's session dirs
	  --index PATH         index file (default <agentDir>/pi-event-search/index.sqlite)
	  --workspace DIR      only sessions whose cwd is DIR or below it
	  -q, --query TEXT     the explorer starts with this query (and --kind, --role, --tool, --error, --branch,
	                       --selection, --label, --file, --after, --before as filters)
	  --json               one JSON document on stdout
	  --no-color           no colors (also NO_COLOR)
	  --no-mouse           explorer: no mouse reporting (the wheel scrolls otherwise)
	  --demo               use the bundled demo history (explorer and commands)
	  --help, --version

	Search options
	  --limit N            hits (1–50, default 10)
	  --snippet-chars N    snippet size (40–2000, default 240)
	  --session ID  --cwd DIR  --kind K  --type T  --role R  --tool NAME
	  --after WHEN --before WHEN --error | --no-error  --branch STATE
	  --selection STATE  --file PATH  --label TEXT     (repeatable)
	  --order relevance|newest   best match first (default) or newest event first
	  --no-refresh         search the index as it is

	Read options
	  --fragment ID  --offset N  --max-chars N
	  --neighbors-before N  --neighbors-after N   neighbor events listed around it
	  --order branch|append

	Kinds: user.text assistant.text assistant.error tool.call tool.result bash.command
	       bash.output summary.compaction summary.branch custom.message session.name
	       context.replacement system.prompt (searched only when asked for)
	Branch states: selected alternate unknown
	Selection states: direct summarized omitted not-selected not-applicable unknown
	WHEN: an ISO date (2026-01-31, 2026-01-31T12:00Z) or relative: 2d, 3h, 90m, 1w, yesterday, last week

	Exit codes: 0 success (zero hits is success), 1 runtime error, 2 usage error
`;

const FLAGS = {
	sessionsDir: { type: "string", isMultiple: true },
	index: { type: "string" },
	workspace: { type: "string" },
	query: { type: "string", shortFlag: "q" },
	json: { type: "boolean" },
	color: { type: "boolean" },
	mouse: { type: "boolean" },
	demo: { type: "boolean" },
	full: { type: "boolean" },
	refresh: { type: "boolean" },
	limit: { type: "number" },
	snippetChars: { type: "number" },
	session: { type: "string", isMultiple: true },
	cwd: { type: "string", isMultiple: true },
	kind: { type: "string", isMultiple: true },
	type: { type: "string", isMultiple: true },
	role: { type: "string", isMultiple: true },
	tool: { type: "string", isMultiple: true },
	after: { type: "string" },
	before: { type: "string" },
	error: { type: "boolean" },
	branch: { type: "string", isMultiple: true },
	selection: { type: "string", isMultiple: true },
	file: { type: "string", isMultiple: true },
	label: { type: "string", isMultiple: true },
	fragment: { type: "string" },
	offset: { type: "number" },
	maxChars: { type: "number" },
	order: { type: "string" },
	neighborsBefore: { type: "number" },
	neighborsAfter: { type: "number" },
} as const;

/** Parses the command line; a usage error is one line and exit 2, never a stack trace, and nothing is opened. */
function parseArgs() {
	try {
		checkArgs(process.argv.slice(2), FLAGS);
		return meow(help, { importMeta: import.meta, allowUnknownFlags: false, booleanDefault: undefined, flags: FLAGS });
	} catch (error) {
		process.stderr.write(`pi-history: ${neutralize(errorText(error).split("\n")[0] ?? "")}\n`);
		process.exit(2);
	}
}

const cli = parseArgs();

const flags = cli.flags;
const color = colorWanted(flags.color) && process.stdout.isTTY === true;
const style = makeStyle(color);

/**
 * `read`'s neighbor count on one side. `--before`/`--after` are dates in `search`; in `read` they were neighbor
 * counts, so `read` now names them `--neighbors-before`/`--neighbors-after` and keeps the old names as aliases.
 */
function neighbors(side: "before" | "after"): number | undefined {
	const named = side === "before" ? flags.neighborsBefore : flags.neighborsAfter;
	const flag = `neighbors-${side}`;
	if (named !== undefined) return count(named, flag);
	const old = flags[side];
	if (old === undefined) return undefined;
	note(`note: read --${side} N is deprecated; use --${flag} N`);
	return count(Number(old), side);
}

/**
 * The explorer's starting filters from the search flags, checked like the search command checks them (a wrong
 * --kind is a usage error, not an empty list); the picker's single-value rows take the first value given.
 */
function explorerFilters(): Filters {
	const f = filtersFromFlags();
	return {
		...(f.kinds?.length ? { kinds: f.kinds } : {}),
		...(f.roles?.length ? { roles: f.roles } : {}),
		...(f.tools?.length ? { tool: f.tools.join(", ") } : {}),
		...(f.isError !== undefined ? { error: f.isError } : {}),
		...(f.branchStates?.[0] ? { branch: f.branchStates[0] } : {}),
		...(f.selectionStates?.length ? { selection: f.selectionStates } : {}),
		...(f.labels?.[0] ? { label: f.labels[0] } : {}),
		...(f.files?.[0] ? { file: f.files[0] } : {}),
		// As typed ("2d" stays relative in the picker); filtersFromFlags has checked them.
		...(flags.after ? { after: flags.after } : {}),
		...(flags.before ? { before: flags.before } : {}),
	};
}

function filtersFromFlags() {
	return filtersOf(flags);
}

/**
 * Opens the index; `readonly` (status, --no-refresh) never writes it, nor creates it (I22). The core (SQLite, the
 * query stack) is loaded here, not at the top: the explorer draws its first frame before it needs any of it.
 */
async function openService(options: { busyTimeoutMs?: number; readonly?: boolean } = {}): Promise<HistoryService> {
	const { HistoryService } = await import("../service/service.js");
	// --demo: the bundled sample history (and its own index in the temp dir), for the commands as for the explorer.
	const config = flags.demo ? chooseHistory({ demo: true, color: false }).config : resolveConfig({ sessionsDirs: flags.sessionsDir, indexPath: flags.index });
	for (const n of config.notes) note(`note: ${n}`);
	return HistoryService.open({ config, ...options });
}

/**
 * A short session id (the #tail the explorer shows, or a prefix) names the one session that has it, read from the
 * index as it is (nothing is written); anything else (a session not indexed yet, an index that cannot be read) is
 * passed on unchanged: the explorer indexes, reads it again, and says what it finds.
 */
async function resolveOpen<T extends { sessionId: string }>(ref: T): Promise<T> {
	let service: HistoryService | null = null;
	try {
		service = await openService({ readonly: true });
		const found = resolveSessionId(ref.sessionId, service.sessions().sessions);
		return "id" in found ? { ...ref, sessionId: found.id } : ref;
	} catch {
		return ref;
	} finally {
		service?.close();
	}
}

async function run(): Promise<number> {
	const [command, ...args] = cli.input;
	if (command === undefined) {
		return startTui({
			demo: flags.demo === true,
			sessionsDirs: flags.sessionsDir,
			indexPath: flags.index,
			workspace: flags.workspace,
			color: colorWanted(flags.color),
			mouse: flags.mouse !== false,
			...(flags.query ? { query: flags.query } : {}),
			filters: explorerFilters(),
		});
	}
	switch (command) {
		case "open": {
			// Whatever a face printed as a ref works here: the pair, sessionId=… entryId=…, or a pi-history read line.
			const parsed = parseRef(args.join(" "));
			if (!parsed.ok) throw new ArgumentError(`usage: pi-history open <sessionId> <entryId> (${parsed.error})`);
			// Without a terminal too: the command suggested instead names the session by its full id.
			const ref = await resolveOpen(parsed.ref);
			return startTui({
				demo: flags.demo === true,
				sessionsDirs: flags.sessionsDir,
				indexPath: flags.index,
				workspace: flags.workspace,
				color: colorWanted(flags.color),
				mouse: flags.mouse !== false,
				open: ref,
			});
		}
		case "index": {
			// Asked to index: wait for another writer (a TUI, a pi process) rather than give up after 250 ms.
			const service = await openService({ busyTimeoutMs: 30_000 });
			try {
				const summary = await refreshWithProgress(service, flags.full === true, flags.json === true, true);
				// Big sessions' tree layouts kept current: the explorer's first open of one reads a few chunks.
				if (!summary.busy && summary.pending === 0) service.keepTreeLayouts();
				if (flags.json) write(safeJson(summary, 2));
				else write(formatRefresh(summary));
				return 0;
			} finally {
				service.close();
			}
		}
		case "status": {
			const service = await openService({ readonly: true });
			try {
				const status = { ...service.status(), pending: service.countPending() };
				// How it answered (a copy of an index on a read-only location, or without a deleted WAL).
				for (const n of service.notes.splice(0)) note(`note: ${n}`);
				if (flags.json) write(safeJson(status, 2));
				else write(`${formatStatus(status)}\npending     ${status.pending} file(s) changed since the last refresh`);
				return 0;
			} finally {
				service.close();
			}
		}
		case "search": {
			const filters = filtersFromFlags();
			orderOf(flags);
			return runSearch(flags, args, filters, await openService({ readonly: flags.refresh === false }));
		}
		case "read":
		case "trace": {
			const [sessionId, entryId, ...extra] = args;
			if (!sessionId || !entryId || extra.length) throw new ArgumentError(`usage: pi-history ${command} <sessionId> <entryId>`);
			if (flags.order !== undefined && flags.order !== "branch" && flags.order !== "append") throw new ArgumentError("--order must be branch or append");
			const service = await openService({ readonly: flags.refresh === false });
			try {
				if (flags.refresh !== false) service.refresh({ budgetMs: 2000 });
				if (command === "read") {
					const read = service.read({
						sessionId,
						entryId,
						fragmentId: flags.fragment,
						offset: count(flags.offset, "offset"),
						maxChars: count(flags.maxChars, "max-chars"),
						before: neighbors("before"),
						after: neighbors("after"),
						order: flags.order as "branch" | "append" | undefined,
					});
					write(flags.json ? safeJson(read, 2) : formatRead(read, style));
				} else {
					const trace = service.trace({ sessionId, entryId });
					write(flags.json ? safeJson(trace, 2) : formatTrace(trace, style));
				}
				for (const n of service.notes.splice(0)) note(`note: ${n}`);
				return 0;
			} finally {
				service.close();
			}
		}
		default:
			throw new ArgumentError(`unknown command "${command}"; see pi-history --help`);
	}
}

run().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		process.exitCode = failed(error);
	},
);
