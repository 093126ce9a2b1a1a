/**
 * The explorer's live view (src/service/folder-watch.ts): a change under the session folders asks for one refresh, naming the
 * session files that changed, so that a large history's check stats them whatever its sample (quick-check.ts).
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { watchSessions } from "../src/service/folder-watch.js";
import { tempDir } from "./helpers/corpus.js";

let t: ReturnType<typeof tempDir>;
beforeAll(() => {
	t = tempDir("pes-live-");
});
afterAll(() => t.cleanup());

it("names the session files written under the watched folders, and only those", async () => {
	const root = join(t.dir, "sessions");
	const folder = join(root, "--home-dev-app--");
	mkdirSync(folder, { recursive: true });
	const session = join(folder, "2026-03-01T00-00-00-000Z_0199c200-0000-7000-8000-000000000001.jsonl");
	const calls: string[][] = [];
	let changed: (files: string[]) => void = () => {};
	const watching = watchSessions(
		[root],
		(files) => {
			calls.push(files);
			changed(files);
		},
		{ debounceMs: 20 },
	);
	try {
		// Linux has recursive fs.watch since Node 19.1: this is the mode the explorer runs in.
		expect(watching.mode).toBe("watch");
		const named = new Promise<string[]>((resolve) => {
			changed = (files) => {
				if (files.includes(session)) resolve(files);
			};
		});
		writeFileSync(join(folder, "notes.txt"), "not a session\n");
		writeFileSync(session, "{}\n");
		appendFileSync(session, "{}\n");
		const files = await named;
		expect(files.every((f) => f.endsWith(".jsonl"))).toBe(true);
		expect(calls.flat().some((f) => f.endsWith("notes.txt"))).toBe(false);
	} finally {
		watching.stop();
	}
});

it("says when more session files changed than it names, so that the refresh checks every file", async () => {
	const root = join(t.dir, "burst");
	mkdirSync(root, { recursive: true });
	const got = new Promise<{ files: string[]; more: boolean }>((resolve) => {
		const watching = watchSessions(
			[root],
			(files, more) => {
				watching.stop();
				resolve({ files, more });
			},
			// One window for the whole burst: three files written at once, two named at most.
			{ debounceMs: 1000, named: 2 },
		);
		expect(watching.mode).toBe("watch");
		for (const n of [1, 2, 3]) writeFileSync(join(root, `s${n}.jsonl`), "{}\n");
	});
	const { files, more } = await got;
	expect(files.length).toBe(2);
	expect(more).toBe(true);
});

/** Kernel watches this process holds (Linux: the `inotify wd:` lines of its inotify descriptors). */
function inotifyWatches(): number {
	let n = 0;
	for (const fd of readdirSync("/proc/self/fd")) {
		try {
			if (readlinkSync(`/proc/self/fd/${fd}`) !== "anon_inode:inotify") continue;
			n += readFileSync(`/proc/self/fdinfo/${fd}`, "utf8")
				.split("\n")
				.filter((l) => l.startsWith("inotify wd:")).length;
		} catch {
			// closed meanwhile
		}
	}
	return n;
}

/** A session file's name (pi's: time, then id). */
const sessionName = (n: number) => `2026-03-01T00-00-${String(n % 60).padStart(2, "0")}-000Z_0199c200-0000-7000-8000-${String(n).padStart(12, "0")}.jsonl`;

/** Resolves with the first change that names `file` or says more changed than named. */
function changeOf(file: string): { seen: Promise<{ files: string[]; more: boolean }>; onChange: (files: string[], more: boolean) => void } {
	let resolve: (v: { files: string[]; more: boolean }) => void = () => {};
	const seen = new Promise<{ files: string[]; more: boolean }>((r) => {
		resolve = r;
	});
	return { seen, onChange: (files, more) => (files.includes(file) || more ? resolve({ files, more }) : undefined) };
}

