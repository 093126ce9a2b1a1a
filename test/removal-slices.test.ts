/**
 * Removing or rewriting a big session inside pi (issue 32 item 9): the session leaves every answer in one small write,
 * and its rows are deleted in chunks bounded by rows, a write transaction each, with turns of the event loop between
 * them; the result equals a fresh build, also when the refresh is killed (kill -9) between chunks and a later refresh
 * goes on. No timing: slices, turns and rows are counted.
 */
import { fork } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { openService, PROJECT_ROOT, tempDir } from "./helpers/corpus.js";
import { expectSameIndex } from "./helpers/dump.js";
import { checkInvariants } from "./helpers/reliability.js";

const BIG = "0199c000-0000-7000-8000-00000000b160";
const ENTRIES = 1500;
/** Rows per chunk: the big session is many chunks. */
const ROWS = 100;
const id = (i: number) => `b${i.toString(16).padStart(7, "0")}`;

function sessionText(sessionId: string, entries: number, word: (i: number) => string): string {
	const lines = [JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/tmp/w" })];
	for (let i = 1; i <= entries; i++) {
		const ts = new Date(Date.UTC(2026, 2, 1) + i * 1000).toISOString();
		const message = { role: i % 2 ? "user" : "assistant", content: [{ type: "text", text: `${word(i)} retry the webhook ${i}` }], timestamp: 1 };
		lines.push(JSON.stringify({ type: "message", id: id(i), parentId: i === 1 ? null : id(i - 1), timestamp: ts, message }));
	}
	return `${lines.join("\n")}\n`;
}

let t: ReturnType<typeof tempDir>;
let root: string;
let bigFile: string;
/** A fresh build of the folder without the big session. */
let without: string;

beforeAll(() => {
	t = tempDir("pes-removal-");
	root = join(t.dir, "sessions");
	mkdirSync(join(root, "--w--"), { recursive: true });
	for (let k = 0; k < 3; k++)
		writeFileSync(
			join(root, "--w--", `2026-03-0${k + 2}T00-00-00-000Z_small${k}.jsonl`),
			sessionText(`0199c000-0000-7000-8000-00000000000${k}`, 20, () => `small${k}`),
		);
	without = join(t.dir, "without.sqlite");
	const fresh = openService(root, without);
	fresh.refresh();
	fresh.close();
	bigFile = join(root, "--w--", "2026-03-01T00-00-00-000Z_big.jsonl");
	writeFileSync(
		bigFile,
		sessionText(BIG, ENTRIES, (i) => (i % 3 === 0 ? "zebrafjord" : "ordinary")),
	);
});

afterAll(() => t.cleanup());

/** Rows of the index as another process sees them. */
function peek(index: string): { events: number; fts: number } {
	const db = new Database(index, { readonly: true });
	try {
		const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
		return { events: n("SELECT count(*) AS n FROM events"), fts: n("SELECT count(*) AS n FROM fts_docsize") };
	} finally {
		db.close();
	}
}

/** What a user sees of the big session: hits of its own word, of words every session has, and the session list. */
function seen(service: HistoryService): { own: number; bigOnPage: boolean; listed: boolean } {
	const own = service.search({ query: "zebrafjord", limit: 5 }).hits.length;
	const bigOnPage = service.search({ query: "retry webhook", limit: 50 }).hits.some((h) => h.sessionId === BIG);
	const listed = service.sessions({}).sessions.some((s) => s.id === BIG);
	return { own, bigOnPage, listed };
}

describe("removing a big session in slices", () => {
	it("hides it at once, deletes its rows a bounded chunk per slice with turns between, and equals a fresh build", async () => {
		const index = join(t.dir, "live.sqlite");
		const live = openService(root, index);
		live.refresh();
		const full = peek(index);
		expect(seen(live).own).toBeGreaterThan(0);
		renameSync(bigFile, `${bigFile}.away`);
		const reader = openService(root, index);
		const steps: Array<{ events: number; fts: number; turns: number } & ReturnType<typeof seen>> = [];
		let turns = 0;
		let on = true;
		const tick = () => {
			turns++;
			if (on) setImmediate(tick);
		};
		setImmediate(tick);
		try {
			const summary = await live.refreshSliced({
				batchMs: 0,
				removalChunk: ROWS,
				onSlice: () => {
					steps.push({ ...peek(index), turns, ...seen(reader) });
				},
			});
			on = false;
			expect(summary).toMatchObject({ sessionsRemoved: 1, pending: 0 });
		} finally {
			renameSync(`${bigFile}.away`, bigFile);
		}
		// Many slices, each deleting at most a chunk of rows (an event and its fragments count as rows), with turns
		// of the event loop between them; from the first on, no answer shows the session.
		expect(steps.length).toBeGreaterThan((2 * ENTRIES) / ROWS / 2);
		let before = full;
		for (const [i, step] of steps.entries()) {
			expect(before.events + before.fts - (step.events + step.fts)).toBeLessThanOrEqual(ROWS);
			if (i > 0) expect(step.turns).toBeGreaterThan((steps[i - 1] as { turns: number }).turns);
			expect(step).toMatchObject({ own: 0, listed: false, bigOnPage: false });
			before = step;
		}
		expect(steps.at(-1)?.events).toBe(peek(without).events);
		reader.close();
		live.close();
		renameSync(bigFile, `${bigFile}.away`);
		try {
			expectSameIndex(index, without, "a big session removed in slices");
		} finally {
			renameSync(`${bigFile}.away`, bigFile);
		}
	});

	it("a rewritten big session: the old rows go in chunks too, and the index equals a fresh build", async () => {
		const index = join(t.dir, "rewrite.sqlite");
		const live = openService(root, index);
		live.refresh();
		const original = sessionText(BIG, ENTRIES, (i) => (i % 3 === 0 ? "zebrafjord" : "ordinary"));
		// The first entry's text changed in place: the file is read again from its start (a rebuild).
		writeFileSync(bigFile, original.replace('ordinary retry the webhook 1"', 'changed retry the webhook 1"'));
		let slices = 0;
		try {
			const summary = await live.refreshSliced({ batchMs: 0, removalChunk: ROWS, onSlice: () => slices++ });
			expect(summary).toMatchObject({ sessionsRebuilt: 1, pending: 0 });
			expect(slices).toBeGreaterThan((2 * ENTRIES) / ROWS / 2);
			live.close();
			const fresh = openService(root, join(t.dir, "rewrite-fresh.sqlite"));
			fresh.refresh();
			fresh.close();
			expectSameIndex(index, join(t.dir, "rewrite-fresh.sqlite"), "a big session rewritten, removed in slices");
		} finally {
			writeFileSync(bigFile, original);
		}
	});

	it("killed (kill -9) between chunks: the session stays hidden, and the next refresh ends the removal equal to a fresh build", async () => {
		const index = join(t.dir, "killed.sqlite");
		const live = openService(root, index);
		live.refresh();
		live.close();
		renameSync(bigFile, `${bigFile}.away`);
		try {
			const child = join(PROJECT_ROOT, "test/support/refresh-child.mjs");
			const proc = fork(child, [root, index, `sliced:4:${ROWS}`], { stdio: "ignore", execArgv: [] });
			const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
			const stopped = await new Promise<boolean>((resolve) => {
				proc.on("message", (m) => {
					if (m === "stopped") resolve(proc.kill("SIGKILL"));
				});
				void exited.then(() => resolve(false));
			});
			await exited;
			expect(stopped && proc.signalCode).toBe("SIGKILL");
			// Killed mid-removal: some of the session's rows are left, none of them in any answer.
			const left = peek(index);
			expect(left.events).toBeGreaterThan(peek(without).events);
			checkInvariants(index, false);
			const after = openService(root, index);
			expect(seen(after)).toEqual({ own: 0, bigOnPage: false, listed: false });
			expect(after.countPending()).toBe(1);
			const summary = after.refresh();
			expect(summary.pending).toBe(0);
			expect(after.countPending()).toBe(0);
			after.close();
			checkInvariants(index);
			expectSameIndex(index, without, "a removal killed midway, ended by the next refresh");
		} finally {
			renameSync(`${bigFile}.away`, bigFile);
		}
	}, 120_000);
});
