/**
 * CPU time of each thread of a cold index, to see which side of the pipeline is the bottleneck: runs
 * `measure-worker.js cold` as a child and samples `/proc/<pid>/task/<tid>/stat` (Linux) every 20 ms, keeping each
 * thread's last utime + stime, so a thread that exits before the child does (the scan worker) is still counted.
 *   node dist/bench/thread-cpu.js --index PATH --roots A,B [--mode sync|pipelined] [measure-worker options]
 * Prints the child's own report, then one line per thread with more than 10 ms of CPU: the main thread (the writer
 * in pipelined mode) is the one whose tid is the pid; the busiest other thread is the scan worker; the rest are
 * V8's helpers (GC, compiler) and libuv's pool.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_DIST } from "./child.js";

const TICK_MS = 10; // USER_HZ is 100 on Linux
const SAMPLE_EVERY_MS = 20;

const args = process.argv.slice(2);
const child = spawn(process.execPath, [join(BENCH_DIST, "measure-worker.js"), "cold", ...args], { stdio: ["ignore", "pipe", "inherit"] });
const pid = child.pid as number;
const cpu = new Map<number, { ms: number; first: number; last: number }>();
const started = performance.now();

function sample(): void {
	let tids: string[];
	try {
		tids = readdirSync(`/proc/${pid}/task`);
	} catch {
		return;
	}
	const now = performance.now() - started;
	for (const tid of tids) {
		try {
			// Fields after the command name: state is the first, utime and stime the 12th and 13th.
			const fields = (readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
			const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
			const seen = cpu.get(Number(tid));
			if (seen) {
				if (ms > seen.ms) seen.last = now;
				seen.ms = ms;
			} else cpu.set(Number(tid), { ms, first: now, last: now });
		} catch {
			// The thread ended between the listing and the read: its last sample stands.
		}
	}
}

const timer = setInterval(sample, SAMPLE_EVERY_MS);
let out = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk: string) => {
	out += chunk;
	sample();
});
child.on("close", (code) => {
	clearInterval(timer);
	const line = out.split("\n").find((l) => l.startsWith("@@bench-result "));
	if (code !== 0 || !line) {
		process.stderr.write(`measure-worker exited with ${code}\n${out.slice(-2000)}\n`);
		process.exit(1);
	}
	const { result } = JSON.parse(line.slice("@@bench-result ".length)) as {
		result: { mode: string; ms: number; cpuMs: number; writtenBytes: number | null; maxRssBytes: number; events: number; fragments: number };
	};
	const mb = (b: number | null) => (b === null ? "?" : (b / 1e6).toFixed(0));
	process.stdout.write(
		`${result.mode}: wall ${(result.ms / 1000).toFixed(2)} s, CPU ${(result.cpuMs / 1000).toFixed(2)} s (all threads, process.cpuUsage), ` +
			`written ${mb(result.writtenBytes)} MB, peak RSS ${mb(result.maxRssBytes)} MB, ${result.events} events, ${result.fragments} fragments\n`,
	);
	const rows = [...cpu.entries()].filter(([, c]) => c.ms > 10).sort((a, b) => b[1].ms - a[1].ms);
	let total = 0;
	for (const [, c] of cpu) total += c.ms;
	for (const [tid, c] of rows) {
		const name = tid === pid ? "main" : "thread";
		const active = ((c.last - c.first) / 1000).toFixed(1);
		process.stdout.write(
			`  ${name.padEnd(6)} ${String(tid).padStart(7)}  CPU ${(c.ms / 1000).toFixed(2).padStart(6)} s  (${((100 * c.ms) / total).toFixed(0)}%; active ${active} s)\n`,
		);
	}
	process.stdout.write(`  all threads CPU ${(total / 1000).toFixed(2)} s (whole child: open, refresh, checkpoint)\n`);
});
