/**
 * Read-only means read-only everywhere (issue 32 item 6): on a location the user cannot write, `status`,
 * `search --no-refresh` and `read --no-refresh` answer from the index as it is, with a note (they failed with "attempt
 * to write a readonly database": SQLite cannot make the WAL's shared-memory file there); `status` also answers after
 * the WAL was deleted under a running process ("disk I/O error" before).
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI } from "./helpers/build.js";
import { PROJECT_ROOT } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const { fresh, cleanups } = scratch("pes-readonly-");

const isRoot = process.getuid?.() === 0;
const line = (o: unknown) => JSON.stringify(o);

/** A sessions dir with one session (words word-1, more-1) and an index built next to it in a folder of its own. */
function indexed(): { sessions: string; index: string } {
	const sessions = fresh("sessions");
	mkdirSync(sessions, { recursive: true });
	const msg = (id: string, parentId: string | null, text: string) =>
		line({ type: "message", id, parentId, timestamp: "2026-02-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text }], timestamp: 1 } });
	writeFileSync(
		join(sessions, "s1.jsonl"),
		`${line({ type: "session", version: 3, id: "s1", timestamp: "2026-02-01T00:00:00.000Z", cwd: "/ro" })}\n${msg("m1", null, "first word-1")}\n${msg("m2", "m1", "second more-1")}\n`,
	);
	const index = join(dirname(sessions), "idx", "index.sqlite");
	expect(cli(sessions, index, ["index"]).status).toBe(0);
	return { sessions, index };
}

/** The built CLI; as root, run as nobody (root writes anywhere), so the index folder is read-only for it. */
function cli(sessions: string, index: string, args: string[], readonlyUser = false) {
	const command = [CLI, ...args, "--sessions-dir", sessions, "--index", index];
	return readonlyUser && isRoot
		? spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, ...command], { encoding: "utf8" })
		: spawnSync(process.execPath, command, { encoding: "utf8" });
}

/** status, search --no-refresh and read --no-refresh answer (exit 0) from the index, each with `note` on stderr. */
function expectAnswers(sessions: string, index: string, note: RegExp, readonlyUser: boolean): void {
	const status = cli(sessions, index, ["status", "--json"], readonlyUser);
	expect(status.status, status.stderr).toBe(0);
	expect(JSON.parse(status.stdout).sessions).toBe(1);
	expect(status.stderr).toMatch(note);
	const search = cli(sessions, index, ["search", "word-1", "--no-refresh", "--json"], readonlyUser);
	expect(search.status, search.stderr).toBe(0);
	expect(JSON.parse(search.stdout).hits.map((h: { entryId: string }) => h.entryId)).toEqual(["m1"]);
	expect(search.stderr).toMatch(note);
	const read = cli(sessions, index, ["read", "s1", "m2", "--no-refresh"], readonlyUser);
	expect(read.status, read.stderr).toBe(0);
	expect(read.stdout).toMatch(/more-1/);
	expect(read.stderr).toMatch(note);
}

describe("read-only answers (issue 32 item 6)", () => {
	it("on a read-only index folder, status, search --no-refresh and read --no-refresh answer with a note", () => {
		const { sessions, index } = indexed();
		// Everything on the way readable for nobody; the index folder writable by its owner only (or by nobody at all).
		for (let d = dirname(index); d !== "/" && d !== "/tmp"; d = dirname(d)) chmodSync(d, 0o755);
		chmodSync(join(sessions, "s1.jsonl"), 0o644);
		chmodSync(index, 0o644);
		if (!isRoot) {
			chmodSync(dirname(index), 0o555);
			cleanups.push(() => chmodSync(dirname(index), 0o755));
		}
		expectAnswers(sessions, index, /read-only/, true);
	});

	it("with the WAL deleted under a running process, status, search --no-refresh and read --no-refresh answer with a note", async () => {
		const { sessions, index } = indexed();
		// A running explorer: holds the index open with committed pages still in the WAL.
		const holder = spawn(
			process.execPath,
			[
				"-e",
				`const D=require("better-sqlite3"); const db=new D(${JSON.stringify(index)}); db.pragma("wal_autocheckpoint = 0");
				db.prepare("INSERT INTO meta(key, value) VALUES ('holder', 'x') ON CONFLICT(key) DO UPDATE SET value = excluded.value").run();
				process.stdout.write("ready"); process.stdin.once("data", () => { db.close(); process.exit(0); });`,
			],
			{ cwd: PROJECT_ROOT, stdio: ["pipe", "pipe", "inherit"] },
		);
		try {
			await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
			rmSync(`${index}-wal`);
			expectAnswers(sessions, index, /WAL was deleted/, false);
		} finally {
			holder.stdin.end("x");
			if (holder.exitCode === null) holder.kill();
		}
	});
});
