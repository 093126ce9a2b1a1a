/**
 * The no-op freshness check does not list the session folders while their stamps are unchanged (issue 29): appends
 * are still found at once (every file stat'ed up to the sweep size; beyond it the hot files at once and the others
 * within a few refreshes), and a file created, removed or renamed makes the next refresh walk. Ground truth: the
 * files written here and a fresh full build.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { refresh } from "../src/index/refresh.js";
import { FRESH_STAMP_MS } from "../src/index/refresh-options.js";
import { openStore } from "../src/index/store.js";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir, testConfig } from "./helpers/corpus.js";
import { expectEqualsFreshBuild } from "./helpers/dump.js";

const HOUR_AGO = new Date(Date.now() - 3600_000);
const DIRS = ["--w-alpha--", "--w-beta--"];

function header(session: string, cwd: string): string {
	return `${JSON.stringify({ type: "session", version: 3, id: session, timestamp: "2026-03-01T00:00:00.000Z", cwd })}\n`;
}

function message(id: string, parentId: string | null, text: string): string {
	const message = { role: "user", content: [{ type: "text", text }], timestamp: 1 };
	return `${JSON.stringify({ type: "message", id, parentId, timestamp: "2026-03-01T00:00:01.000Z", message })}\n`;
}

let t: ReturnType<typeof tempDir>;
let root: string;
let service: HistoryService;
const files: string[] = [];

/** Puts every folder's modification time back an hour: their stamps are then not too recent to trust. */
function ageFolders(): void {
	for (const d of [root, ...DIRS.map((d) => join(root, d))]) utimesSync(d, HOUR_AGO, HOUR_AGO);
}

/** Ages the folders and refreshes: that refresh walks (the stamps moved), and records the stamps the next one trusts. */
function settle(): void {
	ageFolders();
	expect(service.refresh().quick).toBeUndefined();
}

function sessionFile(dir: string, n: number, word: string): string {
	const session = `0199c000-0000-7000-8000-${n.toString(16).padStart(12, "0")}`;
	const path = join(root, dir, `2026-03-01T00-00-0${n % 10}-000Z_${session}.jsonl`);
	writeFileSync(path, header(session, `/tmp/${dir}`) + message(`m${n}a`, null, `first words of session ${n} ${word}`));
	return path;
}

const hits = (query: string) => service.search({ query, filters: {} }).hits.length;

beforeAll(() => {
	t = tempDir("pes-quick-");
	root = join(t.dir, "sessions");
	for (const d of DIRS) mkdirSync(join(root, d), { recursive: true });
	for (let n = 1; n <= 6; n++) files.push(sessionFile(DIRS[n % 2] as string, n, "plain"));
	// Oldest first by modification time: files[0] is the coldest.
	files.forEach((f, i) => {
		const at = new Date(HOUR_AGO.getTime() + i * 60_000);
		utimesSync(f, at, at);
	});
	ageFolders();
	service = openService(root, join(t.dir, "index.sqlite"));
});

afterAll(() => {
	service?.close();
	t?.cleanup();
});

