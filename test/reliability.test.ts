/**
 * Faults and hostile input (issue [reliability]): files changing under the indexer, kill -9 during writes, a
 * damaged or locked index, hostile session files. After every fault: no crash, a clear note, nothing lost, and
 * the index equals a fresh build of the same files.
 */
import { fork, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { IndexUnavailableError, NotFoundError } from "../src/shared/errors.js";
import { CLI } from "./helpers/build.js";
import { CORPUS_DIR, copyCorpus, indexedCorpus, loadManifest, type Manifest, openService, PROJECT_ROOT, tempDir } from "./helpers/corpus.js";
import { expectEqualsFreshBuild as equalsFreshBuild } from "./helpers/dump.js";
import { assistant, SessionManager, user } from "./helpers/pi-sessions.js";

// The child processes and the CLI run dist/, brought up to date by vitest's globalSetup (test/support/global-setup.ts).
let tmp: ReturnType<typeof tempDir>;
let counter = 0;
const cleanups: Array<() => void> = [];
beforeAll(() => {
	tmp = tempDir("pes-rel-");
});
afterAll(() => {
	for (const c of cleanups.splice(0)) c();
	tmp.cleanup();
});

function fresh(dir: string) {
	return join(tmp.dir, `w${counter++}`, dir);
}

/** Asserts that `index` holds exactly what a fresh full build of `sessions` holds. */
function expectEqualsFreshBuild(sessions: string, index: string): void {
	equalsFreshBuild(sessions, index, join(tmp.dir, `fresh-${counter++}.sqlite`));
}

/** Our own invariants over an index file: every row hangs off a session and the counts agree. */
function checkInvariants(index: string, deep = true): void {
	const db = new Database(index, { readonly: true });
	try {
		expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
		const orphanEvents = db.prepare("SELECT count(*) AS n FROM events e LEFT JOIN sessions s ON s.id = e.session_id WHERE s.id IS NULL").get() as { n: number };
		expect(orphanEvents.n).toBe(0);
		const counts = db.prepare("SELECT s.id, s.entries, (SELECT count(*) FROM events e WHERE e.session_id = s.id) AS n FROM sessions s").all() as Array<{
			entries: number;
			n: number;
		}>;
		for (const c of counts) expect(c.n).toBe(c.entries);
		const orphanCalls = db.prepare("SELECT count(*) AS n FROM tool_calls t LEFT JOIN events e ON e.id = t.event_id WHERE e.id IS NULL").get() as { n: number };
		expect(orphanCalls.n).toBe(0);
		const sessionsWithoutFile = db.prepare("SELECT count(*) AS n FROM sessions s LEFT JOIN files f ON f.id = s.file_id WHERE f.id IS NULL").get() as {
			n: number;
		};
		expect(sessionsWithoutFile.n).toBe(0);
		const fts = new Database(index);
		try {
			// FTS5's own check of its index structures.
			fts.exec("INSERT INTO fts(fts) VALUES ('integrity-check')");
		} finally {
			fts.close();
		}
		if (!deep) return;
		db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, fts, 'instance')");
		const strayTokens = db
			.prepare("SELECT count(*) AS n FROM temp.v v LEFT JOIN events e ON e.id = v.doc / 1024 WHERE e.id IS NULL OR v.doc % 1024 >= e.nfrags")
			.get() as { n: number };
		expect(strayTokens.n).toBe(0);
	} finally {
		db.close();
	}
}

function sessionFiles(dir: string): string[] {
	const out: string[] = [];
	const walk = (d: string) => {
		for (const e of readdirSync(d, { withFileTypes: true })) {
			if (e.isDirectory()) walk(join(d, e.name));
			else if (e.name.endsWith(".jsonl")) out.push(join(d, e.name));
		}
	};
	walk(dir);
	return out.sort();
}

