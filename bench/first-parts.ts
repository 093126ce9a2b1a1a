/**
 * Where one query's first run in a fresh process goes: its SQLite statements (time and page faults, grouped by
 * statement), the statements it prepared, and the rest (JavaScript, new memory, reading the hits back), around one
 * `HistoryService.search` as the first-run rows make it (limit 10). Each statement method of better-sqlite3 is
 * wrapped, so the totals are a little above the bench's; compare runs of this tool with each other.
 *   node dist/bench/first-parts.js --index PATH --roots DIR[,DIR] (--query-index I [--mix agent] | --query TEXT [--cwd DIR])
 *     [--limit N] [--warm TEXT] [--top N]
 * `--warm TEXT` searches TEXT first, in the same process: the code has run once, the query's own pages and caches
 * are still cold. `--limit N`: fewer hits, so fewer read back for snippets.
 */
import Database from "better-sqlite3";
import { HistoryService } from "../src/service/service.js";
import type { SearchRequest } from "../src/shared/types.js";
import { benchConfig, parseArgs } from "./child.js";
import { AGENT_MIX, QUERY_MIX } from "./vocabulary.js";

const { options } = parseArgs(process.argv.slice(2));
const indexPath = options.get("index");
const roots = (options.get("roots") ?? "").split(",").filter(Boolean);
const text = options.get("query");
const mix = options.get("mix") === "agent" ? AGENT_MIX : QUERY_MIX;
const picked = text === undefined ? mix[Number(options.get("query-index") ?? "0")] : undefined;
if (!indexPath || roots.length === 0 || (text === undefined && !picked)) {
	process.stderr.write(
		"usage: first-parts.js --index PATH --roots DIR[,DIR] (--query-index I [--mix agent] | --query TEXT [--cwd DIR]) [--limit N] [--warm TEXT] [--top N]\n",
	);
	process.exit(2);
}
const limit = Number(options.get("limit") ?? "10");
const top = Number(options.get("top") ?? "12");
const cwd = options.get("cwd");
// As measure-worker's first runs ask it: a mix query's filters, and an agent-style one's caller (the Pi tools' scope).
const caller = picked && "caller" in picked ? picked.caller : undefined;
const request: SearchRequest = picked
	? { query: picked.query, limit, ...(picked.filters ? { filters: picked.filters } : {}), ...(caller ? { caller } : {}) }
	: { query: text as string, limit, ...(cwd ? { filters: { cwds: [cwd] } } : {}) };

/** Minor page faults of this process so far: each first touch of a page of the index's map or of new memory. */
const faults = () => process.resourceUsage().minorPageFault;

interface Part {
	ms: number;
	faults: number;
	runs: number;
}
const statements = new Map<string, Part>();
const prepares: Part = { ms: 0, faults: 0, runs: 0 };
let recording = false;

/** Adds the time and faults of `work` to `part` while recording. */
function timed<T>(part: () => Part, work: () => T): T {
	if (!recording) return work();
	const f = faults();
	const t = performance.now();
	try {
		return work();
	} finally {
		const p = part();
		p.ms += performance.now() - t;
		p.faults += faults() - f;
		p.runs++;
	}
}

// The service opens its connection through this same module, so wrapping the prototypes reaches its statements.
const probe = new Database(":memory:");
const statementProto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...args: unknown[]) => unknown>;
probe.close();
for (const method of ["all", "get", "iterate", "run"]) {
	const original = statementProto[method] as (...args: unknown[]) => unknown;
	statementProto[method] = function (this: { source: string }, ...args: unknown[]) {
		const key = this.source.replace(/\s+/g, " ").trim();
		return timed(
			() => statements.get(key) ?? (statements.set(key, { ms: 0, faults: 0, runs: 0 }).get(key) as Part),
			() => original.apply(this, args),
		);
	};
}
const databaseProto = Database.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
const prepare = databaseProto.prepare as (...args: unknown[]) => unknown;
databaseProto.prepare = function (this: unknown, ...args: unknown[]) {
	return timed(
		() => prepares,
		() => prepare.apply(this, args),
	);
};

const service = HistoryService.open({ config: benchConfig(roots, indexPath) });
const warm = options.get("warm");
if (warm !== undefined) service.search({ query: warm, limit });
recording = true;
const f0 = faults();
const t0 = performance.now();
const result = service.search(request);
const totalMs = performance.now() - t0;
const totalFaults = faults() - f0;
recording = false;
service.close();

const sum = (parts: Iterable<Part>) =>
	[...parts].reduce((a, p) => ({ ms: a.ms + p.ms, faults: a.faults + p.faults, runs: a.runs + p.runs }), { ms: 0, faults: 0, runs: 0 });
const run = sum(statements.values());
const ms = (v: number) => v.toFixed(1).padStart(6);
const line = (label: string, p: { ms: number; faults: number }, extra = "") => `${ms(p.ms)} ms ${String(p.faults).padStart(5)} faults  ${label}${extra}`;
const out = [
	`${picked ? picked.name : JSON.stringify(text)}: ${result.hits.length} hits (${result.match ?? "all"})${warm !== undefined ? `, after ${JSON.stringify(warm)}` : ""}`,
	line("the search", { ms: totalMs, faults: totalFaults }),
	line("statements run", run, ` (${run.runs} runs of ${statements.size})`),
	line("statements prepared", prepares, ` (${prepares.runs})`),
	line("the rest: JavaScript, new memory, the hits read back", { ms: totalMs - run.ms - prepares.ms, faults: totalFaults - run.faults - prepares.faults }),
	"the statements that took longest (all runs of each):",
	...[...statements]
		.sort((a, b) => b[1].ms - a[1].ms)
		.slice(0, top)
		.map(([sql, p]) => `  ${line(`${p.runs}× ${sql.slice(0, 110)}`, p)}`),
];
process.stdout.write(`${out.join("\n")}\n`);
