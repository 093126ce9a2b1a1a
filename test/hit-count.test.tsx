/**
 * The total hit count (the explorer's "1,234 hits"): checked against session files built here, whose matches are
 * counted by construction (how many lines carry each word), not by asking our own search.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { App } from "../components/ink/App.js";
import { END_FOLLOW_MAX } from "../components/search/hits-state.js";
import { openStore } from "../src/index/store.js";
import { countHits, TOTAL_CAP } from "../src/query/search.js";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { KEYS, press, type, waitForFrame } from "./helpers/ink.js";

const T0 = Date.parse("2026-03-01T10:00:00Z");

/** One pi v3 session file: a header, then messages chained parent to child, one second apart. */
function sessionFile(id: string, cwd: string, messages: Array<{ role: "user" | "assistant"; text: string; id?: string }>): string {
	const lines = [JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(T0).toISOString(), cwd })];
	let parent: string | null = null;
	messages.forEach((m, i) => {
		const entryId = m.id ?? `${id.slice(0, 4)}${i.toString(16).padStart(6, "0")}`;
		const ts = T0 + (i + 1) * 1000;
		const message =
			m.role === "user"
				? { role: "user", content: m.text, timestamp: ts }
				: { role: "assistant", content: [{ type: "text", text: m.text }], stopReason: "stop", timestamp: ts };
		lines.push(JSON.stringify({ type: "message", id: entryId, parentId: parent, timestamp: new Date(ts).toISOString(), message }));
		parent = entryId;
	});
	return `${lines.join("\n")}\n`;
}

let service: HistoryService;
let indexPath: string;
let done: () => void;
const A = "0199aaaa-0000-7000-8000-000000000001";
const B = "0199bbbb-0000-7000-8000-000000000002";
const C = "0199cccc-0000-7000-8000-000000000003";

beforeAll(() => {
	const t = tempDir("pes-count-");
	done = t.cleanup;
	const dir = join(t.dir, "sessions", "--home-u-zoo--");
	mkdirSync(dir, { recursive: true });
	// Session A: 12 user lines and 7 assistant lines say "quokka", 5 lines do not.
	const a: Array<{ role: "user" | "assistant"; text: string; id?: string }> = [];
	for (let i = 0; i < 12; i++) a.push({ role: "user", text: `Where did the quokka number ${i} go?`, id: `aa${i}` });
	for (let i = 0; i < 7; i++) a.push({ role: "assistant", text: `The quokka ${i} is in the pen.`, id: `ab${i}` });
	for (let i = 0; i < 5; i++) a.push({ role: "user", text: `Feed the wallaby ${i}.`, id: `ac${i}` });
	const fileA = sessionFile(A, "/home/u/zoo", a);
	writeFileSync(join(dir, `2026-03-01T10-00-00-000Z_${A}.jsonl`), fileA);
	// Session B: a clone of A (same entries, byte-identical lines under B's header) and 3 user lines of its own:
	// the 19 copied quokka lines count once, so "quokka" matches 19 + 3 = 22 entries in all.
	const bBody = fileA.split("\n").slice(1).filter(Boolean);
	const bOwn = sessionFile(B, "/home/u/zoo", [
		...a,
		{ role: "user", text: "One more quokka, please.", id: "bb0" },
		{ role: "user", text: "And a quokka for the road.", id: "bb1" },
		{ role: "user", text: "Last quokka.", id: "bb2" },
	])
		.split("\n")
		.filter(Boolean);
	writeFileSync(join(dir, `2026-03-01T11-00-00-000Z_${B}.jsonl`), `${[bOwn[0], ...bBody, ...bOwn.slice(1 + bBody.length)].join("\n")}\n`);
	// Session C: 10,050 user lines say "wombat", every third of them (3,350) also "numbat": above and below the cap.
	const c: Array<{ role: "user"; text: string }> = [];
	for (let i = 0; i < 10_050; i++) c.push({ role: "user", text: i % 3 === 0 ? `wombat ${i} and numbat` : `wombat ${i}` });
	writeFileSync(join(dir, `2026-03-02T10-00-00-000Z_${C}.jsonl`), sessionFile(C, "/home/u/zoo", c));
	indexPath = join(t.dir, "index.sqlite");
	service = openService(join(t.dir, "sessions"), indexPath);
	service.refresh();
});
afterEach(() => cleanup());
afterAll(() => {
	service.close();
	done();
});

