/**
 * A compaction at the leaf of a long path never compacted (issue [hardening] item 3: a compaction in a huge session
 * must not hold pi's event loop for the session's size): every entry above the kept range leaves the context. The
 * compaction's own write holds the kept range and a marker; the rest is summarized in runs, one per turn, and
 * readers see it summarized from the first turn on. Ground truth: a fresh full build of the same file (whose
 * classification the oracle tests check against pi's own). No timing: turns are counted.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answers, compaction, header, stepId as id, message } from "./helpers/compaction.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { expectSameIndex } from "./helpers/dump.js";

const SESSION = "0199c000-0000-7000-8000-00000000c0a2";
const N = 4_000;
/** Rowids per run: eight runs over the session. */
const RUN = 500;
/** A branch off this entry, abandoned (its rows stay off the path while the runs pass them). */
const FORK = 40;

let t: ReturnType<typeof tempDir>;
let root: string;
let file: string;
let live: string;
/** The session file before the compaction, and its index. */
let before: string;
let indexed: string;

beforeAll(() => {
	t = tempDir("pes-compaction-long-");
	root = join(t.dir, "sessions");
	mkdirSync(join(root, "--w--"), { recursive: true });
	file = join(root, "--w--", "2026-06-01T00-00-00-000Z_long.jsonl");
	live = join(t.dir, "live.sqlite");
	indexed = join(t.dir, "indexed.sqlite");
	const lines = [header(SESSION)];
	for (let i = 1; i <= N; i++) {
		lines.push(message(i, i - 1));
		if (i === FORK) lines.push(message(i, "off"), message(i + 1, "off"));
	}
	before = lines.join("").replace(`"parentId":"off"`, `"parentId":"${id(FORK)}"`);
	writeFileSync(file, before);
	const service = openService(root, indexed);
	service.refresh();
	service.close();
	// Closed: the WAL is checkpointed into the file, which is then the whole index.
	expect(existsSync(`${indexed}-wal`)).toBe(false);
}, 60_000);

afterAll(() => t.cleanup());

/** The live index as it was before the compaction (a copy of it), and the file with the compaction appended. */
function compacted(): void {
	for (const suffix of ["", "-wal", "-shm"]) rmSync(`${live}${suffix}`, { force: true });
	copyFileSync(indexed, live);
	writeFileSync(file, before);
	appendFileSync(file, compaction(N + 1, N, N - 19));
}

/** A fresh full build of the file as it is now. */
function fresh(name: string): string {
	const path = join(t.dir, name);
	for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
	const service = openService(root, path);
	service.refresh();
	service.close();
	return path;
}

describe("a compaction at the leaf of a path longer than the walk's limit", () => {
	it("is written at once with its kept range, the rest summarized in runs; every turn answers as a fresh build", async () => {
		compacted();
		const expected = fresh("fresh-1.sqlite");
		const sample = [1, 2, FORK, FORK + 1, N / 2, N - 20, N - 19, N, N + 1].map(id).concat(`off-${FORK}`);
		const want = answers(openService(root, expected), SESSION, sample, id(N + 1));
		const service = openService(root, live);
		let slices = 0;
		const summary = await service.refreshSliced({
			batchMs: 0,
			summaryRun: RUN,
			onSlice: () => {
				slices++;
				expect(answers(openService(root, live), SESSION, sample, id(N + 1)), `after slice ${slices}`).toEqual(want);
			},
		});
		service.close();
		// One linear append, no whole-session classification; the runs took a turn each.
		expect(summary).toMatchObject({ sessionsAppended: 1, pending: 0 });
		expect(summary.sessionsReclassified).toBeUndefined();
		expect(slices).toBeGreaterThanOrEqual(Math.floor(N / RUN));
		expectSameIndex(live, expected, "after the sliced refresh");
	});

	it("stopped after two runs, then an append with a second compaction or a branch off a summarized entry: answers and the end equal a fresh build's", async () => {
		const cases: Array<[string, string]> = [
			["a second compaction", message(N + 2, N + 1) + compaction(N + 3, N + 2, N - 10)],
			["a branch off a summarized entry", message(N + 2, 100)],
		];
		for (const [name, more] of cases) {
			compacted();
			const service = openService(root, live);
			let slices = 0;
			const stopped = await service.refreshSliced({ batchMs: 0, summaryRun: RUN, onSlice: () => slices++, shouldStop: () => slices >= 2 });
			expect(stopped.pending, name).toBe(1);
			appendFileSync(file, more);
			const sample = [1, 100, 101, N / 2, N - 10, N + 1, N + 2].map(id);
			const expected = fresh(`fresh-${name}.sqlite`);
			const last = more.includes('"compaction"') ? id(N + 3) : id(N + 1);
			const want = answers(openService(root, expected), SESSION, sample, last);
			// The append's refresh, stopped again after a run: answers are already the fresh build's.
			slices = 0;
			await service.refreshSliced({ batchMs: 0, summaryRun: RUN, onSlice: () => slices++, shouldStop: () => slices >= 1 });
			expect(answers(openService(root, live), SESSION, sample, last), name).toEqual(want);
			// A synchronous refresh (the CLI's) makes every run left.
			expect(service.refresh().pending, name).toBe(0);
			service.close();
			expectSameIndex(live, expected, name);
		}
	});
});
