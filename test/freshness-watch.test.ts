/**
 * A long-lived service that watches its session folders (pi's extension, issue 29): an asynchronous refresh stats
 * only the files the watch saw written while the watch can vouch for the others, still finds every append at once,
 * also one written just before the refresh was asked, and checks as without a watch at any doubt (another process
 * wrote the index, a folder changed, a synchronous refresh, a failed watch, time). Ground truth: the files written
 * here and a fresh full build.
 */
import { appendFileSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CallerContext, IndexHandle } from "../src/extension/index-handle.js";
import { refresh } from "../src/index/refresh.js";
import { openStore } from "../src/index/store.js";
import { FreshnessWatch, remoteFileSystem, WATCH_TRUST_MS } from "../src/service/freshness-watch.js";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir, testConfig } from "./helpers/corpus.js";
import { expectEqualsFreshBuild } from "./helpers/dump.js";

const HOUR_AGO = new Date(Date.now() - 3600_000);
/** A sweep this small leaves most of the 40 files out of any one check without a watch (quick-check.test.ts). */
const SWEEP = { sweepFiles: 4 };

function header(session: string): string {
	return `${JSON.stringify({ type: "session", version: 3, id: session, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/tmp/gamma" })}\n`;
}

function message(id: string, parentId: string | null, text: string): string {
	const message = { role: "user", content: [{ type: "text", text }], timestamp: 1 };
	return `${JSON.stringify({ type: "message", id, parentId, timestamp: "2026-03-01T00:00:01.000Z", message })}\n`;
}

let t: ReturnType<typeof tempDir>;
let root: string;
let dir: string;
let files: string[];
let service: HistoryService;

/** Puts the folders' modification times back an hour: their stamps are then not too recent to trust. */
function ageFolders(): void {
	for (const d of [root, dir]) utimesSync(d, HOUR_AGO, HOUR_AGO);
}

const found = (word: string) => service.search({ query: word, filters: {} }).hits.length;

beforeEach(() => {
	t = tempDir("pes-fresh-watch-");
	root = join(t.dir, "sessions");
	dir = join(root, "--w-gamma--");
	mkdirSync(dir, { recursive: true });
	files = Array.from({ length: 40 }, (_, n) => {
		const session = `0199c200-0000-7000-8000-${n.toString(16).padStart(12, "0")}`;
		const path = join(dir, `2026-03-01T00-00-00-000Z_${session}.jsonl`);
		writeFileSync(path, header(session) + message(`g${n}a`, null, `words of session ${n}`));
		const at = new Date(HOUR_AGO.getTime() + n * 60_000);
		utimesSync(path, at, at);
		return path;
	});
	ageFolders();
	service = openService(root, join(t.dir, "index.sqlite"));
});

afterEach(() => {
	service.close();
	t.cleanup();
});

