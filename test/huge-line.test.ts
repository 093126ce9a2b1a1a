/**
 * Huge lines (issue 13 item 3, I20): a line over the in-memory bound (16 MB) is streamed, and the index holds what it
 * would hold had the line been parsed whole: same fragment ids, same head and tail (cut before a surrogate pair that
 * straddles either edge), the middle left out with a gap no phrase crosses. Reads stream the window asked for.
 * The texts are built here, so the expected cut points are computed by hand from I20 (first and last 128 KiB).
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanEntry, scanFile } from "../src/project/file-scan.js";
import type { HistoryService } from "../src/service/service.js";
import { hugeHint, readByHint, sampledLineHash } from "../src/source/huge-line.js";
import { LongText, STREAM_LIMITS, streamJson } from "../src/source/json-stream.js";
import { UNFINISHED_PROBE_BYTES } from "../src/source/lines.js";
import { hashLine, parseEntryLine } from "../src/source/parse.js";
import { openService, tempDir } from "./helpers/corpus.js";

const EDGE = 128 * 1024;
/** A line is streamed once 16 MB of it were read without its end; the 1 MB chunk that finds the end may hold it. */
const STREAMED_BEYOND = UNFINISHED_PROBE_BYTES + 1024 * 1024;
/** Log-like text with what JSON must escape (quotes, backslash, tab, newline) and multi-byte characters. */
const UNIT = 'INFO pool acquire took 12ms "quoted" back\\slash é\ttab 😀 pair \u2028 cache hit ratio 0.93 for tenant 42 retry ok\n';
/** Exactly `n` UTF-16 units of UNIT-like filler, never ending inside a surrogate pair. */
function fill(n: number): string {
	let s = UNIT.repeat(Math.ceil(n / UNIT.length) + 1).slice(0, n);
	const last = s.charCodeAt(n - 1);
	if (last >= 0xd800 && last <= 0xdbff) s = `${s.slice(0, -1)}x`;
	return s;
}

/** A text of about `n` units whose head ends in a pair straddling EDGE and whose tail starts in one straddling L - EDGE. */
function hugeText(n: number, tag: string): string {
	const head = `${tag}headneedle ${fill(EDGE - 1 - `${tag}headneedle `.length - " gapleft ".length)} gapleft `;
	// head is EDGE - 1 units; the pair takes units EDGE - 1 and EDGE.
	const middle = `😀${fill(n / 2)} ${tag}middleneedle ${fill(n / 2)}`;
	const tailBody = ` gapright ${fill(EDGE - 1 - " gapright ".length - ` ${tag}tailneedle`.length)} ${tag}tailneedle`;
	// The tail's pair takes units L - EDGE - 1 and L - EDGE, the rest is EDGE - 1 units.
	return `${head}${middle}😀${tailBody}`;
}

/** The sampled hash of hints written before the 64 KiB sample, computed here by hand: sha1 of the length, first and last MiB. */
function legacySample(fd: number, offset: number, length: number): string {
	const mib = 1 << 20;
	const head = Buffer.alloc(mib);
	const tail = Buffer.alloc(mib);
	readSync(fd, head, 0, mib, offset);
	readSync(fd, tail, 0, mib, offset + length - mib);
	return createHash("sha1").update(String(length)).update(head).update(tail).digest("hex").slice(0, 16);
}

