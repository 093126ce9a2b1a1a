/** How the bench talks to its child processes (one JSON result line on stdout), plus the small statistics it needs. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ResolvedConfig, resolveConfig } from "../src/shared/config.js";
import type { ResultKind, ResultOf } from "./results.js";

const MARK = "@@bench-result ";

/** Directory of the compiled bench scripts (dist/bench). */
export const BENCH_DIST = dirname(fileURLToPath(import.meta.url));

/**
 * CPU ms this thread has run so far: Linux's per-thread schedstat (nanoseconds; not V8's helper threads, nor worker
 * threads such as the index's checkpoint worker); the process's CPU time elsewhere (Node 20 has no per-thread call).
 */
export function threadCpuMs(): number {
	try {
		return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
	} catch {
		const c = process.cpuUsage();
		return (c.user + c.system) / 1000;
	}
}

/** Peak resident set size of this process so far, in bytes (resourceUsage reports kilobytes). */
export function maxRssBytes(): number {
	return process.resourceUsage().maxRSS * 1024;
}

/**
 * The config every measuring child opens: exactly these session roots (a home without pi settings keeps the user's
 * own out), so the parse floor and the index read the same files. A corpus's roots (`<agent>/sessions` and a flat
 * session dir) are named as pi's variables name them for `pi-history` (user-wait.ts userEnv): the same roots of the
 * same kinds, so a child of either sort trusts the folder stamps the other left (quick-check.ts), as one person's
 * commands and explorer do; named otherwise, every alternation walked the history (0.3-0.5 s at 25,000 files).
 */
export function benchConfig(roots: string[], indexPath?: string): ResolvedConfig {
	const home = join(tmpdir(), "pi-event-search-bench-home");
	const [first, second, ...others] = roots;
	if (first && basename(first) === "sessions" && others.length === 0) {
		const env = { PI_CODING_AGENT_DIR: dirname(first), ...(second ? { PI_CODING_AGENT_SESSION_DIR: second } : {}) };
		const config = resolveConfig({ indexPath, env, home, cwd: home });
		if (config.roots.length === roots.length && config.roots.every((r, i) => r.path === roots[i])) return config;
	}
	return resolveConfig({ sessionsDirs: roots, indexPath, env: {}, home });
}

/** Prints a child's result of kind `kind` for the parent; adds the child's peak RSS. */
export function report<K extends ResultKind>(kind: K, result: ResultOf[K]): void {
	process.stdout.write(`\n${MARK}${JSON.stringify({ kind, result: { ...result, maxRssBytes: maxRssBytes() } })}\n`);
}

/** Result of a child run: what it reported, its peak RSS, its wall time as seen by the parent. */
export type ChildResult<T> = T & { maxRssBytes: number; wallMs: number };

/**
 * Runs `node [nodeArgs] dist/bench/<script> [args]` and returns the result it reported, which must be of `kind`;
 * stderr passes through. With `timeoutMs`, a child still running then is killed and the promise rejects.
 */
export function runChild<K extends ResultKind>(
	kind: K,
	script: string,
	args: string[],
	nodeArgs: string[] = [],
	timeoutMs?: number,
): Promise<ChildResult<ResultOf[K]>> {
	return new Promise((resolvePromise, reject) => {
		const started = performance.now();
		const child = spawn(process.execPath, [...nodeArgs, join(BENCH_DIST, script), ...args], { stdio: ["ignore", "pipe", "inherit"] });
		let timedOut = false;
		const timer =
			timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						child.kill("SIGKILL");
					}, timeoutMs);
		let out = "";
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => {
			out += chunk;
		});
		child.on("error", reject);
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			if (timedOut) {
				reject(new Error(`timed out after ${((timeoutMs ?? 0) / 1000).toFixed(0)} s`));
				return;
			}
			const line = out.split("\n").find((l) => l.startsWith(MARK));
			if (code !== 0 || !line) {
				reject(new Error(`${script} ${args.join(" ")} exited with ${code ?? signal}${line ? "" : " without a result"}\n${out.slice(-2000)}`));
				return;
			}
			const reported = JSON.parse(line.slice(MARK.length)) as { kind: ResultKind; result: ResultOf[K] & { maxRssBytes: number } };
			if (reported.kind !== kind) {
				reject(new Error(`${script} ${args.join(" ")} reported a ${reported.kind} result, expected ${kind}`));
				return;
			}
			resolvePromise({ ...reported.result, wallMs: performance.now() - started });
		});
	});
}

/** Value at percentile `p` (0–100) of `values`, nearest-rank; NaN when empty. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
	return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/** Median of `values`. */
export function median(values: number[]): number {
	return percentile(values, 50);
}

/** Reads `--name value` options and bare flags from argv. */
export function parseArgs(argv: string[]): { options: Map<string, string>; flags: Set<string>; rest: string[] } {
	const options = new Map<string, string>();
	const flags = new Set<string>();
	const rest: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] as string;
		if (!arg.startsWith("--")) {
			rest.push(arg);
			continue;
		}
		const eq = arg.indexOf("=");
		if (eq > 0) options.set(arg.slice(2, eq), arg.slice(eq + 1));
		else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("--")) options.set(arg.slice(2), argv[++i] as string);
		else flags.add(arg.slice(2));
	}
	return { options, flags, rest };
}
