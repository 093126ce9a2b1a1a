/**
 * End-to-end: `session_search` (seed 003's contract) in the real pi CLI, offline, a scripted model (pi-ai's faux
 * provider) calling it over a history written by pi's own SessionManager. Every assertion reads what pi recorded.
 * Ground truth: the session files (ids, cwds, start and entry timestamps, texts) and seed 003's text and details shapes.
 * Which pi runs is a parameter (PiRunner), so the same checks can run on every pi generation we support.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxText, fauxThinking } from "@mariozechner/pi-ai";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, readEntries, tempDir } from "./helpers/corpus.js";
import { PI_073, type PiRun, type PiRunner, runPi } from "./helpers/pi-run.js";
import { ensurePi16, sharedStage } from "./helpers/pi16.js";
import { FAKE_HERMES_ANSWER } from "./support/fake-hermes.js";
import type { ScriptedCall } from "./support/faux-calls.js";

const HERMES = join(PROJECT_ROOT, "test", "support", "fake-hermes.ts");

/** The seed's details shape, field order included. */
interface Details {
	count: number;
	results: Array<{ session_id: string; cwd: string | null; started_at: string | null; role: string; timestamp: string | null; snippet: string; score: number }>;
}
const RESULT_KEYS = ["session_id", "cwd", "started_at", "role", "timestamp", "snippet", "score"];

interface Planted {
	sessionId: string;
	file: string;
	startedAt: string;
}

type Line = {
	type: string;
	id?: string;
	timestamp?: string;
	message?: { role: string; toolCallId?: string; isError?: boolean; content: unknown; details?: unknown };
};

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	return (content as Array<{ type: string; text?: string }>).map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("\n");
}

