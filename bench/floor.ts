/**
 * The parse floor: read every session file the index reads under the given roots (src/discover.ts on the same
 * config the measuring children open) and JSON.parse every line, nothing else. DESIGN §7 bounds the cold index by
 * a multiple of this, measured in the same run on the same machine.
 *   node dist/bench/floor.js ROOT...
 */
import { readFileSync } from "node:fs";
import { discover } from "../src/source/discover.js";
import { benchConfig, report } from "./child.js";

const roots = process.argv.slice(2);
const started = performance.now();
const cpuStart = process.cpuUsage();
let files = 0;
let bytes = 0;
let lines = 0;
let invalid = 0;
// Something must depend on the parsed values, or a future V8 could skip the work.
let typed = 0;
for (const file of discover(benchConfig(roots).roots).files) {
	const buf = readFileSync(file.path);
	files++;
	bytes += buf.length;
	let start = 0;
	for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
		if (nl > start) {
			lines++;
			try {
				const value = JSON.parse(buf.toString("utf8", start, nl)) as { type?: unknown };
				if (value.type !== undefined) typed++;
			} catch {
				invalid++;
			}
		}
		start = nl + 1;
	}
}
const cpu = process.cpuUsage(cpuStart);
report("floor", { ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, files, bytes, lines, invalid, typed });
