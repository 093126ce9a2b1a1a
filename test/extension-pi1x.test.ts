/**
 * The extension as pi 1.x calls it (I17): the caller's session is the one in its file, even when another file
 * shares its session id and sorts first; the cutoff is the assistant message holding the calling toolCallId, also
 * when tools run sequentially and pi's leaf is a sibling tool result; nothing names the invoking entry; totals
 * count only visible sessions; `details` are bounded like the text. Sessions are written by pi 1.6's SessionManager.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AgentToolResult, ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtension, type ExtensionRegistrar } from "../src/extension/index.js";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";
import { tempDir } from "./helpers/corpus.js";
import { sm } from "./helpers/oracle16.js";
import { hitRefs } from "./helpers/tool-output.js";

// biome-ignore lint/suspicious/noExplicitAny: tools of different parameter types live in one map.
type AnyTool = ToolDefinition<any, any>;
const NEEDLE = "NEEDLE_OWL_4471";
/**
 * 232,000 characters of a tool result, mostly control characters: JSON spends 6 bytes on each (\u0001), so even a
 * 12,000-character window (the tools' maxChars bound) weighs more than the 50 KB pi's tool output may.
 */
const BIG_TEXT = Array.from({ length: 8_000 }, (_, i) => `行${String(i).padStart(5, "0")}${"\u0001".repeat(20)}日志。`).join("");
/** A child question whose preview is all control characters (6 JSON bytes each). */
const CONTROL_QUESTION = "\u0002".repeat(400);
const WORKSPACE = "/home/bob/ws";

const tmp = tempDir("pes-ext-pi1x-");
const sessionsDir = join(tmp.dir, "sessions");
let tools: Map<string, AnyTool>;
let ownFile = "";
const ids: Record<string, string> = {};

/** pi's session manager of the caller's own file, as ctx.sessionManager (loaded in memory: the file is never touched). */
function ctxFor(file: string): ExtensionContext {
	const mgr = sm.SessionManager.inMemory(WORKSPACE, undefined, sm.parseSessionEntries(readFileSync(file, "utf8"))) as unknown as Record<string, () => unknown>;
	const sessionManager = new Proxy(mgr, {
		get: (target, key) => (key === "getSessionFile" ? () => file : (target[key as string] as () => unknown).bind(target)),
	});
	return { cwd: WORKSPACE, sessionManager } as unknown as ExtensionContext;
}

const call = async (name: string, toolCallId: string, params: Record<string, unknown>) =>
	(await (tools.get(name) as AnyTool).execute(toolCallId, params, undefined, undefined, ctxFor(ownFile))) as AgentToolResult<unknown>;
const text = (r: AgentToolResult<unknown>) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