describe("files changing under the indexer", () => {
	let dir: string;
	let index: string;
	let service: HistoryService;
	let manifest: Manifest;

	beforeAll(() => {
		const c = indexedCorpus("pes-rel-changing-");
		cleanups.push(c.cleanup);
		({ corpus: dir, indexPath: index, service, manifest } = c);
	});

	it("keeps up with a writer appending (with torn writes) to many sessions while refreshes run back to back", async () => {
		const targets = manifest.files.filter((f) => f.isSession && f.headerVersion === 3).map((f) => join(dir, f.file));
		const child = spawn(process.execPath, [join(PROJECT_ROOT, "test/support/append-child.mjs"), "1500", ...targets], { stdio: ["ignore", "pipe", "inherit"] });
		let written = "";
		child.stdout.on("data", (d) => {
			written += String(d);
		});
		const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
		let refreshes = 0;
		let running = true;
		void exited.then(() => {
			running = false;
		});
		while (running) {
			const s = service.refresh();
			expect(s.errors).toEqual([]);
			refreshes++;
			await new Promise((r) => setTimeout(r, 5));
		}
		expect(await exited).toBe(0);
		expect(Number(written)).toBeGreaterThan(20);
		expect(refreshes).toBeGreaterThan(3);
		service.refresh();
		expectEqualsFreshBuild(dir, index);
		expect(service.search({ query: '"concurrent append"', limit: 50 }).hits.length).toBe(50);
	});

	it("follows pi's in-place migration of a v1 file", () => {
		const v1 = join(dir, (manifest.files.find((f) => f.headerVersion === 1) as Manifest["files"][number]).file);
		// The real thing: pi's SessionManager migrates and rewrites the file when it opens it.
		SessionManager.open(v1, join(tmp.dir, "unused"));
		expect(readFileSync(v1, "utf8").split("\n")[0]).toContain('"version":3');
		const s = service.refresh();
		expect(s.sessionsRebuilt).toBe(1);
		expectEqualsFreshBuild(dir, index);
	});

	it("rebuilds after truncation, at a line boundary and in the middle of a line", () => {
		const files = sessionFiles(dir).filter((f) => statSync(f).size > 4000);
		const [a, b] = files as [string, string];
		const bufA = readFileSync(a);
		truncateSync(a, bufA.lastIndexOf(10, Math.floor(bufA.length / 2)) + 1);
		truncateSync(b, Math.floor(statSync(b).size / 2) + 3);
		const s = service.refresh();
		expect(s.sessionsRebuilt).toBe(2);
		expectEqualsFreshBuild(dir, index);
	});

	it("notices a same-size replacement with the modification time restored", () => {
		const file = sessionFiles(dir).find((f) => readFileSync(f, "utf8").includes("ECONNREFUSED")) as string;
		// A whole-second mtime can be restored exactly.
		utimesSync(file, 1_780_000_000, 1_780_000_000);
		service.refresh();
		const before = statSync(file);
		const text = readFileSync(file, "utf8");
		writeFileSync(file, text.replaceAll("ECONNREFUSED", "ECONNRESETXX"));
		utimesSync(file, 1_780_000_000, 1_780_000_000);
		const after = statSync(file);
		expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
		service.refresh();
		expect(service.search({ query: "ECONNRESETXX", filters: { sessionIds: [] } }).hits.length).toBeGreaterThan(0);
		expectEqualsFreshBuild(dir, index);
	});

	it("follows deleted, moved and renamed files and folders", () => {
		const files = sessionFiles(dir);
		rmSync(files[0] as string);
		const moved = files[1] as string;
		mkdirSync(join(dir, "sessions", "--archive--"), { recursive: true });
		renameSync(moved, join(dir, "sessions", "--archive--", "renamed.jsonl"));
		const folder = dirname(files.at(-1) as string);
		renameSync(folder, `${folder}-renamed`);
		const s = service.refresh();
		expect(s.sessionsRemoved).toBeGreaterThan(0);
		expectEqualsFreshBuild(dir, index);
	});

	it("keeps the last known-good state of a file that cannot be read, and says so", () => {
		const file = sessionFiles(dir).find((f) => !f.endsWith("notes.jsonl") && statSync(f).size > 1000) as string;
		const saved = readFileSync(file);
		const before = service.status().events;
		appendFileSync(file, "\n");
		// Make the file unreadable between discovery and reading (as root, permissions cannot do it).
		const s = service.refresh({
			onProgress: (p) => {
				if (p.phase === "ingest" && p.filesDone === 0) {
					rmSync(file);
					mkdirSync(file);
				}
			},
		});
		expect(s.errors.map((e) => e.file)).toContain(file);
		expect(service.status().events).toBe(before);
		expect(service.status().errors.map((e) => e.file)).toContain(file);
		rmSync(file, { recursive: true });
		writeFileSync(file, saved);
		service.refresh();
		expectEqualsFreshBuild(dir, index);
	});

	it("removes nothing when a whole session root disappears (unmounted)", () => {
		const before = service.status();
		renameSync(dir, `${dir}-unmounted`);
		try {
			const s = service.refresh();
			expect(s.sessionsRemoved).toBe(0);
			expect(s.notes.join(" ")).toMatch(/not available/);
			expect(service.status()).toMatchObject({ sessions: before.sessions, events: before.events });
			expect(service.search({ query: "handleWebhook" }).hits.length).toBeGreaterThan(0);
		} finally {
			renameSync(`${dir}-unmounted`, dir);
		}
		expect(service.refresh().filesChanged).toBe(0);
		expectEqualsFreshBuild(dir, index);
	});
});

