/**
 * The tree view's core answer (HistoryService.tree): a session of 1,000+ entries written by pi's SessionManager, with
 * rewinds, a branch summary, a compaction, labels and failed tool results, a /fork of one path and a --fork of every
 * entry. Ground truth from pi's own SessionManager (entries, leaf path, labels) and from the files' bytes (what a fork
 * wrote itself), never from our output.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import type { TreeEntry, TreeResult } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { pi16View } from "./helpers/oracle16.js";
import { assistant, createSession, SessionManager, toolResult, user } from "./helpers/pi-sessions.js";
import { writePi16Sessions } from "./helpers/pi16-sessions.js";

let tmp: ReturnType<typeof tempDir>;
let service: HistoryService;
let sm: SessionManager;
let rootId = "";
let rootFile = "";
let pathFork: { id: string; file: string; at: string } = { id: "", file: "", at: "" };
let fullFork: { id: string; file: string } = { id: "", file: "" };
const needles = new Set<string>();
const errors = new Set<string>();
let summaryId = "";
let compactionId = "";

/** Entry lines of a session file by id (header left out). */
function lines(file: string): Map<string, string> {
	const out = new Map<string, string>();
	for (const l of readFileSync(file, "utf8").split("\n").filter(Boolean).slice(1)) out.set(JSON.parse(l).id, l);
	return out;
}

/** Entries a fork file wrote itself: those that are not byte-identical copies of the parent's lines. */
function ownOf(child: string, parent: string): string[] {
	const p = lines(parent);
	return [...lines(child)].filter(([id, l]) => p.get(id) !== l).map(([id]) => id);
}

beforeAll(() => {
	tmp = tempDir();
	const dir = join(tmp.dir, "sessions");
	sm = createSession("/work/big", dir);
	// Deterministic shape: turns of user → assistant (tool call) → tool result; every 37th turn rewinds a few entries.
	const all: string[] = [];
	for (let turn = 0; all.length < 1040; turn++) {
		const planted = turn % 50 === 7;
		const u = sm.appendMessage(user(`turn ${turn}: look at module ${turn}${planted ? " TREENEEDLE here" : ""}`));
		if (planted) needles.add(u);
		const a = sm.appendMessage(assistant(`reading ${turn}`, [{ id: `call_${turn}`, name: "read", arguments: { path: `src/m${turn}.ts` } }]));
		const failed = turn % 31 === 5;
		const r = sm.appendMessage(toolResult(`call_${turn}`, "read", failed ? "ENOENT: no such file" : `contents ${turn}`, failed));
		if (failed) errors.add(r);
		all.push(u, a, r);
		if (turn % 37 === 36) sm.branch(all[all.length - 7] as string);
		if (turn === 100) sm.appendLabelChange(u, "checkpoint");
		if (turn === 150) summaryId = sm.branchWithSummary(all[all.length - 10] as string, "Summary of a dead end");
		if (turn === 200) compactionId = sm.appendCompaction("Compacted: the story so far", u, 5000);
	}
	sm.appendMessage(user("the last word"));
	rootId = sm.getSessionId();
	rootFile = sm.getSessionFile() as string;

	// /fork of one path (the entry 400 entries back on the leaf path), then its own turn.
	const branch = sm.getBranch();
	const at = (branch[branch.length - 400] as { id: string }).id;
	const childFile = SessionManager.open(rootFile, dir).createBranchedSession(at) as string;
	const child = SessionManager.open(childFile, dir);
	const ownNeedle = child.appendMessage(user("in the fork: TREENEEDLE again"));
	needles.add(ownNeedle);
	child.appendMessage(assistant("fork reply"));
	pathFork = { id: child.getSessionId(), file: childFile, at };

	// --fork: every entry copied into another cwd, then a new turn.
	const copy = SessionManager.forkFrom(rootFile, "/work/other", dir);
	copy.appendMessage(user("after --fork"));
	fullFork = { id: copy.getSessionId(), file: copy.getSessionFile() as string };

	service = openService(dir, join(tmp.dir, "index.sqlite"));
	service.refresh();
});
afterAll(() => {
	service.close();
	tmp.cleanup();
});

const byId = (t: { entries: TreeEntry[] }) => new Map(t.entries.map((e) => [e.entryId, e]));

