/**
 * Continue in pi, landing on the event (the explorer's `c`), in the real pi 1.6 CLI in RPC mode (Node 22, see
 * helpers/pi16.ts): pi-history starts `pi --session <file>` with PI_EVENT_SEARCH_LAND=<entryId> and
 * PI_EVENT_SEARCH_LAND_FILE=<file>; our extension moves pi's tree position there at start. What pi then holds as its
 * context (`get_messages`, `get_state`) must be pi 1.6's own projection of the session at that leaf
 * (buildSessionProjection after SessionManager.branch, deep-imported), and the session file must be byte for byte
 * what it was. A run without the variables opens at the file's last entry (the control).
 */
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, tempDir } from "./helpers/corpus.js";
import { type RpcPi, startRpc } from "./helpers/pi-rpc.js";
import { fauxMessages } from "./helpers/pi-stage.js";
import { ensurePi16, type Pi16, sharedStage } from "./helpers/pi16.js";

const setup = ensurePi16();
if ("skip" in setup) console.log(`pi 1.6 landing skipped: ${setup.skip}`);

type Message = { role: string; timestamp?: number; content?: unknown };

/** Asks a running pi for get_state and get_messages. */
async function readState(rpc: RpcPi): Promise<{ state: Record<string, unknown>; messages: Message[] }> {
	// Both commands are read after pi's start (and so after session_start handlers) is complete.
	const [state, messages] = await Promise.all([rpc.send({ type: "get_state" }), rpc.send({ type: "get_messages" })]);
	return { state: state.data as Record<string, unknown>, messages: (messages.data as { messages: Message[] }).messages };
}

/** Starts pi 1.6 in RPC mode on `file`, asks get_state and get_messages, then ends it. */
async function rpcState(pi: Pi16, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ state: Record<string, unknown>; messages: Message[] }> {
	const rpc = startRpc(pi.node, pi.piCli, args, cwd, env, 180_000);
	try {
		return await readState(rpc);
	} finally {
		await rpc.stop();
	}
}