describe("kill -9 during write transactions", () => {
	it("recovers 20 times: the index opens, is consistent, and the next refresh equals a fresh build", async () => {
		const dir = fresh("kill");
		// Three copies of the corpus, so a full refresh runs long enough to be killed in the middle.
		for (let i = 0; i < 3; i++) cpSync(join(CORPUS_DIR, "sessions"), join(dir, `copy${i}`), { recursive: true });
		const index = join(dirname(dir), "kill.sqlite");
		const child = join(PROJECT_ROOT, "test/support/refresh-child.mjs");
		let killedMidWay = 0;
		for (let round = 0; round < 20; round++) {
			// A plain node child: vitest's own execArgv must not leak into it.
			const proc = fork(child, [dir, index, round % 2 === 0 ? "full" : "incremental"], { stdio: "ignore", execArgv: [] });
			await new Promise<void>((resolve) => {
				proc.once("message", () => resolve());
				proc.once("exit", () => resolve());
			});
			await new Promise((r) => setTimeout(r, 20 + ((round * 37) % 400)));
			const alive = proc.exitCode === null;
			const exited = alive ? new Promise((resolve) => proc.once("exit", resolve)) : Promise.resolve();
			proc.kill("SIGKILL");
			await exited;
			if (alive) killedMidWay++;
			checkInvariants(index, false);
			// Some rounds also touch the files, so recovery has real work to do.
			if (round % 5 === 4) appendFileSync(sessionFiles(dir)[round] as string, "{torn");
		}
		expect(killedMidWay).toBeGreaterThan(10);
		const s = openService(dir, index);
		const summary = s.refresh();
		s.close();
		expect(summary.errors).toEqual([]);
		checkInvariants(index);
		expectEqualsFreshBuild(dir, index);
	}, 180_000);
});