it.runIf(process.platform === "linux")("watches each session folder once, not each session file: a large history costs the kernel a few watches", () => {
	const root = join(t.dir, "many");
	const folders = ["--home-dev-a--", "--home-dev-b--", "--home-dev-c--"].map((f) => join(root, f));
	for (const folder of folders) {
		mkdirSync(folder, { recursive: true });
		for (let n = 0; n < 200; n++) writeFileSync(join(folder, sessionName(n)), "{}\n");
	}
	const before = inotifyWatches();
	const watching = watchSessions([root], () => {});
	try {
		expect(watching.mode).toBe("watch");
		expect(watching.folders).toBe(4);
		// The root and its three folders; a watch per file would be 600 more.
		expect(inotifyWatches() - before).toBe(4);
	} finally {
		watching.stop();
	}
	expect(inotifyWatches()).toBe(before);
});

it("names an append to a session that was there before the watch began", async () => {
	const folder = join(t.dir, "old", "--home-dev-old--");
	mkdirSync(folder, { recursive: true });
	const session = join(folder, sessionName(7));
	writeFileSync(session, "{}\n");
	const { seen, onChange } = changeOf(session);
	const watching = watchSessions([join(t.dir, "old")], onChange, { debounceMs: 20 });
	try {
		appendFileSync(session, "{}\n");
		const { files } = await seen;
		expect(files).toEqual([session]);
	} finally {
		watching.stop();
	}
});

it("watches a working directory's folder made after the watch began: its new session and the appends to it are seen", async () => {
	const root = join(t.dir, "later");
	mkdirSync(root, { recursive: true });
	const folder = join(root, "--home-dev-new--");
	const session = join(folder, sessionName(9));
	let next = changeOf(session);
	const watching = watchSessions([root], (files, more) => next.onChange(files, more), { debounceMs: 20 });
	try {
		expect(watching.folders).toBe(1);
		mkdirSync(folder);
		writeFileSync(session, "{}\n");
		// Written before its folder's watch could begin: named, or the whole history is checked.
		const first = await next.seen;
		expect(first.files.includes(session) || first.more).toBe(true);
		expect(watching.folders).toBe(2);
		next = changeOf(session);
		appendFileSync(session, "{}\n");
		const second = await next.seen;
		expect(second.files).toEqual([session]);
		expect(second.more).toBe(false);
	} finally {
		watching.stop();
	}
});

it("checks every file when a session folder is removed, and watches it again when it comes back", async () => {
	const root = join(t.dir, "gone");
	const folder = join(root, "--home-dev-gone--");
	mkdirSync(folder, { recursive: true });
	const session = join(folder, sessionName(11));
	writeFileSync(session, "{}\n");
	let next = changeOf("");
	const watching = watchSessions([root], (files, more) => next.onChange(files, more), { debounceMs: 20 });
	try {
		expect(watching.folders).toBe(2);
		rmSync(folder, { recursive: true });
		const removed = await next.seen;
		expect(removed.more).toBe(true);
		expect(watching.mode).toBe("watch");
		expect(watching.folders).toBe(1);
		mkdirSync(folder);
		next = changeOf("");
		await next.seen;
		expect(watching.folders).toBe(2);
		next = changeOf(session);
		writeFileSync(session, "{}\n");
		expect((await next.seen).files).toContain(session);
	} finally {
		watching.stop();
	}
});

it("watches no more folders than it is allowed, and says so: off, without polling, when asked not to poll", () => {
	const root = join(t.dir, "capped");
	for (const d of ["--a--", "--b--", "--c--"]) mkdirSync(join(root, d), { recursive: true });
	// The root and its three folders: four kernel watches.
	const fits = watchSessions([root], () => {}, { maxFolders: 4, pollMs: 0 });
	const over = watchSessions([root], () => {}, { maxFolders: 3, pollMs: 0 });
	try {
		expect([fits.mode, fits.folders, fits.covers(join(root, "--c--"))]).toEqual(["watch", 4, true]);
		expect([over.mode, over.folders, over.covers(root)]).toEqual(["off", 0, false]);
	} finally {
		fits.stop();
		over.stop();
	}
	expect(fits.mode).toBe("off");
});
