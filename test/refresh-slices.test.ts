/**
 * A refresh inside a big file hands the event loop back (issue 13 item 3): the work is cut at entry boundaries,
 * each slice committed and resumed by the next, other callbacks run in between, and the result equals a fresh
 * build. No timing: slices and event-loop turns are counted.
 */
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CallerContext, IndexHandle, REFRESH_SLICE } from "../src/extension/index-handle.js";
import { DIST } from "./helpers/build.js";
import { openService, tempDir, testConfig } from "./helpers/corpus.js";
import { expectSameIndex } from "./helpers/dump.js";

const SESSION = "0199c000-0000-7000-8000-0000000005e1";
const id = (i: number) => `s${i.toString(16).padStart(7, "0")}`;

function entry(i: number): string {
	const ts = new Date(Date.UTC(2026, 2, 1) + i * 1000).toISOString();
	const text = `slice test entry ${i} ${"lorem ipsum ".repeat(20)}`;
	return `${JSON.stringify({ type: "message", id: id(i), parentId: i === 1 ? null : id(i - 1), timestamp: ts, message: { role: i % 2 ? "user" : "assistant", content: [{ type: "text", text }], timestamp: 1 } })}\n`;
}

/** Counts turns of the event loop (setImmediate callbacks) until stopped. */
function ticker(): { stop: () => number } {
	let ticks = 0;
	let on = true;
	const tick = () => {
		ticks++;
		if (on) setImmediate(tick);
	};
	setImmediate(tick);
	return {
		stop: () => {
			on = false;
			return ticks;
		},
	};
}

let t: ReturnType<typeof tempDir>;
let root: string;
let file: string;

beforeEach(() => {
	t = tempDir("pes-slices-");
	root = join(t.dir, "sessions");
	mkdirSync(join(root, "--w--"), { recursive: true });
	file = join(root, "--w--", "2026-03-01T00-00-00-000Z_s.jsonl");
	const lines = [`${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/tmp/w" })}\n`];
	for (let i = 1; i <= 4000; i++) lines.push(entry(i));
	writeFileSync(file, lines.join(""));
});

afterEach(() => t.cleanup());

