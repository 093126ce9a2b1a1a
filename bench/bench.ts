/**
 * `npm run bench`: builds (or reuses) deterministic Pi corpora at three sizes, measures the index against the
 * targets of DESIGN §7 in fresh child processes, and prints one table; raw numbers go to <cache>/results.json.
 *
 *   npm run bench -- [--sizes small,medium,large | --quick] [--seed N] [--cache DIR] [--corpus DIR]
 *                    [--profile] [--runs N] [--rg-runs N] [--json PATH] [--help | -h]
 * (The `--` matters: without it npm takes the options as its own and the bench never sees them.)
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_DIST, type ChildResult, median, parseArgs, percentile, runChild } from "./child.js";
import { cmdOnly, pickMutations } from "./cmd-only.js";
import { renderHugeTable, runHuge } from "./huge-run.js";
import { renderPeerTable } from "./peer-table.js";
import { type Corpus, ensureCorpus, externalCorpus, restoreOriginals, saveOriginals } from "./prepare.js";
import { type ProfileSummary, summarizeProfile } from "./profile.js";
import type { ColdResult, FirstRunResult, FloorResult, QueryResult, RefreshResult, RgResult, TrigramResult, TuiResult, TypingResult } from "./results.js";
import { f0, f1, f2, MB, ms, renderGrid, thousands, times } from "./table.js";
import { measureTyping, typingLine, typingParts } from "./typing.js";
import { type ExplorerStartResult, measureExplorerStart, measureSearchProcess, p50, rgList, type SearchProcessResult, START_KEYS } from "./user-wait.js";
import { AGENT_MIX, encodeCwd, FLAT_SESSIONS_DIR, type MixQuery, QUERY_MIX, TYPED_QUERY } from "./vocabulary.js";

/** Named sizes: primary sessions (families) of the large kind. */
const SIZES: Record<string, number> = { small: 250, medium: 1000, large: 2000 };

/** DESIGN §7 targets, and the growth of cold ms per MB the bench still calls linear (DESIGN sets no number). */
const TARGET = {
	coldVsFloor: 4,
	peakRssMB: 300,
	linearGrowth: 1.25,
	noopMs: 150,
	appendMs: 50,
	rgSpeedup: 10,
	queryP95Ms: 50,
	indexVsCorpus: 0.6,
	resultsFrameMs: 50,
	echoMs: 16,
	explorerVsNode: 6,
	explorerMoonshotMs: 300,
	searchVsNode: 2.5,
	noopWarmMs: 30,
};

/** The scale row's primary sessions: ≥ 5 GB and ≥ 20,000 files (the large size's 2,000 make 498 MB, 2,495 files). */
const XLARGE_FAMILIES = 20_500;
/** Bytes a generated family takes on disk, about (the large size's mean). */
const BYTES_PER_FAMILY = 250_000;

/** Stops before building a corpus the disk cannot hold (corpus, index, scratch: ≈ 1.6× the corpus). */
function checkDisk(dir: string, families: number): void {
	mkdirSync(dir, { recursive: true });
	const st = statfsSync(dir);
	const free = st.bavail * st.bsize;
	const need = families * BYTES_PER_FAMILY * 1.6;
	log(`--xlarge: ${families} families ≈ ${f1((families * BYTES_PER_FAMILY) / 1e9)} GB; ${f1(free / 1e9)} GB free under ${dir}, ≈ ${f1(need / 1e9)} GB needed`);
	if (free < need) throw new Error(`--xlarge needs ≈ ${f1(need / 1e9)} GB free under ${dir}, ${f1(free / 1e9)} GB are: use --xlarge-families or --cache`);
}

/** Paces of the typing rows, ms between keys: two human paces (judged) and a burst (shown). */
const TYPING_PACES = [150, 80, 20];
const HUMAN_PACES = new Set([150, 80]);

const HELP = `usage: npm run bench -- [options]      (the -- passes the options to the bench instead of npm)
  --sizes LIST    comma-separated sizes: small (250 sessions), medium (1000), large (2000), or a number
                  (default: small,medium,large); the largest is the one judged against the targets
  --quick         only the smallest size (same as --sizes small)
  --seed N        corpus seed (default 1)
  --cache DIR     corpus/index cache (default <repo>/.bench); a corpus is reused when seed, size and versions match
  --corpus DIR    also measure an existing session directory (e.g. the shared generator's output), shown as an
                  extra column that is not judged against the targets
  --profile       also run the largest generated size's cold index (sync and pipelined) under node --cpu-prof
                  and summarize where time goes
  --no-peer       skip the FTS5 trigram peer, which otherwise runs on the largest size: built over the same
                  fragments, queried with the same mix, scored with ours on the recall needles (second table)
  --xlarge        also the scale row (outside the default run): a generated history of --xlarge-families primary
                  sessions (default 20500: ≈ 5.1 GB, ≈ 25,500 files; needs ≈ 1.6× that on disk, checked first),
                  measured like the other sizes with fewer repeats and no trigram peer; it is then the judged column
  --xlarge-families N  the scale row's size when 5 GB does not fit the time or the disk (the table says so)
  --xlarge-only   only the scale row (implies --xlarge; no other size)
  --reuse-index   measure a size's index left by an earlier run (checkpointed: no -wal) instead of building it:
                  no parse floor, no cold index (shown as NaN); for measuring the rest again on the scale row
  --huge          also the size-independent rows (~11 min and children up to 4.4 GB RSS today; up to 1 GB of
                  scratch files at a time under the cache, deleted after): a 1,000,000-entry session (cold index, one append + refresh,
                  read + trace of its middle entry), a 500 MB single line (index, search, read), a 1 GB line
                  that never ends (refresh, grow, refresh); time and the child's peak RSS for each
  --huge-only     only those rows (no corpus sizes)
  --huge-lines    of those rows only the huge-line ones (500 MB line, never-ending line); implies --huge-only
  --huge-session  of those rows only the 1,000,000-entry session's (cold index, append + refresh, read, trace);
                  implies --huge-only
  --huge-scale F  shrink those inputs by F in (0, 1] to try the bench quickly; the table marks it SCALED
  --runs N        runs per query of the mix in one process (the repeats; default 20)
  --start-runs N  fresh explorers per way of starting (listed, echo), each beside a node -e 0 (default 5)
  --proc-runs N   rounds of pi-history search / rg / node -e 0 per query, as processes (default 3)
  --first-runs N  fresh processes per query for its first run (default 5)
  --rg-runs N     runs per rg comparison (default 5)
  --json PATH     raw results (default <cache>/results.json)
  --typing-only   only the typing rows, on the largest size and its cached index (built first when missing):
                  one pass per fresh pi-history per pace (150, 80 and 20 ms a key), printed, nothing judged
  --typing-passes N  passes per pace with --typing-only (default 1)
  --cmd-only      only \`pi-history search\` as a process (beside node -e 0) and the refresh rows (no-op, warm no-op,
                  one append), on the largest size and its cached index; printed, nothing judged
  --cmd-passes N  passes with --cmd-only (default 1)
  --help, -h      this text`;

/** Options that take a value, and bare flags; anything else is a usage error (a typo must not start a long run). */
const VALUE_OPTIONS = new Set([
	"xlarge-families",
	"sizes",
	"seed",
	"cache",
	"corpus",
	"runs",
	"rg-runs",
	"json",
	"huge-scale",
	"start-runs",
	"proc-runs",
	"first-runs",
	"typing-passes",
	"cmd-passes",
]);
const FLAGS = new Set([
	"typing-only",
	"cmd-only",
	"reuse-index",
	"xlarge",
	"xlarge-only",
	"quick",
	"profile",
	"help",
	"no-peer",
	"huge",
	"huge-only",
	"huge-lines",
	"huge-session",
]);
/** Our options that are not npm's own: `npm run bench --quick` hands them to the script as npm_config_* only. */
const SWALLOWED_BY_NPM = [
	"quick",
	"sizes",
	"seed",
	"corpus",
	"profile",
	"runs",
	"rg-runs",
	"start-runs",
	"proc-runs",
	"first-runs",
	"no-peer",
	"xlarge",
	"xlarge-only",
	"reuse-index",
	"xlarge-families",
	"huge",
	"huge-only",
	"huge-lines",
	"huge-session",
	"huge-scale",
	"typing-only",
	"typing-passes",
	"cmd-only",
	"cmd-passes",
];

