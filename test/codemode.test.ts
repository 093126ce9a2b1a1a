/**
 * Codemode (pi ≥ 0.99): tools a script calls get ids `<parent id>/<n>`, appear in no transcript entry, and are recorded
 * only as `nestedCalls` on the script's tool result. Files written by pi 1.6's own SessionManager (oracle16.ts).
 */
import { join } from "node:path";
import type { AgentToolResult, ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
import type { TSchema } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtension, type ExtensionRegistrar } from "../src/extension/index.js";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";
import { tempDir } from "./helpers/corpus.js";
import { type Pi16Manager, sm } from "./helpers/oracle16.js";
import { hitRefs } from "./helpers/tool-output.js";

type AnyTool = ToolDefinition<TSchema, unknown>;
const CWD = "/work/cm";
const tmp = tempDir("pes-codemode-");
const sessionsDir = join(tmp.dir, "sessions");
const indexPath = join(tmp.dir, "index.sqlite");
let service: HistoryService;
let earlier: Pi16Manager & { getSessionFile(): string };
let current: Pi16Manager & { getSessionFile(): string };
const ids: Record<string, string> = {};

const result = (id: string, text: string, calls: Array<{ name: string; arguments: Record<string, unknown> }>) => ({
	role: "toolResult",
	toolCallId: id,
	toolName: "codemode",
	content: [{ type: "text", text }],
	isError: false,
	timestamp: 3,
	nestedCalls: { calls: calls.map((c, i) => ({ id: `${id}/${i}`, status: "ok", ...c })), complete: true },
});
const script = (id: string, code: string) => ({
	role: "assistant",
	content: [{ type: "toolCall", id, name: "codemode", arguments: { code } }],
	api: "faux",
	provider: "faux",
	model: "faux-1",
	stopReason: "toolUse",
	timestamp: 2,
});
const headerId = (m: Pi16Manager) => (m.getHeader() as { id: string }).id;

beforeAll(() => {
	earlier = sm.SessionManager.create(CWD, join(sessionsDir, "--work-cm--"));
	earlier.appendMessage({ role: "user", content: "The deploy died with CMNEEDLE_ORIGIN in the logs.", timestamp: 1 });
	earlier.appendMessage({ role: "assistant", content: [{ type: "text", text: "Noted." }], stopReason: "stop", timestamp: 2 });
	current = sm.SessionManager.create(CWD, join(sessionsDir, "--work-cm--"));
	current.appendMessage({ role: "user", content: "What did we find about the deploy?", timestamp: 1 });
	ids.scriptCall = current.appendMessage(script("call_cm", 'return await event_search({ query: "CMNEEDLE_ORIGIN" }) + await read({ path: "src/app.ts" })'));
	// The script returned our tool's output: a copy of the earlier hit, which must not become a new hit.
	ids.quoting = current.appendMessage(
		result("call_cm", "event_search: The deploy died with CMNEEDLE_ORIGIN in the logs. src/app.ts: export const app = 1;", [
			{ name: "event_search", arguments: { query: "CMNEEDLE_ORIGIN" } },
			{ name: "read", arguments: { path: "src/app.ts" } },
		]),
	);
	current.appendMessage(script("call_cm2", 'await edit({ path: "lib/db.ts", edits: [] }); return "CMOTHER_EDITED"'));
	ids.plain = current.appendMessage(result("call_cm2", "CMOTHER_EDITED", [{ name: "edit", arguments: { path: "lib/db.ts", edits: [] } }]));
	ids.later = current.appendMessage({ role: "user", content: "Later question about CMLATER_WORD.", timestamp: 5 });
	service = HistoryService.open({ config: resolveConfig({ sessionsDirs: [sessionsDir], indexPath, env: {}, home: tmp.dir }), busyTimeoutMs: 50 });
	service.refresh();
});

afterAll(() => {
	service.close();
	tmp.cleanup();
});

describe("codemode's nested calls", () => {
	it("never indexes our own tools' output reached through a script as new text", () => {
		// The script's own code (what the model wrote, like a direct call's arguments) is searchable; the result is not.
		const hits = service.search({ query: "CMNEEDLE_ORIGIN" }).hits;
		expect(hits.map((h) => `${h.sessionId} ${h.kind}`).sort()).toEqual([`${headerId(current)} tool.call`, `${headerId(earlier)} user.text`].sort());
		// A script that called none of our tools is searched as usual; the quoting result stays readable.
		expect(service.search({ query: "CMOTHER_EDITED", filters: { kinds: ["tool.result"] } }).hits.map((h) => h.entryId)).toEqual([ids.plain]);
		const read = service.read({ sessionId: headerId(current), entryId: ids.quoting as string });
		expect(read.fragments.map((f) => f.text).join("")).toContain("CMNEEDLE_ORIGIN");
	});

	it("counts the paths of nested read and edit calls as file evidence (--file, trace)", () => {
		const read = service.search({ query: "", filters: { files: ["src/app.ts"] } }).hits.map((h) => h.entryId);
		expect(read).toContain(ids.quoting);
		const changed = service.search({ query: "", filters: { files: ["lib/db.ts"] } }).hits.map((h) => h.entryId);
		expect(changed).toContain(ids.plain);
		const edges = service.trace({ sessionId: headerId(current), entryId: ids.plain as string }).edges;
		expect(edges).toContainEqual(expect.objectContaining({ rel: "file-changed", to: { file: "/work/cm/lib/db.ts" }, provenance: "inferred" }));
	});

	it("cuts a nested call `<parent>/<n>` of the caller's own session at the message holding <parent> (I17)", async () => {
		const tools = new Map<string, AnyTool>();
		const registrar = { registerTool: (t: AnyTool) => void tools.set(t.name, t), on: () => {} };
		createExtension({
			openService: () => HistoryService.open({ config: resolveConfig({ sessionsDirs: [sessionsDir], indexPath, env: {}, home: tmp.dir }), busyTimeoutMs: 50 }),
			backgroundDelayMs: 60_000,
		})(registrar as unknown as ExtensionRegistrar);
		// pi's leaf has moved on (the file holds later entries): only the nested call's own parent bounds what it sees.
		const ctx = {
			cwd: CWD,
			sessionManager: {
				getSessionId: () => headerId(current),
				getHeader: () => current.getHeader(),
				getLeafId: () => current.getLeafId(),
				getSessionFile: () => current.getSessionFile(),
				getEntries: () => current.getEntries(),
			},
		} as unknown as ExtensionContext;
		const search = tools.get("event_search") as AnyTool;
		const run = async (toolCallId: string, query: string) => {
			const r = (await search.execute(toolCallId, { query, sessionId: headerId(current) }, undefined, undefined, ctx)) as AgentToolResult<unknown>;
			return hitRefs(r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"));
		};
		expect(await run("call_cm/0", "CMLATER_WORD")).toEqual([]);
		expect(await run("call_cm/0", "CMOTHER_EDITED")).toEqual([]);
		expect(await run("call_cm/0", "deploy")).toHaveLength(1);
		// The next script's nested call sees the first script's result, not what came after its own call.
		expect(await run("call_cm2/0/1", "CMLATER_WORD")).toEqual([]);
	});
});
