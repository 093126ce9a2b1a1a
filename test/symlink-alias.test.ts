/**
 * A symlink to another session at a session path (issue 32 item 8): the file is indexed once, at its own path, and
 * the session the replaced file held goes, exactly as in a fresh build (a refresh kept it: the path still read as a
 * regular file).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { openService } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-alias-");

const session = (id: string, word: string) =>
	`${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-02-01T00:00:00.000Z", cwd: "/alias" })}\n${JSON.stringify({
		type: "message",
		id: "m1",
		parentId: null,
		timestamp: "2026-02-01T00:00:01.000Z",
		message: { role: "user", content: [{ type: "text", text: `hello ${word}` }], timestamp: 1 },
	})}\n`;

describe("a symlink to another session at a session path (issue 32 item 8)", () => {
	it.each([
		["after the real file", "b.jsonl"],
		["before the real file", "0.jsonl"],
	])("indexes the file once at its own path (symlink %s) and equals a fresh build", (_, linkName) => {
		const dir = fresh("sessions");
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "a.jsonl"), session("sa", "alpha"));
		writeFileSync(join(dir, linkName), session("sb", "bravo"));
		const index = join(dirname(dir), "index.sqlite");
		const s = openService(dir, index);
		try {
			s.refresh();
			expect(s.search({ query: "bravo" }).hits.length).toBe(1);
			rmSync(join(dir, linkName));
			symlinkSync(join(dir, "a.jsonl"), join(dir, linkName));
			s.refresh();
			expect(s.search({ query: "bravo" }).hits).toEqual([]);
			expect(s.search({ query: "alpha" }).hits.map((h) => h.sessionId)).toEqual(["sa"]);
			expect(s.status().files).toBe(1);
		} finally {
			s.close();
		}
		freshBuild(dir, index);
	});
});
