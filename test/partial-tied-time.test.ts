/**
 * A partial answer whose first page ends inside hundreds of events of equal score (issue 29: they are put in time order
 * from the time index, not by reading each one's row). Ground truth by hand: two sessions hold `zqtie` once per message
 * in text of equal length, so every event scores the same and the order is time, then identity (the newer session
 * header first). The sessions are indexed one after the other, the older-headed one second: row ids follow neither
 * time nor identity. Their messages alternate in time; around the 64th newest, pairs share a timestamp, where identity
 * decides against the row ids.
 * Then a newer session of other words (more than the time index is scanned for the tied events) leaves the order as it
 * was: the tied events' rows are read one by one instead.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";

const BASE = Date.UTC(2026, 6, 2);
const PER = 150;
/** Message i of alpha and of beta share a timestamp for these i: the 64th newest event falls among them. */
const SHARED = new Set([117, 118, 119]);

interface Planned {
	session: "alpha" | "beta";
	id: string;
	ms: number;
	seq: number;
}

let t: ReturnType<typeof tempDir>;
let service: HistoryService;
let sessionsDir: string;

/** Writes one linear session of user messages under the sessions dir. */
function writeSession(name: string, sessionId: string, created: string, messages: Array<{ id: string; ms: number; text: string }>): void {
	const dir = join(sessionsDir, `--tmp-${name}--`);
	mkdirSync(dir, { recursive: true });
	const lines = [`${JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: created, cwd: `/tmp/${name}` })}\n`];
	messages.forEach((m, i) => {
		const message = { role: "user", content: [{ type: "text", text: m.text }], timestamp: m.ms };
		const parentId = i === 0 ? null : (messages[i - 1] as { id: string }).id;
		lines.push(`${JSON.stringify({ type: "message", id: m.id, parentId, timestamp: new Date(m.ms).toISOString(), message })}\n`);
	});
	writeFileSync(join(dir, `${created.replace(/[:.]/g, "-")}_${sessionId}.jsonl`), lines.join(""));
}

// alpha: header 2026-07-01, message i at BASE + 10 s·i, and one more, the newest of all. beta: header 2026-06-01 (older),
// message i 5 s after alpha's, or at the same time for SHARED i.
const alpha = [
	...Array.from({ length: PER }, (_, i) => ({ id: `a${String(i).padStart(3, "0")}`, ms: BASE + i * 10_000 })),
	{ id: "a150", ms: BASE + PER * 10_000 },
];
const beta = Array.from({ length: PER }, (_, i) => ({ id: `b${String(i).padStart(3, "0")}`, ms: BASE + i * 10_000 + (SHARED.has(i) ? 0 : 5_000) }));

/** Newest first; at one time the newer session header (alpha) first; within a session the later entry. */
const expected = [
	...alpha.map((m, seq): Planned => ({ session: "alpha", id: m.id, ms: m.ms, seq })),
	...beta.map((m, seq): Planned => ({ session: "beta", id: m.id, ms: m.ms, seq })),
]
	.sort((a, b) => b.ms - a.ms || (a.session === b.session ? b.seq - a.seq : a.session === "alpha" ? -1 : 1))
	.map((p) => p.id);

beforeAll(() => {
	t = tempDir("pes-partial-tied-");
	sessionsDir = join(t.dir, "sessions");
	const text = (id: string) => `zqtie x${id}`;
	writeSession(
		"alpha",
		"0199d000-0000-7000-8000-0000000000a1",
		"2026-07-01T00:00:00.000Z",
		alpha.map((m) => ({ ...m, text: text(m.id) })),
	);
	service = openService(sessionsDir, join(t.dir, "index.sqlite"));
	service.refresh();
	// beta indexed second: its events get the higher row ids, though its header is the older.
	writeSession(
		"beta",
		"0199d000-0000-7000-8000-0000000000b2",
		"2026-06-01T00:00:00.000Z",
		beta.map((m) => ({ ...m, text: text(m.id) })),
	);
	service.refresh();
});

afterAll(() => {
	service?.close();
	t.cleanup();
});

/** Every hit of the query, paged through `limit` at a time from `first`. */
function paged(query: string, first: number, limit: number, until: number): string[] {
	const out: string[] = [];
	for (let offset = first; offset < until; offset += limit) {
		const r = service.search({ query, limit, offset });
		if (r.hits.length > 0) expect(r.match).toBe("partial");
		out.push(...r.hits.map((h) => h.entryId));
	}
	return out;
}

it("orders hundreds of equally scored events by time, then identity, across the first page's end", () => {
	// The first read's last event (the 64th) and the next share a timestamp: alpha's message first, though beta's has
	// the higher row id.
	expect(expected.slice(61, 65)).toEqual(["a119", "b119", "a118", "b118"]);
	expect(paged("zqtie nowherezz", 0, 50, 2 * PER + 1)).toEqual(expected);
	// A page that ends where the first read of the ranking does.
	expect(paged("zqtie nowhereyy", 14, 50, 64)).toEqual(expected.slice(14, 64));
});

it("keeps that order when the tied events lie further back in time than the scan reaches", () => {
	// A newer session of other words only, longer than the scan of the time index for the tied events.
	const filler = Array.from({ length: 5000 }, (_, i) => ({
		id: `f${String(i).padStart(4, "0")}`,
		ms: BASE + 86_400_000 + i * 1000,
		text: `unrelated filler ${i}`,
	}));
	writeSession("filler", "0199d000-0000-7000-8000-0000000000f3", "2026-07-03T00:00:00.000Z", filler);
	service.refresh();
	expect(paged("zqtie nowherexx", 14, 50, 64)).toEqual(expected.slice(14, 64));
	expect(paged("zqtie nowherevv", 0, 50, 2 * PER + 1)).toEqual(expected);
});