beforeAll(() => {
	// The caller's session: a question, then one reply calling event_search and bash; bash ran first (sequential
	// tools), so pi's leaf is its result, a sibling of the invoking reply's other result.
	const own = sm.SessionManager.create(WORKSPACE, join(sessionsDir, "b"));
	ids.question = own.appendMessage({ role: "user", content: `Where did ${NEEDLE} come from?`, timestamp: 1 });
	ids.invoking = own.appendMessage({
		role: "assistant",
		content: [
			{ type: "text", text: `Let me search for ${NEEDLE}.` },
			{ type: "toolCall", id: "call_bash", name: "bash", arguments: { command: "ls" } },
			{ type: "toolCall", id: "call_search", name: "event_search", arguments: { query: NEEDLE } },
		],
		stopReason: "toolUse",
		timestamp: 2,
	});
	ids.sibling = own.appendMessage({
		role: "toolResult",
		toolCallId: "call_bash",
		toolName: "bash",
		content: [{ type: "text", text: `ls: ${NEEDLE}.txt` }],
		isError: false,
		timestamp: 3,
	});
	ownFile = (own as unknown as { getSessionFile(): string }).getSessionFile();
	// A copy of the caller's file under a name that sorts first (an export, an import, a backup): same session id.
	mkdirSync(join(sessionsDir, "a"), { recursive: true });
	cpSync(ownFile, join(sessionsDir, "a", basename(ownFile)));
	// Sessions of another workspace, many of them: never visible, never counted.
	for (let i = 0; i < 3; i++) {
		const other = sm.SessionManager.create("/home/eve/secret", join(sessionsDir, "c"));
		other.appendMessage({ role: "user", content: `${NEEDLE} elsewhere ${i}`, timestamp: 1 });
		other.appendMessage({ role: "assistant", content: [{ type: "text", text: "ok" }], stopReason: "stop", timestamp: 2 });
	}
	// Enough visible hits to overflow 50 KB of details at limit 999.
	for (let i = 0; i < 60; i++) {
		const s = sm.SessionManager.create(join(WORKSPACE, "app"), join(sessionsDir, "d"));
		s.appendMessage({ role: "user", content: `${NEEDLE} ${"padding words ".repeat(150)}${i}`, timestamp: 1 });
		s.appendMessage({
			role: "assistant",
			content: [{ type: "text", text: `${NEEDLE} answer ${"more words ".repeat(150)}` }],
			stopReason: "stop",
			timestamp: 2,
		});
	}
	// A tool result far over 50 KB of JSON, and a result with 400 children whose previews are control characters.
	const big = sm.SessionManager.create(WORKSPACE, join(sessionsDir, "e"));
	ids.bigAsk = big.appendMessage({ role: "user", content: "BIG_RESULT_ASK", timestamp: 1 });
	ids.bigCall = big.appendMessage({
		role: "assistant",
		content: [{ type: "toolCall", id: "call_big", name: "bash", arguments: { command: "cat big.log" } }],
		stopReason: "toolUse",
		timestamp: 2,
	});
	ids.bigResult = big.appendMessage({
		role: "toolResult",
		toolCallId: "call_big",
		toolName: "bash",
		content: [{ type: "text", text: BIG_TEXT }],
		isError: false,
		timestamp: 3,
	});
	for (let i = 0; i < 400; i++) {
		big.branch(ids.bigResult);
		big.appendMessage({ role: "user", content: `${CONTROL_QUESTION}${i}`, timestamp: 4 + i });
	}
	const config = resolveConfig({ sessionsDirs: [sessionsDir], indexPath: join(tmp.dir, "index.sqlite"), env: {}, home: tmp.dir });
	tools = new Map();
	const registrar = { registerTool: (t: AnyTool) => void tools.set(t.name, t), on: () => undefined };
	createExtension({ openService: () => HistoryService.open({ config }), backgroundDelayMs: 0 })(registrar as unknown as ExtensionRegistrar);
	expect(dirname(ownFile)).toBe(join(sessionsDir, "b"));
});

afterAll(() => tmp.cleanup());