/** pi's own directory name for a cwd under `<agentDir>/sessions` (session-manager getDefaultSessionDir). */
function piSessionDir(agentDir: string, cwd: string): string {
	const dir = join(agentDir, "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
	mkdirSync(dir, { recursive: true });
	return dir;
}

const TRIGRAM_TEXT = "the FTS5 index uses the trigram tokenizer, so substring matches inside a word still return the message";
const BOUNDED_TEXT = "The index is bounded per call: 25 transcripts at most, the rest stays pending.";
const QUOKKAS = 60;
/** How long a hook or test that starts pi may take: a net for a busy machine (pi's own runs are killed at 180 s), not a measure. */
const PI_NET = 200_000;

/** The checks, run against one pi installation (or skipped, with the reason printed, when it cannot run here). */
function sessionSearchSuite(label: string, setup: () => PiRunner | { skip: string }): void {
	const ready = setup();
	if ("skip" in ready) console.log(`session_search end to end on ${label} skipped: ${ready.skip}`);
	describe.skipIf("skip" in ready)(`session_search end to end (${label}, faux model)`, () => {
		const runner = ready as PiRunner;
		const MAIN_ENTRY = runner.packageDir;
		const SS_ENTRY = join(runner.packageDir, "extension", "session-search.ts");
		const tmp = tempDir("pes-ss-e2e-");
		// pi records process.cwd(), which is the real path (macOS tmpdir is behind a symlink).
		const base = realpathSync(tmp.dir);
		const agentDir = join(base, "agent");
		const home = join(base, "home");
		const workspace = join(base, "ws");
		const callerCwd = join(workspace, "app");
		const nested = join(workspace, "packages", "api");
		const otherWorkspace = join(base, "other");
		const configFile = join(agentDir, "pi-event-search", "config.json");
		const blocker = join(base, "not-a-dir");
		const planted = {} as Record<"trigram" | "boundedOld" | "boundedNew" | "boundedNested" | "other" | "quokkas" | "wombat", Planted>;
		let trigramEntry: Line;
		let wombatText = "";
		let runA: PiRun;
		let results = new Map<string, { text: string; isError: boolean; details: unknown }>();

		const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
			const e: NodeJS.ProcessEnv = { ...runner.env, PI_CODING_AGENT_DIR: agentDir, HOME: home, PES_E2E_SCRIPT: "calls" };
			delete e.PI_EVENT_SEARCH_INDEX;
			delete e.PI_CODING_AGENT_SESSION_DIR;
			delete e.PI_EVENT_SEARCH_DEBUG;
			return { ...e, ...extra };
		};
		const pi = (entries: string[], turns: ScriptedCall[][], prompt: string, extraEnv: NodeJS.ProcessEnv = {}) =>
			runPi(runner, ["--offline", "-p", "--provider", "faux", "--model", "faux-1", ...["-e", runner.fauxModel, ...entries.flatMap((e) => ["-e", e])], prompt], {
				cwd: callerCwd,
				env: env({ PES_E2E_CALLS: JSON.stringify(turns), ...extraEnv }),
			});

		/** Every tool result pi recorded in the caller's sessions, by tool call id. */
		const recorded = () => {
			const out = new Map<string, { text: string; isError: boolean; details: unknown }>();
			const dir = piSessionDir(agentDir, callerCwd);
			for (const f of readdirSync(dir).filter((n) => n.endsWith(".jsonl"))) {
				for (const l of readEntries(join(dir, f)) as Line[]) {
					const m = l.message;
					if (l.type === "message" && m?.role === "toolResult" && m.toolCallId)
						out.set(m.toolCallId, { text: textOf(m.content), isError: m.isError === true, details: m.details });
				}
			}
			return out;
		};
		const result = (id: string) => {
			const r = results.get(id);
			if (!r) throw new Error(`pi recorded no result for ${id}; stdout: ${runA?.stdout} stderr: ${runA?.stderr}`);
			return r;
		};
		const details = (id: string) => result(id).details as Details;

		/** Writes one session with pi's SessionManager; `startedAt` rewrites its header's start time. */
		const plant = (cwd: string, build: (sm: SessionManager) => void, startedAt?: string): Planted => {
			const sm = SessionManager.create(cwd, piSessionDir(agentDir, cwd));
			build(sm);
			const file = sm.getSessionFile() as string;
			const lines = readFileSync(file, "utf8").split("\n");
			const header = JSON.parse(lines[0] as string) as { timestamp: string };
			if (startedAt) {
				header.timestamp = startedAt;
				lines[0] = JSON.stringify(header);
				writeFileSync(file, lines.join("\n"));
			}
			return { sessionId: sm.getSessionId(), file, startedAt: header.timestamp };
		};
		const qa = (question: string, answer: string) => (sm: SessionManager) => {
			sm.appendMessage({ role: "user", content: question, timestamp: Date.now() });
			sm.appendMessage(fauxAssistantMessage(answer));
		};

		beforeAll(async () => {
			mkdirSync(join(workspace, ".git"), { recursive: true });
			for (const dir of [home, callerCwd, nested, otherWorkspace]) mkdirSync(dir, { recursive: true });
			planted.trigram = plant(workspace, (sm) => {
				sm.appendMessage({ role: "user", content: "How does the history index match substrings?", timestamp: Date.now() });
				// Thinking, custom data and tool-result details are never searchable.
				sm.appendMessage(fauxAssistantMessage([fauxThinking("maybe the trigram tokenizer? thinking only"), fauxText("Let me check.")]));
				sm.appendCustomEntry("memo", { note: "trigram tokenizer in custom data" });
				sm.appendMessage(fauxAssistantMessage(TRIGRAM_TEXT));
			});
			trigramEntry = (readEntries(planted.trigram.file) as Line[]).find((l) => textOf(l.message?.content ?? "") === TRIGRAM_TEXT) as Line;
			planted.boundedOld = plant(workspace, qa("How many files per call?", BOUNDED_TEXT), "2026-09-15T08:00:00.000Z");
			planted.boundedNew = plant(workspace, qa("How many files per call?", BOUNDED_TEXT), "2026-10-02T08:14:11.402Z");
			planted.boundedNested = plant(nested, qa("How many files per call?", BOUNDED_TEXT), "2026-10-03T09:00:00.000Z");
			planted.other = plant(otherWorkspace, qa("Trigram?", `Other project: ${TRIGRAM_TEXT}. ${BOUNDED_TEXT}`), "2026-10-03T09:00:00.000Z");
			planted.quokkas = plant(workspace, (sm) => {
				for (let i = 0; i < QUOKKAS; i++) sm.appendMessage({ role: "user", content: `quokka sighting number ${i}`, timestamp: Date.now() });
				sm.appendMessage(fauxAssistantMessage("Noted."));
			});
			wombatText = `${"lorem ipsum dolor sit amet ".repeat(120)}the wombat burrow ${"consectetur adipiscing elit ".repeat(120)}`;
			planted.wombat = plant(workspace, (sm) => {
				sm.appendMessage({ role: "user", content: "Tell me about burrows", timestamp: Date.now() });
				sm.appendMessage(fauxAssistantMessage(wombatText));
				// Two text blocks with the term: still one event, one hit.
				sm.appendMessage(fauxAssistantMessage([fauxText("A numbat in the first block."), fauxText("A numbat in the second block.")]));
			});

			// Turn 1 alone: it opens (and creates) the index; turn 2 runs the rest in parallel.
			runA = await pi(
				[SS_ENTRY],
				[
					[{ name: "session_search", args: { query: "trigram tokenizer", limit: 3 }, id: "ex1" }],
					[
						{
							name: "session_search",
							args: { query: "index bounded per call", cwd: workspace, after: "2026-10-01T00:00:00.000Z" },
							id: "cwdAfter",
						},
						{ name: "session_search", args: { query: "index bounded per call", before: "2026-09-30T00:00:00.000Z" }, id: "before" },
						{ name: "session_search", args: { query: "quokka", limit: 0 }, id: "limit0" },
						{ name: "session_search", args: { query: "quokka", limit: 999 }, id: "limit999" },
						{ name: "session_search", args: { query: "wombat", snippetChars: 99999 }, id: "snipMax" },
						{ name: "session_search", args: { query: "wombat" }, id: "snipDefault" },
						{ name: "session_search", args: { query: "numbat" }, id: "twoBlocks" },
						{ name: "session_search", args: { query: "zebracorn" }, id: "empty" },
						{ name: "session_search", args: { query: '"trigram tokenizer' }, id: "unbalanced" },
						{ name: "session_search", args: { query: "trigram AND" }, id: "operator" },
						{ name: "session_search", args: { query: "trigram tokenizer", after: "last tuesday" }, id: "badDate" },
					],
				],
				"What did we learn about the trigram tokenizer?",
			);
			expect(runA.code, runA.stderr).toBe(0);
			results = recorded();
		}, PI_NET);

		afterAll(() => {
			// PES_KEEP=1 keeps the run's agent dir and sessions for a look after a failure.
			runner.cleanup?.();
			if (!process.env.PES_KEEP) tmp.cleanup();
			else console.log(tmp.dir);
		});

		it("answers the seed's first example with its exact text and details shapes", () => {
			const r = result("ex1");
			expect(r.isError).toBe(false);
			const sessionFiles = readdirSync(join(agentDir, "sessions"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
			const lines = r.text.split("\n");
			expect(lines.slice(0, 3)).toEqual([
				'session_search "trigram tokenizer" — 1 hit(s) (limit 3)',
				`note: session index not found at ${join(agentDir, "pi-event-search", "index.sqlite")}; created it`,
				// Every planted file and the caller's own session, all in one pass.
				`note: indexed ${sessionFiles.length} transcript(s), 0 still pending`,
			]);
			const d = details("ex1");
			expect(Object.keys(d)).toEqual(["count", "results"]);
			expect(d.count).toBe(1);
			expect(Object.keys(d.results[0] ?? {})).toEqual(RESULT_KEYS);
			expect(d.results[0]).toEqual({
				session_id: planted.trigram.sessionId,
				cwd: workspace,
				started_at: planted.trigram.startedAt,
				role: "assistant",
				timestamp: trigramEntry.timestamp,
				snippet: TRIGRAM_TEXT,
				score: expect.any(Number),
			});
			const score = d.results[0]?.score as number;
			expect(score).toBeLessThan(0);
			const hitLine = lines[3] as string;
			expect(hitLine.startsWith(`- ${planted.trigram.sessionId} | ${workspace} | ${trigramEntry.timestamp} | assistant | score -`)).toBe(true);
			expect(Number(hitLine.split("| score ")[1])).toBeCloseTo(score, 4);
			expect(lines.slice(4)).toEqual([`  ${TRIGRAM_TEXT}`]);
		});

		it("never shows another workspace's session, the caller's own session, thinking or custom data", () => {
			const own = readdirSync(piSessionDir(agentDir, callerCwd));
			expect(own).toHaveLength(1);
			const ownId = (readEntries(join(piSessionDir(agentDir, callerCwd), own[0] as string))[0] as { id: string }).id;
			for (const [id, r] of results) {
				for (const hit of (r.details as Details).results) {
					expect([planted.other.sessionId, ownId], id).not.toContain(hit.session_id);
					expect(hit.snippet).not.toMatch(/thinking only|custom data/);
				}
				expect(r.text, id).not.toContain(planted.other.sessionId);
			}
		});

		it("narrows by exact cwd and by session start time (the seed's second example, and before)", () => {
			// The nested project is under the workspace but not its exact cwd; the old session started before `after`
			// although all its events are newer.
			expect(details("cwdAfter").results.map((h) => h.session_id)).toEqual([planted.boundedNew.sessionId]);
			expect(result("cwdAfter").text.split("\n")[0]).toBe('session_search "index bounded per call" — 1 hit(s) (limit 5)');
			expect(details("cwdAfter").results[0]?.started_at).toBe("2026-10-02T08:14:11.402Z");
			expect(details("before").results.map((h) => h.session_id)).toEqual([planted.boundedOld.sessionId]);
		});

		it("clamps limit and snippetChars instead of rejecting them", () => {
			expect(result("limit0").isError).toBe(false);
			expect(result("limit0").text.split("\n")[0]).toBe('session_search "quokka" — 1 hit(s) (limit 1)');
			expect(details("limit0").count).toBe(1);
			const many = details("limit999");
			expect(result("limit999").text.split("\n")[0]).toBe('session_search "quokka" — 50 hit(s) (limit 50)');
			expect(many.count).toBe(50);
			expect(many.results.every((h) => h.session_id === planted.quokkas.sessionId && h.role === "user")).toBe(true);
			// Raw bm25: negative, best (lowest) first.
			const scores = many.results.map((h) => h.score);
			expect(scores.every((s) => s < 0)).toBe(true);
			expect([...scores].sort((a, b) => a - b)).toEqual(scores);
			const longest = details("snipMax").results[0]?.snippet ?? "";
			expect(longest.length).toBeGreaterThan(1000);
			expect(longest.length).toBeLessThanOrEqual(2000);
			expect(longest).toContain("wombat");
			expect((details("snipDefault").results[0]?.snippet ?? "").length).toBeLessThanOrEqual(200);
			// Two text blocks with the term in one message: one event, one hit.
			expect(details("twoBlocks").count).toBe(1);
			expect(details("twoBlocks").results[0]?.role).toBe("assistant");
		});

		it("returns an empty result as a normal answer, and notes an unbalanced quote or a date that is not ISO", () => {
			const empty = result("empty");
			expect(empty.isError).toBe(false);
			expect(empty.details).toEqual({ count: 0, results: [] });
			expect(empty.text.split("\n")[0]).toBe('session_search "zebracorn" — 0 hit(s) (limit 5)');
			expect(empty.text).toMatch(/^note: indexed \d+ transcript\(s\), 0 still pending$/m);
			expect(empty.text).not.toMatch(/^- /m);
			// Seed 003: FTS5 gets the query as written; what it cannot parse is zero hits and a note, not our reading.
			for (const id of ["unbalanced", "operator"]) {
				expect(result(id).isError).toBe(false);
				expect(result(id).details).toEqual({ count: 0, results: [] });
				expect(result(id).text).toMatch(/^note: query not understood by FTS5: .+; quote the phrase, or drop the operator$/m);
			}
			// A date that is not ISO is the input's fault: zero hits and a note, not a failed call.
			const badDate = result("badDate");
			expect(badDate.isError).toBe(false);
			expect(badDate.details).toEqual({ count: 0, results: [] });
			expect(badDate.text).toMatch(/^note: after must be an ISO date .*"last tuesday"; nothing searched$/m);
		});

		/**
		 * The three pi runs with `"sessionSearchTool": true` in our config file, started together once the tests above
		 * have read the first run's results (they add sessions to the caller's folder), then the config is off again.
		 * Each is its own pi configuration: the main entry alone; both of our entries whose index path cannot be opened
		 * (registering the tool never touches the index, so the same run shows the registration and the failed call);
		 * ours and a hermes-like extension. The check that the main entry alone, without our config, does not offer the
		 * tool reads the runs of caller-session-dir.e2e, which load it so.
		 */
		let configRuns: Promise<Record<"viaConfig" | "bothOurs" | "withHermes", PiRun>> | undefined;
		const withToolEnabled = () => {
			configRuns ??= (async () => {
				mkdirSync(join(agentDir, "pi-event-search"), { recursive: true });
				writeFileSync(configFile, JSON.stringify({ sessionSearchTool: true }));
				writeFileSync(blocker, "a file where the index folder should be");
				try {
					const [viaConfig, bothOurs, withHermes] = await Promise.all([
						pi([MAIN_ENTRY], [[{ name: "session_search", args: { query: "trigram tokenizer", limit: 50 }, id: "viaConfig" }]], "search"),
						pi([SS_ENTRY, MAIN_ENTRY], [[{ name: "session_search", args: { query: "trigram tokenizer" }, id: "noIndex" }]], "search", {
							PI_EVENT_SEARCH_INDEX: join(blocker, "index.sqlite"),
						}),
						// Ours loads first (pi would keep the first), and both of our entries want the tool.
						pi([SS_ENTRY, HERMES, MAIN_ENTRY], [[{ name: "session_search", args: { query: "trigram tokenizer" }, id: "withHermes" }]], "search"),
					]);
					return { viaConfig, bothOurs, withHermes };
				} finally {
					writeFileSync(configFile, "{}");
				}
			})();
			return configRuns;
		};

		it(
			"is offered by the main extension when our config enables it",
			async () => {
				const on = (await withToolEnabled()).viaConfig;
				expect(on.code, on.stderr).toBe(0);
				expect(on.stdout).toMatch(/done tools=.*event_search.*session_search/);
				const r = recorded().get("viaConfig");
				expect(r?.isError).toBe(false);
				const hits = ((r?.details ?? { results: [] }) as Details).results;
				expect(hits.map((h) => h.session_id)).toContain(planted.trigram.sessionId);
				// The first run's session_search results quote the planted text; they are never indexed themselves.
				expect(hits.filter((h) => h.role === "toolResult")).toEqual([]);
			},
			PI_NET,
		);

		it(
			"registers one session_search, without a warning, when both of our entries want it",
			async () => {
				const both = (await withToolEnabled()).bothOurs;
				expect(both.code, both.stderr).toBe(0);
				expect(both.stdout).toMatch(/done tools=.*session_search/);
				expect(both.stderr).not.toMatch(/already provided/);
			},
			PI_NET,
		);

		it(
			"leaves the name to hermes / session-search-lite when one is loaded, and says so once",
			async () => {
				const run = (await withToolEnabled()).withHermes;
				expect(run.code, run.stderr).toBe(0);
				expect(recorded().get("withHermes")?.text).toBe(FAKE_HERMES_ANSWER);
				expect(run.stderr.match(/session_search is already provided by .*fake-hermes\.ts/g)).toHaveLength(1);
			},
			PI_NET,
		);

		it(
			"fails the call (isError) only when the index cannot be opened, with the seed's wording",
			async () => {
				const run = (await withToolEnabled()).bothOurs;
				expect(run.code, run.stderr).toBe(0);
				const r = recorded().get("noIndex");
				expect(r?.isError).toBe(true);
				expect(r?.text).toMatch(/^session index not openable: /);
				expect(existsSync(join(blocker, "index.sqlite"))).toBe(false);
			},
			PI_NET,
		);
	});
}

sessionSearchSuite(PI_073.label, () => PI_073);
// pi 1.6 under Node 22 (helpers/pi16.ts), loading a staged copy of the package with a better-sqlite3 for that Node.
sessionSearchSuite("pi 1.6", () => {
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