interface SizeResult {
	label: string;
	corpus: Omit<Corpus, "files"> & { fileCount: number };
	floorRuns: Array<ChildResult<FloorResult>>;
	floor: ChildResult<FloorResult>;
	cold: ChildResult<ColdResult>;
	/** The pipelined cold index (HistoryService.refreshAsync: reader thread + writer). */
	coldPipelined: ChildResult<ColdResult>;
	query: ChildResult<QueryResult>;
	tui: ChildResult<TuiResult>;
	/** The explorer started as a person starts it, beside node -e 0 (null without python3). */
	explorerStart: ExplorerStartResult | null;
	/** `pi-history search` and `rg -l -F` as processes, per query of the mix. */
	searchProcess: SearchProcessResult[];
	/** Each query's first run in fresh processes; again after the refresh rows rebuilt files. */
	firstRuns: FirstRunResult[][];
	firstRunsAfterRefresh: FirstRunResult[][];
	/** The agent-style rows' first runs in fresh processes (AGENT_MIX). */
	agentFirstRuns: FirstRunResult[][];
	/** One pass per fresh explorer at each pace of TYPING_PACES. */
	typing: TypingResult[];
	rg: RgResult[];
	/** The FTS5 trigram peer over the same fragments (null with --no-peer). */
	trigram: ChildResult<TrigramResult> | null;
	refresh: ChildResult<RefreshResult>;
	/** The query mix again after the refresh measurements, whose rewritten files were rebuilt (FTS5 tombstones). */
	queryAfterRefresh: ChildResult<QueryResult>;
	profiles?: Array<{ mode: string; wallMs: number; threads: Array<{ thread: string; file: string; summary: ProfileSummary }> }>;
	wallMs: number;
	/** 1-minute load average before and after this size: others' work on the machine skews every figure. */
	load: [number, number];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The worst p95 of first runs over the queries of one mix. */
function firstWorst(qs: FirstRunResult[][]): number {
	return Math.max(
		...qs.map((q) =>
			percentile(
				q.map((x) => x.firstMs),
				95,
			),
		),
	);
}

/** The largest peak RSS among a size's measuring children other than the cold index and the floor, and its step. */
function otherPeakRss(r: SizeResult): { bytes: number; step: string } {
	const rssOf = (x: unknown) => (x as { maxRssBytes?: number }).maxRssBytes ?? 0;
	const steps: Array<[string, unknown[]]> = [
		["query mix", [r.query, r.queryAfterRefresh]],
		["<App/>", [r.tui]],
		["first runs", [...r.firstRuns.flat(), ...r.firstRunsAfterRefresh.flat(), ...r.agentFirstRuns.flat()]],
		["typing", r.typing],
		["refresh", [r.refresh]],
	];
	let best = { bytes: 0, step: "–" };
	for (const [step, list] of steps) for (const x of list) if (rssOf(x) > best.bytes) best = { bytes: rssOf(x), step };
	return best;
}

/** The typing rows: one pass per fresh `pi-history` at each pace of TYPING_PACES (none without python3). */
function measureTypingRows(corpus: Corpus, indexPath: string): TypingResult[] {
	const typing: TypingResult[] = [];
	for (const pace of TYPING_PACES) {
		try {
			typing.push(measureTyping(corpus.roots, indexPath, pace));
		} catch (error) {
			log(`  typing at ${pace} ms/key: not measured (${(error as Error).message.split("\n")[0]})`);
			return [];
		}
		log(`  typing, fresh pi-history: ${typingLine(typing.at(-1) as TypingResult)}`);
	}
	return typing;
}

/** `--typing-only`: the typing rows alone on one size, its cached index built first when missing (issue 29). */
async function typingOnly(cacheDir: string, seed: number, families: number, passes: number): Promise<void> {
	const corpus = await ensureCorpus(cacheDir, seed, families, log);
	const indexPath = join(cacheDir, `index-${corpus.key}.sqlite`);
	if (!existsSync(indexPath)) {
		log(`  no cached index: building ${indexPath}`);
		await runChild("cold", "measure-worker.js", ["cold", "--index", indexPath, "--roots", corpus.roots.join(","), "--mode", "sync"]);
	}
	log(`typing rows: ${thousands(corpus.files.length)} files, ${f1(corpus.bytes / MB)} MB; 1-min load average ${f1(loadavg()[0] ?? 0)}`);
	for (let p = 0; p < passes; p++) measureTypingRows(corpus, indexPath);
	log(`1-min load average after: ${f1(loadavg()[0] ?? 0)}`);
}

/** A percentile over every key of a typing pass (a key with no frame at all counts as infinitely slow). */
function keyP(t: TypingResult, field: "echoMs" | "resultsMs", p: number): number {
	return percentile(
		t.keys.map((k) => k[field] ?? Number.POSITIVE_INFINITY),
		p,
	);
}
const REPO = resolve(BENCH_DIST, "..", "..");

type SourceState = { commit: string | null; dirtySrcFiles: number | null };

/** The commit measured, and how many files under src/ and components/ differ from it (others may be editing them). */
function sourceState(): SourceState {
	const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO, encoding: "utf8" });
	const dirty = spawnSync("git", ["status", "--porcelain", "--", "src", "components"], { cwd: REPO, encoding: "utf8" });
	return { commit: head.status === 0 ? head.stdout.trim() : null, dirtySrcFiles: dirty.status === 0 ? dirty.stdout.split("\n").filter(Boolean).length : null };
}

function sourceLine(source: SourceState): string {
	return `source: commit ${source.commit ?? "?"}${source.dirtySrcFiles ? ` + ${source.dirtySrcFiles} uncommitted file(s) under src/ and components/` : ""}`;
}

function rgVersion(): string | null {
	const r = spawnSync("rg", ["--version"], { encoding: "utf8" });
	return r.status === 0 ? (r.stdout.split("\n")[0] ?? "rg") : null;
}

/** Runs rg for each term over the previous pass's files (fixed strings, file names only), like a user would. */
function rgOnce(terms: string[], paths: string[]): { ms: number; files: number } {
	const started = performance.now();
	let current = paths;
	let files = 0;
	for (const term of terms) {
		if (current.length === 0) break;
		current = rgList(term, current);
		files = current.length;
	}
	return { ms: performance.now() - started, files };
}

function rgPaths(corpus: Corpus, q: MixQuery): string[] {
	if (!q.rgCwds || corpus.external) return [corpus.agentDir];
	const dirs = q.rgCwds.map((cwd) => join(corpus.agentDir, "sessions", encodeCwd(cwd))).filter((d) => existsSync(d));
	// The flat sessionDir mixes every cwd: rg cannot tell which of its files belong to the cwd, so it reads them all.
	const flat = join(corpus.agentDir, FLAT_SESSIONS_DIR);
	if (existsSync(flat)) dirs.push(flat);
	return dirs;
}

function measureRg(corpus: Corpus, runs: number): RgResult[] {
	return QUERY_MIX.map((q) => {
		const paths = rgPaths(corpus, q);
		const times: number[] = [];
		let files = 0;
		for (let i = 0; i < runs; i++) {
			const r = rgOnce(q.rg, paths);
			times.push(r.ms);
			files = r.files;
		}
		return { name: q.name, terms: q.rg, p50: median(times), runs, files };
	});
}