describe("a service that watches its session folders", () => {
	it("finds each append to a cold session at once, also one written just before the refresh, checking only what was written", async () => {
		expect(service.watchFolders()).toBe("watch");
		expect((await service.refreshSliced(SWEEP)).sessionsAdded).toBe(40);
		// The walk's refresh was complete: the watch vouches for the files nobody wrote from now on.
		expect(await service.refreshSliced(SWEEP)).toMatchObject({ quick: true, watched: true, filesChanged: 0 });
		for (const [i, word] of ["wombat", "dugong", "tapir", "okapi", "kakapo"].entries()) {
			const n = 5 + i * 7;
			// Written in the same turn of the event loop as the refresh is asked: the watch has not reported it yet.
			appendFileSync(files[n] as string, message(`g${n}b`, `g${n}a`, `${word} appended to a cold one`));
			const summary = await service.refreshSliced(SWEEP);
			expect(summary, word).toMatchObject({ quick: true, watched: true, filesChanged: 1, sessionsAppended: 1 });
			expect(found(word), word).toBe(1);
		}
		// Two files written between two refreshes: both.
		appendFileSync(files[1] as string, message("g1b", "g1a", "axolotl in one"));
		appendFileSync(files[38] as string, message("g38b", "g38a", "axolotl in another"));
		expect(await service.refreshSliced(SWEEP)).toMatchObject({ watched: true, sessionsAppended: 2 });
		expect(found("axolotl")).toBe(2);
		expectEqualsFreshBuild(root, join(t.dir, "index.sqlite"), join(t.dir, "fresh.sqlite"));
	});

	it("checks as without a watch after another process wrote the index, after a folder changed, and in a synchronous refresh", async () => {
		service.watchFolders();
		await service.refreshSliced();
		expect(await service.refreshSliced()).toMatchObject({ watched: true });
		// Another connection indexes an append and commits: this one's next check does not take the watch's word.
		const other = openService(root, join(t.dir, "index.sqlite"));
		try {
			appendFileSync(files[3] as string, message("g3b", "g3a", "narwhal seen by the other"));
			expect(other.refresh()).toMatchObject({ sessionsAppended: 1 });
		} finally {
			other.close();
		}
		const after = await service.refreshSliced();
		expect(after.watched).toBeUndefined();
		expect(after).toMatchObject({ quick: true, filesChanged: 0 });
		expect(await service.refreshSliced()).toMatchObject({ watched: true });
		// A new session in the folder: its stamp moved, so the refresh lists the folders.
		const session = "0199c200-0000-7000-8000-0000000000ff";
		writeFileSync(join(dir, `2026-03-02T00-00-00-000Z_${session}.jsonl`), header(session) + message("n1", null, "quokka in a new one"));
		const walked = await service.refreshSliced();
		expect(walked.quick).toBeUndefined();
		expect(walked.sessionsAdded).toBe(1);
		expect(found("quokka")).toBe(1);
		// Stamps of folders changed this recently prove nothing: until they are older, every check lists them.
		ageFolders();
		expect((await service.refreshSliced()).watched).toBeUndefined();
		expect(await service.refreshSliced()).toMatchObject({ quick: true, watched: true });
		// A synchronous refresh cannot wait for the watch's news, and asks every file of the sweep.
		appendFileSync(files[30] as string, message("g30b", "g30a", "pangolin"));
		const sync = service.refresh();
		expect(sync.watched).toBeUndefined();
		expect(sync).toMatchObject({ quick: true, sessionsAppended: 1 });
		// A full refresh never takes the watch's word either.
		expect((await service.refreshSliced({ full: true })).watched).toBeUndefined();
		expectEqualsFreshBuild(root, join(t.dir, "index.sqlite"), join(t.dir, "fresh.sqlite"));
	});

	it("is what pi's extension checks before each tool call: the files written since the last call", async () => {
		service.close();
		const handle = new IndexHandle(
			() => openService(root, join(t.dir, "index.sqlite")),
			{ call: 600_000, background: 600_000, delay: 600_000 },
			() => {},
		);
		const ctx = {
			cwd: "/tmp/gamma",
			sessionManager: {
				getSessionId: () => "0199c200-0000-7000-8000-000000000027",
				getHeader: () => undefined,
				getLeafId: () => null,
				getSessionFile: () => files[39],
				getEntries: () => [],
			},
		} as unknown as CallerContext;
		const first = await handle.forCall(ctx);
		expect(first.refresh.ran && first.refresh.summary.sessionsAdded).toBe(40);
		const second = await handle.forCall(ctx);
		expect(second.refresh.ran && second.refresh.summary).toMatchObject({ watched: true, filesChanged: 0 });
		appendFileSync(files[7] as string, message("g7b", "g7a", "capybara from another pi"));
		const third = await handle.forCall(ctx);
		expect(third.refresh.ran && third.refresh.summary).toMatchObject({ watched: true, sessionsAppended: 1 });
		expect(third.service.search({ query: "capybara", filters: {} }).hits).toHaveLength(1);
		handle.shutdown(ctx, 0);
		await handle.idle();
		await new Promise((resolve) => setImmediate(resolve));
		service = openService(root, join(t.dir, "index.sqlite"));
	});

	it("says in pi's debug log when the extension cannot watch the session folders", async () => {
		const logged: string[] = [];
		const handle = new IndexHandle(
			() => openService(join(t.dir, "not-there"), join(t.dir, "other.sqlite")),
			{ call: 600_000, background: 600_000, delay: 600_000 },
			(line) => logged.push(line),
		);
		const ctx = {
			cwd: "/tmp/gamma",
			sessionManager: { getSessionId: () => "", getHeader: () => undefined, getLeafId: () => null, getSessionFile: () => undefined, getEntries: () => [] },
		} as unknown as CallerContext;
		await handle.forCall(ctx);
		expect(logged.some((line) => line.startsWith("session folders not watched"))).toBe(true);
		handle.shutdown(ctx, 0);
		await handle.idle();
		await new Promise((resolve) => setImmediate(resolve));
	});

	it("vouches for nothing when its folders cannot be watched", async () => {
		const gone = openService(join(t.dir, "not-there"), join(t.dir, "other.sqlite"));
		try {
			expect(gone.watchFolders()).toBe("off");
			await gone.refreshSliced();
			expect((await gone.refreshSliced()).watched).toBeUndefined();
		} finally {
			gone.close();
		}
		// Closed, the service's watch is stopped with it.
		service.watchFolders();
		await service.refreshSliced();
		service.close();
		service = openService(root, join(t.dir, "index.sqlite"));
		expect((await service.refreshSliced()).watched).toBeUndefined();
	});

	it("checks every few minutes as without a watch, whatever the watch saw", async () => {
		service.close();
		let now = 1_000_000;
		const store = openStore(join(t.dir, "index.sqlite"), {});
		const roots = testConfig(root, join(t.dir, "index.sqlite")).roots;
		const watch = new FreshnessWatch([root], () => now);
		try {
			const run = async () => {
				const options = await watch.before(store, {});
				const summary = refresh(store, roots, options);
				watch.after(store, summary);
				return summary;
			};
			expect((await run()).watched).toBeUndefined();
			now += WATCH_TRUST_MS - 1;
			expect((await run()).watched).toBe(true);
			now += 1;
			// The last check without the watch's word is now too old.
			expect((await run()).watched).toBeUndefined();
			expect((await run()).watched).toBe(true);
		} finally {
			watch.stop();
			store.close();
			service = openService(root, join(t.dir, "index.sqlite"));
		}
	});

	it.each([
		["ext4", 0xef53, false],
		["btrfs", 0x9123683e, false],
		["xfs", 0x58465342, false],
		["tmpfs", 0x01021994, false],
		["overlayfs", 0x794c7630, false],
		["NFS", 0x6969, true],
		["SMB", 0x517b, true],
		["SMB2", 0xfe534d42, true],
		["CIFS", 0xff534d42, true],
		["9p (WSL's Windows drives)", 0x01021997, true],
		["FUSE (sshfs, virtiofs)", 0x65735546, true],
		["Ceph", 0x00c36400, true],
	])("a history on %s (statfs type %d): another machine's writes unseen by a watch: %s", (_name, type, remote) => {
		// Another machine's writes to a network file system never reach this machine's watch.
		expect(remoteFileSystem(type)).toBe(remote);
	});
});