describe("a session's whole tree (1,000+ entries)", () => {
	let tree: TreeResult;
	beforeAll(() => {
		tree = service.tree({ sessionId: rootId, query: "treeneedle" });
	});

	it("lists every entry in file order with pi's ids and parent ids", () => {
		const expected = sm.getEntries().map((e) => [e.id, e.parentId]);
		expect(expected.length).toBeGreaterThan(1000);
		expect(tree.entries.map((e) => [e.entryId, e.parentId])).toEqual(expected);
		expect(tree.session.id).toBe(rootId);
	});

	it("marks exactly the entries on pi's leaf path as selected", () => {
		const onPath = new Set(sm.getBranch().map((e) => e.id));
		expect(tree.leafId).toBe(sm.getLeafId());
		const selected = tree.entries.filter((e) => e.branchState === "selected").map((e) => e.entryId);
		expect(new Set(selected)).toEqual(onPath);
		expect(tree.entries.some((e) => e.branchState === "alternate")).toBe(true);
	});

	it("carries labels, errors, summaries and kinds as pi wrote them", () => {
		const m = byId(tree);
		const labelled = sm.getEntries().filter((e) => sm.getLabel(e.id) !== undefined);
		expect(labelled.length).toBe(1);
		for (const e of labelled) expect(m.get(e.id)?.label).toBe(sm.getLabel(e.id));
		expect(tree.entries.filter((e) => e.isError).map((e) => e.entryId)).toEqual([...errors]);
		expect(m.get(summaryId)?.summary).toBe("branch");
		expect(m.get(compactionId)?.summary).toBe("compaction");
		expect(tree.entries.filter((e) => e.summary).length).toBe(2);
		const first = sm.getEntries()[0] as { id: string };
		expect(m.get(first.id)).toMatchObject({ kind: "user.text", role: "user", entryType: "message" });
		expect(m.get(first.id)?.preview).toContain("turn 0: look at module 0");
	});

	it("marks the query's hits in the root and in the forks' own entries, not in their copies", () => {
		const rootHits = tree.entries.filter((e) => e.hit).map((e) => e.entryId);
		const inRoot = [...needles].filter((id) => lines(rootFile).has(id));
		expect(rootHits).toEqual(inRoot);
		const forkHits = tree.forks.flatMap((f) => f.entries.filter((e) => e.hit).map((e) => e.entryId));
		expect(forkHits).toEqual([...needles].filter((id) => !lines(rootFile).has(id)));
		expect(tree.hits).toBe(needles.size);
	});

	it("attaches the /fork at its fork point with only what it wrote itself", () => {
		const f = tree.forks.find((x) => x.session.id === pathFork.id);
		expect(f).toBeDefined();
		expect(f?.forkPoint).toBe(pathFork.at);
		expect(f?.entries.map((e) => e.entryId)).toEqual(ownOf(pathFork.file, rootFile));
		expect(f?.copiedAll).toBe(false);
		expect(f?.copied).toBe([...lines(pathFork.file).keys()].length - ownOf(pathFork.file, rootFile).length);
	});

	it("attaches the --fork at the leaf, as a copy of every entry", () => {
		const f = tree.forks.find((x) => x.session.id === fullFork.id);
		expect(f?.forkPoint).toBe(sm.getLeafId());
		expect(f?.copiedAll).toBe(true);
		expect(f?.entries.map((e) => e.entryId)).toEqual(ownOf(fullFork.file, rootFile));
		expect(f?.session.cwd).toBe("/work/other");
		expect(tree.forks.length).toBe(2);
	});
});

describe("the tree asked from a member of the family", () => {
	it("roots at the family's root session and centres a copied entry on the row that shows it", () => {
		const copiedId = pathFork.at;
		const t = service.tree({ sessionId: pathFork.id, entryId: copiedId });
		expect(t.session.id).toBe(rootId);
		expect(t.focus).toEqual({ sessionId: rootId, entryId: copiedId });
	});

	it("centres an entry the fork wrote itself on the fork's row", () => {
		const own = ownOf(pathFork.file, rootFile)[0] as string;
		expect(service.tree({ sessionId: pathFork.id, entryId: own }).focus).toEqual({ sessionId: pathFork.id, entryId: own });
	});

	it("fails like a read for an unknown session or entry", () => {
		expect(() => service.tree({ sessionId: "nope" })).toThrow(/no session/);
		expect(() => service.tree({ sessionId: rootId, entryId: "nope" })).toThrow(/no event/);
	});
});

describe("pi 1.x context edits in the tree (oracle: pi 1.6's buildSessionProjection)", () => {
	it("marks every entry's branch, selection and context edit (omitted / replaced) as pi 1.6 projects them", () => {
		const t = tempDir("pes-tree16-");
		try {
			const dir = join(t.dir, "sessions");
			const { files, ids } = writePi16Sessions(dir, "/work/pi16");
			const svc = openService(dir, join(t.dir, "index.sqlite"));
			try {
				svc.refresh();
				const file = files.edits as string;
				const text = readFileSync(file, "utf8");
				const header = JSON.parse(text.slice(0, text.indexOf("\n")));
				const tree = svc.tree({ sessionId: header.id });
				const oracle = pi16View(text, "/work/pi16");
				expect(tree.entries.length).toBe(oracle.size);
				for (const e of tree.entries) {
					const v = oracle.get(e.entryId);
					expect({ id: e.entryId, branch: e.branchState, selection: e.selectionState, edit: e.contextEdit ?? null }).toEqual({
						id: e.entryId,
						branch: v?.branchState,
						selection: v?.selectionState,
						edit: v?.contextEdit,
					});
				}
				// The scenario has both kinds, so the marks the view draws are exercised for real.
				const m = byId(tree);
				expect(m.get(ids.failed as string)?.contextEdit).toEqual({ state: "omitted", by: ids.omitFailed });
				expect(m.get(ids.result as string)?.contextEdit).toEqual({ state: "replaced", by: ids.replaceResult });
			} finally {
				svc.close();
			}
		} finally {
			t.cleanup();
		}
	});
});