/** The parse floor of a run that reused the index (--reuse-index): not measured, shown as NaN. */
function skippedFloor(): ChildResult<FloorResult> {
	const nan = Number.NaN;
	return { ms: nan, cpuMs: nan, files: nan, bytes: nan, lines: nan, invalid: nan, typed: nan, maxRssBytes: nan, wallMs: nan };
}

/** A cold index a run did not do (--reuse-index): only the index's size is known. */
function skippedCold(mode: ColdResult["mode"], indexBytes: number): ChildResult<ColdResult> {
	const nan = Number.NaN;
	const size = { main: indexBytes, wal: 0 };
	return {
		mode,
		ms: nan,
		cpuMs: nan,
		writtenBytes: null,
		summary: {},
		sessions: nan,
		events: nan,
		fragments: nan,
		files: nan,
		sourceBytes: nan,
		liveBytes: size,
		checkpointedBytes: size,
		heapUsedAtEnd: nan,
		maxRssBytes: nan,
		wallMs: nan,
	};
}

function removeIndex(path: string): void {
	for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
}

async function measure(
	corpus: Corpus,
	label: string,
	cacheDir: string,
	opts: {
		runs: number;
		rgRuns: number;
		rg: boolean;
		profile: boolean;
		peer: boolean;
		startRuns: number;
		procRuns: number;
		firstRuns: number;
		reuseIndex: boolean;
	},
): Promise<SizeResult> {
	const started = performance.now();
	const loadBefore = loadavg()[0] ?? 0;
	log(`\n[${label}] ${(corpus.bytes / 1e6).toFixed(1)} MB, ${corpus.files.length} files`);
	const indexPath = join(cacheDir, `index-${corpus.external ? "external" : corpus.key}.sqlite`);
	const workerArgs = ["--index", indexPath, "--roots", corpus.roots.join(",")];
	const reuse = opts.reuseIndex && existsSync(indexPath) && !existsSync(`${indexPath}-wal`);
	const floorRuns: Array<ChildResult<FloorResult>> = [];
	let floor: ChildResult<FloorResult>;
	let cold: ChildResult<ColdResult>;
	let coldPipelined: ChildResult<ColdResult>;
	if (reuse) {
		log(`  --reuse-index: measuring the index already at ${indexPath}; no parse floor and no cold index this run (–)`);
		floor = skippedFloor();
		floorRuns.push(floor);
		cold = skippedCold("sync", statSync(indexPath).size);
		coldPipelined = skippedCold("pipelined", statSync(indexPath).size);
	} else {
		// Twice: the first run also warms the page cache, the faster one is the floor (the index gets a warm cache too).
		for (let i = 0; i < 2; i++) floorRuns.push(await runChild("floor", "floor.js", corpus.roots));
		floor = floorRuns.reduce((a, b) => (b.ms < a.ms ? b : a));
		log(`  parse floor ${(floor.ms / 1000).toFixed(2)} s (${floor.lines} lines)`);
		removeIndex(indexPath);
		// The pipelined path first (what `pi-history index` and the TUI use), then the synchronous one (the Pi tools'
		// budgeted refresh); the index the second run leaves behind is the one the queries read.
		coldPipelined = await runChild("cold", "measure-worker.js", ["cold", ...workerArgs, "--mode", "pipelined"]);
		log(`  cold index, pipelined ${(coldPipelined.ms / 1000).toFixed(2)} s, peak RSS ${(coldPipelined.maxRssBytes / 1e6).toFixed(0)} MB`);
		removeIndex(indexPath);
		cold = await runChild("cold", "measure-worker.js", ["cold", ...workerArgs, "--mode", "sync"]);
		log(`  cold index, synchronous ${(cold.ms / 1000).toFixed(2)} s, peak RSS ${(cold.maxRssBytes / 1e6).toFixed(0)} MB, ${cold.events} events`);
	}

	const query = await runChild("query", "measure-worker.js", ["query", ...workerArgs, "--runs", String(opts.runs)]);
	log(`  query mix: worst p95 ${Math.max(...query.mix.map((q) => q.p95)).toFixed(1)} ms; typing (service) p95 ${query.typing.p95.toFixed(1)} ms`);
	const tui = await runChild("tui", "measure-worker.js", ["tui", ...workerArgs]);
	log(
		`  typing through <App/>: results frame p50 ${tui.p50.toFixed(0)} ms, p95 ${tui.p95.toFixed(0)} ms; echo p95 ${tui.echo?.p95.toFixed(0) ?? "–"} ms; first frame ${tui.firstFrameFromStartMs.toFixed(0)} ms after start`,
	);
	const explorerStart = measureExplorerStart(corpus.roots, indexPath, opts.startRuns);
	log(
		explorerStart
			? `  pi-history in a pty: recent events listed p50 ${p50(explorerStart.listMs).toFixed(0)} ms, keys typed at start echoed p50 ${p50(explorerStart.echoMs).toFixed(0)} ms, node -e 0 p50 ${p50(explorerStart.nodeMs).toFixed(0)} ms${explorerStart.failed ? `, ${explorerStart.failed} run(s) timed out` : ""}`
			: "  pi-history in a pty: not measured (no python3)",
	);
	const searchProcess = opts.rg ? measureSearchProcess(corpus.agentDir, corpus.roots, indexPath, opts.procRuns) : [];
	if (searchProcess.length)
		log(
			`  pi-history search as a process: median p50 ${median(searchProcess.map((q) => p50(q.searchMs))).toFixed(0)} ms, rg -l -F ${median(searchProcess.map((q) => p50(q.rgMs))).toFixed(0)} ms, node -e 0 ${median(searchProcess.map((q) => p50(q.nodeMs))).toFixed(0)} ms`,
		);
	const firstRunsOf = async (reps: number, mix: readonly unknown[] = QUERY_MIX, args: string[] = []) => {
		const out: FirstRunResult[][] = mix.map(() => []);
		for (let r = 0; r < reps; r++)
			for (let i = 0; i < mix.length; i++)
				(out[i] as FirstRunResult[]).push(await runChild("first", "measure-worker.js", ["first", ...workerArgs, "--query-index", String(i), ...args]));
		return out;
	};
	const firstRuns = await firstRunsOf(opts.firstRuns);
	log(
		`  first run per query (fresh process): worst p95 ${Math.max(
			...firstRuns.map((q) =>
				percentile(
					q.map((x) => x.firstMs),
					95,
				),
			),
		).toFixed(1)} ms`,
	);
	const agentFirstRuns = await firstRunsOf(opts.firstRuns, AGENT_MIX, ["--mix", "agent"]);
	log(`  agent-style queries, first run (fresh process): worst p95 ${firstWorst(agentFirstRuns).toFixed(1)} ms`);
	const typing = measureTypingRows(corpus, indexPath);
	const rg = opts.rg ? measureRg(corpus, opts.rgRuns) : [];
	if (opts.rg) log(`  rg: median of mix ${median(rg.map((r) => r.p50)).toFixed(0)} ms`);
	let trigram: ChildResult<TrigramResult> | null = null;
	if (opts.peer) {
		const peerPath = join(cacheDir, `peer-trigram-${corpus.external ? "external" : corpus.key}.sqlite`);
		trigram = await runChild("trigram", "trigram-worker.js", ["--peer", peerPath, ...workerArgs, "--runs", String(opts.runs)]);
		log(
			`  FTS5 trigram peer: build ${(trigram.buildMs / 1000).toFixed(2)} s, ${(trigram.bytes / 1e6).toFixed(0)} MB, median of mix ${median(trigram.mix.map((q) => q.p50)).toFixed(1)} ms`,
		);
		removeIndex(peerPath);
	}

	const mutations = pickMutations(corpus);
	const mutated = [...new Set([...mutations.append1, ...mutations.append10, ...mutations.rewrite])];
	saveOriginals(corpus, mutated);
	let refresh: ChildResult<RefreshResult>;
	try {
		const abs = (list: string[]) => list.map((f) => join(corpus.agentDir, f)).join(",");
		refresh = await runChild("refresh", "measure-worker.js", [
			"refresh",
			...workerArgs,
			"--append1",
			abs(mutations.append1),
			"--append10",
			abs(mutations.append10),
			"--rewrite",
			abs(mutations.rewrite),
		]);
	} finally {
		restoreOriginals(corpus);
	}
	log(`  refresh: no-op ${refresh.noopFirstMs.toFixed(0)} ms (fresh process), one append p50 ${median(refresh.append1.map((a) => a.ms)).toFixed(1)} ms`);
	// Real indexes see rebuilds (pi's in-place migration, rewritten files): the same mix on the index they left.
	const queryAfterRefresh = await runChild("query", "measure-worker.js", ["query", ...workerArgs, "--runs", String(Math.max(5, Math.round(opts.runs / 2)))]);
	log(`  query mix after the refresh rows: worst p95 ${Math.max(...queryAfterRefresh.mix.map((q) => q.p95)).toFixed(1)} ms`);
	const firstRunsAfterRefresh = await firstRunsOf(Math.max(3, Math.round(opts.firstRuns / 2)));
	log(
		`  first run per query after the refresh rows: worst p95 ${Math.max(
			...firstRunsAfterRefresh.map((q) =>
				percentile(
					q.map((x) => x.firstMs),
					95,
				),
			),
		).toFixed(1)} ms`,
	);

	const profiles: NonNullable<SizeResult["profiles"]> = [];
	for (const mode of opts.profile ? ["sync", "pipelined"] : []) {
		const profDir = join(cacheDir, "profiles", `${label}-${mode}`);
		rmSync(profDir, { recursive: true, force: true });
		mkdirSync(profDir, { recursive: true });
		removeIndex(indexPath);
		const run = await runChild("cold", "measure-worker.js", ["cold", ...workerArgs, "--mode", mode], ["--cpu-prof", "--cpu-prof-dir", profDir]);
		// One profile per thread: CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile, thread 0 is the main thread.
		const threads = readdirSync(profDir)
			.filter((f) => f.endsWith(".cpuprofile"))
			.map((f) => ({ f, tid: Number(f.split(".")[4] ?? "0") }))
			.sort((a, b) => a.tid - b.tid)
			.map(({ f, tid }) => ({
				thread: tid === 0 ? "main thread" : `worker thread ${tid}`,
				file: join(profDir, f),
				summary: summarizeProfile(join(profDir, f), 25),
			}));
		profiles.push({ mode, wallMs: run.ms, threads });
		log(`  profiled cold index (${mode}): ${(run.ms / 1000).toFixed(2)} s under the profiler, ${threads.length} thread profile(s) in ${profDir}`);
	}
	const { files, ...rest } = corpus;
	return {
		label,
		corpus: { ...rest, fileCount: files.length },
		floorRuns,
		floor,
		cold,
		coldPipelined,
		query,
		tui,
		explorerStart,
		searchProcess,
		firstRuns,
		firstRunsAfterRefresh,
		agentFirstRuns,
		typing,
		rg,
		trigram,
		refresh,
		queryAfterRefresh,
		profiles,
		wallMs: performance.now() - started,
		load: [loadBefore, loadavg()[0] ?? 0],
	};
}

