/**
 * Appends that are not a plain extension of the selected path — a context edit, a branch summary, a branch off an
 * abandoned entry — are classified from what they change (session-writer's fast path: the refresh reclassifies no
 * session) and equal pi 1.6's own answer (oracle16.ts: getBranch, buildSessionProjection, convertToLlm) for every
 * entry, and a fresh build of the same file. The sessions are driven through pi 1.6's SessionManager, one
 * operation per refresh, compactions included.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RefreshSummary } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { expectSameIndex } from "./helpers/dump.js";
import { type Pi16Manager, pi16View, sessionText, sm } from "./helpers/oracle16.js";

const tmp = tempDir("pes-append-nonlinear-");
afterAll(() => tmp.cleanup());

let clock = Date.parse("2026-11-24T10:00:00Z");
const tick = () => {
	clock += 1000;
	return clock;
};
const user = (m: Pi16Manager, text: string) => m.appendMessage({ role: "user", content: text, timestamp: tick() });
const answer = (m: Pi16Manager, text: string) =>
	m.appendMessage({ role: "assistant", content: [{ type: "text", text }], stopReason: "stop", timestamp: tick() });

/** A session under a fresh root, its live index refreshed after every step, checked against pi and a fresh build. */
function scenario(name: string) {
	const root = join(tmp.dir, name, "sessions");
	mkdirSync(join(root, "--w--"), { recursive: true });
	const file = join(root, "--w--", "2026-11-24T10-00-00-000Z_s.jsonl");
	const live = join(tmp.dir, name, "live.sqlite");
	const m = sm.SessionManager.inMemory("/work/app");
	let step = 0;
	const refresh = (): RefreshSummary => {
		writeFileSync(file, sessionText(m));
		const service = openService(root, live);
		try {
			return service.refresh();
		} finally {
			service.close();
		}
	};
	/** Refreshes after the step and checks every entry; returns the refresh summary. */
	const check = (what: string): RefreshSummary => {
		const summary = refresh();
		step++;
		const fresh = join(tmp.dir, name, `fresh-${step}.sqlite`);
		const service = openService(root, fresh);
		service.refresh();
		service.close();
		expectSameIndex(live, fresh, `${name}: ${what}`);
		const check = openService(root, live);
		try {
			const sessionId = (m.getHeader() as { id: string }).id;
			for (const [entryId, expected] of pi16View(sessionText(m), "/work/app")) {
				const c = check.read({ sessionId, entryId, maxChars: 1 }).classification;
				expect({ branchState: c.branchState, selectionState: c.selectionState, contextEdit: c.contextEdit ?? null }, `${name}: ${what}: ${entryId}`).toEqual(
					expected,
				);
			}
		} finally {
			check.close();
		}
		return summary;
	};
	return { m, refresh, check };
}

describe("appends that change earlier entries' state, classified from the change", () => {
	it("a context edit omits, replaces and replaces again its target; one of a summarized entry changes nothing", () => {
		const { m, refresh, check } = scenario("edits");
		const u1 = user(m, "why does the deploy fail");
		const a1 = answer(m, "the migration is missing");
		user(m, "and the rollback?");
		answer(m, "it reverts the schema");
		refresh();
		m.appendContextEdit(a1, null);
		expect(check("omit a1").sessionsReclassified).toBeUndefined();
		m.appendContextEdit(a1, { content: "the migration 0042 is missing" });
		expect(check("replace a1 after its omission").sessionsReclassified).toBeUndefined();
		m.appendContextEdit(u1, { content: "why does the deploy of api fail" });
		m.appendContextEdit(u1, { content: "why does the deploy of web fail" });
		expect(check("two replacements of u1 in one append").sessionsReclassified).toBeUndefined();
		// After a compaction that keeps only the last answer, an edit of u1 has nothing in the context to change.
		const last = answer(m, "done");
		m.appendCompaction("summary of the deploy work", last, 100);
		check("compaction");
		m.appendContextEdit(u1, null);
		expect(check("omit a summarized entry").sessionsReclassified).toBeUndefined();
		const read = openService(join(tmp.dir, "edits", "sessions"), join(tmp.dir, "edits", "live.sqlite"));
		try {
			const sessionId = (m.getHeader() as { id: string }).id;
			expect(read.read({ sessionId, entryId: u1, maxChars: 1 }).classification).toMatchObject({ selectionState: "summarized" });
		} finally {
			read.close();
		}
	});

	it("a branch summary back to an earlier entry marks the branch it abandons, also one left earlier without a summary", () => {
		const { m, refresh, check } = scenario("summary");
		user(m, "start");
		const a1 = answer(m, "first idea");
		const u2 = user(m, "go on");
		answer(m, "more of the first idea");
		refresh();
		// pi's /tree with a summary: the leaf moves to a1, the summary of u2 … hangs under a1.
		m.branchWithSummary(a1, "tried the first idea further");
		expect(check("branch summary back to a1").sessionsReclassified).toBeUndefined();
		user(m, "second idea");
		expect(check("continue after the summary").sessionsReclassified).toBeUndefined();
		// Back to u2's branch without a summary, then away again with one: only what no earlier summary claimed.
		m.branch(u2);
		user(m, "back on the first idea");
		expect(check("branch off the abandoned u2").sessionsReclassified).toBeUndefined();
		m.branchWithSummary(a1, "the first idea again");
		expect(check("summary of the resumed branch").sessionsReclassified).toBeUndefined();
	});

	it("a branch off an abandoned entry swaps the two paths below their junction", () => {
		const { m, refresh, check } = scenario("swap");
		user(m, "start");
		const a1 = answer(m, "two ways");
		const b1 = user(m, "way b");
		answer(m, "b goes on");
		refresh();
		m.branch(a1);
		user(m, "way c");
		const c2 = answer(m, "c goes on");
		expect(check("branch c off a1").sessionsReclassified).toBeUndefined();
		m.branch(b1);
		user(m, "back to b");
		expect(check("branch off the abandoned b1").sessionsReclassified).toBeUndefined();
		// Back onto the abandoned c branch with a summary of the b branch left behind.
		m.branchWithSummary(c2, "b was a dead end");
		expect(check("branch summary onto the abandoned c2").sessionsReclassified).toBeUndefined();
		m.appendContextEdit(c2, { content: "c goes on, shortened" });
		expect(check("edit of the entry that joined the path").sessionsReclassified).toBeUndefined();
	});

	it("a compaction summarizes the path before its kept range, and the kept range keeps its edits and drops its system messages", () => {
		const { m, refresh, check } = scenario("compaction");
		user(m, "start");
		const a1 = answer(m, "first");
		const u2 = user(m, "more");
		m.appendMessage({ role: "system", content: "", sections: { preamble: "be brief" }, timestamp: tick() });
		const a2 = answer(m, "second");
		m.appendContextEdit(a2, null);
		m.appendContextEdit(a1, { content: "first, shortened" });
		refresh();
		m.appendCompaction("summary so far", u2, 100);
		expect(check("compaction keeping u2 on").sessionsReclassified).toBeUndefined();
		user(m, "after the compaction");
		const a3 = answer(m, "third");
		expect(check("messages after it").sessionsReclassified).toBeUndefined();
		// A second one keeping from a3: everything the first summarized is now represented by the second.
		m.appendCompaction("summary again", a3, 100);
		user(m, "and on");
		expect(check("a second compaction and a message in one append").sessionsReclassified).toBeUndefined();
		// Retain-none: nothing before it is kept.
		m.appendCompaction("summary of everything", undefined, 100);
		expect(check("retain-none compaction").sessionsReclassified).toBeUndefined();
	});
});
