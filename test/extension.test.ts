/**
 * The extension factory with a fake pi registrar, its tools executed directly against a real index of the fixture
 * corpus. Ground truth: the generator's manifest and the session files pi's SessionManager wrote.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import type { AgentToolResult, ExtensionContext, Theme, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import Database from "better-sqlite3";
import type { TSchema } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtension, type ExtensionDeps, type ExtensionRegistrar } from "../src/extension/index.js";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";
import { SEMANTIC_KINDS } from "../src/shared/types.js";
import { copyCorpus, fixtureEntry, loadManifest, needleById, openService, tempDir } from "./helpers/corpus.js";
import { hitRefs } from "./helpers/tool-output.js";

// Tools of different parameter types live in one map.
type AnyTool = ToolDefinition<TSchema, unknown>;
type Handler = (event: unknown, ctx: ExtensionContext) => unknown;

const WORKSPACE = "/home/alice/code/payments-api";
const manifest = loadManifest();

const needle = (id: string) => needleById(manifest, id);

function occurrence(id: string, sessionId?: string) {
	const o = needle(id).occurrences.find((x) => !sessionId || x.sessionId === sessionId);
	if (!o?.entryId) throw new Error(`no occurrence of ${id}`);
	return { ...o, entryId: o.entryId };
}

/** The fake pi: collects tools and event handlers. */
function register(deps: ExtensionDeps) {
	const tools = new Map<string, AnyTool>();
	const handlers = new Map<string, Handler[]>();
	const registrar = {
		registerTool: (tool: AnyTool) => void tools.set(tool.name, tool),
		on: (event: string, handler: Handler) => void handlers.set(event, [...(handlers.get(event) ?? []), handler]),
	};
	createExtension(deps)(registrar as unknown as ExtensionRegistrar);
	return { tools, handlers };
}

/** The parts of pi's ExtensionContext the tools read: cwd and the live session manager. */
function ctxFor(cwd: string, session: { id?: string; file?: string; leaf?: string | null } = {}): ExtensionContext {
	const id = session.id ?? "01234567-0000-7000-8000-00000000ca11";
	return {
		cwd,
		sessionManager: {
			getSessionId: () => id,
			getHeader: () => ({ type: "session", id, timestamp: "2026-01-01T00:00:00.000Z", cwd }),
			getLeafId: () => session.leaf ?? null,
			getSessionFile: () => session.file,
			getEntries: () => [],
		},
	} as unknown as ExtensionContext;
}