const SESSION = "0199b000-0000-7000-8000-000000000001";
const RESULT = hugeText(17_000_000, "res");
const CONTENT = hugeText(17_000_000, "arg");
const lines = [
	{ type: "session", version: 3, id: SESSION, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/work/huge" },
	{ type: "message", id: "u1", parentId: null, timestamp: "2026-03-01T00:00:01.000Z", message: { role: "user", content: "write the dump", timestamp: 1 } },
	{
		type: "message",
		id: "a1",
		parentId: "u1",
		timestamp: "2026-03-01T00:00:02.000Z",
		message: {
			role: "assistant",
			content: [
				{ type: "text", text: "Writing it." },
				{ type: "toolCall", id: "call_1", name: "write", arguments: { path: "src/dump.ts", content: CONTENT } },
			],
			provider: "anthropic",
			model: "claude-sonnet-4-5",
			stopReason: "toolUse",
			timestamp: 2,
		},
	},
	{
		type: "message",
		id: "r1",
		parentId: "a1",
		timestamp: "2026-03-01T00:00:03.000Z",
		message: { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: RESULT }], isError: true, timestamp: 3 },
	},
	{ type: "message", id: "u2", parentId: "r1", timestamp: "2026-03-01T00:00:04.000Z", message: { role: "user", content: "after the dump", timestamp: 4 } },
].map((l) => JSON.stringify(l));
/** The tool call fragment's whole text, as the whole-line path flattens arguments. */
const CALL = `write\npath: src/dump.ts\ncontent: ${CONTENT}`;

