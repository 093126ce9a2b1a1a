/**
 * The index file and its neighbours (issue [reliability]): a damaged, foreign, old, unreachable, read-only or locked
 * index; a write failing in the middle of a batch; session ids that look derived; authorization across forks.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { IndexUnavailableError, NotFoundError } from "../src/shared/errors.js";
import { CLI } from "./helpers/build.js";
import { CORPUS_DIR, copyCorpus, indexedCorpus, loadManifest, type Manifest, openService, PROJECT_ROOT } from "./helpers/corpus.js";
import { assistant, SessionManager, user } from "./helpers/pi-sessions.js";
import { checkInvariants, copySmallCorpus, scratch, sessionFiles } from "./helpers/reliability.js";

const { fresh, freshBuild, cleanups } = scratch("pes-rel-index-");

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
		const r = spawnSync(process.execPath, [CLI, "index", "--sessions-dir", CORPUS_DIR, "--index", "/proc/pes-no-such/index.sqlite"], { encoding: "utf8" });
		expect(r.status).toBe(1);
		expect(r.stderr.trim().split("\n")).toHaveLength(1);
		expect(r.stderr).toMatch(/cannot create the index directory/);
	});

	// A real read-only file system needs mount(8) (root in a sandbox, as in CI here); skipped elsewhere.

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
		const point = fresh("ro-mount");
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

describe("a write that fails in the middle of a batch", () => {
	it("loses only the failing file, says why, and the next refresh indexes it", () => {
		const dir = copySmallCorpus(fresh("inject"));
		const index = join(dirname(dir), "inject.sqlite");
		const s = openService(dir, index);
		s.close();
		// Fault injection in the real index file: inserting one particular entry fails (as a full disk would).
		const victim = loadManifest(dir).files.find(
			(f) => existsSync(join(dir, f.file)) && f.isSession && f.headerVersion === 3 && f.entries > 10,
		) as Manifest["files"][number];
		const db = new Database(index);
		db.exec(
			`CREATE TRIGGER inject BEFORE INSERT ON events WHEN NEW.entry_id = '${victim.leafIdOnLoad}' BEGIN SELECT RAISE(ABORT, 'injected write failure'); END`,
		);
		db.close();
		const again = openService(dir, index);
		try {
			const summary = again.refresh();
			expect(summary.errors).toEqual([{ file: join(dir, victim.file), error: expect.stringMatching(/injected write failure/) }]);
			const sessions = loadManifest(dir).files.filter((f) => f.isSession && existsSync(join(dir, f.file)));
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
		freshBuild(dir, index);
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
			freshBuild(dir, index);
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
