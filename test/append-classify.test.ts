/**
 * Appends classified from the new entries and the path they leave (session-writer's fast path) equal a fresh build,
 * also when the leaf moves to a branch off the selected path and the entries left behind belong to an abandoned
 * branch a branch summary describes. Ground truth, hand-checked with pi's rules (docs/design.md §10, tree.ts):
 *   a1 → a2 → a3, then a branch summary S back at a1 (fromId a3: a2, a3 abandoned) → b1, then c1 under a3 (the old
 *   branch continued: a1 a2 a3 c1 selected), then d1 under a2: c1 and a3 leave the path; a3 is summarized by S.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATH_ROWS_KEPT } from "../src/index/path-rows.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { expectSameIndex } from "./helpers/dump.js";

const SESSION = "0199e000-0000-7000-8000-00000000a11d";
let t: ReturnType<typeof tempDir>;
let root: string;
let file: string;
let n = 0;

function message(id: string, parentId: string | null, role: "user" | "assistant", text: string): string {
	n++;
	const ts = new Date(Date.UTC(2026, 4, 1) + n * 1000).toISOString();
	return `${JSON.stringify({ type: "message", id, parentId, timestamp: ts, message: { role, content: [{ type: "text", text }], timestamp: n } })}\n`;
}

function summary(id: string, parentId: string, fromId: string): string {
	n++;
	const ts = new Date(Date.UTC(2026, 4, 1) + n * 1000).toISOString();
	return `${JSON.stringify({ type: "branch_summary", id, parentId, timestamp: ts, fromId, summary: "tried the a-branch first" })}\n`;
}

beforeAll(() => {
	t = tempDir("pes-append-classify-");
	root = join(t.dir, "sessions");
	mkdirSync(join(root, "--a--"), { recursive: true });
	file = join(root, "--a--", "2026-05-01T00-00-00-000Z_a.jsonl");
	writeFileSync(file, `${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: "2026-05-01T00:00:00.000Z", cwd: "/tmp/a" })}\n`);
});
afterAll(() => t.cleanup());

describe("appends that move the materialized leaf", () => {
	it("equal a fresh build after every step, and leave the abandoned branch summarized by its summary", () => {
		const steps = [
			message("a1", null, "user", "start") + message("a2", "a1", "assistant", "first idea") + message("a3", "a2", "user", "go on"),
			summary("S", "a1", "a3") + message("b1", "S", "user", "second idea"),
			message("c1", "a3", "assistant", "back on the first idea"),
			message("d1", "a2", "user", "a third way from a2"),
			message("d2", "d1", "assistant", "and on"),
		];
		steps.forEach((lines, i) => {
			appendFileSync(file, lines);
			const live = openService(root, join(t.dir, "live.sqlite"));
			live.refresh();
			live.close();
			const fresh = openService(root, join(t.dir, `fresh-${i}.sqlite`));
			fresh.refresh();
			fresh.close();
			expectSameIndex(join(t.dir, "live.sqlite"), join(t.dir, `fresh-${i}.sqlite`), `after step ${i + 1}`);
		});
		const check = openService(root, join(t.dir, "live.sqlite"));
		try {
			const state = (entryId: string) => check.read({ sessionId: SESSION, entryId, before: 0, after: 0 }).classification;
			expect(state("a3")).toMatchObject({ branchState: "alternate", selectionState: "summarized", summarizedBy: { entryId: "S", provenance: "derived" } });
			expect(state("c1")).toMatchObject({ branchState: "alternate", selectionState: "not-selected" });
			expect(state("a2")).toMatchObject({ branchState: "selected", selectionState: "direct" });
			expect(state("d2")).toMatchObject({ branchState: "selected", selectionState: "direct", materializedLeafId: "d2" });
		} finally {
			check.close();
		}
	});
});

describe("appends that move the leaf across more path rows than an append keeps in memory", () => {
	it("equal a fresh build: a branch summary and a branch off the second entry, then the old branch continued", () => {
		const long = join(root, "--long--");
		mkdirSync(long, { recursive: true });
		const path = join(long, "2026-05-02T00-00-00-000Z_long.jsonl");
		const id = (i: number) => `L${i}`;
		const last = PATH_ROWS_KEPT + 200;
		let text = `${JSON.stringify({ type: "session", version: 3, id: "0199e000-0000-7000-8000-00000000a11e", timestamp: "2026-05-02T00:00:00.000Z", cwd: "/tmp/long" })}\n`;
		for (let i = 1; i <= last; i++) text += message(id(i), i === 1 ? null : id(i - 1), i % 2 ? "user" : "assistant", `step ${i}`);
		writeFileSync(path, text);
		const built = openService(long, join(t.dir, "long-live.sqlite"));
		built.refresh();
		built.close();
		const steps = [
			// Every entry below L2 leaves the path, and the summary claims them.
			summary("LS", id(2), id(last)) + message("Lb", "LS", "user", "another way"),
			// The old branch continued: every one of them joins the path again.
			message("Lc", id(last), "assistant", "back on the long branch"),
		];
		steps.forEach((lines, i) => {
			appendFileSync(path, lines);
			const live = openService(long, join(t.dir, "long-live.sqlite"));
			live.refresh();
			live.close();
			const fresh = openService(long, join(t.dir, `long-fresh-${i}.sqlite`));
			fresh.refresh();
			fresh.close();
			expectSameIndex(join(t.dir, "long-live.sqlite"), join(t.dir, `long-fresh-${i}.sqlite`), `after append ${i + 1}`);
		});
	});
});

describe("two branch summaries in one append whose abandoned branches overlap", () => {
	it("equal a fresh build: the first in the file claims the entries both walk", () => {
		const dir = join(root, "--two--");
		mkdirSync(dir, { recursive: true });
		const path = join(dir, "2026-05-03T00-00-00-000Z_two.jsonl");
		// x1 → x2 → x3, a branch y1 → y2 off x2, then z1 under x3: y1 and y2 are left behind, claimed by no summary.
		writeFileSync(
			path,
			`${JSON.stringify({ type: "session", version: 3, id: "0199e000-0000-7000-8000-00000000a11f", timestamp: "2026-05-03T00:00:00.000Z", cwd: "/tmp/two" })}\n` +
				message("x1", null, "user", "start") +
				message("x2", "x1", "assistant", "an idea") +
				message("x3", "x2", "user", "go on") +
				message("y1", "x2", "user", "a side idea") +
				message("y2", "y1", "assistant", "side reply") +
				message("z1", "x3", "assistant", "back on the main idea"),
		);
		const built = openService(dir, join(t.dir, "two-live.sqlite"));
		built.refresh();
		built.close();
		// Back at x1 with two summaries, each naming y2 as the branch left: both walk y2, y1 and x2; S1 comes first.
		appendFileSync(path, summary("S1", "x1", "y2") + summary("S2", "S1", "y2") + message("w1", "S2", "user", "a new way"));
		const live = openService(dir, join(t.dir, "two-live.sqlite"));
		live.refresh();
		live.close();
		const fresh = openService(dir, join(t.dir, "two-fresh.sqlite"));
		fresh.refresh();
		fresh.close();
		expectSameIndex(join(t.dir, "two-live.sqlite"), join(t.dir, "two-fresh.sqlite"), "after the two summaries");
		const check = openService(dir, join(t.dir, "two-live.sqlite"));
		try {
			const state = (entryId: string) => check.read({ sessionId: "0199e000-0000-7000-8000-00000000a11f", entryId, before: 0, after: 0 }).classification;
			expect(state("y1")).toMatchObject({ branchState: "alternate", selectionState: "summarized", summarizedBy: { entryId: "S1" } });
			expect(state("w1")).toMatchObject({ branchState: "selected", materializedLeafId: "w1" });
		} finally {
			check.close();
		}
	});
});