// ---------------------------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------------------------

interface Row {
	metric: string;
	cells: string[];
	target?: string;
	ratio?: string;
	status?: "PASS" | "MISS" | "";
}

function rgSpeedups(r: SizeResult): number[] {
	return r.query.mix.map((q, i) => {
		const rg = r.rg[i];
		return rg ? rg.p50 / q.p50 : Number.NaN;
	});
}

/** The size judged against the targets: the largest generated one (an external corpus is only shown beside it). */
function judgedOf(results: SizeResult[]): SizeResult {
	const generated = results.filter((r) => !r.corpus.external);
	return (generated[generated.length - 1] ?? results[results.length - 1]) as SizeResult;
}

/** Every one of the single appends was ingested as an append of one event (no rebuild). */
const allAppended = (r: SizeResult) =>
	r.refresh.append1.every((a) => a.summary.sessionsAppended === 1 && a.summary.eventsIngested === 1 && a.summary.sessionsRebuilt === 0);
/** Every one of the single appends was found by the search right after its refresh. */
const allVisible = (r: SizeResult) => r.refresh.append1.every((a) => a.visible);

function buildRows(results: SizeResult[], rgAvailable: boolean): Row[] {
	const judged = judgedOf(results);
	const base = (results.find((r) => !r.corpus.external) ?? judged) as SizeResult;
	const rows: Row[] = [];
	const each = (fn: (r: SizeResult) => string) => results.map(fn);
	const section = (title: string) => rows.push({ metric: title, cells: results.map(() => ""), target: "", ratio: "", status: "" });
	const verdict = (ok: boolean): "PASS" | "MISS" => (ok ? "PASS" : "MISS");
	// A run that reused the index (--reuse-index) did not build it: its cold rows judge nothing.
	const coldVerdict = (ok: boolean): "PASS" | "MISS" | "" => (Number.isNaN(judged.cold.ms) ? "" : verdict(ok));
	/** Growth vs the smallest generated size: only meaningful between corpora of the same generator. */
	const growthOf = (r: SizeResult, perMB: (x: SizeResult) => number) => (r.corpus.external ? "" : ` (${f2(perMB(r) / perMB(base))})`);
	const coldPerMB = (r: SizeResult) => r.cold.ms / (r.corpus.bytes / MB);
	const pipelinedPerMB = (r: SizeResult) => r.coldPipelined.ms / (r.corpus.bytes / MB);
	const floorPerMB = (r: SizeResult) => r.floor.ms / (r.corpus.bytes / MB);
	const generatedSizes = results.filter((r) => !r.corpus.external).length;

	section("what a user waits for (fresh processes; × node = ratio to `node -e 0` run interleaved in the same run)");
	const xs = judged.explorerStart;
	const nodePty = (r: SizeResult) => p50(r.explorerStart?.nodeMs ?? []);
	rows.push({ metric: "  node -e 0 in the same pty, p50 ms", cells: each((r) => ms(nodePty(r))) });
	for (const [way, pick] of [
		["explorer: start → first frame listing the recent events, p50 ms (× node)", (e: ExplorerStartResult) => e.listMs],
		[`explorer: start → echo of "${START_KEYS}" typed at start, p50 ms (× node)`, (e: ExplorerStartResult) => e.echoMs],
	] as const) {
		const ratio = xs ? p50(pick(xs)) / nodePty(judged) : Number.NaN;
		rows.push({
			metric: `  ${way}`,
			cells: each((r) => (r.explorerStart ? `${ms(p50(pick(r.explorerStart)))} (${f1(p50(pick(r.explorerStart)) / nodePty(r))}×)` : "no python3")),
			target: `≤ ${TARGET.explorerVsNode}× node; moonshot ≤ ${TARGET.explorerMoonshotMs} ms`,
			ratio: `${f1(ratio)}× node${xs && p50(pick(xs)) <= TARGET.explorerMoonshotMs ? ", moonshot met" : ""}`,
			status: xs ? verdict(ratio <= TARGET.explorerVsNode) : "",
		});
	}
	const procMedian = (r: SizeResult, f: (q: SearchProcessResult) => number[]) => median(r.searchProcess.map((q) => p50(f(q))));
	if (judged.searchProcess.length) {
		const ratio = procMedian(judged, (q) => q.searchMs) / procMedian(judged, (q) => q.nodeMs);
		rows.push({
			metric: "  pi-history search as a process (refresh + count): median p50 ms (× node)",
			cells: each((r) =>
				r.searchProcess.length ? `${ms(procMedian(r, (q) => q.searchMs))} (${f1(procMedian(r, (q) => q.searchMs) / procMedian(r, (q) => q.nodeMs))}×)` : "–",
			),
			target: `≤ ${TARGET.searchVsNode}× node`,
			ratio: `${f2(ratio)}× node`,
			status: verdict(ratio <= TARGET.searchVsNode),
		});
		rows.push({ metric: "    node -e 0 beside it, median p50 ms", cells: each((r) => ms(procMedian(r, (q) => q.nodeMs))) });
		QUERY_MIX.forEach((q, i) => {
			rows.push({
				metric: `    ${q.name}: search p50 ms | rg -l -F p50 ms → search ÷ rg (< 1: ours faster)`,
				cells: each((r) => {
					const x = r.searchProcess[i];
					return x ? `${ms(p50(x.searchMs))} | ${ms(p50(x.rgMs))} → ${f2(p50(x.searchMs) / p50(x.rgMs))}×${x.status === 0 ? "" : ` (exit ${x.status})`}` : "–";
				}),
			});
		});
		const faster = (r: SizeResult) => r.searchProcess.filter((x) => p50(x.searchMs) < p50(x.rgMs)).length;
		const scale = judged.label.startsWith("xlarge");
		rows.push({
			metric: "    queries where the command beats rg -l -F (judged on the --xlarge row)",
			cells: each((r) => `${faster(r)} of ${r.searchProcess.length}`),
			target: scale ? "every query" : "",
			ratio: scale ? `${faster(judged)} of ${judged.searchProcess.length}` : "",
			status: scale ? verdict(faster(judged) === judged.searchProcess.length) : "",
		});
	}
	const firstP = (qs: FirstRunResult[][], p: number) =>
		Math.max(
			...qs.map((q) =>
				percentile(
					q.map((x) => x.firstMs),
					p,
				),
			),
		);
	const worstFirst = firstP(judged.firstRuns, 95);
	rows.push({
		metric: "  query first run in a fresh process: worst p95 of the mix ms",
		cells: each((r) => ms(firstP(r.firstRuns, 95))),
		target: `≤ ${TARGET.queryP95Ms} ms`,
		ratio: `${f2(worstFirst / TARGET.queryP95Ms)}× target`,
		status: verdict(worstFirst <= TARGET.queryP95Ms),
	});
	QUERY_MIX.forEach((q, i) => {
		rows.push({
			metric: `    ${q.name}: first run p50 / p95 ms; repeats p50 ms`,
			cells: each((r) => {
				const runs = r.firstRuns[i] ?? [];
				const first = runs.map((x) => x.firstMs);
				const rep = runs.flatMap((x) => x.repeats);
				return runs.length ? `${ms(percentile(first, 50))} / ${ms(percentile(first, 95))}; ${ms(percentile(rep, 50))}` : "–";
			}),
		});
	});
	const worstAgent = firstWorst(judged.agentFirstRuns);
	rows.push({
		metric: "  agent-style queries (issue 28: partial, inflected, misspelled), first run: worst p95 ms",
		cells: each((r) => (r.agentFirstRuns.length ? ms(firstWorst(r.agentFirstRuns)) : "–")),
		target: `≤ ${TARGET.queryP95Ms} ms`,
		ratio: `${f2(worstAgent / TARGET.queryP95Ms)}× target`,
		status: verdict(worstAgent <= TARGET.queryP95Ms),
	});
	AGENT_MIX.forEach((q, i) => {
		rows.push({
			metric: `    ${q.name}: first run p50 / p95 ms; repeats p50 ms; hits (match)`,
			cells: each((r) => {
				const runs = r.agentFirstRuns[i] ?? [];
				const first = runs.map((x) => x.firstMs);
				const rep = runs.flatMap((x) => x.repeats);
				const last = runs[runs.length - 1];
				return last ? `${ms(percentile(first, 50))} / ${ms(percentile(first, 95))}; ${ms(percentile(rep, 50))}; ${last.hits} (${last.match})` : "–";
			}),
		});
	});
	const worstAfter = firstP(judged.firstRunsAfterRefresh, 95);
	rows.push({
		metric: "  the same after the refresh rows rebuilt files: worst p95 ms",
		cells: each((r) => ms(firstP(r.firstRunsAfterRefresh, 95))),
		target: `≤ ${TARGET.queryP95Ms} ms`,
		ratio: `${f2(worstAfter / TARGET.queryP95Ms)}× target`,
		status: verdict(worstAfter <= TARGET.queryP95Ms),
	});
	rows.push({
		metric: "    opening the service before the first query, p50 ms",
		cells: each((r) =>
			ms(
				percentile(
					r.firstRuns.flat().map((x) => x.openMs),
					50,
				),
			),
		),
	});
	const noopWarm = judged.refresh.noop.p95;
	rows.push({
		metric: "  no-op freshness check, warm p95 ms",
		cells: each((r) => ms(r.refresh.noop.p95)),
		target: `≤ ${TARGET.noopWarmMs} ms`,
		ratio: `${f2(noopWarm / TARGET.noopWarmMs)}× target`,
		status: verdict(noopWarm <= TARGET.noopWarmMs),
	});
	TYPING_PACES.forEach((pace, i) => {
		const human = HUMAN_PACES.has(pace);
		const t = judged.typing[i];
		const name = human ? `a key every ${pace} ms` : `a burst (a key every ${pace} ms)`;
		for (const field of ["echoMs", "resultsMs"] as const) {
			const target = field === "echoMs" ? TARGET.echoMs : TARGET.resultsFrameMs;
			const p95 = t ? keyP(t, field, 95) : Number.NaN;
			rows.push({
				metric: `  typing, ${name}, fresh explorer: key → ${field === "echoMs" ? "echo" : "results"} frame p50 / p95 / max ms (keys)`,
				cells: each((r) => {
					const x = r.typing[i];
					return x ? `${ms(keyP(x, field, 50))} / ${ms(keyP(x, field, 95))} / ${ms(keyP(x, field, 100))} (${x.keys.length})` : "–";
				}),
				target: human ? `p95 ≤ ${target} ms, every key` : "",
				ratio: human ? `${f2(p95 / target)}× target` : "",
				status: human ? verdict(p95 <= target && (t?.queryShown ?? false)) : "",
			});
		}
		rows.push({
			metric: "    where a key's wait goes, medians: key → read, → search asked, search, answer → frame ms; CPU ms a key (all threads)",
			cells: each((r) => {
				const x = r.typing[i];
				return x ? typingParts(x) : "–";
			}),
		});
	});

	section("corpus (pi SessionManager, deterministic)");
	rows.push({ metric: "  primary sessions", cells: each((r) => (r.corpus.external ? "external" : thousands(r.corpus.families))) });
	rows.push({ metric: "  session files", cells: each((r) => thousands(r.corpus.fileCount)) });
	rows.push({ metric: "  corpus MB", cells: each((r) => f1(r.corpus.bytes / MB)) });
	rows.push({ metric: "  lines (headers + entries)", cells: each((r) => thousands(r.corpus.lines)) });
	rows.push({
		metric: "  build s (this run | when cached)",
		cells: each((r) => (r.corpus.external ? "–" : r.corpus.buildMs !== null ? f1(r.corpus.buildMs / 1000) : `cached | ${f1(r.corpus.originalBuildMs / 1000)}`)),
	});

	section("cold index (empty index; sync = HistoryService.refresh(), pipelined = refreshAsync())");
	rows.push({ metric: "  parse floor s (read + JSON.parse every line)", cells: each((r) => f2(r.floor.ms / 1000)) });
	const coldRatio = judged.cold.ms / judged.floor.ms;
	rows.push({
		metric: "  cold index s, synchronous refresh()",
		cells: each((r) => f2(r.cold.ms / 1000)),
		target: `≤ ${TARGET.coldVsFloor}× floor`,
		ratio: `${f1(coldRatio)}× floor`,
		status: coldVerdict(coldRatio <= TARGET.coldVsFloor),
	});
	const pipelinedRatio = judged.coldPipelined.ms / judged.floor.ms;
	rows.push({
		metric: "  cold index s, pipelined refreshAsync()",
		cells: each((r) => f2(r.coldPipelined.ms / 1000)),
		target: `≤ ${TARGET.coldVsFloor}× floor`,
		ratio: `${f1(pipelinedRatio)}× floor`,
		status: coldVerdict(pipelinedRatio <= TARGET.coldVsFloor),
	});
	rows.push({ metric: "  cold / floor (sync | pipelined)", cells: each((r) => `${f1(r.cold.ms / r.floor.ms)}× | ${f1(r.coldPipelined.ms / r.floor.ms)}×`) });
	rows.push({
		metric: "  CPU s: floor | sync | pipelined (all threads)",
		cells: each((r) => `${f2(r.floor.cpuMs / 1000)} | ${f2(r.cold.cpuMs / 1000)} | ${f2(r.coldPipelined.cpuMs / 1000)}`),
	});
	rows.push({
		metric: "  cold / floor by CPU time (sync | pipelined)",
		cells: each((r) => `${f1(r.cold.cpuMs / r.floor.cpuMs)}× | ${f1(r.coldPipelined.cpuMs / r.floor.cpuMs)}×`),
	});
	rows.push({
		metric: "  cold MB/s, sync (floor MB/s)",
		cells: each((r) => `${f1(r.corpus.bytes / MB / (r.cold.ms / 1000))} (${f0(r.corpus.bytes / MB / (r.floor.ms / 1000))})`),
	});
	const growth = coldPerMB(judged) / coldPerMB(base);
	rows.push({
		metric: "  cold ms per MB, sync (growth vs smallest)",
		cells: each((r) => `${f1(coldPerMB(r))}${growthOf(r, coldPerMB)}`),
		target: `linear (growth ≤ ${f2(TARGET.linearGrowth)})`,
		ratio: generatedSizes > 1 ? f2(growth) : "",
		status: generatedSizes > 1 ? verdict(growth <= TARGET.linearGrowth) : "",
	});
	rows.push({ metric: "  cold ms per MB, pipelined (growth)", cells: each((r) => `${f1(pipelinedPerMB(r))}${growthOf(r, pipelinedPerMB)}`) });
	rows.push({ metric: "  floor ms per MB (growth vs smallest)", cells: each((r) => `${f1(floorPerMB(r))}${growthOf(r, floorPerMB)}`) });
	rows.push({ metric: "  events (events/s)", cells: each((r) => `${thousands(r.cold.events)} (${thousands(r.cold.events / (r.cold.ms / 1000))})`) });
	rows.push({
		metric: "  fragments (fragments/s)",
		cells: each((r) => `${thousands(r.cold.fragments)} (${thousands(r.cold.fragments / (r.cold.ms / 1000))})`),
	});
	const rss = Math.max(judged.cold.maxRssBytes, judged.coldPipelined.maxRssBytes) / MB;
	rows.push({
		metric: "  peak RSS MB, cold index child (sync | pipelined)",
		cells: each((r) => `${f0(r.cold.maxRssBytes / MB)} | ${f0(r.coldPipelined.maxRssBytes / MB)}`),
		target: `≤ ${TARGET.peakRssMB} MB`,
		ratio: `${f2(rss / TARGET.peakRssMB)}× target`,
		status: coldVerdict(rss <= TARGET.peakRssMB),
	});
	const otherRss = otherPeakRss(judged);
	rows.push({
		metric: "  peak RSS MB, every other child (queries, first runs, <App/>, typing, refresh): max (which)",
		cells: each((r) => {
			const o = otherPeakRss(r);
			return `${f0(o.bytes / MB)} (${o.step})`;
		}),
		target: `≤ ${TARGET.peakRssMB} MB`,
		ratio: `${f2(otherRss.bytes / MB / TARGET.peakRssMB)}× target`,
		status: verdict(otherRss.bytes / MB <= TARGET.peakRssMB),
	});
	rows.push({ metric: "  peak RSS MB (parse floor child)", cells: each((r) => f0(r.floor.maxRssBytes / MB)) });
	rows.push({
		metric: "  MB written by the build (WAL, pages; sync | pipelined)",
		cells: each((r) => `${f0((r.cold.writtenBytes ?? Number.NaN) / MB)} | ${f0((r.coldPipelined.writtenBytes ?? Number.NaN) / MB)}`),
	});
	const idx = (r: SizeResult) => r.cold.checkpointedBytes.main + r.cold.checkpointedBytes.wal;
	const idxRatio = idx(judged) / judged.corpus.bytes;
	rows.push({
		metric: "  index MB (file + wal, checkpointed)",
		cells: each((r) => f1(idx(r) / MB)),
		target: `≤ ${TARGET.indexVsCorpus}× corpus`,
		ratio: `${f2(idxRatio)}× corpus`,
		status: verdict(idxRatio <= TARGET.indexVsCorpus),
	});
	rows.push({ metric: "  index / corpus", cells: each((r) => `${f2(idx(r) / r.corpus.bytes)}×`) });
	rows.push({ metric: "  index MB right after refresh (file + wal)", cells: each((r) => f1((r.cold.liveBytes.main + r.cold.liveBytes.wal) / MB)) });

	section("refresh");
	rows.push({
		metric: "  no-op, fresh process ms",
		cells: each((r) => ms(r.refresh.noopFirstMs)),
		target: `≤ ${TARGET.noopMs} ms`,
		ratio: `${f2(judged.refresh.noopFirstMs / TARGET.noopMs)}× target`,
		status: verdict(judged.refresh.noopFirstMs <= TARGET.noopMs),
	});
	rows.push({ metric: "  no-op, warm p50 / p95 ms", cells: each((r) => `${ms(r.refresh.noop.p50)} / ${ms(r.refresh.noop.p95)}`) });
	const a1 = (r: SizeResult) => r.refresh.append1.map((a) => a.ms);
	const a1max = Math.max(...a1(judged));
	rows.push({
		metric: "  one appended entry visible: refresh p50 (max) ms",
		cells: each((r) => `${ms(median(a1(r)))} (${ms(Math.max(...a1(r)))})`),
		target: `max ≤ ${TARGET.appendMs} ms, all found`,
		ratio: `${f2(a1max / TARGET.appendMs)}× target (max)`,
		status: verdict(a1max <= TARGET.appendMs && allAppended(judged) && allVisible(judged)),
	});
	rows.push({ metric: "    file sizes KB of those 5 appends", cells: each((r) => r.refresh.append1.map((a) => f0(a.bytes / 1024)).join("/")) });
	rows.push({
		metric: "    ingested as an append; found by search (ms)",
		cells: each((r) => `${allAppended(r) ? "yes" : "NO"}; ${allVisible(r) ? "yes" : "NO"} (${ms(median(r.refresh.append1.map((a) => a.searchMs)))})`),
	});
	rows.push({
		metric: "  100 appended entries in 10 files ms (events ingested)",
		cells: each((r) => (r.refresh.append100 ? `${ms(r.refresh.append100.ms)} (${r.refresh.append100.summary.eventsIngested})` : "–")),
	});
	const rewriteCell = (r: SizeResult, i: number) => {
		const w = r.refresh.rewrites[i];
		return w ? `${ms(w.ms)} (${f0(w.bytes / 1024)} KB, ${w.summary.sessionsRebuilt === 1 ? "rebuilt" : "NOT rebuilt"})` : "–";
	};
	rows.push({ metric: "  one rewritten file, median size: ms", cells: each((r) => rewriteCell(r, 0)) });
	rows.push({ metric: "  one rewritten file, largest: ms", cells: each((r) => rewriteCell(r, 1)) });

	section(`queries repeated in one process (service.search, limit 10; p50 / p95 ms, hits${rgAvailable ? ", rg p50 ms → speedup" : ""})`);
	QUERY_MIX.forEach((q, i) => {
		rows.push({
			metric: `  ${q.label}`,
			cells: each((r) => {
				const m = r.query.mix[i];
				const g = r.rg[i];
				if (!m) return "–";
				return `${ms(m.p50)} / ${ms(m.p95)}, ${m.hits}${g ? `; rg ${f0(g.p50)} → ${times(g.p50 / m.p50)}` : ""}`;
			}),
		});
	});
	rows.push({
		metric: "  worst p95 of the mix ms (repeats in one warm process; the first run is judged above)",
		cells: each((r) => ms(Math.max(...r.query.mix.map((q) => q.p95)))),
	});
	rows.push({ metric: "  median p50 of the mix ms", cells: each((r) => ms(median(r.query.mix.map((q) => q.p50)))) });
	rows.push({
		metric: "  after the refresh rows (files rebuilt): median p50 / worst p95 ms",
		cells: each((r) =>
			r.queryAfterRefresh ? `${ms(median(r.queryAfterRefresh.mix.map((q) => q.p50)))} / ${ms(Math.max(...r.queryAfterRefresh.mix.map((q) => q.p95)))}` : "–",
		),
	});
	if (rgAvailable) {
		const sp = median(rgSpeedups(judged));
		rows.push({ metric: "  speedup vs rg: worst query", cells: each((r) => times(Math.min(...rgSpeedups(r)))) });
		rows.push({
			metric: "  speedup vs rg: median of mix",
			cells: each((r) => times(median(rgSpeedups(r)))),
			target: `≥ ${TARGET.rgSpeedup}× rg`,
			ratio: times(sp),
			status: verdict(sp >= TARGET.rgSpeedup),
		});
	} else {
		rows.push({
			metric: "  speedup vs rg: median of mix",
			cells: each(() => "rg missing"),
			target: `≥ ${TARGET.rgSpeedup}× rg`,
			ratio: "apt-get install ripgrep",
			status: "",
		});
	}

	section(`search as you type ("${TYPED_QUERY}", one keystroke at a time)`);
	rows.push({
		metric: "  service only: search(prefix, limit 30) p50 / p95 / max ms",
		cells: each((r) => `${ms(r.query.typing.p50)} / ${ms(r.query.typing.p95)} / ${ms(r.query.typing.max)}`),
	});
	rows.push({
		metric: "    slowest keystroke (p50 ms)",
		cells: each((r) => (r.query.typing.slowestKey ? `"${r.query.typing.slowestKey.prefix}" ${ms(r.query.typing.slowestKey.p50)}` : "–")),
	});
	rows.push({
		metric: "  TUI <App/>, ink-testing-library (no throttle), waits for each frame: keystroke → echo p50 / p95 / max ms",
		cells: each((r) => (r.tui.echo ? `${ms(r.tui.echo.p50)} / ${ms(r.tui.echo.p95)} / ${ms(r.tui.echo.max)}` : "no echo seen")),
	});
	rows.push({
		metric: "  the same: keystroke → results frame p50 / p95 / max ms",
		cells: each((r) => `${ms(r.tui.p50)} / ${ms(r.tui.p95)} / ${ms(r.tui.max)}`),
	});
	rows.push({
		metric: "  hand-drawn placeholder frame (nothing listed): process start → frame p50 ms",
		cells: each((r) => (r.explorerStart ? ms(p50(r.explorerStart.placeholderMs)) : "–")),
	});
	rows.push({
		metric: "    in-process <App/>: process start → first frame ms (render → frame p50)",
		cells: each((r) => `${ms(r.tui.firstFrameFromStartMs)} (${ms(r.tui.firstFrameMs?.p50 ?? Number.NaN)})`),
	});
	rows.push({
		metric: "    of which: the App's search p50, search end → frame p50 / p95 ms",
		cells: each((r) => `${ms(r.tui.searchP50)}, ${ms(r.tui.renderP50)} / ${ms(r.tui.renderP95)}`),
	});
	rows.push({
		metric: "    slowest keystroke ms; keys measured (stalled); query shown",
		cells: each(
			(r) =>
				`"${r.tui.slowestKey?.prefix ?? ""}" ${ms(r.tui.slowestKey?.ms ?? Number.NaN)}; ${r.tui.keystrokes} (${r.tui.stalled}); ${r.tui.queryShown ? "yes" : "NO"}`,
		),
	});

	section("machine");
	rows.push({ metric: `  1-min load average before → after (${availableParallelism()} cores)`, cells: each((r) => `${f1(r.load[0])} → ${f1(r.load[1])}`) });
	rows.push({ metric: "  wall s for this size's measurements", cells: each((r) => f1(r.wallMs / 1000)) });
	return rows;
}

