/**
 * A compaction at the leaf of a long, already compacted session (pi's /compact again): the sliced refresh writes what
 * changes state at once and re-points the older summaries to the new compaction in runs, one per turn of the event
 * loop. Between turns every answer (reads, filters, the tree, the trace) is already a fresh build's; at the end the
 * whole index is, also after a stop between runs, a reopened index, or an append, rebuild or deletion while runs are
 * pending. No timing: turns are counted.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answers, compaction, header, message, stepId } from "./helpers/compaction.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { dumpIndex, expectSameIndex } from "./helpers/dump.js";

const SESSION = "0199c000-0000-7000-8000-00000000c0a1";
const ENTRIES = 3000;
/** Rowids per run in these tests: about a dozen runs over the session. */
const RUN = 256;
const id = stepId;

let t: ReturnType<typeof tempDir>;
let root: string;
let file: string;
let live: string;

beforeEach(() => {
	t = tempDir("pes-compaction-runs-");
	root = join(t.dir, "sessions");
	mkdirSync(join(root, "--w--"), { recursive: true });
	file = join(root, "--w--", "2026-06-01T00-00-00-000Z_s.jsonl");
	live = join(t.dir, "live.sqlite");
	// A long session compacted once (entry ENTRIES + 1, keeping the last ten), then forty more entries.
	const lines = [header(SESSION)];
	for (let i = 1; i <= ENTRIES; i++) lines.push(message(i, i - 1));
	lines.push(compaction(ENTRIES + 1, ENTRIES, ENTRIES - 10));
	for (let i = ENTRIES + 2; i <= ENTRIES + 41; i++) lines.push(message(i, i - 1));
	writeFileSync(file, lines.join(""));
	const service = openService(root, live);
	service.refresh();
	service.close();
	// pi's /compact again at the leaf, keeping the last twenty entries.
	appendFileSync(file, compaction(ENTRIES + 42, ENTRIES + 41, ENTRIES + 22));
});

afterEach(() => t.cleanup());

/** A fresh full build of the session files as they are now. */
function fresh(name = "fresh.sqlite"): string {
	const path = join(t.dir, name);
	rmSync(path, { force: true });
	const service = openService(root, path);
	service.refresh();
	service.close();
	return path;
}

