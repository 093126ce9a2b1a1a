/**
 * The corpus cache: builds a corpus of N families with parallel corpus workers, or reuses the one already on disk
 * when its stamp (builder version, pi version, seed, size) and every file's size still match.
 */
import { copyFileSync, type Dirent, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runChild } from "./child.js";
import { FLAT_SESSIONS_DIR } from "./vocabulary.js";

/** Bump when the builder's output changes, so cached corpora are rebuilt (2: replies and prompts hold emoji sequences). */
export const CORPUS_VERSION = 2;

/** A corpus on disk, as the bench measures it. */
export interface Corpus {
	key: string;
	/** Where originals of mutated files are parked during a run; outside every session root. */
	scratchDir: string;
	/** pi's agent dir of the corpus; rg searches here. */
	agentDir: string;
	/** Session roots to index: pi's default layout and a flat sessionDir-style directory. */
	roots: string[];
	families: number;
	/** Session files relative to agentDir, with their sizes, sorted by path. */
	files: Array<{ path: string; bytes: number }>;
	bytes: number;
	lines: number;
	rareFamilies: number;
	/** Milliseconds the build took, or null when the corpus came from the cache. */
	buildMs: number | null;
	/** Milliseconds the build took when it was made (kept in the stamp). */
	originalBuildMs: number;
	external: boolean;
}

interface Stamp {
	version: number;
	piVersion: string;
	seed: number;
	families: number;
	files: Array<{ path: string; bytes: number }>;
	bytes: number;
	lines: number;
	rareFamilies: number;
	buildMs: number;
}

/** Version of the pi package that writes the corpus (part of the cache key). */
export function piVersion(): string {
	try {
		// pi is ESM-only (no "require" export condition), so resolve it the way an import would.
		let dir = dirname(fileURLToPath(import.meta.resolve("@mariozechner/pi-coding-agent")));
		for (let i = 0; i < 4; i++, dir = dirname(dir)) {
			const pkg = join(dir, "package.json");
			if (!existsSync(pkg)) continue;
			const parsed = JSON.parse(readFileSync(pkg, "utf8")) as { name?: string; version?: string };
			if (parsed.name === "@mariozechner/pi-coding-agent") return parsed.version ?? "unknown";
		}
	} catch {
		// fall through
	}
	return "unknown";
}

/** Every `*.jsonl` under `dir`, relative to it, sorted. */
export function listJsonl(dir: string, base = dir, out: string[] = []): string[] {
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return out;
	}
	for (const e of entries) {
		const abs = join(dir, e.name);
		if (e.isDirectory()) listJsonl(abs, base, out);
		else if (e.isFile() && e.name.endsWith(".jsonl")) out.push(abs.slice(base.length + 1));
	}
	return out.sort();
}

function countLines(file: string): number {
	const buf = readFileSync(file);
	let n = 0;
	for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
	return n;
}

/** Directory holding originals of files a measurement mutates; present only while (or if) a run was interrupted. */
function restoreDir(scratchDir: string): string {
	return join(scratchDir, "restore");
}

/** Saves the originals of `files` (relative to agentDir) before they are mutated. */
export function saveOriginals(corpus: Corpus, files: string[]): void {
	const dir = restoreDir(corpus.scratchDir);
	for (const f of files) {
		const target = join(dir, f);
		mkdirSync(dirname(target), { recursive: true });
		copyFileSync(join(corpus.agentDir, f), target);
	}
}

/** Puts saved originals back and forgets them; a no-op when nothing was saved. */
export function restoreOriginals(corpus: Pick<Corpus, "scratchDir" | "agentDir">): number {
	const dir = restoreDir(corpus.scratchDir);
	if (!existsSync(dir)) return 0;
	const files = listJsonl(dir);
	for (const f of files) copyFileSync(join(dir, f), join(corpus.agentDir, f));
	rmSync(dir, { recursive: true, force: true });
	return files.length;
}

function fromStamp(key: string, dir: string, stamp: Stamp, buildMs: number | null): Corpus {
	const agentDir = join(dir, "agent");
	return {
		key,
		scratchDir: dir,
		agentDir,
		roots: [join(agentDir, "sessions"), join(agentDir, FLAT_SESSIONS_DIR)],
		families: stamp.families,
		files: stamp.files,
		bytes: stamp.bytes,
		lines: stamp.lines,
		rareFamilies: stamp.rareFamilies,
		buildMs,
		originalBuildMs: stamp.buildMs,
		external: false,
	};
}