describe("the index file", () => {
	/** An indexed copy of the corpus with its service closed, so the test opens its own. */
	function builtIndex(name: string): { dir: string; index: string } {
		const c = indexedCorpus(`pes-rel-${name}-`);
		c.service.close();
		cleanups.push(c.cleanup);
		return { dir: c.corpus, index: c.indexPath };
	}

	it("moves a corrupt index aside and rebuilds it; searches keep answering", () => {
		const { dir, index } = builtIndex("corrupt");
		const size = statSync(index).size;
		const bytes = readFileSync(index);
		// Garbage over the middle of the file: b-tree pages of events and the FTS index.
		for (let i = Math.floor(size * 0.3); i < Math.floor(size * 0.7); i += 7) bytes[i] = (i * 31) & 0xff;
		writeFileSync(index, bytes);
		const s = openService(dir, index);
		try {
			const summary = s.refresh();
			const result = s.search({ query: "handleWebhook" });
			const notes = [...summary.notes, ...result.notes].join(" ");
			expect(notes).toMatch(/damaged/);
			expect(readdirSync(dirname(index)).some((f) => f.includes(".corrupt-"))).toBe(true);
			if (result.hits.length === 0) s.refresh();
			expect(s.search({ query: "handleWebhook" }).hits.length).toBeGreaterThan(0);
		} finally {
			s.close();
		}
		checkInvariants(index);
	});

	it("moves a foreign SQLite file aside instead of using it", () => {
		const dir = copyCorpus(fresh("foreign"));
		const index = join(dirname(dir), "index.sqlite");
		const db = new Database(index);
		db.exec("CREATE TABLE precious (x TEXT); INSERT INTO precious VALUES ('keep me')");
		db.close();
		const s = openService(dir, index);
		expect(s.notes.join(" ")).toMatch(/not a pi-event-search index/);
		s.refresh();
		expect(s.search({ query: "handleWebhook" }).hits.length).toBeGreaterThan(0);
		s.close();
		const aside = readdirSync(dirname(index)).find((f) => f.includes(".foreign-")) as string;
		const kept = new Database(join(dirname(index), aside), { readonly: true });
		expect(kept.prepare("SELECT x FROM precious").get()).toEqual({ x: "keep me" });
		kept.close();
	});

	it("rebuilds an index of an older schema version", () => {
		const { dir, index } = builtIndex("old");
		const db = new Database(index);
		db.pragma("user_version = 1");
		db.close();
		const s = openService(dir, index);
		expect(s.notes.join(" ")).toMatch(/another schema version/);
		s.refresh();
		expect(s.status().sessions).toBe(loadManifest(dir).files.filter((f) => f.isSession).length);
		s.close();
	});

	it("says clearly why when the index location cannot be created", () => {
		expect(() => openService(CORPUS_DIR, "/proc/pes-no-such/index.sqlite")).toThrow(IndexUnavailableError);
		const r = spawnSync(process.execPath, [CLI, "status", "--sessions-dir", CORPUS_DIR, "--index", "/proc/pes-no-such/index.sqlite"], { encoding: "utf8" });
		expect(r.status).toBe(1);
		expect(r.stderr.trim().split("\n")).toHaveLength(1);
		expect(r.stderr).toMatch(/cannot create the index directory/);
	});

	// A real read-only file system needs mount(8) (root in a sandbox, as in CI here); skipped elsewhere.
	const mountPoint = join(tmp?.dir ?? "/tmp", "ro-mount");
	const canMount = (() => {
		if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
		const probe = `/tmp/pes-mount-probe-${process.pid}`;
		mkdirSync(probe, { recursive: true });
		const ok = spawnSync("mount", ["-t", "tmpfs", "tmpfs", probe]).status === 0;
		if (ok) spawnSync("umount", [probe]);
		rmSync(probe, { recursive: true, force: true });
		return ok;
	})();
	it.skipIf(!canMount)("searches an index on a read-only file system, and says it cannot refresh it", () => {
		const dir = copyCorpus(fresh("ro"));
		const point = `${mountPoint}-${process.pid}`;
		mkdirSync(point, { recursive: true });
		expect(spawnSync("mount", ["-t", "tmpfs", "tmpfs", point]).status).toBe(0);
		try {
			const index = join(point, "index.sqlite");
			const s = openService(dir, index);
			s.refresh();
			s.close();
			expect(spawnSync("mount", ["-o", "remount,ro", point]).status).toBe(0);
			const ro = openService(dir, index);
			try {
				expect(ro.notes.join(" ")).toMatch(/read-only/);
				const summary = ro.refresh();
				expect(summary.notes.join(" ")).toMatch(/not refreshed/);
				expect(ro.search({ query: "handleWebhook" }).hits.length).toBeGreaterThan(0);
				expect(ro.status().index).toBe(index);
			} finally {
				ro.close();
			}
		} finally {
			spawnSync("umount", [point]);
			rmSync(point, { recursive: true, force: true });
		}
	});

	it("keeps searching while another process holds the write lock; the refresh reports the index busy", async () => {
		const { dir, index } = builtIndex("locked");
		// The holder keeps its write transaction open until it is told to let go (a line on its stdin).
		const holder = spawn(
			process.execPath,
			[
				"-e",
				`const D=require("better-sqlite3"); const db=new D(${JSON.stringify(index)}); db.exec("BEGIN IMMEDIATE"); process.stdout.write("locked"); process.stdin.once("data", () => { db.exec("ROLLBACK"); db.close(); process.exit(0); });`,
			],
			{ cwd: PROJECT_ROOT, stdio: ["pipe", "pipe", "inherit"] },
		);
		const exited = new Promise<number | null>((resolve) => holder.once("exit", resolve));
		await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
		appendFileSync(
			sessionFiles(dir)[3] as string,
			`${JSON.stringify({ type: "session_info", id: "lockedxx", parentId: null, timestamp: "2026-11-30T00:00:00Z", name: "written while locked" })}\n`,
		);
		const s = openService(dir, index);
		try {
			// The refresh comes back, busy, while the lock is still held: it does not wait for the other writer.
			const summary = s.refresh();
			expect(summary.busy).toBe(true);
			expect(summary.notes.join(" ")).toMatch(/index busy/);
			expect(holder.exitCode).toBeNull();
			expect(s.search({ query: "handleWebhook" }).hits.length).toBeGreaterThan(0);
			expect(s.search({ query: '"written while locked"' }).hits).toEqual([]);
			expect(holder.exitCode).toBeNull();
			holder.stdin.end("release\n");
			expect(await exited).toBe(0);
			expect(s.refresh().busy).toBeUndefined();
			expect(s.search({ query: '"written while locked"' }).hits.length).toBe(1);
		} finally {
			if (holder.exitCode === null) holder.kill();
			s.close();
		}
	});
});