function text(result: AgentToolResult<unknown>): string {
	return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

describe("pi extension tools over the fixture corpus", () => {
	const tmp = tempDir("pes-ext-");
	const corpus = join(tmp.dir, "corpus");
	const sessionsDir = join(corpus, "sessions");
	const indexPath = join(tmp.dir, "index.sqlite");
	const config = () => resolveConfig({ sessionsDirs: [sessionsDir], indexPath, env: {}, home: tmp.dir });
	let tools: Map<string, AnyTool>;
	let handlers: Map<string, Handler[]>;

	const call = async (name: string, params: Record<string, unknown>, ctx: ExtensionContext = ctxFor(WORKSPACE)) => {
		const tool = tools.get(name);
		if (!tool) throw new Error(`tool ${name} not registered`);
		return (await tool.execute(`call-${name}`, params, undefined, undefined, ctx)) as AgentToolResult<unknown>;
	};
	const refs = (result: AgentToolResult<unknown>) => hitRefs(text(result));

	beforeAll(() => {
		copyCorpus(corpus);
		({ tools, handlers } = register({ openService: () => HistoryService.open({ config: config(), busyTimeoutMs: 50 }), backgroundDelayMs: 0 }));
	});

	afterAll(async () => {
		for (const h of handlers.get("session_shutdown") ?? []) h({ type: "session_shutdown", reason: "quit" }, ctxFor(WORKSPACE));
		// The final refresh and close run on the next turn of the event loop.
		await new Promise((r) => setImmediate(r));
		tmp.cleanup();
	});

	it("registers the three tools with TypeBox schemas that clamp instead of rejecting, and teaches the flow", () => {
		expect([...tools.keys()].sort()).toEqual(["event_read", "event_search", "event_trace"]);
		const search = tools.get("event_search") as AnyTool;
		const schema = search.parameters as { required?: string[]; properties: Record<string, Record<string, unknown>> };
		expect(schema.required).toEqual(["query"]);
		expect(schema.properties.limit).not.toHaveProperty("maximum");
		expect((schema.properties.kinds?.items as { enum: string[] } | undefined)?.enum).toEqual([...SEMANTIC_KINDS]);
		for (const name of ["event_read", "event_trace"]) {
			const params = tools.get(name)?.parameters as { required: string[] } | undefined;
			expect(params?.required.sort()).toEqual(["entryId", "sessionId"]);
		}
		for (const tool of tools.values()) {
			expect(tool.promptSnippet).toBeTruthy();
			const guidelines = (tool.promptGuidelines ?? []).join("\n");
			for (const name of ["event_search", "event_read", "event_trace"]) expect(guidelines).toContain(name);
			// Issue 28: the model is taught to query what is distinctive and to filter instead of writing "error".
			for (const teach of ["distinctive words", "identifier, error code", '"quoted phrase"', "isError", "after/before"]) expect(guidelines).toContain(teach);
		}
		expect(search.description).toContain("else the best partial matches");
		expect([...handlers.keys()].sort()).toEqual(["agent_end", "agent_settled", "session_compact", "session_shutdown", "session_start", "session_tree"]);
	});

	it("finds a needle of a nested project inside the workspace, with the ref the manifest names", async () => {
		const o = occurrence("N00058");
		const result = await call("event_search", { query: needle("N00058").text });
		expect(refs(result)).toEqual([`${o.sessionId}/${o.entryId}`]);
		expect(text(result)).toContain(`«${needle("N00058").text}»`);
		expect(text(result)).toContain("cwd /home/alice/code/payments-api/services/ledger");
		expect(text(result)).toContain("branchState=selected");
	});

	it("never shows sessions of another workspace, not even through the cwd filter", async () => {
		for (const id of ["N00040", "N00054"]) {
			const result = await call("event_search", { query: needle(id).text });
			expect(refs(result)).toEqual([]);
			expect(text(result)).toContain(`No hits for "${needle(id).text}"`);
			expect(text(result)).toContain(`searched sessions whose cwd is under ${WORKSPACE}`);
		}
		const widened = await call("event_search", { query: needle("N00040").text, cwd: "/home/carol/プロジェクト/検索エンジン" });
		expect(refs(widened)).toEqual([]);
		const parent = await call("event_search", { query: needle("N00040").text, cwd: "/home" });
		expect(refs(parent)).toEqual([]);
	});

	it("reads a relative cwd filter against the caller's cwd", async () => {
		const inside = await call("event_search", { query: needle("N00058").text, cwd: "services/ledger" });
		expect(refs(inside)).toHaveLength(1);
		const elsewhere = await call("event_search", { query: needle("N00007").text, cwd: "services/ledger" });
		expect(refs(elsewhere)).toEqual([]);
		expect(text(elsewhere)).toContain("no hits with the cwd filter");
	});

	it("makes an unauthorized event indistinguishable from a missing one", async () => {
		const foreign = occurrence("N00040");
		const errorOf = async (name: string, sessionId: string, entryId: string) => {
			try {
				await call(name, { sessionId, entryId });
			} catch (error) {
				return (error as Error).message.replaceAll(sessionId, "<S>").replaceAll(entryId, "<E>");
			}
			throw new Error(`${name} ${sessionId}/${entryId} did not fail`);
		};
		for (const name of ["event_read", "event_trace"]) {
			const unauthorized = await errorOf(name, foreign.sessionId, foreign.entryId);
			const missing = await errorOf(name, "019c0000-0000-7000-8000-000000000000", "deadbeef");
			expect(unauthorized).toBe(missing);
			expect(unauthorized).toContain("no event <S>/<E>");
		}
	});

	describe("the caller's current session", () => {
		const o = occurrence("N00007", "019be2c2-9f33-7094-a319-1274f826a4f8");
		const current = (leafOffset: number) => {
			const leaf = fixtureEntry<{ id: string }>(corpus, o.file, o.line + leafOffset).id;
			return ctxFor(WORKSPACE, { id: o.sessionId, file: join(corpus, o.file), leaf });
		};
		const own = (result: AgentToolResult<unknown>) => refs(result).filter((r) => r.startsWith(`${o.sessionId}/`));

		it("is excluded by default while its forks in the workspace are found", async () => {
			const result = await call("event_search", { query: needle("N00007").text }, current(5));
			expect(own(result)).toEqual([]);
			const others = needle("N00007")
				.occurrences.filter((x) => x.sessionId !== o.sessionId)
				.map((x) => `${x.sessionId}/${x.entryId}`);
			expect(refs(result).sort()).toEqual(others.sort());
			expect(text(result)).toContain(`your current session ${o.sessionId} is excluded (pass sessionId=${o.sessionId}`);
		});

		it("is searched when targeted by id, only before the invoking message", async () => {
			const later = await call("event_search", { query: needle("N00007").text, sessionId: o.sessionId }, current(5));
			expect(own(later)).toEqual([`${o.sessionId}/${o.entryId}`]);
			const invoking = await call("event_search", { query: needle("N00007").text, sessionId: o.sessionId }, current(0));
			expect(own(invoking)).toEqual([]);
			const before = await call("event_search", { query: needle("N00007").text, sessionId: o.sessionId }, current(-1));
			expect(own(before)).toEqual([]);
			await expect(call("event_read", { sessionId: o.sessionId, entryId: o.entryId }, current(0))).rejects.toThrow(/no event/);
		});
	});

	it("reads the exact source text and continues a long fragment where the output was cut", async () => {
		const o = occurrence("N00009", "019be2c2-9f33-7094-a319-1274f826a4f8");
		const entry = fixtureEntry<{ id: string; message: { content: Array<{ text: string }> } }>(corpus, o.file, o.line);
		expect(entry.id).toBe(o.entryId);
		const source = entry.message.content[0]?.text ?? "";
		expect(source.length).toBeGreaterThan(100_000);
		const first = await call("event_read", { sessionId: o.sessionId, entryId: o.entryId, maxChars: 1e9 });
		const out = text(first);
		expect(Buffer.byteLength(out)).toBeLessThanOrEqual(50 * 1024);
		expect(out.split("\n").length).toBeLessThanOrEqual(2000);
		const cont = /(?:more: event_read|continue with event_read) fragmentId=(\S+) offset=(\d+)/.exec(out);
		expect(cont, out.slice(0, 400)).not.toBeNull();
		const offset = Number(cont?.[2]);
		expect(out).toContain(`---\n${source.slice(0, Math.min(offset, 2000))}`);
		const next = text(await call("event_read", { sessionId: o.sessionId, entryId: o.entryId, fragmentId: cont?.[1], offset, maxChars: 300 }));
		expect(next).toContain(`---\n${source.slice(offset, offset + 300)}\n---`);
	});

	it("reads a short assistant text whole, between fragment markers", async () => {
		const o = occurrence("N00003", "019be2c2-9f33-7094-a319-1274f826a4f8");
		const entry = fixtureEntry<{ id: string; message: { content: Array<{ type: string; text: string }> } }>(corpus, o.file, o.line);
		expect(entry.id).toBe(o.entryId);
		const source = entry.message.content.find((c) => c.type === "text" && c.text.includes(needle("N00003").text))?.text ?? "";
		const result = await call("event_read", { sessionId: o.sessionId, entryId: o.entryId });
		expect(text(result)).toContain(`---\n${source}\n--- end`);
		expect(text(result)).toContain(`event sessionId=${o.sessionId} entryId=${o.entryId}`);
		expect((result.details as { fragments: unknown[] }).fragments.length).toBeGreaterThan(0);
	});

	it("traces a tool result to its call", async () => {
		const pair = manifest.toolPairsSample.find((p) => p.sessionId === "019be2c2-9f33-7094-a319-1274f826a4f8" && p.toolName === "edit");
		if (!pair) throw new Error("no tool pair in the manifest");
		const result = await call("event_trace", { sessionId: pair.sessionId, entryId: pair.resultEntryId });
		expect(text(result)).toContain(`trace of sessionId=${pair.sessionId} entryId=${pair.resultEntryId}`);
		expect(text(result)).toContain(`- tool-result-for -> entryId=${pair.callEntryId} [recorded]`);
		expect(text(result)).toContain(`- parent -> entryId=${pair.callEntryId} [recorded]`);
	});

	it("throws on bad arguments so pi records an error", async () => {
		await expect(call("event_search", { query: "" })).rejects.toThrow(/query is empty and no filter is set/);
		await expect(call("event_search", { query: "retry", kinds: ["nope"] })).rejects.toThrow(/unknown kind "nope"/);
		await expect(call("event_search", { query: "retry", after: "someday" })).rejects.toThrow(/after must be an ISO date/);
		await expect(call("event_read", { sessionId: "019be2c2-9f33-7094-a319-1274f826a4f8" })).rejects.toThrow(/entryId is required/);
		await expect(call("event_trace", { entryId: "be96970a" })).rejects.toThrow(/sessionId is required/);
		await expect(call("event_read", { sessionId: "019be2c2-9f33-7094-a319-1274f826a4f8", entryId: "be96970a", order: "sideways" })).rejects.toThrow(/order/);
		await expect(call("event_read", { sessionId: "019be2c2-9f33-7094-a319-1274f826a4f8", entryId: "be96970a", offset: 100 })).rejects.toThrow(
			/pass fragmentId too/,
		);
	});

	it("clamps out-of-range numbers instead of rejecting them", async () => {
		const one = await call("event_search", { query: "", kinds: ["user.text"], limit: 0 });
		expect((one.details as { hits: unknown[] }).hits).toHaveLength(1);
		const many = await call("event_search", { query: "", kinds: ["user.text", "assistant.text", "tool.result"], limit: 5000, snippetChars: 1e7 });
		const hits = (many.details as { hits: Array<{ snippet: string }> }).hits;
		expect(hits).toHaveLength(50);
		for (const h of hits) expect(h.snippet.length).toBeLessThanOrEqual(2000);
		const out = text(many);
		expect(Buffer.byteLength(out)).toBeLessThanOrEqual(50 * 1024);
		expect(out.split("\n").length).toBeLessThanOrEqual(2000);
	});

	it("lists by filters alone when the query is empty", async () => {
		const result = await call("event_search", { query: "", kinds: ["session.name"] });
		const names = (result.details as { hits: Array<{ kind: string; session: { cwd: string } }> }).hits;
		expect(names.length).toBeGreaterThan(0);
		for (const h of names) {
			expect(h.kind).toBe("session.name");
			expect(h.session.cwd.startsWith(WORKSPACE)).toBe(true);
		}
	});

	it("answers from what is indexed when another process holds the write lock, and says so", async () => {
		// A session written since the last refresh: the refresh needs the write lock (a check that finds nothing new
		// writes nothing, and then there is nothing to say).
		const sm = SessionManager.create(WORKSPACE, join(sessionsDir, "--busy-lock--"));
		sm.appendMessage({ role: "user", content: "Is the walrus-lantern-7711 switch documented?", timestamp: Date.now() });
		sm.appendMessage(fauxAssistantMessage("Not yet."));
		const other = new Database(indexPath);
		other.exec("BEGIN IMMEDIATE");
		try {
			const result = await call("event_search", { query: needle("N00058").text });
			expect(refs(result)).toHaveLength(1);
			expect(text(result)).toMatch(/index busy/);
			expect(refs(await call("event_search", { query: "walrus-lantern-7711" }))).toHaveLength(0);
		} finally {
			other.exec("ROLLBACK");
			other.close();
		}
		expect(refs(await call("event_search", { query: "walrus-lantern-7711" }))).toHaveLength(1);
	});

	it("refreshes in the background after agent_end without delaying the handler", async () => {
		const cwd = WORKSPACE;
		const dir = join(sessionsDir, "--home-alice-code-payments-api--");
		mkdirSync(dir, { recursive: true });
		const sm = SessionManager.create(cwd, dir);
		sm.appendMessage({ role: "user", content: "Where is the background-kiwi-4242 flag read?", timestamp: Date.now() });
		sm.appendMessage(fauxAssistantMessage("In config.ts."));
		const reader = openService(sessionsDir, indexPath);
		const visible = () => reader.search({ query: "background-kiwi-4242" }).hits.length;
		try {
			expect(visible()).toBe(0);
			for (const h of handlers.get("agent_end") ?? []) h({ type: "agent_end", messages: [] }, ctxFor(cwd));
			expect(visible()).toBe(0);
			for (let i = 0; i < 100 && visible() === 0; i++) await new Promise((r) => setTimeout(r, 20));
			expect(visible()).toBe(1);
		} finally {
			reader.close();
		}
	});

	it("keeps working after session_shutdown closed the index", async () => {
		for (const h of handlers.get("session_shutdown") ?? []) h({ type: "session_shutdown", reason: "new" }, ctxFor(WORKSPACE));
		await new Promise((r) => setImmediate(r));
		const result = await call("event_search", { query: needle("N00058").text });
		expect(refs(result)).toHaveLength(1);
	});

	it("renders a one-line call and a short result", async () => {
		const theme = { fg: (_c: string, s: string) => s, bold: (s: string) => s } as unknown as Theme;
		const search = tools.get("event_search") as AnyTool;
		const args = { query: needle("N00058").text, kinds: ["user.text"] };
		const context = { lastComponent: undefined, isError: false, expanded: false, isPartial: false } as never;
		const callLine = search.renderCall?.(args, theme, context).render(200).join("\n") ?? "";
		expect(callLine).toContain(`event_search "${needle("N00058").text}"`);
		expect(callLine).toContain("kinds=user.text");
		const result = await call("event_search", args);
		const o = occurrence("N00058");
		const summary = search.renderResult?.(result, { expanded: false, isPartial: false }, theme, context).render(200).join("\n") ?? "";
		expect(summary).toContain("1 hit");
		expect(summary).toContain(o.entryId);
		const failed: AgentToolResult<unknown> = { content: [{ type: "text", text: "no event x/y in the index" }], details: {} };
		const errorLine = search
			.renderResult?.(failed, { expanded: false, isPartial: false }, theme, { ...(context as object), isError: true } as never)
			.render(200)
			.join("\n");
		expect(errorLine).toContain("no event x/y");
	});
});
