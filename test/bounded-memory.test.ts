/**
 * Bounded memory (issue 13 item 3): a session file growing without a newline is not read whole on every refresh,
 * and a line longer than a JavaScript string may be (over 256 MB) is indexed by streaming it (head and tail, I20),
 * searched and read by windows. Memory is measured as the peak RSS of a child process that does all of it with the
 * built code.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Lines over this could not be read whole before streaming (V8's string limit is about 512 M UTF-16 units). */
const OLD_LINE_LIMIT = 256 * 1024 * 1024;
const HEAD = "cobalt-hugehead ";
const TAIL = " cobalt-hugetail";

import { openService, PROJECT_ROOT, tempDir } from "./helpers/corpus.js";

const MB = 1024 * 1024;
const header = (id: string) => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-02-01T00:00:00.000Z", cwd: "/big" });
const message = (id: string, parentId: string | null, text: string) =>
	JSON.stringify({ type: "message", id, parentId, timestamp: "2026-02-01T00:00:01.000Z", message: { role: "user", content: text } });

/** Writes `text`, then `bytes` filler bytes (no newline), then `after`, to a new file. */
function writeWithFiller(file: string, text: string, bytes: number, after: string): void {
	const fd = openSync(file, "w");
	try {
		writeSync(fd, text);
		const block = Buffer.alloc(MB, 0x61);
		for (let left = bytes; left > 0; left -= MB) writeSync(fd, block, 0, Math.min(MB, left));
		writeSync(fd, after);
	} finally {
		closeSync(fd);
	}
}

const FILLER = OLD_LINE_LIMIT + MB;
/** The huge user text: HEAD, FILLER letters a, TAIL. */
const TOTAL = HEAD.length + FILLER + TAIL.length;
let tmp: ReturnType<typeof tempDir>;
let sessions = "";
let index = "";
beforeAll(() => {
	tmp = tempDir("pes-memory-");
	sessions = join(tmp.dir, "sessions");
	mkdirSync(sessions);
	index = join(tmp.dir, "index.sqlite");
	// pi is writing a 300 MB line that has not ended yet.
	writeWithFiller(
		join(sessions, "growing.jsonl"),
		`${header("growing")}\n${message("g1", null, "before the unfinished line amber-growing")}\n{"type":"message","id":"g2","parentId":"g1","message":{"role":"user","content":"`,
		300 * MB,
		"",
	);
	// A complete line longer than was ever read whole, between two ordinary ones.
	writeWithFiller(
		join(sessions, "oversize.jsonl"),
		`${header("oversize")}\n${message("o1", null, "before the huge line cobalt-before")}\n{"type":"message","id":"o2","parentId":"o1","message":{"role":"user","content":"${HEAD}`,
		FILLER,
		`${TAIL}"}}\n${message("o3", "o1", "after the huge line cobalt-after")}\n`,
	);
});
afterAll(() => tmp.cleanup());

describe("bounded memory", () => {
	it("indexes around an unfinished 300 MB line, and indexes, searches and reads a 257 MB line, in bounded memory", () => {
		const script = `
			const { resolveConfig } = await import(${JSON.stringify(join(PROJECT_ROOT, "dist/src/shared/config.js"))});
			const { HistoryService } = await import(${JSON.stringify(join(PROJECT_ROOT, "dist/src/service/service.js"))});
			const s = HistoryService.open({ config: resolveConfig({ sessionsDirs: [${JSON.stringify(sessions)}], indexPath: ${JSON.stringify(index)}, env: {}, home: "/nonexistent" }) });
			const first = s.refresh();
			const second = s.refresh();
			const hits = s.search({ query: "cobalt-hugetail" }).hits.map((h) => [h.entryId, h.fragmentId, h.snippet]);
			const middle = s.read({ sessionId: "oversize", entryId: "o2", fragmentId: "user.text:0", offset: 200_000_000, maxChars: 1000 }).fragments[0];
			const end = s.read({ sessionId: "oversize", entryId: "o2", fragmentId: "user.text:0", offset: ${TOTAL - 30}, maxChars: 1000 }).fragments[0];
			s.close();
			process.stdout.write(JSON.stringify({ notes: first.notes, errors: first.errors, changed: second.filesChanged, hits, middle, end, maxRssMb: process.resourceUsage().maxRSS / 1024 }));`;
		const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", cwd: PROJECT_ROOT });
		expect(r.status, r.stderr).toBe(0);
		type Window = { text: string; range: [number, number]; totalChars: number; truncated: boolean };
		const out = JSON.parse(r.stdout) as {
			notes: string[];
			errors: unknown[];
			changed: number;
			hits: string[][];
			middle: Window;
			end: Window;
			maxRssMb: number;
		};
		expect(out.errors).toEqual([]);
		expect(out.notes.join("\n")).not.toMatch(/too big|skipped/);
		// Its tail is indexed (I20: the last 128 KiB), and the snippet comes from that tail.
		expect(out.hits.map((h) => h.slice(0, 2))).toEqual([["o2", "user.text:0"]]);
		expect(out.hits[0]?.[2]).toMatch(/^…a+ cobalt-hugetail$/);
		// Windows of the 257 MB text, read from the file: exactly the characters asked for.
		expect(out.middle).toMatchObject({ text: "a".repeat(1000), range: [200_000_000, 200_001_000], totalChars: TOTAL, truncated: true });
		expect(out.end).toMatchObject({ text: `${"a".repeat(30 - TAIL.length)}${TAIL}`, range: [TOTAL - 30, TOTAL], totalChars: TOTAL, truncated: true });
		// Reading either line whole would cost at least its own size (300 MB, 257 MB) and more as a string.
		expect(out.maxRssMb).toBeLessThan(200);
		const s = openService(sessions, index);
		try {
			expect(s.search({ query: "amber-growing" }).hits.map((h) => h.entryId)).toEqual(["g1"]);
			expect(s.search({ query: "cobalt-before" }).hits.map((h) => h.entryId)).toEqual(["o1"]);
			expect(s.search({ query: "cobalt-after" }).hits.map((h) => h.entryId)).toEqual(["o3"]);
			expect(s.search({ query: "cobalt-hugehead" }).hits.map((h) => [h.entryId, h.fragmentId])).toEqual([["o2", "user.text:0"]]);
			expect(s.status().errors).toEqual([]);
		} finally {
			s.close();
		}
	});
});