function renderTable(results: SizeResult[], rows: Row[]): string {
	const header = ["metric", ...results.map((r) => r.label), "target (DESIGN §7)", `${judgedOf(results).label} vs target`, ""];
	return renderGrid(
		header,
		rows.map((r) => [r.metric, ...r.cells, r.target ?? "", r.ratio ?? "", r.status ?? ""]),
	);
}

// ---------------------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
	const { options, flags, rest } = parseArgs(process.argv.slice(2));
	// A flag followed by a bare word (`--quick small`) took the word as its value: give it back.
	for (const name of FLAGS) {
		const value = options.get(name);
		if (value === undefined) continue;
		options.delete(name);
		flags.add(name);
		rest.push(value);
	}
	if (flags.has("help") || rest.includes("-h")) {
		process.stdout.write(`${HELP}\n`);
		return;
	}
	const swallowed = process.env.npm_lifecycle_event
		? SWALLOWED_BY_NPM.filter((name) => process.env[`npm_config_${name.replace(/-/g, "_")}`] !== undefined && !options.has(name) && !flags.has(name))
		: [];
	if (swallowed.length > 0) {
		const named = swallowed.map((n) => `--${n}`).join(" ");
		process.stderr.write(`npm kept ${named} for itself: pass bench options after --, e.g. npm run bench -- ${named}\n`);
		process.exitCode = 2;
		return;
	}
	const unknown = [
		...rest,
		...[...options.keys()].filter((k) => !VALUE_OPTIONS.has(k)).map((k) => `--${k}`),
		...[...flags].filter((f) => !FLAGS.has(f) && !VALUE_OPTIONS.has(f)).map((f) => `--${f}`),
	];
	const missingValue = [...flags].filter((f) => VALUE_OPTIONS.has(f)).map((f) => `--${f}`);
	if (unknown.length > 0 || missingValue.length > 0) {
		const problems = [...unknown.map((u) => `unknown argument ${u}`), ...missingValue.map((m) => `${m} needs a value`)];
		process.stderr.write(`${problems.join("; ")}\n${HELP}\n`);
		process.exitCode = 2;
		return;
	}
	const sizeNames = flags.has("quick")
		? ["small"]
		: (options.get("sizes") ?? "small,medium,large")
				.split(",")
				.map((s) => s.trim())
				.filter(Boolean);
	if (sizeNames.length === 0) throw new Error("--sizes names no size");
	// Smallest first: growth is relative to the smallest, and the largest is the one judged against the targets.
	const xlargeOnly = flags.has("xlarge-only");
	if (xlargeOnly) flags.add("xlarge");
	const sizes = (xlargeOnly ? [] : sizeNames)
		.map((name) => {
			const n = SIZES[name] ?? Number(name);
			if (!Number.isInteger(n) || n < 1) throw new Error(`unknown size "${name}" (use small, medium, large or a number)`);
			return { name: SIZES[name] ? name : `n${n}`, families: n };
		})
		.filter((s, i, all) => all.findIndex((o) => o.families === s.families) === i)
		.sort((a, b) => a.families - b.families);
	const xlargeFamilies = Number(options.get("xlarge-families") ?? String(XLARGE_FAMILIES));
	if (flags.has("xlarge")) {
		if (!Number.isInteger(xlargeFamilies) || xlargeFamilies < 1) throw new Error("--xlarge-families takes a positive integer");
		sizes.push({ name: xlargeFamilies === XLARGE_FAMILIES ? "xlarge" : `xlarge-n${xlargeFamilies}`, families: xlargeFamilies });
		checkDisk(resolve(options.get("cache") ?? join(REPO, ".bench")), xlargeFamilies);
	}
	const seed = Number(options.get("seed") ?? "1");
	const cacheDir = resolve(options.get("cache") ?? join(REPO, ".bench"));
	const runs = Number(options.get("runs") ?? "20");
	const rgRuns = Number(options.get("rg-runs") ?? "5");
	const rg = rgVersion();
	const source = sourceState();
	mkdirSync(cacheDir, { recursive: true });
	const started = performance.now();
	log(
		`pi-event-search bench: ${flags.has("huge-only") ? "size-independent rows only" : `sizes ${sizes.map((s) => `${s.name}=${s.families}`).join(", ")}`}, seed ${seed}, cache ${cacheDir}`,
	);
	log(
		`machine: ${cpus()[0]?.model ?? "cpu"} ×${availableParallelism()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, ${rg ?? "rg not installed"}`,
	);
	log(sourceLine(source));
	if (!rg) log("rg is not installed: the rg comparison is skipped (Debian/Ubuntu: apt-get install ripgrep)");

	if (flags.has("cmd-only")) {
		const families = sizes.at(-1)?.families ?? 2000;
		await cmdOnly(cacheDir, seed, families, Number(options.get("proc-runs") ?? "3"), Number(options.get("cmd-passes") ?? "1"), log);
		return;
	}
	if (flags.has("typing-only")) {
		await typingOnly(cacheDir, seed, sizes.at(-1)?.families ?? 2000, Number(options.get("typing-passes") ?? "1"));
		return;
	}
	// Corpora first, so build time and measurement time are reported apart.
	const corpora: Array<{ label: string; corpus: Corpus }> = [];
	const genStarted = performance.now();
	const hugeOnly = flags.has("huge-only") || flags.has("huge-session") || flags.has("huge-lines");
	for (const s of hugeOnly ? [] : sizes) corpora.push({ label: s.name, corpus: await ensureCorpus(cacheDir, seed, s.families, log) });
	const corpusExternal = options.get("corpus");
	if (corpusExternal && !hugeOnly) corpora.push({ label: "external", corpus: externalCorpus(resolve(corpusExternal), join(cacheDir, "external-scratch")) });
	const genMs = performance.now() - genStarted;

	const results: SizeResult[] = [];
	const measureStarted = performance.now();
	// The largest generated size is the one judged and the one profiled; an external corpus comes after it.
	const largest = sizes.length - 1;
	const largestRegular = sizes.filter((s) => !s.name.startsWith("xlarge")).length - 1;
	for (const [i, { label, corpus }] of corpora.entries()) {
		results.push(
			await measure(corpus, label, cacheDir, {
				runs,
				rgRuns,
				rg: rg !== null,
				profile: flags.has("profile") && i === largest,
				// The scale row: fewer repeats (each rg pass reads the whole history), no peer.
				peer: !flags.has("no-peer") && i === (label.startsWith("xlarge") ? -1 : largestRegular),
				startRuns: label.startsWith("xlarge") ? 3 : Number(options.get("start-runs") ?? "5"),
				procRuns: label.startsWith("xlarge") ? 1 : Number(options.get("proc-runs") ?? "3"),
				firstRuns: label.startsWith("xlarge") ? 3 : Number(options.get("first-runs") ?? "5"),
				reuseIndex: flags.has("reuse-index"),
			}),
		);
	}
	const hugeScale = Number(options.get("huge-scale") ?? "1");
	if (!(hugeScale > 0 && hugeScale <= 1)) throw new Error("--huge-scale takes a number in (0, 1]");
	const huge =
		flags.has("huge") || hugeOnly ? await runHuge(cacheDir, hugeScale, log, { linear: !flags.has("huge-lines"), lines: !flags.has("huge-session") }) : null;
	const measureMs = performance.now() - measureStarted;
	const totalMs = performance.now() - started;

	const [l1, l5, l15] = loadavg();
	process.stdout.write(`\nload average at the end (uptime): ${f2(l1 ?? 0)}, ${f2(l5 ?? 0)}, ${f2(l15 ?? 0)} on ${availableParallelism()} cores\n`);
	if (results.length > 0) process.stdout.write(`\n${renderTable(results, buildRows(results, rg !== null))}\n`);
	const judged = results.length > 0 ? judgedOf(results) : null;
	if (judged?.trigram) {
		process.stdout.write(
			`\n${renderPeerTable({ label: judged.label, corpusBytes: judged.corpus.bytes, cold: judged.cold, query: judged.query, rg: judged.rg, trigram: judged.trigram })}\n`,
		);
	}
	if (huge) process.stdout.write(`\n${renderHugeTable(huge)}\n`);
	const builtNow = results.filter((r) => r.corpus.buildMs !== null).reduce((n, r) => n + (r.corpus.buildMs ?? 0), 0);
	const builtOriginally = results.reduce((n, r) => n + (r.corpus.buildMs ?? r.corpus.originalBuildMs), 0);
	process.stdout.write(`\n${sourceLine(source)}`);
	process.stdout.write(
		`\nwall: ${f1(totalMs / 1000)} s total = corpus ${f1(genMs / 1000)} s (${builtNow > 0 ? `built ${f1(builtNow / 1000)} s` : "all cached"}; building all from scratch took ${f1(builtOriginally / 1000)} s) + measurements ${f1(measureMs / 1000)} s\n`,
	);
	for (const r of results) {
		for (const prof of r.profiles ?? []) {
			for (const t of prof.threads) {
				const p = t.summary;
				const rowsOf = (title: string, list: ProfileSummary["selfByFile"], n: number) => {
					process.stdout.write(`  ${title}:\n`);
					for (const row of list.slice(0, n)) process.stdout.write(`    ${f1(row.share * 100).padStart(5)}%  ${f0(row.ms).padStart(6)} ms  ${row.name}\n`);
				};
				process.stdout.write(
					`\ncold index profile, ${r.label}, ${prof.mode} (${f1(prof.wallMs / 1000)} s under the profiler), ${t.thread}: ${f1(p.totalMs / 1000)} s sampled\n  ${t.file}\n`,
				);
				rowsOf("self time by file", p.selfByFile, 10);
				rowsOf("self time by function", p.selfByFunction, 15);
				rowsOf("inclusive time by function", p.inclusiveByFunction, 20);
			}
		}
	}
	const jsonPath = resolve(options.get("json") ?? join(cacheDir, "results.json"));
	mkdirSync(dirname(jsonPath), { recursive: true });
	writeFileSync(
		jsonPath,
		`${JSON.stringify(
			{
				when: new Date().toISOString(),
				machine: { cpu: cpus()[0]?.model ?? null, cores: availableParallelism(), memBytes: totalmem(), node: process.version, rg },
				source,
				args: { sizes, seed, runs, rgRuns, cacheDir, profile: flags.has("profile"), corpus: corpusExternal ?? null },
				targets: TARGET,
				wall: { totalMs, corpusMs: genMs, corpusBuiltNowMs: builtNow, corpusBuildFromScratchMs: builtOriginally, measureMs },
				results,
				huge,
			},
			null,
			1,
		)}\n`,
	);
	process.stdout.write(`raw numbers: ${jsonPath}\n`);
}

const entry = process.argv[1] ? resolve(process.argv[1]) : "";
if (entry === fileURLToPath(import.meta.url)) {
	main().catch((error: unknown) => {
		process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exit(1);
	});
}