describe("hostile session files", () => {
	let dir: string;
	let index: string;
	let service: HistoryService;
	const H = (id: string, extra: Record<string, unknown> = {}) =>
		JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-02-01T00:00:00.000Z", cwd: "/hostile", ...extra });
	const msg = (id: string, parentId: string | null, text: string, role = "user") =>
		JSON.stringify({
			type: "message",
			id,
			parentId,
			timestamp: "2026-02-01T00:00:01.000Z",
			message: { role, content: [{ type: "text", text }], timestamp: 1 },
		});
	const write = (name: string, lines: Array<string | Buffer>) => {
		const parts = lines.map((l) => (typeof l === "string" ? Buffer.from(`${l}\n`) : Buffer.concat([l, Buffer.from("\n")])));
		writeFileSync(join(dir, name), Buffer.concat(parts));
	};

	beforeAll(() => {
		dir = fresh("hostile");
		mkdirSync(dir, { recursive: true });
		// A normal session that must come through everything untouched.
		write("normal.jsonl", [H("normal"), msg("n1", null, "the healthy session mentions zircon-walrus-5150"), msg("n2", "n1", "reply", "assistant")]);
		// 50 MB in one line: a pasted log with a word near its end.
		const half = "log line with nothing special\n".repeat(850_000);
		const huge = `${half} middle marker larch-middle-4242 ${half} tail marker obsidian-kestrel-9001`;
		write("huge-line.jsonl", [H("huge"), msg("h1", null, huge)]);
		const edge = 128 * 1024;
		write("gap.jsonl", [H("gap"), msg("g1", null, `${"f ".repeat((edge - 5) / 2)}f zulu${"m ".repeat(20_000)}yankee${" t".repeat((edge - 6) / 2)}`)]);
		// Invalid UTF-8 inside and outside strings, NUL bytes, non-object lines, deep nesting.
		write("bytes.jsonl", [
			H("bytes"),
			Buffer.concat([
				Buffer.from('{"type":"message","id":"b1","parentId":null,"timestamp":"2026-02-01T00:00:00Z","message":{"role":"user","content":"broken '),
				Buffer.from([0xff, 0xfe, 0xc3]),
				Buffer.from(' bytes fennel-utf8"}}'),
			]),
			Buffer.from([0xff, 0x00, 0x7b, 0x00]),
			'{"type":"message","id":"b2","parentId":"b1","timestamp":"2026-02-01T00:00:00Z","message":{"role":"user","content":"nul \u0000 inside"}}'.replace(
				"\\u0000",
				"\u0000",
			),
			"42",
			"[1,2,3]",
			'"just a string"',
			"null",
			`{"type":"message","id":"b3","parentId":"b1","timestamp":"2026-02-01T00:00:00Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"deep","arguments":${"[".repeat(50_000)}${"]".repeat(50_000)}}]}}`,
			msg("b4", "b3", "after the deep line comes granite-deep-77"),
		]);
		// Headers with missing or wrong-typed fields.
		write("no-cwd.jsonl", [
			JSON.stringify({ type: "session", version: 3, id: "nocwd", timestamp: "2026-02-01T00:00:00Z" }),
			msg("c1", null, "no cwd header amber-nocwd"),
		]);
		write("bad-version.jsonl", [
			JSON.stringify({ type: "session", version: "3", id: "badversion", cwd: 42 }),
			msg("v1", null, "string version cobalt-version"),
		]);
		write("bad-id.jsonl", [JSON.stringify({ type: "session", version: 3, id: 123, cwd: "/x" }), msg("i1", null, "numeric id never indexed")]);
		// Unknown types and roles, cycles, self parents, dangling parents, duplicate ids with different content.
		write("tree.jsonl", [
			H("tree"),
			JSON.stringify({ type: "hologram", id: "u1", parentId: null, timestamp: "2026-02-01T00:00:00Z", payload: { secret: "opaque-hologram-text" } }),
			JSON.stringify({ type: "message", id: "u2", parentId: "u1", timestamp: "2026-02-01T00:00:00Z", message: { role: "robot", content: "robot-role-text" } }),
			msg("cy1", "cy2", "cycle one"),
			msg("cy2", "cy1", "cycle two"),
			msg("self", "self", "self parent"),
			msg("dang", "nowhere", "dangling parent teal-dangle"),
			msg("dup", "u2", "first copy wins saffron-first"),
			msg("dup", "u2", "second copy loses saffron-second"),
			msg("leaf", "dup", "the leaf"),
		]);
		// Two files claiming one session id.
		write("same-id-a.jsonl", [H("twin"), msg("t1", null, "twin a says ochre-twin-a")]);
		write("same-id-b.jsonl", [H("twin"), msg("t1", null, "twin b says ochre-twin-b")]);
		// 100,000 children of one node.
		const kids: string[] = [H("fanout"), msg("root", null, "the parent of a crowd")];
		for (let i = 0; i < 100_000; i++)
			kids.push(JSON.stringify({ type: "label", id: `k${i}`, parentId: "root", timestamp: "2026-02-01T00:00:02Z", targetId: "root", label: `l${i}` }));
		write("fanout.jsonl", kids);
		// 10,000 tiny sessions.
		const tiny = join(dir, "tiny");
		mkdirSync(tiny);
		for (let i = 0; i < 10_000; i++) writeFileSync(join(tiny, `t${i}.jsonl`), `${H(`tiny-${i}`)}\n${msg(`m${i}`, null, `tiny session ${i}`)}\n`);
		index = join(dirname(dir), "hostile.sqlite");
		service = openService(dir, index);
	});
	afterAll(() => service.close());

	it("indexes or skips each hostile file with a note, and the others come through", async () => {
		const summary = await service.refreshAsync();
		expect(summary.errors).toEqual([]);
		expect(service.search({ query: "zircon-walrus-5150" }).hits.map((h) => h.entryId)).toEqual(["n1"]);
		const status = service.status();
		expect(status.sessions).toBe(10_000 + 10);
		checkInvariants(index);
	}, 180_000);

	it("keeps a 50 MB line searchable at both ends and readable in windows", () => {
		const hit = service.search({ query: "obsidian-kestrel-9001" }).hits[0];
		expect(hit?.entryId).toBe("h1");
		expect(hit?.snippet.endsWith("obsidian-kestrel-9001")).toBe(true);
		expect(hit?.marks.map(([a, b]) => hit.snippet.slice(a, b))).toEqual(["obsidian-kestrel-9001"]);
		// Beyond 256 KiB only the first and last 128 KiB are indexed (I20): the middle is not searchable.
		expect(service.search({ query: "larch-middle-4242" }).hits).toEqual([]);
		const r = service.read({ sessionId: "huge", entryId: "h1", fragmentId: "user.text:0", offset: 0, maxChars: 100 });
		expect(r.fragments[0]?.totalChars).toBeGreaterThan(50_000_000);
		expect(r.fragments[0]?.text).toHaveLength(100);
		// The omission marker stops a phrase from matching across the cut: head ends "zulu", tail starts "yankee".
		expect(service.search({ query: "zulu" }).hits.map((h) => h.entryId)).toEqual(["g1"]);
		expect(service.search({ query: "yankee" }).hits.map((h) => h.entryId)).toEqual(["g1"]);
		expect(service.search({ query: '"zulu yankee"' }).hits).toEqual([]);
	});

	it("skips bytes that are not JSON objects, and survives invalid UTF-8, NUL bytes and deep nesting", () => {
		expect(service.search({ query: "fennel-utf8" }).hits.map((h) => h.entryId)).toEqual(["b1"]);
		expect(service.search({ query: "granite-deep-77" }).hits.map((h) => h.entryId)).toEqual(["b4"]);
		const deep = service.read({ sessionId: "bytes", entryId: "b3" });
		expect(JSON.stringify(deep).length).toBeLessThan(100_000);
		const trace = service.trace({ sessionId: "bytes", entryId: "b3" });
		expect(trace.edges.map((e) => e.rel)).toContain("parent");
		const db = new Database(index, { readonly: true });
		const file = db.prepare("SELECT note, skipped_lines FROM files WHERE path LIKE '%bytes.jsonl'").get() as { note: string; skipped_lines: number };
		db.close();
		expect(file.skipped_lines).toBeGreaterThanOrEqual(5);
		expect(file.note).toMatch(/unparseable/);
	});

	it("reads headers with missing or wrong-typed fields as far as they go, and skips a header without a string id", () => {
		expect(service.search({ query: "amber-nocwd" }).hits[0]?.session.cwd).toBe("");
		expect(service.search({ query: "cobalt-version" }).hits.length).toBe(1);
		expect(service.search({ query: '"numeric id never indexed"' }).hits).toEqual([]);
	});

	it("keeps unknown types and roles as opaque events, never searchable by their payload", () => {
		expect(service.search({ query: "opaque-hologram-text" }).hits).toEqual([]);
		expect(service.search({ query: "", filters: { types: ["hologram"] } }).hits.map((h) => h.entryId)).toEqual(["u1"]);
		expect(service.search({ query: "", filters: { roles: ["robot"] } }).hits.map((h) => h.entryId)).toEqual(["u2"]);
	});

	it("handles cycles, self parents, dangling parents and duplicate ids without looping", () => {
		expect(service.read({ sessionId: "tree", entryId: "cy1", before: 10, after: 10 }).classification.branchState).toBe("unknown");
		expect(service.trace({ sessionId: "tree", entryId: "self" }).edges.length).toBeGreaterThan(0);
		expect(service.read({ sessionId: "tree", entryId: "dang", before: 5 }).neighbors.before).toEqual([]);
		expect(service.search({ query: "saffron-first" }).hits.length).toBe(1);
		expect(service.search({ query: "saffron-second" }).hits).toEqual([]);
		// None of this is a failure of the file: it is indexed, not listed among errors, and the kept duplicate is noted.
		expect(service.status().errors.map((e) => e.file)).not.toContain(join(dir, "tree.jsonl"));
		const db = new Database(index, { readonly: true });
		const file = db.prepare("SELECT status, note, duplicate_entries FROM files WHERE path = ?").get(join(dir, "tree.jsonl")) as {
			status: string;
			note: string;
			duplicate_entries: number;
		};
		db.close();
		expect(file).toMatchObject({ status: "ok", duplicate_entries: 1 });
		expect(file.note).toMatch(/1 duplicate id\(s\) with different content \(first kept\)/);
	});

	it("never merges two files that claim one session id, and reports the conflict", () => {
		const a = service.search({ query: "ochre-twin-a" }).hits[0];
		const b = service.search({ query: "ochre-twin-b" }).hits[0];
		// The documented rule: the path that sorts first keeps the id.
		expect(a?.sessionId).toBe("twin");
		expect(b?.sessionId).toMatch(/^twin~[0-9a-f]{8}$/);
		expect(service.status().conflicts).toEqual([
			expect.objectContaining({ sessionId: "twin", files: [expect.stringMatching(/same-id-a/), expect.stringMatching(/same-id-b/)] }),
		]);
		for (const h of [a, b])
			expect(service.read({ sessionId: h?.sessionId as string, entryId: "t1" }).fragments[0]?.text).toBe(
				h === a ? "twin a says ochre-twin-a" : "twin b says ochre-twin-b",
			);
	});

	it("bounds reads and traces of a node with 100,000 children", () => {
		const t = service.trace({ sessionId: "fanout", entryId: "root" });
		expect(t.edges.filter((e) => e.rel === "child").length).toBeLessThanOrEqual(50);
		expect(t.notes.join(" ")).toMatch(/more child/);
		const r = service.read({ sessionId: "fanout", entryId: "root", after: 3 });
		expect(r.neighbors.forkCandidates.length + r.neighbors.after.length).toBeLessThanOrEqual(53);
		expect(JSON.stringify(r).length).toBeLessThan(200_000);
	});

	it("refuses nothing it cannot handle: an unchanged refresh afterwards touches nothing", () => {
		expect(service.refresh().filesChanged).toBe(0);
		expect(() => service.read({ sessionId: "bad-id", entryId: "i1" })).toThrow(NotFoundError);
	});
});

