/**
 * The size-independent bench rows (bench/huge.ts) write pi v3 JSONL directly instead of going through pi's
 * SessionManager. These check, at small sizes, that pi itself reads what they write as the session they claim:
 * otherwise the bench would time our index on files pi never produces.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSessionContext, parseSessionEntries, type SessionEntry } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { growUnfinished, HUGE_SESSION_ID, LINE_NEEDLE, MIDDLE_NEEDLE, writeLinear, writeSingleLine, writeUnfinished } from "../bench/huge.js";

const dir = mkdtempSync(join(tmpdir(), "pes-bench-inputs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pi's view of a file: header, entries, and the messages buildSessionContext gives the model from the last entry. */
function piView(file: string) {
	const all = parseSessionEntries(readFileSync(file, "utf8")) as Array<SessionEntry | { type: "session"; id: string; version: number }>;
	const [header, ...rest] = all;
	const entries = rest as SessionEntry[];
	const byId = new Map(entries.map((e) => [e.id, e]));
	const leaf = entries[entries.length - 1]?.id ?? null;
	return { header: header as { type: string; id: string; version: number }, entries, messages: buildSessionContext(entries, leaf, byId).messages };
}

describe("bench inputs written without SessionManager are sessions pi reads", () => {
	it("the linear session is one chain of N entries, every one in pi's model context, its middle entry holding the needle", () => {
		const { file, middleId } = writeLinear(join(dir, "linear"), 301);
		const pi = piView(file);
		expect(pi.header).toMatchObject({ type: "session", version: 3, id: HUGE_SESSION_ID });
		expect(pi.entries).toHaveLength(301);
		expect(pi.messages).toHaveLength(301);
		expect(pi.messages.map((m) => m.role)).toEqual(Array.from({ length: 301 }, (_, i) => ["user", "assistant", "toolResult"][i % 3]));
		const middle = pi.entries.find((e) => e.id === middleId);
		expect(JSON.stringify(middle)).toContain(MIDDLE_NEEDLE);
		expect(pi.entries.filter((e) => JSON.stringify(e).includes(MIDDLE_NEEDLE))).toHaveLength(1);
	});

	it("the single line is one tool result whose text is as long as asked, with the needle near its start", () => {
		const bytes = 3 * 1024 * 1024;
		const { file, entryId } = writeSingleLine(join(dir, "line"), bytes);
		const pi = piView(file);
		const result = pi.entries.find((e) => e.id === entryId) as SessionEntry & { message: { role: string; content: Array<{ text: string }> } };
		expect(result.message.role).toBe("toolResult");
		const text = result.message.content[0]?.text ?? "";
		expect(text.length).toBeGreaterThanOrEqual(bytes);
		expect(text.indexOf(LINE_NEEDLE)).toBeLessThan(100);
		expect(pi.messages).toHaveLength(3);
	});

	it("the unfinished line never ends: pi skips it, and growing it keeps it unfinished", () => {
		const { file } = writeUnfinished(join(dir, "unfinished"), 2 * 1024 * 1024);
		const before = statSync(file).size;
		expect(piView(file).entries).toHaveLength(2);
		growUnfinished(file, 4096);
		expect(statSync(file).size).toBe(before + 4096);
		const text = readFileSync(file, "utf8");
		expect(text.endsWith("\n")).toBe(false);
		expect(piView(file).entries).toHaveLength(2);
	});
});