/** Returns the cached corpus of `families` families, building it first when missing or stale. */
export async function ensureCorpus(cacheDir: string, seed: number, families: number, log: (line: string) => void): Promise<Corpus> {
	const pi = piVersion();
	const key = `corpus-v${CORPUS_VERSION}-pi${pi}-seed${seed}-n${families}`;
	const dir = join(cacheDir, key);
	const stampFile = join(dir, "corpus.json");
	if (existsSync(stampFile)) {
		const restored = restoreOriginals({ scratchDir: dir, agentDir: join(dir, "agent") });
		if (restored > 0) log(`  ${key}: put back ${restored} file(s) an interrupted run had mutated`);
		try {
			const stamp = JSON.parse(readFileSync(stampFile, "utf8")) as Stamp;
			const agentDir = join(dir, "agent");
			const same =
				stamp.version === CORPUS_VERSION &&
				stamp.piVersion === pi &&
				stamp.seed === seed &&
				stamp.families === families &&
				stamp.files.every((f) => {
					try {
						return statSync(join(agentDir, f.path)).size === f.bytes;
					} catch {
						return false;
					}
				}) &&
				listJsonl(agentDir).length === stamp.files.length;
			if (same) {
				log(`  ${key}: reusing cached corpus (${(stamp.bytes / 1e6).toFixed(1)} MB, ${stamp.files.length} files)`);
				return fromStamp(key, dir, stamp, null);
			}
		} catch {
			// unreadable stamp: rebuild
		}
	}
	rmSync(dir, { recursive: true, force: true });
	const agentDir = join(dir, "agent");
	mkdirSync(agentDir, { recursive: true });
	const workers = Math.max(1, Math.min(availableParallelism(), 4, Math.ceil(families / 100)));
	log(`  ${key}: building ${families} families with ${workers} worker(s) through pi's SessionManager…`);
	const started = performance.now();
	const ranges = Array.from({ length: workers }, (_, w) => [Math.floor((families * w) / workers), Math.floor((families * (w + 1)) / workers)] as const);
	const results = await Promise.all(
		ranges.map(([from, to]) =>
			runChild("corpus", "corpus-worker.js", ["--agent-dir", agentDir, "--seed", String(seed), "--from", String(from), "--to", String(to)]),
		),
	);
	const overruns = results.reduce((n, r) => n + r.overruns, 0);
	if (overruns > 0) log(`  warning: ${overruns} famil(ies) overran their time slot; output may depend on the worker split`);
	const files = listJsonl(agentDir).map((path) => ({ path, bytes: statSync(join(agentDir, path)).size }));
	const stamp: Stamp = {
		version: CORPUS_VERSION,
		piVersion: pi,
		seed,
		families,
		files,
		bytes: files.reduce((n, f) => n + f.bytes, 0),
		lines: files.reduce((n, f) => n + countLines(join(agentDir, f.path)), 0),
		rareFamilies: results.reduce((n, r) => n + r.families.filter((f) => f.rare).length, 0),
		buildMs: performance.now() - started,
	};
	writeFileSync(stampFile, `${JSON.stringify(stamp)}\n`);
	log(`  ${key}: built ${(stamp.bytes / 1e6).toFixed(1)} MB, ${files.length} files, ${stamp.lines} lines in ${(stamp.buildMs / 1000).toFixed(1)} s`);
	return fromStamp(key, dir, stamp, stamp.buildMs);
}

/**
 * Wraps an existing session directory (e.g. the shared generator's output) as a corpus. The refresh measurements
 * mutate a few of its files and put them back from copies parked in `scratchDir`.
 */
export function externalCorpus(root: string, scratchDir: string): Corpus {
	const restored = restoreOriginals({ scratchDir, agentDir: root });
	if (restored > 0) process.stderr.write(`  put back ${restored} file(s) an interrupted run had mutated under ${root}\n`);
	const files = listJsonl(root).map((path) => ({ path, bytes: statSync(join(root, path)).size }));
	return {
		key: `external:${root}`,
		scratchDir,
		agentDir: root,
		roots: [root],
		families: Number.NaN,
		files,
		bytes: files.reduce((n, f) => n + f.bytes, 0),
		lines: files.reduce((n, f) => n + countLines(join(root, f.path)), 0),
		rareFamilies: Number.NaN,
		buildMs: null,
		originalBuildMs: 0,
		external: true,
	};
}
