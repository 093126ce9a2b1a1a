/**
 * The tree view's windowed rows (issue 32.3): a window asked at any position holds exactly the rows of the whole
 * tree at those positions — prefixes, folds, breadcrumbs, fork heads, hits — on a fork family written by pi's own
 * SessionManager (rewinds, a branch summary, a compaction, labels, model changes, a /fork, a --fork, a new session
 * naming its parent). The whole tree is tree-layout.ts over the full answer; the windows never load every row.
 * pi's /tree filters (issue 31.8) are checked against the entries pi wrote, by type and role.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryKey, treeRows } from "../components/tree/tree-layout.js";
import type { HistoryService } from "../src/service/service.js";
import type { TreeViewRow, TreeWindowRequest } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { assistant, createSession, SessionManager, toolResult, user } from "./helpers/pi-sessions.js";

let tmp: ReturnType<typeof tempDir>;
let service: HistoryService;
let sm: SessionManager;
let rootId = "";
let newId = "";
const labeled = new Set<string>();
let unfoldKey = "";

beforeAll(() => {
	tmp = tempDir();
	const dir = join(tmp.dir, "sessions");
	sm = createSession("/work/win", dir);
	const all: string[] = [];
	for (let turn = 0; all.length < 600; turn++) {
		const u = sm.appendMessage(user(`turn ${turn}: look at module ${turn}${turn % 23 === 4 ? " WINNEEDLE" : ""}`));
		const a = sm.appendMessage(
			assistant(turn % 3 === 0 ? `reading ${turn}` : "", [{ id: `call_${turn}`, name: "read", arguments: { path: `src/m${turn}.ts` } }]),
		);
		const r = sm.appendMessage(toolResult(`call_${turn}`, "read", `contents ${turn}`, turn % 29 === 5));
		const b = sm.appendMessage(assistant(`done ${turn}`));
		all.push(u, a, r, b);
		if (turn % 17 === 16) sm.branch(all[all.length - 9] as string);
		if (turn % 40 === 10) sm.appendModelChange("anthropic", `model-${turn}`);
		if (turn % 45 === 20) sm.appendThinkingLevelChange("high");
		if (turn === 60) {
			sm.appendLabelChange(u, "checkpoint");
			labeled.add(u);
		}
		if (turn === 90) sm.branchWithSummary(all[all.length - 12] as string, "Summary of a dead end");
		if (turn === 120) sm.appendCompaction("Compacted: the story so far", u, 5000);
		if (turn === 130) sm.appendCustomEntry("my-ext", { n: 1 });
	}
	sm.appendMessage(user("the last word"));
	rootId = sm.getSessionId();
	const rootFile = sm.getSessionFile() as string;
	// /fork of one path, then its own turn; --fork of every entry, then a turn; a new session naming the root as parent.
	const branch = sm.getBranch();
	const childFile = SessionManager.open(rootFile, dir).createBranchedSession((branch[branch.length - 100] as { id: string }).id) as string;
	const child = SessionManager.open(childFile, dir);
	child.appendMessage(user("in the fork: WINNEEDLE again"));
	child.appendMessage(assistant("fork reply"));
	const copy = SessionManager.forkFrom(rootFile, "/work/other", dir);
	copy.appendMessage(user("after --fork"));
	const next = SessionManager.create("/work/win", dir);
	next.newSession({ parentSession: rootFile });
	next.appendMessage(user("a new session after the root"));
	next.appendMessage(assistant("new reply"));
	newId = next.getSessionId();
	service = openService(dir, join(tmp.dir, "index.sqlite"));
	service.refresh();
});
afterAll(() => {
	service.close();
	tmp.cleanup();
});

/** The whole tree's rows, as the tree view laid them out from the full answer. */
function fullRows(query: string, unfolded: string[], keep: string | null): TreeViewRow[] {
	const data = service.tree({ sessionId: rootId, ...(query ? { query } : {}) });
	return treeRows(data, { unfolded: new Set(unfolded), searching: query !== "", keep });
}

/** Every row, read window by window. */
function windowed(req: Omit<TreeWindowRequest, "count" | "top">, size: number): { rows: TreeViewRow[]; total: number } {
	const first = service.treeWindow({ ...req, top: 0, count: size });
	const rows = [...first.rows];
	for (let top = size; top < first.total; top += size) {
		const w = service.treeWindow({ ...req, top, count: size });
		expect(w.start).toBe(Math.min(top, Math.max(0, first.total - size)));
		rows.push(...w.rows.slice(top - w.start));
	}
	return { rows, total: first.total };
}

