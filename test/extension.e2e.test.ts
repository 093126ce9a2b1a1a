/**
 * End-to-end: the real `pi` CLI (devDependency), offline, with a scripted model (pi-ai's faux provider, test/support)
 * calling our tools over a history written by pi's own SessionManager. Every assertion reads what pi wrote.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "@mariozechner/pi-ai";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, readEntries, tempDir } from "./helpers/corpus.js";
import { hitRefs } from "./helpers/tool-output.js";
import { CALL_IDS } from "./support/faux-model.js";

/** Runs a command with stdin closed (pi -p reads piped stdin to its end); rejects on a non-zero exit or a hang. */
function run(
	command: string,
	args: string[],
	options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ stdout: string; stderr: string }> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
		child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
		const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
		child.on("error", reject);
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			if (code === 0) resolvePromise({ stdout, stderr });
			else reject(new Error(`pi exited with ${code ?? signal}\nstdout: ${stdout}\nstderr: ${stderr}`));
		});
	});
}
const PI_CLI = join(PROJECT_ROOT, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");
const NEEDLE = "ERR_QUOKKA_7731";

/** pi's own directory name for a cwd under `<agentDir>/sessions` (session-manager getDefaultSessionDir). */
function piSessionDir(agentDir: string, cwd: string): string {
	const dir = join(agentDir, "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
	mkdirSync(dir, { recursive: true });
	return dir;
}

interface Planted {
	sessionId: string;
	entryId: string;
	parentId: string;
	text: string;
}

type Line = { type: string; id?: string; parentId?: string | null; message?: { role: string; toolCallId?: string; isError?: boolean; content: unknown } };

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	return (content as Array<{ type: string; text?: string }>).map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("\n");
}

/** `sessionId/entryId` refs of the hit lines of an event_search text. */
const refsOf = hitRefs;
/** The ref of an event, as refsOf lists it. */
const ref = (sessionId: string, entryId: string | undefined) => `${sessionId}/${entryId}`;

describe("pi extension end to end (real pi CLI, faux model)", () => {
	const tmp = tempDir("pes-e2e-");
	// pi records process.cwd(), which is the real path (macOS tmpdir is behind a symlink).
	const base = realpathSync(tmp.dir);
	const agentDir = join(base, "agent");
	const home = join(base, "home");
	const workspace = join(base, "ws");
	const callerCwd = join(workspace, "app");
	const nested = join(workspace, "packages", "api");
	const otherWorkspace = join(base, "other");
	const prefixSibling = join(base, "ws-old");
	let planted: Record<"workspace" | "nested" | "other" | "prefix", Planted>;
	let lines: Line[] = [];
	let ownSessionId = "";

	const pi = async (script: string, args: string[]) => {
		const env: NodeJS.ProcessEnv = { ...process.env, PI_CODING_AGENT_DIR: agentDir, HOME: home, PES_E2E_SCRIPT: script, PES_E2E_NEEDLE: NEEDLE };
		// The default index location is part of what is tested.
		delete env.PI_EVENT_SEARCH_INDEX;
		delete env.PI_CODING_AGENT_SESSION_DIR;
		const extensions = ["-e", join(PROJECT_ROOT, "test", "support", "faux-model.ts"), "-e", PROJECT_ROOT];
		return run(process.execPath, [PI_CLI, "--offline", "-p", "--provider", "faux", "--model", "faux-1", ...extensions, ...args], {
			cwd: callerCwd,
			env,
			timeoutMs: 180_000, // a safety net for a hung pi, not a measure: a busy machine may be slow
		});
	};

	/** Writes one session with pi's SessionManager: a user question and an assistant answer (or tool result) with `text`. */
	const writeSession = (cwd: string, text: string, how: "answer" | "toolResult", name?: string): Planted => {
		const sm = SessionManager.create(cwd, piSessionDir(agentDir, cwd));
		const question = sm.appendMessage({ role: "user", content: "Why did the nightly build fail?", timestamp: Date.now() });
		let parentId = question;
		let entryId: string;
		if (how === "answer") {
			entryId = sm.appendMessage(fauxAssistantMessage(text));
		} else {
			parentId = sm.appendMessage(
				fauxAssistantMessage([fauxText("Running the tests."), fauxToolCall("bash", { command: "npm test" }, { id: "call_bash_1" })], { stopReason: "toolUse" }),
			);
			entryId = sm.appendMessage({
				role: "toolResult",
				toolCallId: "call_bash_1",
				toolName: "bash",
				content: [{ type: "text", text }],
				isError: true,
				timestamp: Date.now(),
			});
			sm.appendMessage(fauxAssistantMessage("The tests fail."));
		}
		if (name) sm.appendSessionInfo(name);
		return { sessionId: sm.getSessionId(), entryId, parentId, text };
	};

	beforeAll(async () => {
		mkdirSync(join(workspace, ".git"), { recursive: true });
		for (const dir of [home, callerCwd, nested, otherWorkspace, prefixSibling]) mkdirSync(dir, { recursive: true });
		planted = {
			workspace: writeSession(
				workspace,
				`The nightly build fails with ${NEEDLE} because the cache key is stale.\nFix: bump the cache version.`,
				"answer",
				"Nightly build",
			),
			nested: writeSession(nested, `FAIL test/api.test.ts\nError: ${NEEDLE} at connect (src/db.ts:42)`, "toolResult"),
			other: writeSession(otherWorkspace, `Other project: ${NEEDLE} seen here too.`, "answer"),
			prefix: writeSession(prefixSibling, `Old checkout: ${NEEDLE} as well.`, "answer"),
		};

		// Turn 1 plants the needle in the caller's own session; turn 2 continues it and drives the tools.
		await pi("plant", [`Remember: the nightly build failed with ${NEEDLE}.`]);
		const out = await pi("tools", ["--continue", "What do we know about that build failure?"]);
		expect(out.stdout).toContain("done tools=event_read,event_search,event_trace prompt-teaches-tools=true");

		const ownDir = join(agentDir, "sessions", readdirSync(join(agentDir, "sessions")).find((d) => d.endsWith("-ws-app--")) ?? "");
		const files = readdirSync(ownDir).filter((f) => f.endsWith(".jsonl"));
		expect(files).toHaveLength(1);
		lines = readEntries(join(ownDir, files[0] as string)) as Line[];
		ownSessionId = (lines[0] as { id?: string }).id ?? "";
	}, 10 * 60_000);

	afterAll(() => {
		// PES_KEEP=1 keeps the run's agent dir and sessions for a look after a failure.
		if (!process.env.PES_KEEP) tmp.cleanup();
		else console.log(tmp.dir);
	});

	const toolResult = (callId: string) => {
		const entry = lines.find((l) => l.type === "message" && l.message?.role === "toolResult" && l.message.toolCallId === callId);
		if (!entry?.message) throw new Error(`pi recorded no result for ${callId}`);
		return { text: textOf(entry.message.content), isError: entry.message.isError === true, details: (entry.message as { details?: unknown }).details };
	};

	it("finds the needle in the workspace and its nested project, never in another workspace or a prefix sibling", () => {
		const result = toolResult(CALL_IDS.search);
		expect(result.isError).toBe(false);
		const refs = refsOf(result.text);
		expect(refs).toContain(ref(planted.workspace.sessionId, planted.workspace.entryId));
		expect(refs).toContain(ref(planted.nested.sessionId, planted.nested.entryId));
		for (const absent of [planted.other, planted.prefix]) expect(result.text).not.toContain(absent.sessionId);
		expect(result.text).toContain(`«${NEEDLE}»`);
		expect(result.text).toContain('session "Nightly build"');
		expect(result.text).toContain(`sessions under ${workspace}`);
		expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(50 * 1024);
		expect(existsSync(join(agentDir, "pi-event-search", "index.sqlite"))).toBe(true);
	});

	it("leaves the caller's own session out by default", () => {
		const result = toolResult(CALL_IDS.search);
		expect(refsOf(result.text).filter((r) => r.startsWith(`${ownSessionId}/`))).toEqual([]);
		expect(result.text).toContain(`your current session ${ownSessionId} is excluded`);
	});

	it("reads the exact source text of the returned ref", () => {
		const search = toolResult(CALL_IDS.search);
		const [first] = refsOf(search.text);
		const source = Object.values(planted).find((p) => ref(p.sessionId, p.entryId) === first);
		expect(source, `first ref ${first} is one of the planted events`).toBeDefined();
		const read = toolResult(CALL_IDS.read);
		expect(read.isError).toBe(false);
		expect(read.text).toContain(`event sessionId=${source?.sessionId} entryId=${source?.entryId}`);
		expect(read.text).toContain(`\n${source?.text}\n`);
	});

	it("traces the returned ref to its recorded parent", () => {
		const [first] = refsOf(toolResult(CALL_IDS.search).text);
		const source = Object.values(planted).find((p) => ref(p.sessionId, p.entryId) === first) as Planted;
		const trace = toolResult(CALL_IDS.trace);
		expect(trace.isError).toBe(false);
		expect(trace.text).toContain(`trace of sessionId=${source.sessionId} entryId=${source.entryId}`);
		expect(trace.text).toContain(`- parent -> entryId=${source.parentId} [recorded]`);
	});

	it("searches the caller's own session when asked by id, up to but never including the invoking message", () => {
		const result = toolResult(CALL_IDS.searchOwn);
		expect(result.isError).toBe(false);
		const refs = refsOf(result.text);
		const messages = lines.filter((l) => l.type === "message");
		const plantedTurn = messages.find((l) => l.message?.role === "user" && textOf(l.message.content).includes(NEEDLE));
		const invoking = messages.find((l) => l.message?.role === "assistant" && JSON.stringify(l.message.content).includes(CALL_IDS.searchOwn));
		expect(plantedTurn?.id).toBeDefined();
		expect(invoking?.id).toBeDefined();
		expect(refs).toContain(ref(ownSessionId, plantedTurn?.id));
		expect(refs).not.toContain(ref(ownSessionId, invoking?.id));
		expect(refs.every((r) => r.startsWith(`${ownSessionId}/`))).toBe(true);
		expect(result.text).toContain("including your current session");
	});

	it("records bad arguments as tool errors", () => {
		const badDate = toolResult(CALL_IDS.badDate);
		expect(badDate.isError).toBe(true);
		expect(badDate.text).toMatch(/after must be an ISO date/);
		const empty = toolResult(CALL_IDS.emptyQuery);
		expect(empty.isError).toBe(true);
		expect(empty.text).toMatch(/query is empty and no filter is set/);
	});
});
