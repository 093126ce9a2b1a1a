/**
 * I22: we never modify a file that is not our index. Another program's SQLite database (also while that program
 * holds it open in WAL mode) and any other file at --index stay byte for byte the same, with a one-line message and
 * exit 1; `status` and --no-refresh never write; a damaged index at our default location (or carrying our
 * application_id) is moved aside and rebuilt, also with its header destroyed; a directory as --index is refused
 * cleanly, leaving no temp directory behind.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";
import { IndexUnavailableError } from "../src/shared/errors.js";
import { CLI } from "./helpers/build.js";
import { CORPUS_DIR, openService, PROJECT_ROOT, tempDir } from "./helpers/corpus.js";

let tmp: ReturnType<typeof tempDir>;
let n = 0;
const fresh = (name: string) => {
	const d = join(tmp.dir, `t${n++}`);
	mkdirSync(d, { recursive: true });
	return join(d, name);
};
/** The commands' own temp folder: other test files make pi-event-search temp folders in the shared one meanwhile. */
let cliTmp: string;
beforeAll(() => {
	tmp = tempDir("pes-i22-");
	cliTmp = join(tmp.dir, "tmp");
	mkdirSync(cliTmp);
});
afterAll(() => tmp.cleanup());

/** Every file in the folder of `path`, with a hash of its bytes (search's compiled-code folder aside: code-cache.ts). */
function snapshot(path: string): Record<string, string> {
	const dir = dirname(path);
	return Object.fromEntries(
		readdirSync(dir)
			.filter((f) => f !== "pi-history-code-cache")
			.map((f) => [
				f,
				createHash("sha1")
					.update(readFileSync(join(dir, f)))
					.digest("hex"),
			]),
	);
}

function cli(index: string, ...args: string[]) {
	return spawnSync(process.execPath, [CLI, ...args, "--sessions-dir", CORPUS_DIR, "--index", index], {
		encoding: "utf8",
		env: { ...process.env, TMPDIR: cliTmp },
	});
}

/** Runs every command that opens the index and expects each to refuse with one line and exit 1. */
function expectRefusedByEveryCommand(index: string, message: RegExp, all = true): void {
	const commands = [["status"], ["index"], ["search", "handleWebhook"], ["search", "handleWebhook", "--no-refresh"], ["read", "s", "e"], ["trace", "s", "e"]];
	for (const args of all ? commands : commands.slice(0, 3)) {
		const r = cli(index, ...args);
		expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(1);
		expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
		expect(r.stderr).toMatch(message);
		expect(r.stderr).not.toMatch(/\n\s+at /);
	}
}

describe("I22: files that are not our index", () => {
	it("leaves another program's SQLite database byte for byte the same; one line, exit 1", () => {
		const app = fresh("app.db");
		const db = new Database(app);
		db.exec("CREATE TABLE precious (x TEXT)");
		db.prepare("INSERT INTO precious VALUES (?)").run("keep me");
		db.close();
		const before = snapshot(app);
		expectRefusedByEveryCommand(app, /another program's SQLite database/);
		expect(snapshot(app)).toEqual(before);
		expect(() => openService(CORPUS_DIR, app)).toThrow(IndexUnavailableError);
		expect(snapshot(app)).toEqual(before);
	});

	it("leaves it untouched while that program holds it open in WAL mode, and the program keeps its rows", async () => {
		const app = fresh("live.db");
		// The other program: WAL mode, 800 rows of which the last are still only in the WAL, connection kept open.
		const holder = spawn(
			process.execPath,
			[
				"-e",
				`const D=require("better-sqlite3"); const db=new D(${JSON.stringify(app)}); db.pragma("journal_mode = WAL"); db.pragma("wal_autocheckpoint = 0");
				db.exec("CREATE TABLE rows (n INTEGER)"); const ins=db.prepare("INSERT INTO rows VALUES (?)"); for (let i=0;i<800;i++) ins.run(i);
				process.stdout.write("ready\\n"); process.stdin.once("data", () => { process.stdout.write(String(db.prepare("SELECT count(*) AS n FROM rows").get().n)); db.close(); process.exit(0); });`,
			],
			{ cwd: PROJECT_ROOT, stdio: ["pipe", "pipe", "inherit"] },
		);
		try {
			await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
			expect(existsSync(`${app}-wal`)).toBe(true);
			const before = snapshot(app);
			expectRefusedByEveryCommand(app, /another program's SQLite database/, false);
			expect(snapshot(app)).toEqual(before);
			let out = "";
			holder.stdout.on("data", (d) => {
				out += String(d);
			});
			// "close", not "exit": a process can exit before its last output has been read.
			const exited = new Promise((resolve) => holder.once("close", resolve));
			holder.stdin.end("count\n");
			expect(await exited).toBe(0);
			expect(out).toBe("800");
		} finally {
			if (holder.exitCode === null) holder.kill();
		}
	});

	it("leaves any other file at --index as it is", () => {
		for (const content of ["my notes, not a database\n", "SQLite format 3\u0000 but short", Buffer.alloc(8192, 7)]) {
			const file = fresh("notes.txt");
			writeFileSync(file, content);
			const before = snapshot(file);
			expectRefusedByEveryCommand(file, /not a pi-event-search index/, false);
			expect(snapshot(file)).toEqual(before);
		}
	});

	it("refuses a directory as --index with a clear message and leaves no temp directory behind", () => {
		const dir = dirname(fresh("x"));
		const before = readdirSync(cliTmp);
		expectRefusedByEveryCommand(dir, /is a directory; the index must be a file path/, false);
		expect(readdirSync(dir)).toEqual([]);
		expect(readdirSync(cliTmp)).toEqual(before);
	});
});

describe("I22: status and --no-refresh never write", () => {
	it("status, search --no-refresh, read --no-refresh and trace --no-refresh leave the index file and its WAL as they were", () => {
		const index = fresh("index.sqlite");
		const sessions = join(dirname(index), "sessions");
		mkdirSync(sessions);
		writeFileSync(
			join(sessions, "a.jsonl"),
			`${JSON.stringify({ type: "session", version: 3, id: "sess-a", timestamp: "2026-01-01T00:00:00Z", cwd: "/w" })}\n${JSON.stringify({ type: "message", id: "m1", parentId: null, timestamp: "2026-01-01T00:00:01Z", message: { role: "user", content: "first words" } })}\n`,
		);
		const s = openService(sessions, index);
		s.refresh();
		s.close();
		// A new session file waits to be indexed: a command that wrote would index it.
		writeFileSync(
			join(sessions, "b.jsonl"),
			`${JSON.stringify({ type: "session", version: 3, id: "sess-b", timestamp: "2026-01-01T00:00:00Z", cwd: "/w" })}\n${JSON.stringify({ type: "message", id: "m1", parentId: null, timestamp: "2026-01-01T00:00:01Z", message: { role: "user", content: "second words" } })}\n`,
		);
		// A reader may create an empty WAL beside the file (SQLite's shared-memory protocol); no content may change.
		const hash = (p: string) => (existsSync(p) && readFileSync(p).length > 0 ? createHash("sha1").update(readFileSync(p)).digest("hex") : "empty");
		const before = [hash(index), hash(`${index}-wal`)];
		const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args, "--sessions-dir", sessions, "--index", index], { encoding: "utf8" });
		const status = run("status", "--json");
		expect(status.status, status.stderr).toBe(0);
		expect(JSON.parse(status.stdout)).toMatchObject({ sessions: 1, pending: 1 });
		const search = run("search", "second", "--no-refresh", "--json");
		expect(search.status, search.stderr).toBe(0);
		expect(JSON.parse(search.stdout).hits).toEqual([]);
		expect(run("read", "sess-a", "m1", "--no-refresh").status).toBe(0);
		expect(run("trace", "sess-a", "m1", "--no-refresh").status).toBe(0);
		expect([hash(index), hash(`${index}-wal`)]).toEqual(before);
	});

	it("status without an index creates nothing", () => {
		const index = fresh("nothing-here.sqlite");
		const r = cli(index, "status");
		expect(r.status).toBe(1);
		expect(r.stderr.trim().split("\n")).toHaveLength(1);
		expect(r.stderr).toMatch(/no index at/);
		expect(readdirSync(dirname(index))).toEqual([]);
	});
});

