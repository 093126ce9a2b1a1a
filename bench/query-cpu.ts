/**
 * The query mix and the agent-style rows (AGENT_MIX) against an existing index, timed in CPU milliseconds as well as
 * wall time: on a shared machine the CPU time of the searching process moves far less with other work than its wall
 * time does, so two versions can be compared on a busy machine (a ratio in the same run, not a latency to publish).
 * Each query opens its own service: its first run (no statement compiled, no answer cached) is timed apart from the
 * repeats.
 *   node dist/bench/query-cpu.js --index PATH [--runs N] [--only NAME] [--fresh N] [--order newest]
 * `--fresh N`: each query's first run in N fresh processes instead (module code not yet compiled, as `pi-history
 * search` and a new Pi session meet it), the queries interleaved; the CPU ms of each first run, min and median.
 * `--order newest` asks for newest-first pages (the explorer's F4) instead of the best first.
 * `--only` runs one query (by name): under `valgrind --tool=callgrind`, the instructions of `--runs 8` less those of
 * `--runs 3`, over 5, are one repeat's instructions, the same on a quiet machine as on a busy one.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { HistoryService } from "../src/service/service.js";
import { benchConfig, parseArgs, percentile } from "./child.js";
import { AGENT_MIX, QUERY_MIX } from "./vocabulary.js";

const { options } = parseArgs(process.argv.slice(2));
const indexPath = options.get("index");
if (!indexPath) {
	process.stderr.write("usage: query-cpu.js --index PATH [--runs N] [--only NAME]\n");
	process.exit(2);
}
const runs = Number(options.get("runs") ?? "15");
const only = options.get("only");
const all = [...QUERY_MIX, ...AGENT_MIX];
const mix = only === undefined ? all : all.filter((q) => q.name === only);
if (mix.length === 0) {
	process.stderr.write(`no query named "${only}": ${all.map((q) => q.name).join(", ")}\n`);
	process.exit(2);
}
const fresh = Number(options.get("fresh") ?? "0");
const order = options.get("order") === "newest" ? ("newest" as const) : undefined;
if (fresh > 0) {
	const firsts = new Map<string, number[]>(mix.map((q) => [q.name, []]));
	const answers = new Map<string, string>();
	for (let r = 0; r < fresh; r++) {
		for (const q of mix) {
			const args = ["--index", indexPath, "--runs", "0", "--only", q.name, ...(order ? ["--order", order] : [])];
			const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), ...args], { encoding: "utf8" });
			const m = /cpu first\s+([\d.]+) ms.*(hits .*)$/m.exec(out);
			if (!m) throw new Error(`unexpected output: ${out}`);
			firsts.get(q.name)?.push(Number(m[1]));
			answers.set(q.name, m[2] as string);
		}
	}
	for (const q of mix) {
		const cpu = firsts.get(q.name) ?? [];
		process.stdout.write(
			`${q.name.padEnd(16)} first run, fresh process: cpu min ${Math.min(...cpu)
				.toFixed(1)
				.padStart(6)} ms   cpu p50 ${percentile(cpu, 50).toFixed(1).padStart(6)} ms   ${answers.get(q.name)}\n`,
		);
	}
	process.exit(0);
}
const rows: string[] = [];
for (const q of mix) {
	// No roots: the index is searched as it is, never refreshed.
	const service = HistoryService.open({ config: benchConfig([], indexPath) });
	const wall: number[] = [];
	const cpu: number[] = [];
	let hits = 0;
	let match = "all";
	for (let i = 0; i <= runs; i++) {
		const c = process.cpuUsage();
		const started = performance.now();
		const result = service.search({
			query: q.query,
			filters: q.filters,
			limit: 10,
			...("caller" in q && q.caller ? { caller: q.caller } : {}),
			...(order ? { order } : {}),
		});
		wall.push(performance.now() - started);
		const d = process.cpuUsage(c);
		cpu.push((d.user + d.system) / 1000);
		hits = result.hits.length;
		match = result.match ?? "all";
	}
	service.close();
	const first = cpu.shift() as number;
	wall.shift();
	rows.push(
		`${q.name.padEnd(16)} cpu first ${first.toFixed(2).padStart(7)} ms   cpu p50 ${percentile(cpu, 50).toFixed(2).padStart(7)} ms   wall p50 ${percentile(wall, 50).toFixed(2).padStart(7)} ms   hits ${hits} (${match})`,
	);
}
process.stdout.write(`${rows.join("\n")}\n`);
