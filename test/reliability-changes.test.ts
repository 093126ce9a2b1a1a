/**
 * Files changing under the indexer (issue [reliability]): a concurrent writer with torn writes, pi's in-place
 * migration, truncation, same-size replacement, moves and renames, unreadable files, an unmounted root. After every
 * change the index equals a fresh build of the same files.
 */
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { loadManifest, type Manifest, openService, PROJECT_ROOT } from "./helpers/corpus.js";
import { SessionManager } from "./helpers/pi-sessions.js";
import { copySmallCorpus, scratch, sessionFiles } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-rel-changing-");

describe("files changing under the indexer", () => {
	let dir: string;
	let index: string;
	let service: HistoryService;
	let manifest: Manifest;

	beforeAll(() => {
		dir = copySmallCorpus(fresh("corpus"));
		index = join(dirname(dir), "index.sqlite");
		service = openService(dir, index);
		service.refresh();
		manifest = loadManifest(dir);
		manifest.files = manifest.files.filter((f) => existsSync(join(dir, f.file)));
	});
	afterAll(() => service.close());

	it("keeps up with a writer appending (with torn writes) to many sessions while refreshes run back to back", async () => {
		const targets = manifest.files.filter((f) => f.isSession && f.headerVersion === 3).map((f) => join(dir, f.file));
		const child = spawn(process.execPath, [join(PROJECT_ROOT, "test/support/append-child.mjs"), ...targets], { stdio: ["pipe", "pipe", "inherit"] });
		let written = 0;
		child.stdout.on("data", (d) => {
			written = Number(String(d).trim().split("\n").at(-1));
		});
		const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
		// Refreshes run back to back while the writer writes; the loop ends on progress (refreshes done, entries
		// written), never on a clock, so a busy machine only makes it take longer.
		let refreshes = 0;
		while (refreshes < 8 || written < 60) {
			const s = service.refresh();
			expect(s.errors).toEqual([]);
			refreshes++;
			await new Promise((r) => setTimeout(r, 5));
		}
		child.stdin.end("stop\n");
		expect(await exited).toBe(0);
		service.refresh();
		freshBuild(dir, index);
		expect(service.search({ query: '"concurrent append"', limit: 50 }).hits.length).toBe(50);
	});

	it("follows pi's in-place migration of a v1 file", () => {
		const v1 = join(dir, (manifest.files.find((f) => f.headerVersion === 1) as Manifest["files"][number]).file);
		// The real thing: pi's SessionManager migrates and rewrites the file when it opens it.
		SessionManager.open(v1, fresh("unused"));
		expect(readFileSync(v1, "utf8").split("\n")[0]).toContain('"version":3');
		const s = service.refresh();
		expect(s.sessionsRebuilt).toBe(1);
		freshBuild(dir, index);
	});

	it("rebuilds after truncation, at a line boundary and in the middle of a line", () => {
		const files = sessionFiles(dir).filter((f) => statSync(f).size > 4000);
		const [a, b] = files as [string, string];
		const bufA = readFileSync(a);
		truncateSync(a, bufA.lastIndexOf(10, Math.floor(bufA.length / 2)) + 1);
		truncateSync(b, Math.floor(statSync(b).size / 2) + 3);
		const s = service.refresh();
		expect(s.sessionsRebuilt).toBe(2);
		freshBuild(dir, index);
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
		freshBuild(dir, index);
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
		freshBuild(dir, index);
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
		freshBuild(dir, index);
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
		freshBuild(dir, index);
	});
});