describe("sliced refresh", () => {
	it("cuts a big file at entry boundaries, lets the event loop run between slices, and equals a fresh build", async () => {
		const service = openService(root, join(t.dir, "live.sqlite"));
		const bytes = readFileSync(file);
		const peek = () => new Database(join(t.dir, "live.sqlite"), { readonly: true });
		const ends: number[] = [];
		const ticks: number[] = [];
		let turns = 0;
		let on = true;
		const tick = () => {
			turns++;
			if (on) setImmediate(tick);
		};
		setImmediate(tick);
		const summary = await service.refreshSliced({
			sliceBytes: 32 * 1024,
			batchMs: 0,
			onSlice: () => {
				// Another connection sees each slice committed: the file's indexed prefix so far.
				const db = peek();
				try {
					ends.push((db.prepare("SELECT indexed_bytes AS n FROM files").get() as { n: number }).n);
				} finally {
					db.close();
				}
				ticks.push(turns);
			},
		});
		on = false;
		expect(summary).toMatchObject({ sessionsAdded: 1, eventsIngested: 4000, pending: 0 });
		expect(ends.length).toBeGreaterThanOrEqual(Math.floor(bytes.length / (32 * 1024)));
		for (const [i, end] of ends.entries()) {
			// Each slice ends right after a complete line, further than the one before.
			expect(bytes[end - 1]).toBe(10);
			if (i > 0) expect(end).toBeGreaterThan(ends[i - 1] as number);
		}
		expect(ends.at(-1)).toBe(bytes.length);
		// The loop turned between every two slices.
		for (let i = 1; i < ticks.length; i++) expect(ticks[i]).toBeGreaterThan(ticks[i - 1] as number);
		service.close();
		const fresh = openService(root, join(t.dir, "fresh.sqlite"));
		fresh.refresh();
		fresh.close();
		expectSameIndex(join(t.dir, "live.sqlite"), join(t.dir, "fresh.sqlite"), "sliced cold index");
	});

	it("cuts a slice by entries as well as bytes, and each slice's prefix digest is the file's", async () => {
		// What a slice costs to write grows with its entries (rows, FTS rows) as much as with its bytes: a pi turn is
		// bounded by both (REFRESH_SLICE). Slices of 1 MiB would take the whole file at once here.
		const service = openService(root, join(t.dir, "live.sqlite"));
		const peek = (path: string, sql: string) => {
			const db = new Database(path, { readonly: true });
			try {
				return db.prepare(sql).get() as Record<string, number | string>;
			} finally {
				db.close();
			}
		};
		const counts: number[] = [];
		const digests: Array<[number, string]> = [];
		const summary = await service.refreshSliced({
			sliceBytes: 1024 * 1024,
			sliceEntries: 100,
			batchMs: 0,
			onSlice: () => {
				counts.push(peek(join(t.dir, "live.sqlite"), "SELECT count(*) AS n FROM events").n as number);
				const row = peek(join(t.dir, "live.sqlite"), "SELECT indexed_bytes AS n, prefix_hash AS h FROM files");
				digests.push([row.n as number, row.h as string]);
			},
		});
		service.close();
		expect(summary).toMatchObject({ sessionsAdded: 1, eventsIngested: 4000, pending: 0 });
		expect(counts.length).toBeGreaterThanOrEqual(40);
		for (const [i, n] of counts.entries()) expect(n - (counts[i - 1] ?? 0)).toBeLessThanOrEqual(100);
		// Later slices go on from the hash the first slice left (not the file read again): each digest is still the
		// SHA-1 of the file's bytes up to the slice's end.
		const bytes = readFileSync(file);
		for (const [end, digest] of digests) expect(digest).toBe(`f:${end}:${createHash("sha1").update(bytes.subarray(0, end)).digest("hex")}`);
	});

	it("never cuts a legacy v1 file (ids derived from the whole file): refreshes end, equal to a fresh build", async () => {
		// pi 0.x's first format: a header without a version, entries without ids (docs/design.md §10). A 2.3 MB real v1 file
		// over the slice size was read again and again from its start, forever. The v1 file alone: the big v3 file of the
		// other tests would only be indexed three more times here.
		rmSync(file);
		const v1 = join(root, "--w--", "2025-01-01T00-00-00-000Z_v1.jsonl");
		const lines = [`${JSON.stringify({ type: "session", id: "legacy-v1-session", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/tmp/w" })}\n`];
		for (let i = 1; i <= 600; i++)
			lines.push(
				`${JSON.stringify({ type: "message", timestamp: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(), message: { role: i % 2 ? "user" : "assistant", content: [{ type: "text", text: `legacy entry ${i} ${"dolor ".repeat(30)}` }] } })}\n`,
			);
		writeFileSync(v1, lines.join(""));
		const sync = openService(root, join(t.dir, "sync.sqlite"));
		expect(sync.refresh({ sliceBytes: 16 * 1024 }).pending).toBe(0);
		sync.close();
		const sliced = openService(root, join(t.dir, "live.sqlite"));
		expect((await sliced.refreshSliced({ sliceBytes: 16 * 1024, batchMs: 0 })).pending).toBe(0);
		sliced.close();
		const fresh = openService(root, join(t.dir, "fresh.sqlite"));
		fresh.refresh();
		fresh.close();
		expectSameIndex(join(t.dir, "sync.sqlite"), join(t.dir, "fresh.sqlite"), "v1 file, synchronous slices");
		expectSameIndex(join(t.dir, "live.sqlite"), join(t.dir, "fresh.sqlite"), "v1 file, sliced refresh");
	});

	it("a big file with branches in many slices is classified once its last slice lands, equal to a fresh build", async () => {
		// Every 50th entry hangs off an entry 10 back: a branch (the leaf moves) in most slices.
		const lines = [`${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/tmp/w" })}\n`];
		for (let i = 1; i <= 3000; i++) {
			const parent = i === 1 ? null : i % 50 === 0 ? id(i - 10) : id(i - 1);
			lines.push(entry(i).replace(`"parentId":${JSON.stringify(i === 1 ? null : id(i - 1))}`, `"parentId":${JSON.stringify(parent)}`));
		}
		writeFileSync(file, lines.join(""));
		const service = openService(root, join(t.dir, "live.sqlite"));
		let slices = 0;
		await service.refreshSliced({ sliceBytes: 16 * 1024, batchMs: 0, onSlice: () => slices++ });
		expect(slices).toBeGreaterThan(20);
		const last = service.read({ sessionId: SESSION, entryId: id(3000), before: 0, after: 0 });
		expect(last.classification.branchState).toBe("selected");
		expect(service.read({ sessionId: SESSION, entryId: id(2999), before: 0, after: 0 }).classification.branchState).toBe("alternate");
		service.close();
		const fresh = openService(root, join(t.dir, "fresh.sqlite"));
		fresh.refresh();
		fresh.close();
		expectSameIndex(join(t.dir, "live.sqlite"), join(t.dir, "fresh.sqlite"), "sliced index of a branched file");
	});

	it("the pipelined refresh (a reader thread ahead of the writer) reads a big file slice by slice, equal to a fresh build", async () => {
		// The built service: its reader thread loads compiled code (dist/ is kept up to date by the global setup).
		const built = (await import(join(DIST, "service", "service.js"))) as typeof import("../src/service/service.js");
		const service = built.HistoryService.open({ config: testConfig(root, join(t.dir, "live.sqlite")) });
		const summary = await service.refreshAsync({ sliceBytes: 16 * 1024, workerThresholdBytes: 0 });
		expect(summary).toMatchObject({ sessionsAdded: 1, eventsIngested: 4000, pending: 0 });
		service.close();
		const fresh = openService(root, join(t.dir, "fresh.sqlite"));
		fresh.refresh();
		fresh.close();
		expectSameIndex(join(t.dir, "live.sqlite"), join(t.dir, "fresh.sqlite"), "pipelined sliced cold index");
	});

	it("an extension tool call's refresh inside a big file yields to pi's event loop and answers with everything", async () => {
		const handle = new IndexHandle(
			(cwd) => openService(root, join(t.dir, `ext-${cwd.length}.sqlite`)),
			{ call: 600_000, background: 600_000, delay: 600_000 },
			() => {},
		);
		const ctx = {
			cwd: "/tmp/w",
			sessionManager: {
				getSessionId: () => SESSION,
				getHeader: () => ({ type: "session", id: SESSION, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/tmp/w" }),
				getLeafId: () => null,
				getSessionFile: () => undefined,
				getEntries: () => [],
			},
		} as unknown as CallerContext;
		const first = ticker();
		const cold = await handle.forCall(ctx);
		const coldTurns = first.stop();
		expect(cold.refresh.ran && cold.refresh.summary.eventsIngested).toBe(4000);
		// A file of many slices, each its own transaction: pi's loop got a turn after each.
		expect(coldTurns).toBeGreaterThanOrEqual(Math.floor(readFileSync(file).length / REFRESH_SLICE.bytes));
		for (let i = 4001; i <= 4003; i++) appendFileSync(file, entry(i));
		const again = await handle.forCall(ctx);
		expect(again.refresh.ran && again.refresh.summary.sessionsAppended).toBe(1);
		const hit = again.service.search({ query: "slice test entry 4003", limit: 1 }).hits[0];
		expect(hit?.entryId).toBe(id(4003));
		handle.shutdown(ctx, 0);
		await handle.idle();
		// The final refresh and close run on the next turn.
		await new Promise((resolve) => setImmediate(resolve));
	});

	it("walks and removes a history of thousands of files between turns of the event loop, and equals a fresh build", async () => {
		// 12 project folders of 50 small sessions: 600 files (a long-used ~/.pi holds thousands; the steps are per folder
		// and per file, so these show the slicing as well).
		const many = join(t.dir, "many");
		const files: string[] = [];
		for (let d = 0; d < 12; d++) {
			const dir = join(many, `--p${d}--`);
			mkdirSync(dir, { recursive: true });
			for (let f = 0; f < 50; f++) {
				const n = d * 50 + f;
				const path = join(dir, `2026-03-01T00-00-00-000Z_${n}.jsonl`);
				const header = {
					type: "session",
					version: 3,
					id: `0199c000-0000-7000-8000-${n.toString(16).padStart(12, "0")}`,
					timestamp: "2026-03-01T00:00:00.000Z",
					cwd: `/tmp/p${d}`,
				};
				const message = {
					type: "message",
					id: "a1",
					parentId: null,
					timestamp: "2026-03-01T00:00:01.000Z",
					message: { role: "user", content: [{ type: "text", text: `session ${n}` }], timestamp: 1 },
				};
				writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);
				files.push(path);
			}
		}
		const service = openService(many, join(t.dir, "many.sqlite"));
		try {
			// batchMs 0: a pause after every step, so the turns count the steps whatever the machine's speed.
			let turns = ticker();
			let beforeIngest = -1;
			const cold = await service.refreshSliced({
				batchMs: 0,
				onProgress: (p) => {
					if (p.phase === "ingest" && beforeIngest < 0) beforeIngest = turns.stop();
				},
			});
			turns.stop();
			expect(cold.files).toBe(600);
			expect(cold.sessionsAdded).toBe(600);
			// Discovery alone: one turn per folder at least (and per 64 files within one).
			expect(beforeIngest).toBeGreaterThanOrEqual(12);
			// Half the folders deleted: each removal is its own step, and the loop runs between them.
			for (const path of files.slice(0, 300)) rmSync(path);
			let afterPlan = -1;
			turns = { stop: () => 0 };
			const removed = await service.refreshSliced({
				batchMs: 0,
				onProgress: (p) => {
					if (p.phase === "ingest") turns = ticker();
					if (p.phase === "done") afterPlan = turns.stop();
				},
			});
			expect(removed.sessionsRemoved).toBe(300);
			expect(afterPlan).toBeGreaterThanOrEqual(300);
		} finally {
			service.close();
		}
		const fresh = openService(many, join(t.dir, "many-fresh.sqlite"));
		fresh.refresh();
		fresh.close();
		expectSameIndex(join(t.dir, "many.sqlite"), join(t.dir, "many-fresh.sqlite"));
	}, 120_000);
});
