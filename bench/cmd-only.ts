/**
 * `--cmd-only`: the rows of `pi-history search` as a command and of the freshness check alone (issue 29), on the
 * largest size and its cached index, so a change to the command's start or to the check is measured without the
 * whole bench: the search-process rows (each beside `node -e 0`, interleaved) and the refresh rows (no-op in a fresh
 * process, warm no-ops, one appended entry visible). Printed, nothing judged. Also the files the refresh rows mutate.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, runChild } from "./child.js";
import { type Corpus, ensureCorpus, restoreOriginals, saveOriginals } from "./prepare.js";
import type { RefreshResult } from "./results.js";
import { measureSearchProcess, p50, userEnv } from "./user-wait.js";

/** True for a file pi can append to: starts with a session header and ends with a complete line. */
function appendable(file: string): boolean {
	try {
		const size = statSync(file).size;
		if (size < 64) return false;
		const fd = openSync(file, "r");
		try {
			const head = Buffer.alloc(24);
			readSync(fd, head, 0, 24, 0);
			const last = Buffer.alloc(1);
			readSync(fd, last, 0, 1, size - 1);
			return head.toString("latin1").startsWith('{"type":"session"') && last[0] === 10;
		} finally {
			closeSync(fd);
		}
	} catch {
		return false;
	}
}

/** Files the refresh measurements mutate, spread over the size distribution; deterministic for a corpus. */
export function pickMutations(corpus: Corpus): { append1: string[]; append10: string[]; rewrite: string[] } {
	const candidates = corpus.files.filter((f) => appendable(join(corpus.agentDir, f.path))).sort((a, b) => a.bytes - b.bytes || (a.path < b.path ? -1 : 1));
	const taken = new Set<number>();
	const at = (q: number): string => {
		let i = Math.round(q * (candidates.length - 1));
		while (taken.has(i) && i < candidates.length - 1) i++;
		while (taken.has(i) && i > 0) i--;
		taken.add(i);
		return (candidates[i] as { path: string }).path;
	};
	const rewrite = [at(0.5), at(1)];
	const append1 = [0.1, 0.3, 0.5, 0.7, 0.9].map(at);
	const append10 = Array.from({ length: 10 }, (_, k) => at(0.05 + k * 0.1));
	return { append1, append10, rewrite };
}

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "cli", "main.cjs");

/** The refresh rows on `indexPath`, the mutated files put back afterwards. */
async function refreshRows(corpus: Corpus, indexPath: string): Promise<RefreshResult> {
	const mutations = pickMutations(corpus);
	const mutated = [...new Set([...mutations.append1, ...mutations.append10, ...mutations.rewrite])];
	saveOriginals(corpus, mutated);
	const abs = (list: string[]) => list.map((f) => join(corpus.agentDir, f)).join(",");
	try {
		return await runChild("refresh", "measure-worker.js", [
			"refresh",
			...["--index", indexPath, "--roots", corpus.roots.join(",")],
			...["--append1", abs(mutations.append1), "--append10", abs(mutations.append10), "--rewrite", abs(mutations.rewrite)],
		]);
	} finally {
		restoreOriginals(corpus);
	}
}

/** Runs the search-process and refresh rows `passes` times on the largest size, printing each pass. */
export async function cmdOnly(cacheDir: string, seed: number, families: number, procRuns: number, passes: number, log: (s: string) => void): Promise<void> {
	const corpus = await ensureCorpus(cacheDir, seed, families, log);
	const indexPath = join(cacheDir, `index-${corpus.key}.sqlite`);
	if (!existsSync(indexPath)) log(`  no cached index: the first refresh builds ${indexPath}`);
	// Files a previous run mutated and put back are rebuilt here, not inside the first measured search.
	spawnSync(process.execPath, [MAIN, "index"], { env: userEnv(corpus.roots, indexPath), stdio: "ignore" });
	for (let pass = 0; pass < passes; pass++) {
		const load = loadavg()[0] ?? 0;
		// The command beside node -e 0 only: these rows never compare it with rg.
		const proc = measureSearchProcess(corpus.agentDir, corpus.roots, indexPath, procRuns, false);
		const search = median(proc.map((q) => p50(q.searchMs)));
		const node = median(proc.map((q) => p50(q.nodeMs)));
		log(`search as a process: median p50 ${search.toFixed(0)} ms, node -e 0 ${node.toFixed(0)} ms: ${(search / node).toFixed(2)}× node`);
		log(`  per query p50 (× node): ${proc.map((q) => `${q.name} ${p50(q.searchMs).toFixed(0)} (${(p50(q.searchMs) / p50(q.nodeMs)).toFixed(2)})`).join(", ")}`);
		const r = await refreshRows(corpus, indexPath);
		const appends = r.append1.map((a) => a.ms);
		log(
			`refresh: no-op fresh process ${r.noopFirstMs.toFixed(1)} ms; warm no-op p50 ${r.noop.p50.toFixed(1)} / p95 ${r.noop.p95.toFixed(1)} ms${r.noopWatched ? `, folders watched p50 ${r.noopWatched.p50.toFixed(1)} / p95 ${r.noopWatched.p95.toFixed(1)} ms` : ""}; one append p50 ${median(appends).toFixed(1)} (max ${Math.max(...appends).toFixed(1)}) ms, visible ${r.append1.every((a) => a.visible)}`,
		);
		log(`  1-min load average ${load.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`);
		spawnSync(process.execPath, [MAIN, "index"], { env: userEnv(corpus.roots, indexPath), stdio: "ignore" });
	}
}