describe("I22: a damaged index of ours is moved aside and rebuilt", () => {
	/** A service with the index at our default location under a private home. */
	const atDefault = (home: string) =>
		HistoryService.open({ config: resolveConfig({ sessionsDirs: [CORPUS_DIR], env: {}, home, cwd: home }), busyTimeoutMs: 250 });

	it("at our default location, also when its header is destroyed", () => {
		const home = dirname(fresh("home"));
		const first = atDefault(home);
		first.refresh();
		const index = first.indexPath;
		first.close();
		const bytes = readFileSync(index);
		bytes.fill(0x41, 0, 4096);
		writeFileSync(index, bytes);
		const again = atDefault(home);
		try {
			expect(again.notes.join(" ")).toMatch(/damaged/);
			expect(readdirSync(dirname(index)).some((f) => f.includes(".corrupt-"))).toBe(true);
			again.refresh();
			expect(again.search({ query: "handleWebhook" }).hits.length).toBeGreaterThan(0);
		} finally {
			again.close();
		}
	});

	it("at our default location, another SQLite file is moved aside (kept whole) and a new index built", () => {
		const home = dirname(fresh("home"));
		const probe = atDefault(home);
		const index = probe.indexPath;
		probe.close();
		for (const f of readdirSync(dirname(index))) if (f.startsWith("index.sqlite")) writeFileSync(join(dirname(index), f), "");
		const db = new Database(index);
		db.exec("CREATE TABLE precious (x TEXT); INSERT INTO precious VALUES ('keep me')");
		db.close();
		const s = atDefault(home);
		expect(s.notes.join(" ")).toMatch(/not a pi-event-search index/);
		s.close();
		const aside = readdirSync(dirname(index)).find((f) => /\.foreign-[^-]/.test(f) && !f.endsWith("-wal") && !f.endsWith("-shm")) as string;
		const kept = new Database(join(dirname(index), aside), { readonly: true });
		expect(kept.prepare("SELECT x FROM precious").get()).toEqual({ x: "keep me" });
		kept.close();
	});

	it("elsewhere, a file with our application_id and damaged pages is moved aside; one with its header destroyed is refused", () => {
		const index = fresh("custom.sqlite");
		const s = openService(CORPUS_DIR, index);
		s.refresh();
		s.close();
		const bytes = readFileSync(index);
		for (let i = Math.floor(bytes.length * 0.3); i < Math.floor(bytes.length * 0.7); i += 7) bytes[i] = (i * 31) & 0xff;
		writeFileSync(index, bytes);
		const r = cli(index, "search", "handleWebhook");
		expect(r.status, r.stderr).toBe(0);
		expect(r.stderr).toMatch(/damaged/);
		expect(readdirSync(dirname(index)).some((f) => f.includes(".corrupt-"))).toBe(true);
		// Without our mark and away from our location, a file cannot be told apart from someone else's: left alone.
		const rebuilt = readFileSync(index);
		rebuilt.fill(0, 0, 100);
		writeFileSync(index, rebuilt);
		const before = snapshot(index);
		expectRefusedByEveryCommand(index, /not a pi-event-search index/, false);
		expect(snapshot(index)).toEqual(before);
	});
});
