/**
 * One entry id written twice with different content (issue 30, point 4): pi's SessionManager fills its id map in
 * file order, so the last copy is the one its context follows. The index follows it too, notes it in `status` and
 * `read`, and an append that brings the second copy equals a fresh build.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { openService } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-dup-ids-");

const header = JSON.stringify({ type: "session", version: 3, id: "dupids", timestamp: "2026-02-01T00:00:00.000Z", cwd: "/dup" });
const msg = (id: string, parentId: string | null, text: string, role = "user") =>
	JSON.stringify({
		type: "message",
		id,
		parentId,
		timestamp: "2026-02-01T00:00:01.000Z",
		message:
			role === "user"
				? { role, content: [{ type: "text", text }], timestamp: 1 }
				: {
						role,
						content: [{ type: "text", text }],
						api: "a",
						provider: "p",
						model: "m",
						usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
						stopReason: "stop",
						timestamp: 1,
					},
	});
const head = [header, msg("u1", null, "the question"), msg("a1", "u1", "an answer", "assistant")];
const first = msg("m2", "a1", "first copy says saffron-first");
const second = msg("m2", "a1", "second copy says saffron-second");
const leaf = msg("m3", "m2", "the leaf", "assistant");

/** The texts pi's own SessionManager puts in the model's context for a file. */
function piTexts(file: string): string {
	return JSON.stringify(SessionManager.open(file, dirname(file)).buildSessionContext().messages);
}

describe("duplicate entry ids with different content", () => {
	it("follows the last copy as pi does, and notes it in status and read", async () => {
		const file = fresh("s/dup.jsonl");
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, `${[...head, first, second, leaf].join("\n")}\n`);
		const oracle = piTexts(file);
		expect(oracle).toContain("saffron-second");
		expect(oracle).not.toContain("saffron-first");
		const service = openService(dirname(file), join(dirname(file), "..", "index.sqlite"));
		try {
			const summary = await service.refreshAsync();
			expect(summary.notes.join(" ")).toMatch(/1 duplicate id\(s\) with different content \(last kept/);
			expect(service.search({ query: "saffron-second" }).hits.map((h) => h.entryId)).toEqual(["m2"]);
			expect(service.search({ query: "saffron-first" }).hits).toEqual([]);
			const read = service.read({ sessionId: "dupids", entryId: "m2" });
			expect(read.fragments[0]?.text).toContain("saffron-second");
			expect(read.notes.join(" ")).toMatch(/1 entry id\(s\) with different content: like pi, the last copy/);
			expect(read.classification.branchState).toBe(service.read({ sessionId: "dupids", entryId: "m3" }).classification.branchState);
			const status = service.status();
			expect(status.notes?.find((e) => e.file === file)?.note).toMatch(/1 duplicate id\(s\) with different content \(last kept/);
		} finally {
			service.close();
		}
	});

	it("an append that brings the second copy equals a fresh build", async () => {
		const file = fresh("s/dup.jsonl");
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, `${[...head, first].join("\n")}\n`);
		const index = join(dirname(file), "..", "index.sqlite");
		const service = openService(dirname(file), index);
		try {
			await service.refreshAsync();
			expect(service.search({ query: "saffron-first" }).hits.map((h) => h.entryId)).toEqual(["m2"]);
			appendFileSync(file, `${[second, leaf].join("\n")}\n`);
			await service.refreshAsync();
			expect(service.search({ query: "saffron-first" }).hits).toEqual([]);
			expect(service.search({ query: "saffron-second" }).hits.map((h) => h.entryId)).toEqual(["m2"]);
		} finally {
			service.close();
		}
		freshBuild(dirname(file), index);
	});
});