describe("pi 1.x caller scope (I17)", () => {
	it("excludes the caller's own file by default, not another file with the same session id", async () => {
		const result = await call("event_search", "call_search", { query: NEEDLE, limit: 50 });
		const sessionId = (JSON.parse(readFileSync(ownFile, "utf8").split("\n")[0] as string) as { id: string }).id;
		const details = result.details as { hits: Array<{ entryId: string; session: { file: string } }> };
		expect(details.hits.filter((h) => h.session.file === ownFile)).toEqual([]);
		// The copy is another session: it is found, and it is not the caller's.
		expect(details.hits.some((h) => h.session.file !== ownFile && h.entryId === ids.question)).toBe(true);
		// Two files hold this session id: the text names the caller's own one by its public id (`<id>~<file part>`).
		expect(text(result)).toMatch(new RegExp(`your current session ${sessionId}~[0-9a-f]+ is excluded`));
	});

	it("cuts the caller's own session at the assistant message holding the calling toolCallId", async () => {
		// Searching the caller's own file by its public id: only the question, never the invoking reply or the sibling result.
		const own = await call("event_search", "call_search", { query: NEEDLE, sessionId: publicIdOfOwn() });
		expect(hitRefs(text(own))).toEqual([`${publicIdOfOwn()}/${ids.question}`]);
		const read = await call("event_read", "call_search", { sessionId: publicIdOfOwn(), entryId: ids.question as string });
		const c = (read.details as { classification: { materializedLeafId: string | null } }).classification;
		expect(c.materializedLeafId).not.toBe(ids.invoking);
		expect(c.materializedLeafId).not.toBe(ids.sibling);
		await expect(call("event_read", "call_search", { sessionId: publicIdOfOwn(), entryId: ids.invoking as string })).rejects.toThrow(/no event/);
		await expect(call("event_read", "call_search", { sessionId: publicIdOfOwn(), entryId: ids.sibling as string })).rejects.toThrow(/no event/);
	});

	it("counts only sessions the caller may see in the totals", async () => {
		const result = await call("event_search", "call_search", { query: NEEDLE });
		const index = (result.details as { index: { sessions: number } }).index;
		// 60 in the workspace's app, the copy, the caller's own and the big one: never the 3 of /home/eve.
		expect(index.sessions).toBe(63);
	});

	it("bounds details like the text, even at limit 999", async () => {
		const result = await call("event_search", "call_search", { query: NEEDLE, limit: 999, snippetChars: 2000 });
		expect(Buffer.byteLength(JSON.stringify(result.details))).toBeLessThanOrEqual(50 * 1024);
		expect(Buffer.byteLength(text(result))).toBeLessThanOrEqual(50 * 1024);
		expect(hitRefs(text(result)).length).toBeGreaterThan(0);
	});

	it("bounds read details like the text, and the cut window continues at its range end", async () => {
		const sessionId = (JSON.parse(readFileSync(bigFile(), "utf8").split("\n")[0] as string) as { id: string }).id;
		let got = "";
		let offset = 0;
		for (let i = 0; i < 40 && offset < BIG_TEXT.length; i++) {
			const r = await call("event_read", "call_x", { sessionId, entryId: ids.bigResult as string, fragmentId: "tool.result:0", offset, maxChars: 1_000_000 });
			expect(Buffer.byteLength(JSON.stringify(r.details))).toBeLessThanOrEqual(50 * 1024);
			expect(Buffer.byteLength(text(r))).toBeLessThanOrEqual(50 * 1024);
			const f = (r.details as { fragments: Array<{ id: string; text: string; range: [number, number] }> }).fragments.find((x) => x.id === "tool.result:0");
			if (!f) throw new Error("no tool.result:0 window");
			expect(f.range[0]).toBe(offset);
			got += f.text;
			offset = f.range[1];
		}
		// The windows put back together are the source text, character for character.
		expect(got).toBe(BIG_TEXT);
	});

	it("bounds trace details of an event with 400 children", async () => {
		const sessionId = (JSON.parse(readFileSync(bigFile(), "utf8").split("\n")[0] as string) as { id: string }).id;
		const r = await call("event_trace", "call_x", { sessionId, entryId: ids.bigResult as string });
		expect(Buffer.byteLength(JSON.stringify(r.details))).toBeLessThanOrEqual(50 * 1024);
		const d = r.details as { edges: Array<{ rel: string }>; notes: string[] };
		expect(d.edges.some((e) => e.rel === "child")).toBe(true);
	});
});

/** The session file holding the big tool result. */
function bigFile(): string {
	const dir = join(sessionsDir, "e");
	return join(dir, readdirSync(dir)[0] as string);
}

/** The public id the index gave the caller's own file (the copy sorts first and got the plain session id). */
function publicIdOfOwn(): string {
	const service = HistoryService.open({
		config: resolveConfig({ sessionsDirs: [sessionsDir], indexPath: join(tmp.dir, "index.sqlite"), env: {}, home: tmp.dir }),
	});
	try {
		const all = service.search({ query: `"Where did" ${NEEDLE}`, limit: 10 }).hits;
		const own = all.find((h) => h.session.file === ownFile);
		if (!own) throw new Error("own session not indexed");
		return own.sessionId;
	} finally {
		service.close();
	}
}
