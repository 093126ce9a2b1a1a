/**
 * End-to-end inside the real pi 1.6 CLI (Node 22, see helpers/pi16.ts), offline with a scripted model: pi itself
 * writes a failed-then-retried reply (and the context edit that omits the failed one); our extension, loaded with
 * `-e` and once through `pi install <path>`, finds, reads and traces it. Every assertion reads the session files
 * pi wrote. Skips, with the reason printed, only where the registry or a C++ toolchain is missing.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openService, PROJECT_ROOT, tempDir } from "./helpers/corpus.js";
import { pi16View } from "./helpers/oracle16.js";
import { ensurePi16, type Pi16, sharedStage } from "./helpers/pi16.js";
import { hitRefs } from "./helpers/tool-output.js";
import { CALL_IDS_16 } from "./support/faux-model-16.js";

const NEEDLE = "ERR_WOMBAT_5512";
const CODEMODE_CALL = "call16_codemode";

type Entry = {
	type: string;
	id: string;
	parentId: string | null;
	targetId?: string;
	replacement?: unknown;
	message?: { role: string; stopReason?: string; errorMessage?: string; toolCallId?: string; isError?: boolean; content?: unknown; details?: unknown };
};

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		child.stdout.on("data", (d: Buffer) => (out += d.toString()));
		child.stderr.on("data", (d: Buffer) => (out += d.toString()));
		const timer = setTimeout(() => child.kill("SIGKILL"), 300_000); // a safety net for a hung pi on a busy machine, not a measure
		child.on("error", reject);
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			if (code === 0) resolvePromise(out);
			else reject(new Error(`${args.slice(0, 3).join(" ")} exited with ${code ?? signal}\n${out}`));
		});
	});
}

const readLines = (file: string): Entry[] =>
	readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as Entry);

const textOf = (content: unknown): string =>
	typeof content === "string" ? content : ((content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? "").join("\n");

const setup = ensurePi16();
if ("skip" in setup) console.log(`pi 1.6 end-to-end skipped: ${setup.skip}`);

describe.skipIf("skip" in setup)("pi 1.6 end to end (real pi 1.6 CLI under Node 22, faux model)", () => {
	const pi = setup as Pi16;
	const tmp = tempDir("pes-pi16-");
	const base = realpathSync(tmp.dir);
	const agentDir = join(base, "agent");
	const workspace = join(base, "ws");
	const cwd = join(workspace, "app");
	let sessions: Array<{ file: string; entries: Entry[] }> = [];
	let planted: { sessionId: string; failed: Entry; edit: Entry; retried: Entry };
	let installedRun: Entry[] = [];

	let codemodeRun: { file: string; entries: Entry[] } | undefined;
	const piRun = (script: string, extensions: string[], prompt: string, extra: { env?: NodeJS.ProcessEnv; args?: string[] } = {}) => {
		const env: NodeJS.ProcessEnv = {
			...pi.env,
			PI_CODING_AGENT_DIR: agentDir,
			HOME: join(base, "home"),
			PES_E2E_SCRIPT: script,
			PES_E2E_NEEDLE: NEEDLE,
			...extra.env,
		};
		delete env.PI_EVENT_SEARCH_INDEX;
		delete env.PI_CODING_AGENT_SESSION_DIR;
		const ext = extensions.flatMap((e) => ["-e", e]);
		return run(pi.node, [pi.piCli, "--offline", "-p", "--provider", "faux", "--model", "faux-1", ...(extra.args ?? []), ...ext, prompt], cwd, env);
	};
	const sessionFiles = () => {
		const dir = join(agentDir, "sessions", readdirSync(join(agentDir, "sessions")).find((d) => d.endsWith("-ws-app--")) ?? "");
		return readdirSync(dir)
			.filter((f) => f.endsWith(".jsonl"))
			.sort()
			.map((f) => ({ file: join(dir, f), entries: readLines(join(dir, f)) }));
	};
	const toolResult = (entries: Entry[], callId: string) => {
		const entry = entries.find((e) => e.message?.role === "toolResult" && e.message.toolCallId === callId);
		if (!entry?.message) throw new Error(`pi recorded no result for ${callId}`);
		return { text: textOf(entry.message.content), isError: entry.message.isError === true, details: entry.message.details as Record<string, unknown> };
	};

	beforeAll(async () => {
		for (const d of [join(workspace, ".git"), cwd, join(base, "home"), agentDir]) mkdirSync(d, { recursive: true });
		// Retry at once: pi's default backoff (2 s) adds nothing to what is tested.
		writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ retry: { enabled: true, baseDelayMs: 1, maxRetries: 2 } }));
		const pkg = sharedStage(pi);
		const faux = join(PROJECT_ROOT, "test", "support", "faux-model-16.ts");
		const ours = pkg;

		await piRun("plant", [faux], `What broke the deploy? (${NEEDLE})`);
		await piRun("tools", [faux, ours], "What do we know about that deploy failure?");
		await run(pi.node, [pi.piCli, "install", pkg], cwd, { ...pi.env, PI_CODING_AGENT_DIR: agentDir, HOME: join(base, "home") });
		// Installed, not -e: first the plain calls (one with a bad date), then codemode (pi ≥ 0.99), a script calling
		// event_search and read, which pi records only as nestedCalls. One pi start for both.
		writeFileSync(join(cwd, "notes.txt"), "notes\n");
		const code = `const found = await tools.event_search({ query: ${JSON.stringify(NEEDLE)} }); await tools.read({ path: "notes.txt" }); return found;`;
		const calls = [
			[
				{ name: "event_search", args: { query: NEEDLE }, id: CALL_IDS_16.installed },
				{ name: "event_search", args: { query: NEEDLE, after: "last tuesday" }, id: CALL_IDS_16.bad },
			],
			[{ name: "codemode", args: { code }, id: CODEMODE_CALL }],
		];
		await piRun("calls", [faux], "Search, then search from a script.", { env: { PES_E2E_CALLS: JSON.stringify(calls) }, args: ["--tools", "+codemode"] });

		sessions = sessionFiles();
		expect(sessions).toHaveLength(3);
		const [plant, , installed] = sessions as [(typeof sessions)[0], (typeof sessions)[0], (typeof sessions)[0]];
		codemodeRun = installed;
		const failed = plant.entries.find((e) => e.message?.role === "assistant" && e.message.stopReason === "error");
		const edit = plant.entries.find((e) => e.type === "context_edit");
		const retried = plant.entries.find((e) => e.message?.role === "assistant" && textOf(e.message.content).includes(NEEDLE));
		if (!failed || !edit || !retried) throw new Error(`pi did not write a failed-then-retried reply:\n${readFileSync(plant.file, "utf8")}`);
		planted = { sessionId: (plant.entries[0] as unknown as { id: string }).id, failed, edit, retried };
		installedRun = installed.entries;
	}, 20 * 60_000);

	afterAll(() => {
		if (!process.env.PES_KEEP) tmp.cleanup();
		else console.log(tmp.dir);
	});

	it("pi 1.6 itself omits the failed reply with a context edit when it retries", () => {
		expect(planted.edit.targetId).toBe(planted.failed.id);
		expect(planted.edit.replacement).toBeNull();
	});

	it("event_search reports the failed reply as omitted by pi's edit, and the retried one as seen", () => {
		const tools = sessions[1]?.entries ?? [];
		const result = toolResult(tools, CALL_IDS_16.search);
		expect(result.isError).toBe(false);
		const refs = hitRefs(result.text);
		expect(refs).toContain(`${planted.sessionId}/${planted.failed.id}`);
		expect(refs).toContain(`${planted.sessionId}/${planted.retried.id}`);
		const lines = result.text.split("\n");
		const headOf = (id: string) => lines[lines.findIndex((l) => l.includes(`entryId=${id}`)) - 1] ?? "";
		expect(headOf(planted.failed.id)).toContain(`selectionState=omitted contextEdit=omitted by=${planted.edit.id}`);
		expect(headOf(planted.retried.id)).toContain("selectionState=direct");
		const hits = (result.details as { hits: Array<{ entryId: string; selectionState: string; contextEdit?: unknown }> }).hits;
		expect(hits.find((h) => h.entryId === planted.failed.id)?.contextEdit).toEqual({ state: "omitted", by: planted.edit.id });
	});

	it("event_read and event_trace explain the omission: the edit, in effect", () => {
		const tools = sessions[1]?.entries ?? [];
		const read = toolResult(tools, CALL_IDS_16.read);
		expect(read.isError).toBe(false);
		expect(read.text).toContain(`event sessionId=${planted.sessionId} entryId=${planted.failed.id}`);
		expect(read.text).toContain("selectionState=omitted");
		expect(read.text).toContain(NEEDLE);
		const trace = toolResult(tools, CALL_IDS_16.trace);
		expect(trace.isError).toBe(false);
		expect(trace.text).toMatch(new RegExp(`- edits <- entryId=${planted.edit.id} \\[recorded\\].*omitted by this edit; in effect`));
	});

	it("works when installed with `pi install <path>` instead of -e", () => {
		const result = toolResult(installedRun, CALL_IDS_16.installed);
		expect(result.isError).toBe(false);
		expect(hitRefs(result.text)).toContain(`${planted.sessionId}/${planted.retried.id}`);
	});

	it("classifies every entry of the files pi 1.6 wrote as pi 1.6 itself does", () => {
		const service = openService(join(agentDir, "sessions"), join(base, "check.sqlite"));
		try {
			service.refresh();
			let checked = 0;
			for (const { file, entries } of sessions) {
				const sessionId = (entries[0] as unknown as { id: string }).id;
				for (const [entryId, expected] of pi16View(readFileSync(file, "utf8"), cwd)) {
					const c = service.read({ sessionId, entryId, maxChars: 1 }).classification;
					expect({ branchState: c.branchState, selectionState: c.selectionState, contextEdit: c.contextEdit ?? null }, `${file} ${entryId}`).toEqual(expected);
					checked++;
				}
			}
			expect(checked).toBeGreaterThan(15);
		} finally {
			service.close();
		}
	});

	it("answers bad arguments with an error result of one clear line", () => {
		const bad = toolResult(installedRun, CALL_IDS_16.bad);
		expect(bad.isError).toBe(true);
		expect(bad.text.trim().split("\n")).toHaveLength(1);
		expect(bad.text).toContain("last tuesday");
	});

	it("runs event_search from a codemode script: recorded only as nestedCalls, never indexed again, its read a file", () => {
		const entries = codemodeRun?.entries ?? [];
		const result = entries.find((e) => e.message?.role === "toolResult" && e.message.toolCallId === CODEMODE_CALL);
		const nested = (result?.message as { nestedCalls?: { calls: Array<{ id: string; name: string }> } } | undefined)?.nestedCalls?.calls ?? [];
		expect(nested.map((c) => c.name)).toEqual(["event_search", "read"]);
		for (const c of nested) expect(c.id).toMatch(new RegExp(`^${CODEMODE_CALL}/\\d+$`));
		// No transcript entry for the nested calls; the script's result quotes our tool's hits.
		expect(entries.some((e) => e.message?.toolCallId?.startsWith(`${CODEMODE_CALL}/`))).toBe(false);
		expect(textOf(result?.message?.content)).toContain(NEEDLE);
		const service = openService(join(agentDir, "sessions"), join(base, "codemode-index.sqlite"));
		try {
			service.refresh();
			const hits = service.search({ query: NEEDLE, filters: { kinds: ["tool.result"] } }).hits;
			expect(hits.map((h) => h.entryId)).not.toContain(result?.id);
			const files = service.search({ query: "", filters: { files: [join(cwd, "notes.txt")] } }).hits.map((h) => h.entryId);
			expect(files).toContain(result?.id);
		} finally {
			service.close();
		}
	});
});