describe("windows of the tree view", () => {
	it("every window holds the whole tree's rows at the same positions (no query, filter all)", () => {
		const full = fullRows("", [], null);
		expect(full.some((r) => r.type === "fork")).toBe(true);
		expect(full.some((r) => r.type === "fold")).toBe(true);
		expect(full.some((r) => r.prefix.includes("├─ "))).toBe(true);
		const { rows, total } = windowed({ sessionId: rootId, filter: "all" }, 37);
		expect(total).toBe(full.length);
		expect(rows).toEqual(full);
		unfoldKey = (full.find((r) => r.type === "fold") as TreeViewRow).stretch as string;
	});

	it("with a query (hits in place, the rest folded) and an unfolded stretch", () => {
		const full = fullRows("winneedle", [unfoldKey], null);
		const { rows } = windowed({ sessionId: rootId, filter: "all", query: "winneedle", unfolded: [unfoldKey] }, 50);
		expect(rows).toEqual(full);
		const w = service.treeWindow({ sessionId: rootId, filter: "all", query: "winneedle", unfolded: [unfoldKey], count: 10 });
		expect(w.hitRows).toEqual(full.flatMap((r, i) => (r.type === "entry" && r.entry.hit ? [i] : [])));
		expect(w.hits).toBe(w.hitRows.length);
	});

	it("centres on the asked row, and the cursor key finds its row again", () => {
		const leaf = sm.getLeafId() as string;
		const full = fullRows("", [], entryKey(rootId, leaf));
		const at = full.findIndex((r) => r.key === entryKey(rootId, leaf));
		const w = service.treeWindow({ sessionId: rootId, entryId: leaf, filter: "all", count: 21 });
		expect(w.cursor).toBe(at);
		expect(w.rows[w.cursor - w.start]?.key).toBe(entryKey(rootId, leaf));
		expect(w.rows).toEqual(full.slice(w.start, w.start + 21));
	});

	it("a child that copied nothing is a new session after the parent's leaf, not a fork", () => {
		const w = service.treeWindow({ sessionId: rootId, filter: "all", cursor: `fork:${newId}`, count: 5 });
		const head = w.rows[w.cursor - w.start];
		expect(head?.type).toBe("fork");
		if (head?.type !== "fork") return;
		expect(head.fork.newSession).toBe(true);
		expect(head.fork.forkPoint).toBe(sm.getLeafId());
	});
});

describe("pi's /tree filters", () => {
	const entries = () => sm.getEntries();
	const bookkeeping = new Set(["label", "context_edit", "custom", "model_change", "thinking_level_change", "session_info"]);
	/** Entry ids of the root session shown under a filter (unfolded everywhere: folds only hide plain rows). */
	function shownIds(filter: TreeWindowRequest["filter"], text?: string): Set<string> {
		const w = service.treeWindow({ sessionId: rootId, filter, ...(text ? { text } : {}), count: 1000 });
		const unfolded = w.rows.filter((r) => r.type === "fold").map((r) => r.stretch as string);
		const all = service.treeWindow({ sessionId: rootId, filter, ...(text ? { text } : {}), unfolded, count: 1000 });
		expect(all.total).toBeLessThanOrEqual(1000);
		return new Set(all.rows.flatMap((r) => (r.type === "entry" && r.sessionId === rootId ? [r.entry.entryId] : [])));
	}
	const hasText = (e: ReturnType<typeof entries>[number]) =>
		e.type === "message" && e.message.role === "assistant" && (e.message.content as Array<{ type: string }>).some((c) => c.type === "text");
	const callsOnly = (e: ReturnType<typeof entries>[number]) => e.type === "message" && e.message.role === "assistant" && !hasText(e);

	it("default hides bookkeeping rows and replies that only call tools; all shows them", () => {
		const leaf = sm.getLeafId();
		const want = entries().filter((e) => !bookkeeping.has(e.type) && (!callsOnly(e) || e.id === leaf));
		expect(shownIds("default")).toEqual(new Set(want.map((e) => e.id)));
		expect(shownIds("all")).toEqual(new Set(entries().map((e) => e.id)));
	});

	it("user-only, no-tools and labeled-only", () => {
		expect(shownIds("user-only")).toEqual(
			new Set(
				entries()
					.filter((e) => e.type === "message" && e.message.role === "user")
					.map((e) => e.id),
			),
		);
		const noTools = entries().filter((e) => !bookkeeping.has(e.type) && !callsOnly(e) && !(e.type === "message" && e.message.role === "toolResult"));
		expect(shownIds("no-tools")).toEqual(new Set(noTools.map((e) => e.id)));
		expect(shownIds("labeled-only")).toEqual(labeled);
	});

	it("typed words keep the entries whose row holds every word", () => {
		const ids = shownIds("default", "module 12");
		const text = (e: ReturnType<typeof entries>[number]) =>
			e.type === "message" && e.message.role === "user" ? JSON.stringify(e.message.content).toLowerCase() : "";
		const want = entries().filter((e) => text(e).includes("module") && text(e).includes("12"));
		expect(want.length).toBeGreaterThan(3);
		expect(ids).toEqual(new Set(want.map((e) => e.id)));
		// Typed in capitals, the same rows; `_` and `%` are letters like any other, not wildcards.
		expect(shownIds("default", "MODULE 12")).toEqual(ids);
		for (const literal of ["m_dule", "mod%le", "m%"]) {
			expect(entries().some((e) => text(e).includes(literal))).toBe(false);
			expect(shownIds("default", literal)).toEqual(new Set());
		}
	});
});