describe("total hit count", () => {
	it("counts every matching entry, forked copies once", () => {
		expect(service.count({ query: "quokka" })).toEqual({ count: 22, atLeast: false });
		expect(service.count({ query: "wallaby" })).toEqual({ count: 5, atLeast: false });
		expect(service.count({ query: "numbat" })).toEqual({ count: 3350, atLeast: false });
	});

	it("counts a prefix as search as you type matches it", () => {
		expect(service.count({ query: "quok", prefix: true })).toEqual({ count: 22, atLeast: false });
		expect(service.count({ query: "quok" })).toEqual({ count: 0, atLeast: false });
	});

	it("applies the search's filters and scope", () => {
		expect(service.count({ query: "quokka", filters: { roles: ["user"] } })).toEqual({ count: 15, atLeast: false });
		expect(service.count({ query: "quokka", filters: { roles: ["assistant"] } })).toEqual({ count: 7, atLeast: false });
		// Session A alone: its own 19 lines.
		expect(service.count({ query: "quokka", filters: { sessionIds: [A] } })).toEqual({ count: 19, atLeast: false });
		expect(service.count({ query: "quokka", filters: { sessionIds: [B] } })).toEqual({ count: 22, atLeast: false });
	});

	it("stops at the cap and says so", () => {
		expect(TOTAL_CAP).toBe(10_000);
		expect(service.count({ query: "wombat" })).toEqual({ count: 10_000, atLeast: true });
		// Without a query: every entry (24 + 3 + 10,050), above the cap too.
		expect(service.count({ query: "" })).toEqual({ count: 10_000, atLeast: true });
		expect(service.count({ query: "", filters: { sessionIds: [A] } })).toEqual({ count: 24, atLeast: false });
	});

	it("reads a bounded number of matches, and says when it stopped before the last one", () => {
		const store = openStore(indexPath, { readonly: true });
		try {
			// 41 fragments say "quokka" (22 entries, 19 of them copied once): a bound above them changes nothing.
			expect(countHits(store, { query: "quokka" }, 10_000, 41)).toEqual({ count: 22, atLeast: false });
			expect(countHits(store, { query: "quokka" }, 10)).toEqual({ count: 10, atLeast: true });
			// Five matches read, fewer kept by the filter: a lower bound, and said to be one.
			const few = countHits(store, { query: "quokka", filters: { roles: ["assistant"] } }, 10_000, 5);
			expect(few.atLeast).toBe(true);
			expect(few.count).toBeLessThanOrEqual(5);
		} finally {
			store.close();
		}
	});

	it("comes with a search that asks for it, for the same query and filters", () => {
		const r = service.search({ query: "quokka", filters: { roles: ["user"] }, limit: 5, total: true });
		expect(r.hits).toHaveLength(5);
		expect(r.total).toEqual({ count: 15, atLeast: false });
		expect(service.search({ query: "quokka", limit: 5 }).total).toBeUndefined();
	});
});

describe("the explorer's hit count", () => {
	const app = () =>
		render(<App service={service} size={{ columns: 100, rows: 30 }} now={T0 + 86_400_000} color={false} searchDelayMs={0} previewDelayMs={0} />);
	const title = (f: string) => f.split("\n")[0] ?? "";

	it("shows how many events match, not how many are loaded", async () => {
		const r = app();
		await type(r, "numbat");
		const f = await waitForFrame(r, (x) => title(x).includes("3,350 hits"));
		expect(f).toMatch(/hit 1 of 3,350\s*$/m);
		await press(r, KEYS.ctrlU);
		await type(r, "wombat");
		await waitForFrame(r, (x) => title(x).includes("10,000+ hits") && /hit 1 of 10,000\+\s*$/m.test(x));
	});

	it("counts the rows a fork family folds into (copies once) and ends on the last", async () => {
		const r = app();
		await type(r, "quokka");
		await waitForFrame(r, (x) => title(x).includes("22 hits"));
		await press(r, KEYS.down);
		await press(r, KEYS.end);
		await waitForFrame(r, /hit 22 of 22\s*$/m);
	});

	it("says in the status line how far End went when it stops before the last hit", async () => {
		const r = app();
		await type(r, "numbat");
		await waitForFrame(r, (x) => title(x).includes("3,350 hits"));
		await press(r, KEYS.down);
		await press(r, KEYS.end);
		const f = await waitForFrame(r, /End stopped at hit [\d,]+ of 3,350/);
		const at = Number(/End stopped at hit ([\d,]+)/.exec(f)?.[1]?.replace(/,/g, ""));
		expect(at).toBeGreaterThanOrEqual(END_FOLLOW_MAX);
		expect(f).toMatch(new RegExp(`hit ${at.toLocaleString("en-US")} of 3,350\\s*$`, "m"));
	});

	it("grouped by session, counts each session's matches in the index and the hits in the title, not the loaded rows", async () => {
		const r = app();
		await type(r, "numbat");
		await waitForFrame(r, (x) => title(x).includes("3,350 hits"));
		await press(r, "\u001b[17~");
		// Session C holds all 3,350 numbat lines; the first page loaded a screenful of them.
		const f = await waitForFrame(r, "best of 3,350 hits in this session");
		expect(title(f)).toMatch(/\[by session\]\s+3,350 hits in 1\+ sessions$/);
		expect(f).toMatch(/session 1 of 1\+\s*$/m);
		// Every quokka line of A has its copy in B (folded into one row each): one session row stands for all 22 hits.
		await press(r, KEYS.ctrlU);
		await type(r, "quokka");
		const q = await waitForFrame(r, (x) => title(x).includes("in 1 session"));
		expect(title(q)).toMatch(/\[by session\]\s+22 hits in 1 session$/);
		expect(q).toContain("best of 22 hits in this session");
	});
});
