/**
 * Child process that writes families [from, to) of a bench corpus: installs the seeded Date and crypto first, then
 * loads pi (dynamic import, so pi's module graph is evaluated after the patches).
 *   node dist/bench/corpus-worker.js --agent-dir DIR --seed S --from A --to B
 */
import { relative } from "node:path";
import { parseArgs, report } from "./child.js";
import { installDeterminism } from "./determinism.js";

const { options } = parseArgs(process.argv.slice(2));
const agentDir = options.get("agent-dir");
const seed = Number(options.get("seed") ?? "1");
const from = Number(options.get("from") ?? "0");
const to = Number(options.get("to") ?? "0");
if (!agentDir || !Number.isInteger(seed) || !Number.isInteger(from) || !Number.isInteger(to) || to < from) {
	process.stderr.write("usage: corpus-worker --agent-dir DIR --seed S --from A --to B\n");
	process.exit(2);
}

const world = installDeterminism();
// pi resolves its sessions dir from this variable at call time (getAgentDir), so the default layout lands here.
process.env.PI_CODING_AGENT_DIR = agentDir;
delete process.env.PI_CODING_AGENT_SESSION_DIR;
const { buildFamily, flatDirOf, FAMILY_GAP_MS, EPOCH_MS } = await import("./corpus.js");

const started = performance.now();
const families: Array<{ index: number; files: string[]; rare: boolean }> = [];
let overruns = 0;
for (let i = from; i < to; i++) {
	const result = buildFamily({ seed, world, flatDir: flatDirOf(agentDir) }, i);
	// A family that runs into the next one's start would make uuid v7 ids depend on which process built it.
	if (result.endMs >= EPOCH_MS + (i + 1) * FAMILY_GAP_MS) overruns++;
	families.push({ index: i, files: result.files.map((f) => relative(agentDir, f)), rare: result.rare });
	if ((i - from) % 250 === 249) process.stderr.write(`  corpus: families ${from}..${i + 1} written (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
}
report("corpus", { families, overruns, ms: performance.now() - started });
