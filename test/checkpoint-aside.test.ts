/**
 * A commit whose checkpoint goes to a worker thread (src/index/checkpoint-aside.ts): the committing call copies no
 * page into the database file, SQLite's automatic checkpoints wait until the worker is done (with a commit made
 * meanwhile, until it checkpointed that one too), and the file then holds what was committed. No timing: the
 * worker's answer is awaited, not assumed.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as CheckpointModule from "../src/index/checkpoint-aside.js";
import { DIST } from "./helpers/build.js";
import { tempDir } from "./helpers/corpus.js";

let tmp: ReturnType<typeof tempDir>;
// The built module: a worker thread can only run compiled JavaScript.
let mod: typeof CheckpointModule;

/** A WAL database with one table, and a transaction open that adds about `pages` pages to it. */
function bigTransaction(file: string, pages: number): Database.Database {
	const db = new Database(file);
	db.pragma("journal_mode = WAL");
	db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT NOT NULL)");
	db.pragma("wal_checkpoint(TRUNCATE)");
	db.exec("BEGIN IMMEDIATE");
	const insert = db.prepare("INSERT INTO t (pad) VALUES (?)");
	for (let i = 0; i < pages * 4; i++) insert.run("x".repeat(900));
	return db;
}

/** Waits until the connection's automatic checkpoints are back (the worker ended). */
async function resumed(db: Database.Database): Promise<number> {
	for (let i = 0; i < 3000; i++) {
		const pages = db.pragma("wal_autocheckpoint", { simple: true }) as number;
		if (pages !== 0) return pages;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error("the checkpoint worker never ended");
}

describe("commitAside", () => {
	beforeAll(async () => {
		mod = (await import(join(DIST, "index", "checkpoint-aside.js"))) as typeof CheckpointModule;
		tmp = tempDir("pes-ckpt-");
	});
	afterAll(() => tmp.cleanup());

	it("commits without checkpointing in the call; automatic checkpoints wait for the worker, then come back as they were", async () => {
		const file = join(tmp.dir, "idle.sqlite");
		const db = bigTransaction(file, 3000);
		const before = statSync(file).size;
		// A worker that does nothing: whatever reaches the database file was copied by the commit itself.
		mod.commitAside(db, new URL("data:text/javascript,process.exit(0)"));
		expect(db.inTransaction).toBe(false);
		expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
		expect(await resumed(db)).toBe(1000);
		expect(statSync(file).size).toBe(before);
		expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 12000 });
		db.close();
	});

	it("checkpoints in the worker thread, a commit made meanwhile after the first: the database file then holds both", async () => {
		const file = join(tmp.dir, "worker.sqlite");
		const db = bigTransaction(file, 3000);
		const before = statSync(file).size;
		db.pragma("wal_autocheckpoint = 500");
		mod.commitAside(db);
		expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
		db.exec("BEGIN IMMEDIATE");
		const insert = db.prepare("INSERT INTO t (pad) VALUES (?)");
		for (let i = 0; i < 4000; i++) insert.run("y".repeat(900));
		mod.commitAside(db);
		expect(await resumed(db)).toBe(500);
		expect(statSync(file).size).toBeGreaterThan(before + 4000 * 4096 * 0.9);
		// Nothing left for this connection to copy.
		const [ckpt] = db.pragma("wal_checkpoint(PASSIVE)") as Array<{ log: number; checkpointed: number }>;
		expect(ckpt?.checkpointed).toBe(ckpt?.log);
		db.close();
	});

	it("two commits before the first worker ends: checkpoints come back once both are done", async () => {
		const db = bigTransaction(join(tmp.dir, "two.sqlite"), 200);
		const idle = new URL("data:text/javascript,process.exit(0)");
		mod.commitAside(db, idle);
		db.exec("BEGIN IMMEDIATE");
		db.prepare("INSERT INTO t (pad) VALUES ('y')").run();
		mod.commitAside(db, idle);
		expect(await resumed(db)).toBe(1000);
		db.close();
	});

	it("overlapping pauses (a worker still copying while summary runs checkpoint turn by turn) resume once, as they were", () => {
		const db = new Database(join(tmp.dir, "pauses.sqlite"));
		db.pragma("journal_mode = WAL");
		db.pragma("wal_autocheckpoint = 700");
		const worker = mod.pauseCheckpoints(db);
		const runs = mod.pauseCheckpoints(db);
		const pages = () => db.pragma("wal_autocheckpoint", { simple: true });
		expect(pages()).toBe(0);
		worker();
		worker();
		expect(pages()).toBe(0);
		runs();
		expect(pages()).toBe(700);
		db.close();
	});

	it("closing the index ends its worker: its connection closes with the owner's, so the WAL goes with it", async () => {
		const file = join(tmp.dir, "end.sqlite");
		const db = bigTransaction(file, 300);
		mod.commitAside(db);
		// The worker checkpointed, so it holds its connection, idle for a second.
		await resumed(db);
		mod.endCheckpointAside(db);
		db.close();
		// The last connection to close removes the WAL: the worker's was closed first.
		expect(existsSync(`${file}-wal`)).toBe(false);
		expect(existsSync(`${file}-shm`)).toBe(false);
	});

	it("a refresh's checkpoint worker never opens the index after the service closed it (nothing appears beside it)", async () => {
		const { HistoryService } = (await import(join(DIST, "service", "service.js"))) as typeof import("../src/service/service.js");
		const { resolveConfig } = (await import(join(DIST, "shared", "config.js"))) as typeof import("../src/shared/config.js");
		const agentDir = join(tmp.dir, "agent");
		const sessions = join(agentDir, "sessions", "--work--");
		mkdirSync(sessions, { recursive: true });
		// A message past the sliced refresh's read slice: it is classified across turns and committed aside.
		const header = { type: "session", version: 3, id: "0190aaaa-0000-7000-8000-000000010000", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work" };
		const lines = [
			header,
			...[0, 1, 2].map((i) => ({
				type: "message",
				id: `0000000${i + 1}`,
				parentId: i ? `0000000${i}` : null,
				timestamp: "2026-01-01T00:00:01.000Z",
				message: { role: "user", content: [{ type: "text", text: i === 1 ? "w ".repeat(1_500_000) : `short ${i}` }], timestamp: 1 },
			})),
		];
		writeFileSync(join(sessions, "s.jsonl"), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const config = resolveConfig({
			env: { PI_CODING_AGENT_DIR: agentDir, PI_EVENT_SEARCH_INDEX: join(tmp.dir, "refresh-index", "index.sqlite") },
			home: agentDir,
		});
		const service = HistoryService.open({ config });
		await service.refreshSliced({ batchMs: 10 });
		service.close();
		const beside = () => readdirSync(join(tmp.dir, "refresh-index")).sort();
		// A worker still starting when the service closed used to open the index a moment later, for a second (its idle time).
		for (let i = 0; i < 150; i++) {
			expect(beside()).toEqual(["index.sqlite"]);
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	});

	it("a failed commit throws and leaves automatic checkpoints as they were", () => {
		const db = new Database(join(tmp.dir, "none.sqlite"));
		db.pragma("journal_mode = WAL");
		expect(() => mod.commitAside(db)).toThrow(/no transaction is active/);
		expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
		db.close();
	});
});