describe.skipIf("skip" in setup)("continue in pi 1.6 on an event (real pi 1.6 CLI in RPC mode)", () => {
	const pi = setup as Pi16;
	const tmp = tempDir("pes-land-");
	const base = realpathSync(tmp.dir);
	const agentDir = join(base, "agent");
	const cwd = join(base, "ws");
	let file = "";
	let bytes = "";
	let ids: Record<"u1" | "a1" | "u2" | "a2", string>;
	let ext: string[] = [];
	/** pi 1.6's own context at a leaf: its session manager on the file's entries, moved there, projected. */
	let projectionAt: (leaf: string) => Message[];

	beforeAll(async () => {
		for (const d of [join(cwd, ".git"), join(base, "home"), agentDir]) mkdirSync(d, { recursive: true });
		const { sm } = await import("./helpers/oracle16.js");
		// The session, written by pi 1.6's own SessionManager: two exchanges; its last entry (the leaf pi opens at) is a2.
		const m = sm.SessionManager.create(cwd, join(agentDir, "sessions", "ws"));
		const msg = fauxMessages();
		const u1 = m.appendMessage(msg.user("Why does the LANDING_QUOLL build fail?"));
		const a1 = m.appendMessage(msg.reply("Because the cache is stale."));
		const u2 = m.appendMessage(msg.user("Then clear it."));
		const a2 = m.appendMessage(msg.reply("Cleared; the build passes."));
		ids = { u1, a1, u2, a2 };
		file = m.getSessionFile();
		bytes = readFileSync(file, "utf8");
		projectionAt = (leaf) => {
			const mem = sm.SessionManager.inMemory(cwd, undefined, sm.parseSessionEntries(bytes));
			mem.branch(leaf);
			return mem.buildSessionProjection().entries.flatMap((e) => e.messages as Message[]);
		};
		const pkg = sharedStage(pi);
		ext = ["-e", join(PROJECT_ROOT, "test", "support", "faux-model-16.ts"), "-e", pkg];
	}, 20 * 60_000);

	/** The pi landed on a reply: its state is checked first, and the last test sends it a prompt (one pi start, not two). */
	let landedOnReply: RpcPi | undefined;

	afterAll(async () => {
		await landedOnReply?.stop();
		tmp.cleanup();
	});

	/** pi's environment for one run: this test's agent dir and home, the landing variables given and no others. */
	const envWith = (land: Record<string, string>): NodeJS.ProcessEnv => {
		const env: NodeJS.ProcessEnv = { ...pi.env, PI_CODING_AGENT_DIR: agentDir, HOME: join(base, "home"), PES_E2E_SCRIPT: "search", ...land };
		delete env.PI_EVENT_SEARCH_INDEX;
		delete env.PI_CODING_AGENT_SESSION_DIR;
		if (!land.PI_EVENT_SEARCH_LAND) delete env.PI_EVENT_SEARCH_LAND;
		return env;
	};
	const piArgs = () => ["--offline", "--provider", "faux", "--model", "faux-1", ...ext, "--mode", "rpc", "--session", file];
	const start = (land: Record<string, string>) => rpcState(pi, piArgs(), cwd, envWith(land));
	/** pi in RPC mode landed on the reply a1 (its safety net covers the tests it outlives on a busy machine). */
	const landOnReply = () => startRpc(pi.node, pi.piCli, piArgs(), cwd, envWith({ PI_EVENT_SEARCH_LAND: ids.a1, PI_EVENT_SEARCH_LAND_FILE: file }), 600_000);
	const shape = (ms: Message[]) => ms.map((x) => [x.role, x.timestamp]);

	it("without a landing, pi opens at the file's last entry (the control)", async () => {
		const { state, messages } = await start({});
		expect(state.sessionFile).toBe(file);
		expect(shape(messages)).toEqual(shape(projectionAt(ids.a2)));
		expect(messages).toHaveLength(4);
	}, 200_000);

	// pi itself appends a thinking-level entry the first time it opens a file without one (the control run did): the
	// landing runs compare the file with what it was just before them.
	it("PI_EVENT_SEARCH_LAND on a reply: pi's context is its projection at that reply; the landing writes nothing", async () => {
		const before = readFileSync(file, "utf8");
		// Kept running for the last test, which continues from this landing.
		landedOnReply = landOnReply();
		const { state, messages } = await readState(landedOnReply);
		expect(state.sessionFile).toBe(file);
		expect(shape(messages)).toEqual(shape(projectionAt(ids.a1)));
		expect(state.messageCount).toBe(2);
		expect(readFileSync(file, "utf8")).toBe(before);
	}, 200_000);

	it("on a user message, pi's /tree rule holds: the leaf is its parent (the message goes back to the editor)", async () => {
		const before = readFileSync(file, "utf8");
		const { messages } = await start({ PI_EVENT_SEARCH_LAND: ids.u2, PI_EVENT_SEARCH_LAND_FILE: file });
		expect(shape(messages)).toEqual(shape(projectionAt(ids.a1)));
		expect(readFileSync(file, "utf8")).toBe(before);
	}, 200_000);

	it("a landing named for another file is ignored: pi opens where it would", async () => {
		const { messages } = await start({ PI_EVENT_SEARCH_LAND: ids.a1, PI_EVENT_SEARCH_LAND_FILE: join(base, "other.jsonl") });
		expect(shape(messages)).toEqual(shape(projectionAt(ids.a2)));
	}, 200_000);

	// Last: pi writes the new exchange into the file, which moves the file's last entry.
	it("the next message sent in pi continues from the landed event, not from the file's last entry", async () => {
		// The pi that landed on a1 in the second test (started again only when that test did not start it).
		const rpc = landedOnReply ?? landOnReply();
		landedOnReply = undefined;
		try {
			await rpc.prompt("CONTINUED_WOMBAT from the landed point");
		} finally {
			await rpc.stop();
		}
		// pi wrote the new message (pi writes; the landing did not): its ancestors, by the file's own parent links.
		const entries = readFileSync(file, "utf8")
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l) as { id: string; parentId?: string | null; message?: { role?: string; content?: unknown } });
		const byId = new Map(entries.map((e) => [e.id, e]));
		const asked = entries.find((e) => e.message?.role === "user" && JSON.stringify(e.message.content).includes("CONTINUED_WOMBAT"));
		expect(asked).toBeDefined();
		const up: string[] = [];
		for (let e = asked?.parentId ? byId.get(asked.parentId) : undefined; e; e = e.parentId ? byId.get(e.parentId) : undefined) up.push(e.id);
		expect(up).toContain(ids.a1);
		expect(up).not.toContain(ids.u2);
		expect(up).not.toContain(ids.a2);
	}, 200_000);
});
