/**
 * Real session files from pi's own repository (legacy v1) and a real v3 session of another pi user, read from
 * ../shared/real-sessions when that folder exists (they are never committed here). Ground truth: the files'
 * own lines and pi's buildSessionContext.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { fixtureEntry, openService, PROJECT_ROOT, readEntries, tempDir } from "./helpers/corpus.js";
import { piContext } from "./helpers/oracle.js";

const REAL = process.env.PI_EVENT_SEARCH_REAL_SESSIONS ?? resolve(PROJECT_ROOT, "..", "shared", "real-sessions");
const present = existsSync(REAL) && readdirSync(REAL).some((f) => f.endsWith(".jsonl"));

describe.skipIf(!present)("real pi sessions", () => {
	let tmp: ReturnType<typeof tempDir>;
	let service: HistoryService;
	const files = present ? readdirSync(REAL).filter((f) => f.endsWith(".jsonl")) : [];

	beforeAll(() => {
		tmp = tempDir();
		service = openService(REAL, join(tmp.dir, "index.sqlite"));
		service.refresh();
	});
	afterAll(() => {
		service.close();
		tmp.cleanup();
	});

	/** Object lines after the header, as pi would load them. */
	const entriesOf = (file: string) => readEntries(join(REAL, file), { skipInvalid: true }).filter((e) => e.type !== "session");
	/** The header line of a file. */
	const headerOf = (file: string) => fixtureEntry<{ id: string; version?: number }>(REAL, file, 1);

	it("indexes every file as one session with every entry", () => {
		expect(service.status().sessions).toBe(files.length);
		for (const file of files) {
			const header = headerOf(file);
			const events = service.search({ query: "", filters: { sessionIds: [header.id] }, limit: 1 }).index;
			expect(events.sessions).toBe(files.length);
			const n = entriesOf(file).length;
			const hits = [];
			for (let offset = 0; offset < n + 50; offset += 50)
				hits.push(...service.search({ query: "", filters: { sessionIds: [header.id] }, limit: 50, offset }).hits);
			expect(hits.length, file).toBe(n);
		}
	});

	it("gives exactly pi's context entries `direct` (v1 compactions with firstKeptEntryIndex included)", () => {
		for (const file of files) {
			const path = join(REAL, file);
			const header = headerOf(file);
			const { fileEntries, direct } = piContext(path);
			const all = [];
			for (let offset = 0; ; offset += 50) {
				const page = service.search({ query: "", filters: { sessionIds: [header.id] }, limit: 50, offset }).hits;
				all.push(...page);
				if (page.length < 50) break;
			}
			// pi's migration gives v1 entries ids in file order; ours are L<line>, in the same order.
			const ours = all.map((h) => h.entryId).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
			const toOurs = new Map(fileEntries.map((e, i) => [e.id, (header.version ?? 1) < 2 ? ours[i] : e.id]));
			const expected = [...direct].map((id) => toOurs.get(id)).sort();
			const actual = all
				.filter((h) => h.selectionState === "direct")
				.map((h) => h.entryId)
				.sort();
			expect(actual, file).toEqual(expected);
		}
	});

	it("finds a sentence from each file and reads it back exactly", () => {
		for (const file of files) {
			const textOf = (e: Record<string, unknown>): string | undefined => {
				const m = e.message as { role?: string; content?: unknown } | undefined;
				if (m?.role !== "user") return undefined;
				if (typeof m.content === "string") return m.content;
				const first = Array.isArray(m.content) ? (m.content[0] as { type?: string; text?: string } | undefined) : undefined;
				return first?.type === "text" ? first.text : undefined;
			};
			const text = entriesOf(file)
				.map(textOf)
				.find((t) => t !== undefined && t.trim().length >= 20) as string;
			expect(text, file).toBeDefined();
			// Six words, or for CJK prompts without spaces, the first ten characters (any 2+ character substring matches).
			const words = text.trim().split(/\s+/);
			const cjk = /[\u3040-\u30ff\u4e00-\u9fff]/.test(text);
			const phrase = cjk && words.length < 7 ? text.trim().slice(0, 10) : words.slice(0, 6).join(" ");
			const hits = service.search({ query: `"${phrase}"`, limit: 50 }).hits;
			expect(hits.length, `${file}: "${phrase}"`).toBeGreaterThan(0);
			const read = service.read({
				sessionId: hits[0]?.sessionId as string,
				entryId: hits[0]?.entryId as string,
				fragmentId: hits[0]?.fragmentId as string,
				maxChars: 1_000_000,
			});
			expect(read.fragments[0]?.text).toBe(text);
			expect(JSON.stringify(read)).not.toMatch(/"thinking":"|thinkingSignature":"/);
		}
	});
});
