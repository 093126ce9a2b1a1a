/**
 * The explorer's start as a user waits for it, alone (without the whole bench): `pi-history` in a pseudo-terminal,
 * process start → the first frame listing the recent events and → the echo of keys typed at t=0, beside `node -e 0`
 * in the same pty, interleaved. With `--base DIR` (another built checkout) both alternate round by round, so a busy
 * machine slows both alike.
 *
 *   node dist/bench/explorer-start.js --index PATH --roots <agent>/sessions[,<agent>/flat-sessions] [--rounds 3] [--reps 2] [--base DIR]
 */
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type ExplorerStartResult, measureExplorerStart, p50 } from "./user-wait.js";

function option(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? undefined : process.argv[i + 1];
}

const index = option("index");
const roots = option("roots")?.split(",");
if (!index || !roots) throw new Error("usage: explorer-start --index PATH --roots DIR[,DIR] [--rounds N] [--reps N] [--base DIR]");
const rounds = Number(option("rounds") ?? "3");
const reps = Number(option("reps") ?? "2");
const base = option("base");
type Measure = typeof measureExplorerStart;
const sides: Array<{ name: string; measure: Measure }> = [{ name: "this checkout", measure: measureExplorerStart }];
if (base) {
	const mod = (await import(pathToFileURL(join(resolve(base), "dist", "bench", "user-wait.js")).href)) as { measureExplorerStart: Measure };
	sides.unshift({ name: `base ${base}`, measure: mod.measureExplorerStart });
}
const all = sides.map(() => ({ nodeMs: [] as number[], listMs: [] as number[], echoMs: [] as number[], readyMs: [] as number[], failed: 0 }));
const before = loadavg()[0] ?? 0;
for (let r = 0; r < rounds; r++)
	sides.forEach((side, i) => {
		const res: ExplorerStartResult | null = side.measure(roots, resolve(index), reps);
		if (!res) throw new Error("python3 is needed for the pseudo-terminal");
		const a = all[i] as (typeof all)[number];
		a.nodeMs.push(...res.nodeMs);
		a.listMs.push(...res.listMs);
		a.echoMs.push(...res.echoMs);
		a.readyMs.push(...(res.readyMs ?? []));
		a.failed += res.failed;
	});
sides.forEach((side, i) => {
	const a = all[i] as (typeof all)[number];
	const node = p50(a.nodeMs);
	const ratio = (v: number) => `${v.toFixed(0)} ms, ${(v / node).toFixed(1)}× node`;
	console.log(
		`${side.name}: node -e 0 p50 ${node.toFixed(0)} ms; recent events listed p50 ${ratio(p50(a.listMs))}; echo p50 ${ratio(p50(a.echoMs))}; its own first frame p50 ${ratio(p50(a.readyMs))}; runs ${a.listMs.length}, failed ${a.failed}`,
	);
});
console.log(`1-min load average ${before.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`);
