/**
 * pi 0.73.1's branch summary at the root, written by the real pi: a v1 session resumed (pi migrates it in place, the
 * first user message becomes a root) and moved back to its first user message with a summary, which pi writes as
 * `parentId: null, fromId: "root"`. The oracle is pi's own collectEntriesForBranchSummary, recorded by the extension
 * command just before it navigates.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { openService, PROJECT_ROOT, tempDir } from "./helpers/corpus.js";
import { startRpc } from "./helpers/pi-rpc.js";
import { PI_073 } from "./helpers/pi-run.js";

const tmp = tempDir("pes-root-summary-");
const EXTENSION = join(PROJECT_ROOT, "test", "support", "fork-family-ext.ts");
let service: HistoryService;
let oracle: { target: string; summarized: string[] };
let entries: Array<{ id: string; parentId: string | null; type: string; fromId?: string }>;
let sessionId: string;

/** A v1 session (no ids, no version): what pi 0.x wrote before session trees. */
function v1Session(cwd: string): string {
	const t = Date.parse("2026-01-05T10:00:00Z");
	const line = (o: unknown) => `${JSON.stringify(o)}\n`;
	const msg = (i: number, message: Record<string, unknown>) => line({ type: "message", timestamp: new Date(t + i * 1000).toISOString(), message });
	const assistant = (text: string, i: number) => ({
		role: "assistant",
		content: [{ type: "text", text }],
		api: "pes-family",
		provider: "faux",
		model: "faux-1",
		usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
		stopReason: "stop",
		timestamp: t + i * 1000,
	});
	return [
		line({ type: "session", id: "0a1b2c3d-0000-4000-8000-000000000001", timestamp: new Date(t).toISOString(), cwd }),
		msg(1, { role: "user", content: "Why does the ROOTSUMMARY_FIRST import hang?", timestamp: t + 1000 }),
		msg(2, assistant("It waits on ROOTSUMMARY_LOCK.", 2)),
		msg(3, { role: "user", content: "And how do I release ROOTSUMMARY_LOCK?", timestamp: t + 3000 }),
		msg(4, assistant("Delete the stale ROOTSUMMARY_PIDFILE.", 4)),
	].join("");
}

beforeAll(async () => {
	const agentDir = join(tmp.dir, "agent");
	const cwd = join(tmp.dir, "proj");
	const dir = join(agentDir, "sessions", "--proj--");
	for (const d of [cwd, dir]) mkdirSync(d, { recursive: true });
	const file = join(dir, "2026-01-05T10-00-00-000Z_0a1b2c3d-0000-4000-8000-000000000001.jsonl");
	writeFileSync(file, v1Session(cwd));
	const out = join(tmp.dir, "oracle.json");
	const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PES_BRANCH_ORACLE: out };
	const args = ["--offline", "--provider", "faux", "--model", "faux-1", "--no-extensions", "-e", EXTENSION, "--mode", "rpc", "--session", file];
	const pi = startRpc(PI_073.node, PI_073.cli, args, cwd, env);
	try {
		// An extension command answers without an agent turn; get_state after it orders the two.
		await pi.send({ type: "prompt", message: "/goto-first" });
		await pi.send({ type: "get_state" });
		await pi.end();
	} catch (e) {
		await pi.stop();
		throw e;
	}
	oracle = JSON.parse(readFileSync(out, "utf8"));
	expect(readdirSync(dir)).toHaveLength(1);
	const [header, ...rest] = readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l));
	sessionId = header.id;
	entries = rest;
	service = openService(join(agentDir, "sessions"), join(tmp.dir, "index.sqlite"));
	service.refresh();
}, 120_000);

afterAll(() => {
	service?.close();
	tmp.cleanup();
});

describe("pi 0.73.1 summary of a move to the root (parentId null, fromId root)", () => {
	it("is what pi wrote, and describes the abandoned branch as pi's collectEntriesForBranchSummary does", () => {
		const summary = entries.find((e) => e.type === "branch_summary");
		expect(summary).toMatchObject({ parentId: null, fromId: "root" });
		let described = 0;
		for (const e of entries) {
			const c = service.read({ sessionId, entryId: e.id, maxChars: 1 }).classification;
			if (e.id === summary?.id) expect(c).toMatchObject({ branchState: "selected", selectionState: "direct" });
			else if (oracle.summarized.includes(e.id)) {
				// What pi collects includes entries that give the model nothing (the model pi recorded on resume).
				const producing = e.type === "message" || e.type === "custom_message";
				expect(c, e.id).toMatchObject({ branchState: "alternate", selectionState: producing ? "summarized" : "not-applicable" });
				if (producing) described++;
			} else expect(c.selectionState, e.id).not.toBe("summarized");
		}
		expect(described).toBeGreaterThan(2);
		// The message pi moved to is the common ancestor: not part of what was summarized.
		expect(oracle.summarized).not.toContain(oracle.target);
		const hit = service.search({ query: "ROOTSUMMARY_PIDFILE" }).hits[0];
		expect(hit).toMatchObject({ branchState: "alternate", selectionState: "summarized" });
	});

	it("traces the summary to the branch it abandoned, not to a missing previous leaf", () => {
		const summary = entries.find((e) => e.type === "branch_summary") as { id: string };
		const trace = service.trace({ sessionId, entryId: summary.id });
		const described = trace.edges.filter((e) => e.rel === "branch-summary-from").map((e) => ("entryId" in e.to ? e.to.entryId : ""));
		const messages = oracle.summarized.filter((id) => entries.find((e) => e.id === id)?.type === "message");
		expect(described.sort()).toEqual(messages.sort());
		expect(JSON.stringify(trace)).not.toContain("no previous leaf");
	});
});
