/**
 * A 100,000-entry session through the real core (issue 13 item 3, issue 14 item 7): the nearest fork above the
 * last entry is 99,995 parent steps up, reads and traces of any entry see its exact neighbors, and an append is
 * classified from the file (the refresh ≡ fresh build property in properties.test.ts covers appends in general). Ground truth is the file this test writes: a chain 1 → 100,000 with one branch
 * `b` off entry 5 (so entry 5 is the only fork), written straight as pi v3 JSONL (docs/design.md §10).
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";

const N = 100_000;
const FORK = 5;
const SESSION = "0199b000-0000-7000-8000-000000000b16";
const id = (i: number) => `e${i.toString(16).padStart(7, "0")}`;
const T0 = Date.UTC(2026, 1, 1);

function line(entryId: string, parentId: string | null, i: number, text: string): string {
	const ts = new Date(T0 + i * 1000).toISOString();
	const role = i % 2 === 0 ? "user" : "assistant";
	return `${JSON.stringify({ type: "message", id: entryId, parentId, timestamp: ts, message: { role, content: [{ type: "text", text }], timestamp: T0 + i } })}\n`;
}

let t: ReturnType<typeof tempDir>;
let dir: string;
let file: string;
let service: HistoryService;

beforeAll(() => {
	t = tempDir("pes-big-");
	dir = join(t.dir, "sessions", "--big--");
	mkdirSync(dir, { recursive: true });
	file = join(dir, "2026-02-01T00-00-00-000Z_big.jsonl");
	const parts = [`${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: new Date(T0).toISOString(), cwd: "/tmp/big" })}\n`];
	// The branch first, right after its parent, so the materialized leaf (the last line) stays at entry N.
	for (let i = 1; i <= N; i++) {
		parts.push(line(id(i), i === 1 ? null : id(i - 1), i, `step ${i}`));
		if (i === FORK) parts.push(line("branch-b", id(FORK), i, "the other way"));
	}
	writeFileSync(file, parts.join(""));
	service = openService(join(t.dir, "sessions"), join(t.dir, "index.sqlite"));
	service.refresh();
}, 120_000);

afterAll(() => {
	service?.close();
	t.cleanup();
});

describe("a 100,000-entry session", () => {
	it("walks up to the nearest fork from the last entry (H), and finds none above the entries before it", () => {
		const fork = service.forkAbove({ sessionId: SESSION, entryId: id(N) });
		expect(fork).toEqual({ ref: { sessionId: SESSION, entryId: id(FORK) }, steps: N - FORK, branches: 2 });
		// From the branch: its parent is the fork.
		expect(service.forkAbove({ sessionId: SESSION, entryId: "branch-b" })).toEqual({ ref: { sessionId: SESSION, entryId: id(FORK) }, steps: 1, branches: 2 });
		expect(service.forkAbove({ sessionId: SESSION, entryId: id(FORK) })).toBeNull();
		expect(service.forkAbove({ sessionId: SESSION, entryId: id(2) })).toBeNull();
	});

	it("reads and traces an entry in the middle with its exact neighbors, in branch and append order", () => {
		const mid = N / 2;
		const read = service.read({ sessionId: SESSION, entryId: id(mid), before: 3, after: 2 });
		expect(read.neighbors.before.map((b) => b.entryId)).toEqual([id(mid - 3), id(mid - 2), id(mid - 1)]);
		expect(read.neighbors.after.map((b) => b.entryId)).toEqual([id(mid + 1), id(mid + 2)]);
		expect(read.classification.branchState).toBe("selected");
		const append = service.read({ sessionId: SESSION, entryId: id(FORK + 1), order: "append", before: 2, after: 1 });
		// File order: … 4, 5, b, 6, 7 …
		expect(append.neighbors.before.map((b) => b.entryId)).toEqual([id(FORK), "branch-b"]);
		expect(append.neighbors.after.map((b) => b.entryId)).toEqual([id(FORK + 2)]);
		const trace = service.trace({ sessionId: SESSION, entryId: id(FORK) });
		const to = (rel: string) => trace.edges.filter((e) => e.rel === rel).map((e) => ("entryId" in e.to ? e.to.entryId : null));
		expect(to("parent")).toEqual([id(FORK - 1)]);
		expect(to("child")).toEqual(["branch-b", id(FORK + 1)]);
		expect(to("toward-leaf")).toEqual([id(FORK + 1)]);
		// Depth is exact near the root, and a lower bound deep down (counted up to a bound, never the whole path).
		expect(trace.depth).toBe(FORK - 1); // the root is entry 1
		expect(trace.depthAtLeast).toBeUndefined();
		const deep = service.trace({ sessionId: SESSION, entryId: id(mid) });
		expect(deep.depthAtLeast).toBe(true);
		expect(deep.depth).toBeGreaterThan(0);
		expect(deep.depth).toBeLessThan(mid);
		const branch = service.trace({ sessionId: SESSION, entryId: "branch-b" });
		expect(branch.node.classification.branchState).toBe("alternate");
		expect(branch.edges.filter((e) => e.rel === "sibling").map((e) => ("entryId" in e.to ? e.to.entryId : null))).toEqual([id(FORK + 1)]);
	});

	it("after appending to the chain, classifies the new entry and keeps every other entry's state", () => {
		appendFileSync(file, line(id(N + 1), id(N), N + 1, "one more"));
		const summary = service.refresh();
		expect(summary.sessionsAppended).toBe(1);
		const last = service.read({ sessionId: SESSION, entryId: id(N + 1), before: 1, after: 0 });
		expect(last.classification).toMatchObject({ branchState: "selected", selectionState: "direct", materializedLeafId: id(N + 1) });
		expect(last.neighbors.before.map((b) => b.entryId)).toEqual([id(N)]);
		expect(service.read({ sessionId: SESSION, entryId: id(N), before: 0, after: 1 }).neighbors.after.map((b) => b.entryId)).toEqual([id(N + 1)]);
		expect(service.trace({ sessionId: SESSION, entryId: "branch-b" }).node.classification.branchState).toBe("alternate");
		expect(service.forkAbove({ sessionId: SESSION, entryId: id(N + 1) })?.steps).toBe(N + 1 - FORK);
	});

	it("after a compaction keeping the last ten entries, summarizes the rest and its trace counts them up to a bound", () => {
		const kept = N + 1 - 9;
		const compaction = { type: "compaction", id: "compact-1", parentId: id(N + 1), timestamp: new Date(T0 + (N + 2) * 1000).toISOString() };
		appendFileSync(file, `${JSON.stringify({ ...compaction, summary: "the first steps", firstKeptEntryId: id(kept), tokensBefore: 1000 })}\n`);
		const summary = service.refresh();
		expect(summary.sessionsAppended).toBe(1);
		// Classified from the append, not by reading the session again.
		expect(summary.sessionsReclassified).toBeUndefined();
		const state = (entryId: string) => service.read({ sessionId: SESSION, entryId, before: 0, after: 0 }).classification;
		expect(state(id(2))).toMatchObject({ selectionState: "summarized", summarizedBy: { entryId: "compact-1", provenance: "recorded" } });
		expect(state(id(kept - 1))).toMatchObject({ selectionState: "summarized" });
		expect(state(id(kept))).toMatchObject({ branchState: "selected", selectionState: "direct" });
		expect(state("branch-b")).toMatchObject({ branchState: "alternate", selectionState: "not-selected" });
		const trace = service.trace({ sessionId: SESSION, entryId: "compact-1" });
		// Fifty of the entries it replaced are listed (besides its first kept entry).
		expect(trace.edges.filter((e) => e.rel === "compacts" && e.note?.startsWith("replaced"))).toHaveLength(50);
		// 99,983 entries are summarized: the trace says there are more than it counted, without counting them all.
		expect(trace.notes).toContain("9950+ more compacts edge(s) not listed");
	});
});
