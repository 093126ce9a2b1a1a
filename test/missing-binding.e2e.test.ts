/**
 * `pi install` with pnpm as pi's `npmCommand` skips dependency build scripts, so better-sqlite3 arrives without its
 * compiled binding (no build/). The real pi 1.6 loads our extension from such a package: pi keeps running, and the
 * model's event_search call answers with what to run to build the binding, instead of bindings' list of paths tried.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, readEntries, tempDir } from "./helpers/corpus.js";
import { runPi } from "./helpers/pi-run.js";
import { ensurePi16, type Pi16, stageExtension } from "./helpers/pi16.js";
import type { ScriptedCall } from "./support/faux-calls.js";

const CALL_ID = "call_nobinding";
const setup = ensurePi16();
if ("skip" in setup) console.log(`missing better-sqlite3 binding under pi 1.6 skipped: ${setup.skip}`);

type Line = { type: string; message?: { role: string; toolCallId?: string; isError?: boolean; content: Array<{ text?: string }> } };

/** The package as pnpm leaves it: every dependency present, better-sqlite3 without its build/ folder. */
function stageWithoutBinding(pi: Pi16, dest: string): string {
	const modules = join(dest, "node_modules");
	mkdirSync(modules, { recursive: true });
	// The Node-22 native build first, then every other package of this checkout (components/ need theirs too).
	for (const from of [pi.nativeModules, join(PROJECT_ROOT, "node_modules")])
		for (const name of readdirSync(from)) {
			if (name === "better-sqlite3" || name.startsWith(".") || existsSync(join(modules, name))) continue;
			symlinkSync(join(from, name), join(modules, name), "dir");
		}
	const sqlite = join(pi.nativeModules, "better-sqlite3");
	cpSync(sqlite, join(modules, "better-sqlite3"), { recursive: true, filter: (src) => !src.startsWith(join(sqlite, "build")) });
	return stageExtension(pi, dest);
}

describe.skipIf("skip" in setup)("better-sqlite3 without its native binding (pnpm install), real pi 1.6", () => {
	const pi = setup as Pi16;
	const tmp = tempDir("pes-nobinding-");
	afterAll(() => tmp.cleanup());

	it(
		"pi keeps running and event_search says what to run to build the binding",
		async () => {
			const base = realpathSync(tmp.dir);
			const pkg = stageWithoutBinding(pi, join(base, "pkg"));
			const agentDir = join(base, "agent");
			const cwd = join(base, "ws");
			mkdirSync(agentDir, { recursive: true });
			mkdirSync(cwd, { recursive: true });
			const turns: ScriptedCall[][] = [[{ name: "event_search", args: { query: "anything" }, id: CALL_ID }]];
			const env: NodeJS.ProcessEnv = {
				...pi.env,
				PI_CODING_AGENT_DIR: agentDir,
				HOME: join(base, "home"),
				PES_E2E_SCRIPT: "calls",
				PES_E2E_CALLS: JSON.stringify(turns),
			};
			for (const key of ["PI_EVENT_SEARCH_INDEX", "PI_CODING_AGENT_SESSION_DIR", "PI_EVENT_SEARCH_DEBUG"]) delete env[key];
			const runner = {
				label: "pi 1.6",
				node: pi.node,
				cli: pi.piCli,
				env: pi.env,
				fauxModel: join(PROJECT_ROOT, "test", "support", "faux-model-16.ts"),
				packageDir: pkg,
			};
			const run = await runPi(runner, ["--offline", "-p", "--provider", "faux", "--model", "faux-1", "-e", runner.fauxModel, "-e", pkg, "search the history"], {
				cwd,
				env,
			});
			expect(run.code, run.stderr).toBe(0);
			const sessions = join(agentDir, "sessions");
			const [dir] = readdirSync(sessions);
			const [file] = readdirSync(join(sessions, dir as string));
			const lines = readEntries(join(sessions, dir as string, file as string)) as Line[];
			const result = lines.find((l) => l.type === "message" && l.message?.role === "toolResult" && l.message.toolCallId === CALL_ID);
			const text = (result?.message?.content ?? []).map((c) => c.text ?? "").join("\n");
			expect(result?.message?.isError, text).toBe(true);
			expect(text).toContain("better-sqlite3's native binding is not built");
			expect(text).toContain(`cd '${join(pkg, "node_modules", "better-sqlite3")}' && (npx --yes prebuild-install || npx --yes node-gyp rebuild --release)`);
			expect(text).not.toContain("Could not locate the bindings file");
		},
		5 * 60_000,
	);
});