let tmp: ReturnType<typeof tempDir>;
let file = "";
let service: HistoryService;
let refreshNotes: string[] = [];
/** A 20 MB line of ten million numbers: even streamed it keeps more than a line may (32 M characters' worth). */
const TOO_BIG = `{"type":"custom","id":"t2","parentId":"t1","customType":"dump","data":[${"1,".repeat(10_000_000)}1]}`;
beforeAll(() => {
	tmp = tempDir("pes-huge-line-");
	const sessions = join(tmp.dir, "sessions");
	mkdirSync(sessions);
	file = join(sessions, "huge.jsonl");
	writeFileSync(file, `${lines.join("\n")}\n`);
	const header = JSON.stringify({
		type: "session",
		version: 3,
		id: "0199b000-0000-7000-8000-000000000002",
		timestamp: "2026-03-02T00:00:00.000Z",
		cwd: "/work/big",
	});
	const note = (id: string, parentId: string | null, text: string) =>
		JSON.stringify({ type: "message", id, parentId, timestamp: "2026-03-02T00:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } });
	writeFileSync(join(sessions, "toobig.jsonl"), `${header}\n${note("t1", null, "before amberbefore")}\n${TOO_BIG}\n${note("t3", "t1", "after amberafter")}\n`);
	service = openService(sessions, join(tmp.dir, "index.sqlite"));
	refreshNotes = service.refresh().notes;
});
afterAll(() => {
	service?.close();
	tmp.cleanup();
});

describe("a line over the in-memory bound", () => {
	it("is streamed into the same entries, fragment ids and index texts as the whole line gives", () => {
		for (const i of [2, 3]) expect(Buffer.byteLength(lines[i] as string)).toBeGreaterThan(STREAMED_BEYOND);
		const streamed = scanFile({ path: file, mode: "rebuild" });
		expect(streamed.error).toBeUndefined();
		expect(streamed.skipped).toBe(0);
		expect(streamed.entries.map((e) => e.entry.id)).toEqual(["u1", "a1", "r1", "u2"]);
		// I20 by hand: head ends before the pair at EDGE - 1, tail starts after the pair at L - EDGE.
		// After the ids, a huge line's locator hint: `t` and a sampled hash, then byte start, byte length and length of each long
		// string, and its resume points, 4 MiB or more apart.
		const [ids1, hint1] = (streamed.entries[1]?.frags ?? "").split(" ~");
		const [ids2, hint2] = (streamed.entries[2]?.frags ?? "").split(" ~");
		expect(hint1).toMatch(new RegExp(`^t[0-9a-f]{16}:\\d+\\.\\d+\\.${CONTENT.length}(,\\d+\\.\\d+)+$`));
		expect(hint2).toMatch(new RegExp(`^t[0-9a-f]{16}:\\d+\\.\\d+\\.${RESULT.length}(,\\d+\\.\\d+)+$`));
		expect(ids2).toBe(`tool.result:0@${EDGE - 1}-${RESULT.length - EDGE + 1}`);
		// The call's text starts with its name and path: its cuts fall wherever I20 puts them in that text.
		const high = (c: number) => c >= 0xd800 && c <= 0xdbff;
		const low = (c: number) => c >= 0xdc00 && c <= 0xdfff;
		const head = high(CALL.charCodeAt(EDGE - 1)) ? EDGE - 1 : EDGE;
		const tail = low(CALL.charCodeAt(CALL.length - EDGE)) ? CALL.length - EDGE + 1 : CALL.length - EDGE;
		expect(ids1).toBe(`assistant.text:0 tool.call:1@${head}-${tail}`);
		for (const [k, i] of [1, 2, 3, 4].entries()) {
			const bytes = Buffer.from(lines[i] as string);
			const at = streamed.entries[k]?.entry.offset as number;
			const whole = parseEntryLine({ lineNo: i + 1, offset: at, length: bytes.length + 1, bytes }, 3);
			expect(whole).toBeDefined();
			const expected = scanEntry(whole as NonNullable<typeof whole>, "/work/huge");
			const got = streamed.entries[k] as NonNullable<(typeof streamed.entries)[number]>;
			const { locatorHint, ...located } = got.entry;
			expect(locatorHint === undefined).toBe(i === 1 || i === 4);
			expect({ ...got, entry: located, frags: got.frags.split(" ~")[0] }).toEqual(expected);
			expect(streamed.entries[k]?.entry.lineHash).toBe(hashLine(bytes));
		}
		expect(streamed.entries[2]?.ev).toMatchObject({
			toolName: "bash",
			isError: true,
			preview: expect.stringMatching(/^resheadneedle INFO pool acquire took 12ms "quoted" back\\slash é tab 😀/),
		});
	});

	it("counts a line too big even streamed with a note, and indexes the rest of its file", () => {
		expect(Buffer.byteLength(TOO_BIG)).toBeGreaterThan(STREAMED_BEYOND);
		expect(refreshNotes.join("\n")).toMatch(/toobig\.jsonl: 1 line\(s\) skipped \(too big to read/);
		expect(service.status().errors).toContainEqual({ file: expect.stringMatching(/toobig\.jsonl$/), error: expect.stringMatching(/too big to read/) });
		expect(service.search({ query: "amberbefore" }).hits.map((h) => h.entryId)).toEqual(["t1"]);
		expect(service.search({ query: "amberafter" }).hits.map((h) => h.entryId)).toEqual(["t3"]);
		// The huge session's file has no such note: its lines were all read.
		expect(refreshNotes.join("\n")).not.toMatch(/huge\.jsonl/);
	});

	it("finds words of the head and tail, not of the middle, and no phrase across the gap", () => {
		const hits = (q: string) => service.search({ query: q }).hits.map((h) => [h.entryId, h.fragmentId]);
		expect(hits("resheadneedle")).toEqual([["r1", "tool.result:0"]]);
		expect(hits("restailneedle")).toEqual([["r1", "tool.result:0"]]);
		expect(hits("argtailneedle")).toEqual([["a1", "tool.call:1"]]);
		expect(hits("resmiddleneedle")).toEqual([]);
		expect(hits("argmiddleneedle")).toEqual([]);
		expect(hits('"gapleft gapright"')).toEqual([]);
		// Both words are in the result's head and tail; the call's `gapleft` fell into its omitted middle.
		expect(hits("gapleft gapright")).toEqual([["r1", "tool.result:0"]]);
		const tail = service.search({ query: "restailneedle" }).hits[0];
		expect(tail?.snippet).toMatch(/restailneedle$/);
		expect(tail?.snippet.length).toBeLessThanOrEqual(240);
	});

	it("reads any window exactly, the middle streamed from the file, with the whole length", () => {
		const read = (entryId: string, fragmentId: string, offset: number, maxChars: number) =>
			service.read({ sessionId: SESSION, entryId, fragmentId, offset, maxChars }).fragments[0];
		const cases = [
			["r1", "tool.result:0", RESULT, [0, 50], [EDGE - 10, 30], [8_000_001, 99_999], [RESULT.length - 20, 100]],
			["a1", "tool.call:1", CALL, [Math.floor(CALL.length / 2) - 7, 1000], [CALL.length - EDGE - 3, 10]],
		] as const;
		for (const [entryId, fragmentId, text, ...windows] of cases) {
			const L = text.length;
			for (const [offset, max] of windows) {
				const w = read(entryId, fragmentId, offset, max);
				let end = Math.min(L, offset + max);
				const last = text.charCodeAt(end - 1);
				if (end < L && last >= 0xd800 && last <= 0xdbff) end--;
				expect(w).toEqual({
					id: fragmentId,
					kind: fragmentId.split(":")[0],
					text: text.slice(offset, end),
					range: [offset, end],
					totalChars: L,
					truncated: true,
				});
			}
		}
		// A window that ends inside a pair stops before it, and the next starts with the pair.
		const cut = read("r1", "tool.result:0", EDGE - 5, 4);
		expect(cut?.range).toEqual([EDGE - 5, EDGE - 1]);
	});

	it("reads the whole event with the middle of each long fragment left to windows", () => {
		const r = service.read({ sessionId: SESSION, entryId: "r1", maxChars: 100 });
		expect(r.fragments.map((f) => [f.id, f.text, f.totalChars, f.truncated])).toEqual([["tool.result:0", RESULT.slice(0, 100), RESULT.length, true]]);
		expect(r.event).toMatchObject({ type: "message", message: { role: "toolResult", toolName: "bash", isError: true } });
		expect(r.source.byteLength).toBe(Buffer.byteLength(lines[3] as string) + 1);
	});

	it("reads a huge line again by its locator hint: the same value, only its ends read; a changed sample falls back", () => {
		const fd = openSync(file, "r");
		try {
			const open = (v: unknown): unknown =>
				v instanceof LongText
					? { head: v.head, tail: v.tail, length: v.length, at: [v.byteStart, v.byteEnd] }
					: Array.isArray(v)
						? v.map(open)
						: v !== null && typeof v === "object"
							? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, open(x)]))
							: v;
			let offset = 0;
			for (const [i, text] of [
				[2, CONTENT],
				[3, RESULT],
			] as const) {
				offset = lines.slice(0, i).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
				const length = Buffer.byteLength(lines[i] as string);
				const full = streamJson(fd, offset, length);
				if (!full.ok) throw new Error("not streamed");
				// The kept ends are the text's own first and last units.
				expect(full.longs.map((l) => [l.head, l.tail, l.length])).toEqual([
					[text.slice(0, STREAM_LIMITS.keepChars), text.slice(-STREAM_LIMITS.keepChars), text.length],
				]);
				const hint = hugeHint(sampledLineHash(fd, offset, length) as string, full.longs, offset);
				expect(hint.startsWith("~t")).toBe(true);
				expect(open(readByHint(fd, offset, length, hint))).toEqual(open(full.value));
				expect(
					readByHint(
						fd,
						offset,
						length,
						hint.replace(/^~t./, (m) => (m === "~t0" ? "~t1" : "~t0")),
					),
				).toBeUndefined();
				// A hint an older version wrote (`~<hash>`, of the line's first and last MiB) still reads the line.
				const spans = hint.slice(18);
				expect(open(readByHint(fd, offset, length, `~${legacySample(fd, offset, length)}${spans}`))).toEqual(open(full.value));
				expect(readByHint(fd, offset, length, `~${sampledLineHash(fd, offset, length)}${spans}`)).toBeUndefined();
			}
		} finally {
			closeSync(fd);
		}
		// pi rewrote the line in place (same length): the sample differs, the line is streamed, the id found again.
		const at = lines.slice(0, 3).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0) + (lines[3] as string).indexOf("resheadneedle");
		const w = openSync(file, "r+");
		writeSync(w, "R", at);
		closeSync(w);
		const r = service.read({ sessionId: SESSION, entryId: "r1", fragmentId: "tool.result:0", offset: 0, maxChars: 13 });
		expect(r.fragments[0]?.text).toBe("Resheadneedle");
		expect(r.notes.join(" ")).toMatch(/rewritten since indexing/);
	});
});