describe("quick freshness check", () => {
	it("walks once, then finds appends without listing the folders", () => {
		const first = service.refresh();
		expect(first).toMatchObject({ sessionsAdded: 6, files: 6 });
		expect(first.quick).toBeUndefined();
		expect(service.refresh()).toMatchObject({ quick: true, filesChanged: 0, files: 6 });
		appendFileSync(files[5] as string, message("m6b", "m6a", "zanzibar appended later"));
		expect(service.refresh()).toMatchObject({ quick: true, sessionsAppended: 1 });
		expect(hits("zanzibar")).toBe(1);
	});

	it("keeps the freshness stamp through a no-op check soon after it, and moves it when a check indexes an append", () => {
		settle();
		const stamped = service.status().freshAt as string;
		expect(service.refresh()).toMatchObject({ quick: true, filesChanged: 0 });
		// Still true: the index was fresh then and is now, and the stamp is never older than FRESH_STAMP_MS.
		expect(service.status().freshAt).toBe(stamped);
		expect(Date.now() - Date.parse(stamped)).toBeLessThan(FRESH_STAMP_MS);
		appendFileSync(files[4] as string, message("m5b", "m5a", "pangolin appended later"));
		const before = Date.now();
		expect(service.refresh()).toMatchObject({ quick: true, sessionsAppended: 1 });
		expect(Date.parse(service.status().freshAt as string)).toBeGreaterThanOrEqual(before);
		expect(hits("pangolin")).toBe(1);
	});

	it("with more files than the sweep, finds an append to a cold session within a few refreshes", () => {
		appendFileSync(files[0] as string, message("m1b", "m1a", "quokka appended to the oldest"));
		// Four files a check: the most recent one and a slice of three that moves on, so six files take two checks.
		let found = false;
		for (let i = 0; i < 3 && !found; i++) {
			expect(service.refresh({ sweepFiles: 4 })).toMatchObject({ quick: true });
			found = hits("quokka") === 1;
		}
		expect(found).toBe(true);
	});

	it("with more files than the sweep, a check that finds nothing writes nothing, and its slice still moves on", () => {
		settle();
		const other = new Database(join(t.dir, "index.sqlite"), { readonly: true });
		try {
			const version = () => other.pragma("data_version", { simple: true });
			const before = version();
			const stamped = service.status().freshAt;
			for (let i = 0; i < 3; i++) expect(service.refresh({ sweepFiles: 4 })).toMatchObject({ quick: true, filesChanged: 0 });
			// Another connection sees no commit: no stamp, no cursor written (each was a WAL commit per check).
			expect(version()).toBe(before);
			expect(service.status().freshAt).toBe(stamped);
		} finally {
			other.close();
		}
		appendFileSync(files[2] as string, message("m3b", "m3a", "numbat appended to a cold one"));
		let found = false;
		for (let i = 0; i < 3 && !found; i++) found = service.refresh({ sweepFiles: 4 }).sessionsAppended === 1;
		expect(found).toBe(true);
		expect(hits("numbat")).toBe(1);
	});

	it("in a warm process, finds each append after checks that wrote the index, and after another process indexed one", () => {
		settle();
		expect(service.refresh()).toMatchObject({ quick: true, filesChanged: 0 });
		// A no-op check once the stamp is old writes a new one; the append after it is still found.
		vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + FRESH_STAMP_MS + 1000 });
		try {
			expect(service.refresh()).toMatchObject({ quick: true, filesChanged: 0 });
		} finally {
			vi.useRealTimers();
		}
		const appendTo = (file: string, id: string, parent: string, word: string) => appendFileSync(file, message(id, parent, `${word} appended`));
		appendTo(files[3] as string, "m4b", "m4a", "aardvark");
		expect(service.refresh()).toMatchObject({ quick: true, sessionsAppended: 1 });
		appendTo(files[3] as string, "m4c", "m4b", "bandicoot");
		expect(service.refresh()).toMatchObject({ quick: true, sessionsAppended: 1 });
		appendTo(files[5] as string, "m6c", "m6b", "capybara");
		expect(service.refresh()).toMatchObject({ quick: true, sessionsAppended: 1 });
		// Another process indexes an append; the next append to the same file is ours to find.
		const other = openService(root, join(t.dir, "index.sqlite"));
		try {
			appendTo(files[3] as string, "m4d", "m4c", "dugong");
			expect(other.refresh()).toMatchObject({ quick: true, sessionsAppended: 1 });
		} finally {
			other.close();
		}
		appendTo(files[3] as string, "m4e", "m4d", "echidna");
		expect(service.refresh()).toMatchObject({ quick: true, sessionsAppended: 1 });
		for (const word of ["aardvark", "bandicoot", "capybara", "dugong", "echidna"]) expect(hits(word)).toBe(1);
		expect(service.refresh()).toMatchObject({ quick: true, filesChanged: 0 });
		expectEqualsFreshBuild(root, join(t.dir, "index.sqlite"), join(t.dir, "fresh-warm.sqlite"));
	});

	it("with more files than the sweep, reads the most recently written through their time, not by sorting every file", () => {
		settle();
		const index = join(t.dir, "index.sqlite");
		const store = openStore(index);
		try {
			// Statistics as a 25,000-file history has them: without an index on the time, SQLite sorted every file's row
			// (each holding its parser state) to find the newest, in every fresh process.
			store.db.exec("ANALYZE");
			store.db.exec("DELETE FROM sqlite_stat1 WHERE tbl = 'files'");
			const put = store.db.prepare("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES ('files', ?, ?)");
			for (const idx of ["sqlite_autoindex_files_1", "files_mtime"]) put.run(idx, "25149 1");
			store.db.exec("ANALYZE sqlite_schema");
			expect(refresh(store, testConfig(root, index).roots, { sweepFiles: 4 })).toMatchObject({ quick: true, filesChanged: 0 });
			const newest = store.preparedSql().filter((sql) => /ORDER BY mtime_ms DESC/.test(sql));
			expect(newest.length).toBe(1);
			const plan = store.db
				.prepare(`EXPLAIN QUERY PLAN ${newest[0]}`)
				.all(1)
				.map((r) => (r as { detail: string }).detail);
			expect(plan.some((step) => /files_mtime/.test(step))).toBe(true);
			expect(plan.filter((step) => /TEMP B-TREE/.test(step))).toEqual([]);
		} finally {
			store.close();
		}
	});

	it("walks again when a file is created, removed or renamed, even with the folder's time put back", () => {
		const dir = join(root, DIRS[0] as string);
		const before = statSync(dir);
		files.push(sessionFile(DIRS[0] as string, 7, "wombat"));
		utimesSync(dir, before.atime, before.mtime);
		const added = service.refresh();
		expect(added.quick).toBeUndefined();
		expect(added).toMatchObject({ sessionsAdded: 1 });
		expect(hits("wombat")).toBe(1);
		settle();
		expect(service.refresh()).toMatchObject({ quick: true });
		rmSync(files[1] as string);
		expect(service.refresh()).toMatchObject({ sessionsRemoved: 1 });
		settle();
		const moved = join(root, DIRS[1] as string, "2026-03-02T00-00-00-000Z_moved.jsonl");
		renameSync(files[6] as string, moved);
		const renamed = service.refresh();
		expect(renamed.quick).toBeUndefined();
		expect(hits("wombat")).toBe(1);
		settle();
		expect(service.refresh()).toMatchObject({ quick: true });
		expectEqualsFreshBuild(root, join(t.dir, "index.sqlite"), join(t.dir, "fresh.sqlite"));
	});
});

