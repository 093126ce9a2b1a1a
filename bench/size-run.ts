/**
 * One size's measurements for bench.ts: the parse floor and cold index, the queries, the explorer and typing, rg, the
 * trigram peer and the refresh rows, each in fresh child processes.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { type ChildResult, median, percentile, runChild } from "./child.js";
import { pickMutations } from "./cmd-only.js";
import { measureOverlay, overlayLine } from "./overlay.js";
import { type Corpus, ensureCorpus, restoreOriginals, saveOriginals } from "./prepare.js";
import { summarizeProfile } from "./profile.js";
import type {
	ColdPartsResult,
	ColdResult,
	FirstRunResult,
	FloorResult,
	OverlayResult,
	RefreshResult,
	RgResult,
	TrigramResult,
	TypingResult,
} from "./results.js";
import { firstWorst, type SizeResult, TYPING_PACES } from "./size-table.js";
import { f1, MB, thousands } from "./table.js";
import { measureTyping, typingLine } from "./typing.js";
import { measureExplorerStart, measureSearchProcess, p50, rgList } from "./user-wait.js";
import { AGENT_MIX, encodeCwd, FLAT_SESSIONS_DIR, type MixQuery, QUERY_MIX } from "./vocabulary.js";

/** Writes a progress line to stderr (the tables go to stdout). */
export const log = (line: string) => process.stderr.write(`${line}\n`);

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

/** The rows inside pi: one pass per fresh process at each pace of TYPING_PACES, /history over pi-tui's TUI. */
async function measureOverlayRows(corpus: Corpus, indexPath: string): Promise<OverlayResult[]> {
	const overlay: OverlayResult[] = [];
	for (const pace of TYPING_PACES) {
		try {
			overlay.push(await measureOverlay(corpus.roots, indexPath, pace));
		} catch (error) {
			log(`  inside pi at ${pace} ms/key: not measured (${(error as Error).message.split("\n")[0]})`);
			return [];
		}
		log(`  inside pi (/history): ${overlayLine(overlay.at(-1) as OverlayResult)}`);
	}
	return overlay;
}

/** `--typing-only`: the typing rows alone on one size, its cached index built first when missing (issue 29). */
export async function typingOnly(cacheDir: string, seed: number, families: number, passes: number): Promise<void> {
	const corpus = await ensureCorpus(cacheDir, seed, families, log);
	const indexPath = join(cacheDir, `index-${corpus.key}.sqlite`);
	if (!existsSync(indexPath)) {
		log(`  no cached index: building ${indexPath}`);
		await runChild("cold", "measure-worker.js", ["cold", "--index", indexPath, "--roots", corpus.roots.join(","), "--mode", "sync"]);
	}
	log(`typing rows: ${thousands(corpus.files.length)} files, ${f1(corpus.bytes / MB)} MB; 1-min load average ${f1(loadavg()[0] ?? 0)}`);
	for (let p = 0; p < passes; p++) {
		measureTypingRows(corpus, indexPath);
		await measureOverlayRows(corpus, indexPath);
	}
	log(`1-min load average after: ${f1(loadavg()[0] ?? 0)}`);
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

/** What a first touch of a new page costs on this machine now (page-touch.ts): the median of three fresh processes. */
async function pageTouchUs(): Promise<number> {
	const runs: number[] = [];
	for (let i = 0; i < 3; i++) runs.push((await runChild("pageTouch", "page-touch.js", [])).usPerPage);
	return median(runs);
}

/** The parse floor of a run that reused the index (--reuse-index): not measured, shown as NaN. */
function skippedFloor(): ChildResult<FloorResult> {
	const nan = Number.NaN;
	return { ms: nan, cpuMs: nan, files: nan, bytes: nan, lines: nan, invalid: nan, typed: nan, maxRssBytes: nan, wallMs: nan };
}

/** Corpora up to this size get the cold index's parts measured apart (cold-parts.ts). */
const COLD_PARTS_MAX_BYTES = 2e9;

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

/** Measures one size's corpus (its index cached in `cacheDir`), every step in its own child process. */
export async function measure(
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
	const touchBefore = await pageTouchUs();
	log(`\n[${label}] ${(corpus.bytes / 1e6).toFixed(1)} MB, ${corpus.files.length} files; a new page's first touch ${f1(touchBefore)} µs`);
	const indexPath = join(cacheDir, `index-${corpus.external ? "external" : corpus.key}.sqlite`);
	const workerArgs = ["--index", indexPath, "--roots", corpus.roots.join(",")];
	const reuse = opts.reuseIndex && existsSync(indexPath) && !existsSync(`${indexPath}-wal`);
	const floorRuns: Array<ChildResult<FloorResult>> = [];
	let floor: ChildResult<FloorResult>;
	let cold: ChildResult<ColdResult>;
	let coldPipelined: ChildResult<ColdResult>;
	let coldParts: ChildResult<ColdPartsResult> | null = null;
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
		// Up to the large corpus: on the scale row it would add a second cold index's scan.
		if (corpus.bytes <= COLD_PARTS_MAX_BYTES) {
			coldParts = await runChild("coldParts", "cold-parts.js", corpus.roots);
			log(
				`  apart: scanning ${(coldParts.scanMs / 1000).toFixed(2)} s, FTS5 alone ${((coldParts.ftsMs + coldParts.mergeMs) / 1000).toFixed(2)} s (${(coldParts.streamBytes / 1e6).toFixed(0)} MB of token streams)`,
			);
		}
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
			? `  pi-history in a pty: recent events listed p50 ${p50(explorerStart.listMs).toFixed(0)} ms, keys typed at start echoed p50 ${p50(explorerStart.echoMs).toFixed(0)} ms, its own first frame p50 ${p50(explorerStart.readyMs).toFixed(0)} ms, node -e 0 p50 ${p50(explorerStart.nodeMs).toFixed(0)} ms${explorerStart.failed ? `, ${explorerStart.failed} run(s) timed out` : ""}`
			: "  pi-history in a pty: not measured (no python3)",
	);
	const searchProcess = measureSearchProcess(corpus.agentDir, corpus.roots, indexPath, opts.procRuns, opts.rg);
	if (searchProcess.length)
		log(
			`  pi-history search as a process: median p50 ${median(searchProcess.map((q) => p50(q.searchMs))).toFixed(0)} ms, ${opts.rg ? `rg -l -F ${median(searchProcess.map((q) => p50(q.rgMs))).toFixed(0)} ms` : "rg not installed"}, node -e 0 ${median(searchProcess.map((q) => p50(q.nodeMs))).toFixed(0)} ms`,
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
	const overlay = await measureOverlayRows(corpus, indexPath);
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
		coldParts,
		query,
		tui,
		explorerStart,
		searchProcess,
		firstRuns,
		firstRunsAfterRefresh,
		agentFirstRuns,
		typing,
		overlay,
		rg,
		trigram,
		refresh,
		queryAfterRefresh,
		profiles,
		wallMs: performance.now() - started,
		load: [loadBefore, loadavg()[0] ?? 0],
		pageTouchUs: [touchBefore, await pageTouchUs()],
	};
}
