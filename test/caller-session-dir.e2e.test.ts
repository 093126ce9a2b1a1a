/**
 * I17 whatever path pi reports for the caller's session (issue 32 item 1): with a relative session dir — global
 * settings `sessionDir`, PI_CODING_AGENT_SESSION_DIR, or a project `.pi/settings.json` — pi creates the session
 * under a path relative to its working directory and getSessionFile() returns it relative. The real pi (0.73.1 and
 * 1.6) runs one turn whose prompt holds the needle and whose tool call searches for it: the caller's own session
 * must stay out (its prompt and the assistant message holding the call both hold the needle), and the note that
 * its own session has hits proves the caller was identified, not merely hidden with every session of its id.
 */
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, readEntries, tempDir } from "./helpers/corpus.js";
import { PI_073, type PiRunner, runPi } from "./helpers/pi-run.js";
import { ensurePi16, sharedStage } from "./helpers/pi16.js";
import { hitRefs } from "./helpers/tool-output.js";
import type { ScriptedCall } from "./support/faux-calls.js";

const NEEDLE = "ERR_NUMBAT_6620";
const CALL_ID = "call_rel_search";

type Line = { type: string; id?: string; message?: { role: string; toolCallId?: string; content: unknown } };

const textOf = (content: unknown): string =>
	typeof content === "string" ? content : (content as Array<{ type: string; text?: string }>).map((c) => c.text ?? "").join("\n");

/** One way of making pi's session dir relative: what to write before the run, the env to add, where pi writes. */
interface RelativeDir {
	name: string;
	prepare(cwd: string, agentDir: string): void;
	env: NodeJS.ProcessEnv;
	/** The session dir pi uses, relative to its working directory. */
	dir: string;
}

const CONFIGURATIONS: RelativeDir[] = [
	{
		name: "settings sessionDir relative",
		prepare: (_cwd, agentDir) => writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ sessionDir: "rel-sessions" })),
		env: {},
		dir: "rel-sessions",
	},
	{ name: "PI_CODING_AGENT_SESSION_DIR relative", prepare: () => undefined, env: { PI_CODING_AGENT_SESSION_DIR: "envrel" }, dir: "envrel" },
	{
		name: "project .pi/settings.json with .pi/sessions",
		prepare: (cwd) => {
			mkdirSync(join(cwd, ".pi"), { recursive: true });
			writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify({ sessionDir: ".pi/sessions" }));
		},
		env: {},
		dir: ".pi/sessions",
	},
];

function relativeDirSuite(label: string, setup: () => PiRunner | { skip: string }): void {
	const ready = setup();
	if ("skip" in ready) console.log(`relative session dirs on ${label} skipped: ${ready.skip}`);
	describe.skipIf("skip" in ready)(`the caller's session under a relative session dir (${label}, faux model)`, () => {
		const runner = ready as PiRunner;
		const tmp = tempDir("pes-reldir-");
		const base = realpathSync(tmp.dir);
		const outcomes = new Map<string, { ownId: string; text: string; stdout: string; stderr: string }>();

		// The configurations share nothing (each its own agent dir and workspace): after the first run (which may be the
		// one that compiles the extension for pi's cache), the others go side by side.
		beforeAll(async () => {
			const runConfig = async (i: number, config: RelativeDir) => {
				const root = join(base, `c${i}`);
				const agentDir = join(root, "agent");
				const cwd = join(root, "ws");
				mkdirSync(join(cwd, ".git"), { recursive: true });
				mkdirSync(agentDir, { recursive: true });
				config.prepare(cwd, agentDir);
				const env: NodeJS.ProcessEnv = { ...runner.env, PI_CODING_AGENT_DIR: agentDir, HOME: join(root, "home"), PES_E2E_SCRIPT: "calls" };
				for (const key of ["PI_EVENT_SEARCH_INDEX", "PI_CODING_AGENT_SESSION_DIR", "PI_EVENT_SEARCH_DEBUG"]) delete env[key];
				const turns: ScriptedCall[][] = [[{ name: "event_search", args: { query: NEEDLE }, id: CALL_ID }]];
				const run = await runPi(
					runner,
					[
						"--offline",
						"-p",
						"--provider",
						"faux",
						"--model",
						"faux-1",
						"-e",
						runner.fauxModel,
						"-e",
						runner.packageDir,
						`The deploy failed with ${NEEDLE}; what do we know?`,
					],
					{ cwd, env: { ...env, ...config.env, PES_E2E_CALLS: JSON.stringify(turns) } },
				);
				expect(run.code, run.stderr).toBe(0);
				const dir = join(cwd, config.dir);
				const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
				expect(files, `pi wrote its session under ${config.dir}`).toHaveLength(1);
				const lines = readEntries(join(dir, files[0] as string)) as Line[];
				const result = lines.find((l) => l.type === "message" && l.message?.role === "toolResult" && l.message.toolCallId === CALL_ID);
				outcomes.set(config.name, {
					ownId: (lines[0] as { id?: string }).id ?? "",
					text: textOf(result?.message?.content ?? ""),
					stdout: run.stdout,
					stderr: run.stderr,
				});
			};
			const [first, ...rest] = CONFIGURATIONS;
			if (first) await runConfig(0, first);
			await Promise.all(rest.map((config, i) => runConfig(i + 1, config)));
		}, 10 * 60_000);

		afterAll(() => {
			runner.cleanup?.();
			if (!process.env.PES_KEEP) tmp.cleanup();
			else console.log(tmp.dir);
		});

		it("without our config file, the main extension offers event_search and not session_search", () => {
			// Our config file (<agentDir>/pi-event-search/config.json) is absent in every configuration here.
			for (const config of CONFIGURATIONS) {
				const stdout = outcomes.get(config.name)?.stdout ?? "";
				expect(stdout, config.name).toMatch(/done tools=\S*event_search/);
				expect(stdout, config.name).not.toContain("session_search");
			}
		});

		for (const config of CONFIGURATIONS) {
			it(`${config.name}: the search leaves the caller's own prompt and calling message out, and knows they are its own`, () => {
				const outcome = outcomes.get(config.name);
				if (!outcome) throw new Error("no outcome");
				expect(outcome.text, outcome.stderr).not.toBe("");
				expect(outcome.ownId).not.toBe("");
				expect(hitRefs(outcome.text).filter((r) => r.startsWith(`${outcome.ownId}/`))).toEqual([]);
				expect(outcome.text).toContain(`your current session ${outcome.ownId} is excluded`);
				// Identified by its file (not hidden with every session of its id): the index knows it has the hits.
				expect(outcome.text).toContain(`your current session has hits; it is excluded unless you pass sessionId ${outcome.ownId}`);
				expect(outcome.text).not.toContain("was not found in the index");
			});
		}
	});
}

relativeDirSuite(PI_073.label, () => PI_073);

relativeDirSuite("pi 1.6", () => {
	const pi = ensurePi16();
	if ("skip" in pi) return pi;
	return {
		label: "pi 1.6",
		node: pi.node,
		cli: pi.piCli,
		env: pi.env,
		fauxModel: join(PROJECT_ROOT, "test", "support", "faux-model-16.ts"),
		packageDir: sharedStage(pi),
	};
});