describe("a check that names its files, or asks for every one", () => {
	it("finds each append to a cold session of a large history at once", () => {
		const u = tempDir("pes-quick-named-");
		try {
			const dir = join(u.dir, "sessions", "--w-gamma--");
			mkdirSync(dir, { recursive: true });
			const many = Array.from({ length: 40 }, (_, n) => {
				const session = `0199c100-0000-7000-8000-${n.toString(16).padStart(12, "0")}`;
				const path = join(dir, `2026-03-01T00-00-00-000Z_${session}.jsonl`);
				writeFileSync(path, header(session, "/tmp/gamma") + message(`g${n}a`, null, `words of session ${n}`));
				const at = new Date(HOUR_AGO.getTime() + n * 60_000);
				utimesSync(path, at, at);
				return path;
			});
			for (const d of [join(u.dir, "sessions"), dir]) utimesSync(d, HOUR_AGO, HOUR_AGO);
			const named = openService(join(u.dir, "sessions"), join(u.dir, "index.sqlite"));
			try {
				expect(named.refresh().sessionsAdded).toBe(40);
				// A sweep of four files checks the most recent one and a slice of three from the oldest on: the files in the
				// middle are in none of these checks.
				const found = (word: string) => named.search({ query: word, filters: {} }).hits.length;
				for (const [i, word] of ["wombat", "dugong", "tapir", "okapi", "kakapo"].entries()) {
					const file = many[20 + i * 3] as string;
					appendFileSync(file, message(`g${20 + i * 3}b`, `g${20 + i * 3}a`, `${word} appended to a cold one`));
					// The explorer's watch names the file it saw change (service/folder-watch.ts, refresh-thread.ts); `pi-history index`
					// stats every file.
					const options = i % 2 === 0 ? { priority: [file] } : { everyFile: true };
					expect(named.refresh({ sweepFiles: 4, ...options }), word).toMatchObject({ quick: true, sessionsAppended: 1 });
					expect(found(word), word).toBe(1);
				}
			} finally {
				named.close();
			}
		} finally {
			u.cleanup();
		}
	});
});