describe("a compaction at the leaf of a compacted session, refreshed in slices", () => {
	it("re-points the older summaries over several turns; after each turn every answer is a fresh build's, the end equals it", async () => {
		const expected = fresh();
		const sample = [1, 2, ENTRIES / 2, ENTRIES - 100, ENTRIES - 10, ENTRIES + 1, ENTRIES + 21, ENTRIES + 30].map(id);
		const want = answers(openService(root, expected), SESSION, sample, id(ENTRIES + 42));
		const service = openService(root, live);
		let slices = 0;
		let pendingSeen = 0;
		const summary = await service.refreshSliced({
			batchMs: 0,
			summaryRun: RUN,
			onSlice: () => {
				slices++;
				// Another connection sees each committed slice: the fresh build's answers, though the rows are not all written.
				expect(answers(openService(root, live), SESSION, sample, id(ENTRIES + 42))).toEqual(want);
				const db = new Database(live, { readonly: true });
				try {
					const row = db.prepare("SELECT summarized_by FROM events WHERE entry_id = ?").get(id(ENTRIES - 100)) as { summarized_by: string };
					if (row.summarized_by === id(ENTRIES + 1)) pendingSeen++;
				} finally {
					db.close();
				}
			},
		});
		expect(summary).toMatchObject({ sessionsAppended: 1, pending: 0 });
		expect(summary.sessionsReclassified).toBeUndefined();
		// The file's slice, then one run per turn: the session's ~3,000 rowids in runs of 256.
		expect(slices).toBeGreaterThanOrEqual(Math.ceil(ENTRIES / RUN));
		// Right after the compaction was written, an old entry's row still named the first compaction: the runs were pending.
		expect(pendingSeen).toBeGreaterThan(0);
		expect(service.countPending()).toBe(0);
		service.close();
		expectSameIndex(live, expected, "after the sliced refresh");
	});

	it("stopped between runs, closed and reopened, the next refresh (sliced or not) finishes the runs", async () => {
		const expected = fresh();
		for (const next of ["sliced", "sync"] as const) {
			rmSync(live, { force: true });
			rmSync(`${live}-wal`, { force: true });
			rmSync(`${live}-shm`, { force: true });
			// The index before the second compaction again: the file without its last line.
			const all = readFileSync(file, "utf8");
			const before = all.slice(0, all.lastIndexOf("\n", all.length - 2) + 1);
			writeFileSync(file, before);
			const first = openService(root, live);
			first.refresh();
			first.close();
			writeFileSync(file, all);
			const service = openService(root, live);
			let slices = 0;
			const stopped = await service.refreshSliced({ batchMs: 0, summaryRun: RUN, onSlice: () => slices++, shouldStop: () => slices >= 3 });
			expect(stopped.pending, next).toBe(1);
			expect(service.countPending(), next).toBe(1);
			// A crash leaves the same: every slice is committed with its marker.
			service.close();
			const reopened = openService(root, live);
			const done = next === "sliced" ? await reopened.refreshSliced({ batchMs: 0, summaryRun: RUN }) : reopened.refresh();
			expect(done.pending, next).toBe(0);
			reopened.close();
			expectSameIndex(live, expected, `resumed by a ${next} refresh`);
		}
	});

	it("an append, another compaction, a rebuild or a deletion while runs are pending ends equal to a fresh build", async () => {
		const pendingRefresh = async () => {
			const service = openService(root, live);
			let slices = 0;
			const summary = await service.refreshSliced({ batchMs: 0, summaryRun: RUN, onSlice: () => slices++, shouldStop: () => slices >= 2 });
			service.close();
			return summary;
		};
		const finish = async () => {
			const service = openService(root, live);
			const summary = await service.refreshSliced({ batchMs: 0, summaryRun: RUN });
			service.close();
			expect(summary.pending).toBe(0);
		};
		expect((await pendingRefresh()).pending).toBe(1);
		// A message after the compaction, while its runs are pending.
		appendFileSync(file, message(ENTRIES + 43, ENTRIES + 42));
		expect((await pendingRefresh()).pending).toBe(1);
		await finish();
		expectSameIndex(live, fresh(), "an append while runs were pending");

		// A third compaction while the second one's runs are pending.
		appendFileSync(file, compaction(ENTRIES + 44, ENTRIES + 43, ENTRIES + 43));
		expect((await pendingRefresh()).pending).toBe(1);
		appendFileSync(file, compaction(ENTRIES + 45, ENTRIES + 44, ENTRIES + 30));
		expect((await pendingRefresh()).pending).toBe(1);
		await finish();
		expectSameIndex(live, fresh(), "a compaction while runs were pending");

		// The file rewritten (a rebuild) while runs are pending: the session's rows and its runs go together.
		appendFileSync(file, compaction(ENTRIES + 46, ENTRIES + 45, ENTRIES + 40));
		expect((await pendingRefresh()).pending).toBe(1);
		const lines = readFileSync(file, "utf8").split("\n");
		writeFileSync(file, lines.map((l) => l.replace("runs test entry 7 ", "runs test entry seven ")).join("\n"));
		const rebuilt = openService(root, live);
		const summary = rebuilt.refresh();
		rebuilt.close();
		expect(summary).toMatchObject({ sessionsRebuilt: 1, pending: 0 });
		expectSameIndex(live, fresh(), "a rebuild while runs were pending");

		// Deleted while runs are pending: its runs go with it. A refresh stopped at once leaves only the deletion of its
		// rows pending (session-removal.ts: the session is gone from every answer already); the next one ends it.
		appendFileSync(file, compaction(ENTRIES + 47, ENTRIES + 46, ENTRIES + 46));
		expect((await pendingRefresh()).pending).toBe(1);
		rmSync(file);
		const gone = openService(root, live);
		expect((await gone.refreshSliced({ batchMs: 0, summaryRun: RUN, shouldStop: () => true })).pending).toBeLessThanOrEqual(1);
		expect(dumpIndex(live).events).toEqual([]);
		expect((await gone.refreshSliced({ batchMs: 0, summaryRun: RUN })).pending).toBe(0);
		expect(gone.countPending()).toBe(0);
		gone.close();
		expect(dumpIndex(live).events).toEqual([]);
	});
});