describe("a write that fails in the middle of a batch", () => {
	it("loses only the failing file, says why, and the next refresh indexes it", () => {
		const dir = copyCorpus(fresh("inject"));
		const index = join(dirname(dir), "inject.sqlite");
		const s = openService(dir, index);
		s.close();
		// Fault injection in the real index file: inserting one particular entry fails (as a full disk would).
		const victim = loadManifest(dir).files.find((f) => f.isSession && f.headerVersion === 3 && f.entries > 10) as Manifest["files"][number];
		const db = new Database(index);
		db.exec(
			`CREATE TRIGGER inject BEFORE INSERT ON events WHEN NEW.entry_id = '${victim.leafIdOnLoad}' BEGIN SELECT RAISE(ABORT, 'injected write failure'); END`,
		);
		db.close();
		const again = openService(dir, index);
		try {
			const summary = again.refresh();
			expect(summary.errors).toEqual([{ file: join(dir, victim.file), error: expect.stringMatching(/injected write failure/) }]);
			const sessions = loadManifest(dir).files.filter((f) => f.isSession);
			expect(again.status().sessions).toBe(sessions.length - 1);
			checkInvariants(index, false);
			const fix = new Database(index);
			fix.exec("DROP TRIGGER inject");
			fix.close();
			// The failed file left no row behind, so the next refresh picks it up like a new one.
			expect(again.refresh().sessionsAdded).toBe(1);
			expect(again.status().sessions).toBe(sessions.length);
		} finally {
			again.close();
		}
		expectEqualsFreshBuild(dir, index);
	});
});

