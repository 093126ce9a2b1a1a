/**
 * How a partial answer scores what a fragment holds (issue 28): each word at its better form's weight (the word as
 * written over an inflected form), the best fragment of an event with several, and the count of its matching
 * fragments. Ground truth by hand: the events below hold the identifier with the word as written, with an inflected
 * form only, or alone, and one event holds the identifier in one tool call and identifier and form in another.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";

const SESSION = "0199d000-0000-7000-8000-0000000000c7";
const ts = (i: number) => new Date(Date.UTC(2026, 6, 2) + i * 1000).toISOString();
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const calls = (...commands: string[]) => ({
	role: "assistant",
	content: commands.map((command, i) => ({ type: "toolCall", id: `call_${i}`, name: "bash", arguments: { command } })),
	timestamp: 1,
});

/** Oldest first. */
const MESSAGES = [
	["as-written", user("zorbLax retried the upload")],
	["form-only", user("zorbLax retrying the upload")],
	["alone", user("zorbLax stalled the upload")],
	["two-calls", calls("echo zorbLax", "echo zorbLax retrying")],
	["filler-1", user("the upload went fine")],
	["filler-2", user("nothing to see in the upload")],
] as const;

let t: ReturnType<typeof tempDir>;
let service: HistoryService;

beforeAll(() => {
	t = tempDir("pes-partial-coverage-");
	const dir = join(t.dir, "sessions", "--tmp-coverage--");
	mkdirSync(dir, { recursive: true });
	const lines = [{ type: "session", version: 3, id: SESSION, timestamp: ts(0), cwd: "/tmp/coverage" }];
	MESSAGES.forEach(([id, message], i) => {
		lines.push({ type: "message", id, parentId: i === 0 ? null : MESSAGES[i - 1]?.[0], timestamp: ts(i + 1), message } as never);
	});
	writeFileSync(join(dir, "2026-07-02T00-00-00-000Z_coverage.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
	service = openService(join(t.dir, "sessions"), join(t.dir, "index.sqlite"));
	service.refresh();
});

afterAll(() => {
	service?.close();
	t?.cleanup();
});

describe("a partial answer's coverage", () => {
	it("weighs a word as written over its inflected form, and that form over a fragment without the word", () => {
		const r = service.search({ query: "zorbLax retried nowherezz", limit: 10 });
		expect(r.match).toBe("partial");
		expect(r.unmatched).toEqual(["nowherezz"]);
		// The two events holding an inflected form tie on coverage (bm25 orders them).
		const ids = r.hits.map((h) => h.entryId);
		expect(ids[0]).toBe("as-written");
		expect(new Set(ids.slice(1, 3))).toEqual(new Set(["two-calls", "form-only"]));
		expect(ids.slice(3)).toEqual(["alone"]);
		const hit = (id: string) => r.hits.find((h) => h.entryId === id);
		const [written, twoCalls, formOnly, alone] = [hit("as-written"), hit("two-calls"), hit("form-only"), hit("alone")];
		expect(written?.score).toBeGreaterThan(twoCalls?.score ?? 0);
		expect(twoCalls?.score).toBe(formOnly?.score);
		expect(formOnly?.score).toBeGreaterThan(alone?.score ?? 0);
		// The inflected form is what the snippet marks, as the word its fragment holds.
		const marked = (h: (typeof r.hits)[number] | undefined) => h?.marks.map(([a, b]) => h.snippet.slice(a, b)) ?? [];
		expect(marked(formOnly)).toEqual(["zorbLax", "retrying"]);
		expect(marked(alone)).toEqual(["zorbLax"]);
	});

	it("shows an event's best fragment and counts every fragment of it that holds a word", () => {
		const r = service.search({ query: "zorbLax retried nowherezz", limit: 10 });
		const twoCalls = r.hits.find((h) => h.entryId === "two-calls");
		expect(twoCalls?.fragmentId).toBe("tool.call:1");
		expect(twoCalls?.matchedFragments).toBe(2);
		expect(r.hits.find((h) => h.entryId === "form-only")?.matchedFragments).toBe(1);
	});
});
