/**
 * `npm run bench`: builds (or reuses) deterministic Pi corpora at three sizes, measures the index against the
 * targets of DESIGN §7 in fresh child processes, and prints one table; raw numbers go to <cache>/results.json.
 *
 *   npm run bench -- [--sizes small,medium,large | --quick] [--seed N] [--cache DIR] [--corpus DIR]
 *                    [--profile] [--runs N] [--rg-runs N] [--json PATH] [--help | -h]
 * (The `--` matters: without it npm takes the options as its own and the bench never sees them.)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, statfsSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_DIST, parseArgs } from "./child.js";
import { cmdOnly } from "./cmd-only.js";
import { renderHugeTable, runHuge } from "./huge-run.js";
import { renderPeerTable } from "./peer-table.js";
import { type Corpus, ensureCorpus, externalCorpus } from "./prepare.js";
import type { ProfileSummary } from "./profile.js";
import { log, measure, typingOnly } from "./size-run.js";
import { buildRows, judgedOf, renderTable, type SizeResult, TARGET } from "./size-table.js";
import { f0, f1, f2 } from "./table.js";

/** Named sizes: primary sessions (families) of the large kind. */
const SIZES: Record<string, number> = { small: 250, medium: 1000, large: 2000 };

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
                  one pass per fresh pi-history per pace (150, 80 and 20 ms a key), and the same inside pi
                  (/history over pi's TUI, bench/overlay.ts), printed, nothing judged
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