describe("session ids that look like derived ones", () => {
	it("never collide, whatever order the files are indexed in", () => {
		for (const order of [
			["a", "b", "c"],
			["c", "b", "a"],
		]) {
			const dir = fresh(`ids-${order.join("")}`);
			mkdirSync(dir, { recursive: true });
			const line = (id: string, text: string) =>
				`${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00Z", cwd: "/w" })}\n${JSON.stringify({ type: "message", id: "m1", parentId: null, timestamp: "2026-01-01T00:00:01Z", message: { role: "user", content: text } })}\n`;
			const hashOfB = createHash("sha1").update(join(dir, "b.jsonl")).digest("hex").slice(0, 8);
			const content: Record<string, string> = { a: line("dup", "alpha file"), b: line("dup", "bravo file"), c: line(`dup~${hashOfB}`, "charlie file") };
			const index = join(dirname(dir), `ids-${order.join("")}.sqlite`);
			const s = openService(dir, index);
			try {
				for (const name of order) {
					writeFileSync(join(dir, `${name}.jsonl`), content[name] as string);
					expect(s.refresh().errors).toEqual([]);
				}
				const ids = ["alpha", "bravo", "charlie"].map((w) => s.search({ query: `${w} file` }).hits[0]?.sessionId);
				expect(new Set(ids).size).toBe(3);
				expect(ids[0]).toBe("dup");
				expect(ids[2]).toBe(`dup~${hashOfB}`);
			} finally {
				s.close();
			}
			expectEqualsFreshBuild(dir, index);
		}
	});
});

describe("authorization across fork lineage", () => {
	it("shows an unauthorized parent session as hidden, never its content", () => {
		const base = fresh("lineage");
		const sessions = join(base, "s");
		const outside = SessionManager.create("/secret/project", sessions);
		outside.appendMessage(user("secret plan nightjar-secret"));
		const leaf = outside.appendMessage(assistant("ok"));
		const child = SessionManager.forkFrom(outside.getSessionFile() as string, "/work/mine", sessions);
		const own = child.appendMessage(user("continuing in my workspace"));
		const s = openService(sessions, join(base, "i.sqlite"));
		s.refresh();
		const caller = { root: "/work/mine" };
		try {
			const t = s.trace({ sessionId: child.getSessionId(), entryId: own, caller });
			expect(t.edges.find((e) => e.rel === "session-parent")?.to).toEqual({ hidden: true });
			expect(t.edges.some((e) => e.rel === "fork-of")).toBe(false);
			expect(JSON.stringify(t)).not.toContain(outside.getSessionId());
			expect(JSON.stringify(t)).not.toContain("/secret");
			// The copied entries in the child are the caller's own history; the parent's copy stays out of reach.
			expect(() => s.read({ sessionId: outside.getSessionId(), entryId: leaf, caller })).toThrow(NotFoundError);
			expect(s.search({ query: "nightjar-secret", caller }).hits.every((h) => h.sessionId === child.getSessionId())).toBe(true);
		} finally {
			s.close();
		}
	});
});
