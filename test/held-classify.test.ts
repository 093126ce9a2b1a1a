/**
 * A rare append that classifies a whole session (a turn back past a compaction) does not hold the host's event loop
 * for the session's size (issue 32 item 2): inside pi's sliced refresh the classification runs a stretch of rows per
 * turn, in the one write transaction of its append, so other processes never see it half done. No timing: turns of
 * the event loop are counted, and the result equals a fresh build.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { REFRESH_SLICE } from "../src/extension/index-handle.js";
import { STRETCH } from "../src/index/session-classify.js";
import { decodeIds, encodeIds } from "../src/index/shape-codec.js";
import { SHAPE_CHUNK } from "../src/index/tree-shape-store.js";
import { openService } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-held-");
const SESSION = "0199e000-0000-7000-8000-0000000c1a55";
const ts = (i: number) => new Date(Date.UTC(2026, 5, 1) + i * 1000).toISOString();

/** `n` entries on one path, a compaction every 1,000 keeping the last 20 before it. */
function session(n: number): string {
	const lines = [JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: ts(0), cwd: "/w" })];
	let leaf: string | null = null;
	for (let i = 1; i <= n; i++) {
		if (i % 1000 === 0) {
			lines.push(
				JSON.stringify({
					type: "compaction",
					id: `c${i}`,
					parentId: leaf,
					timestamp: ts(i),
					summary: `up to ${i}`,
					firstKeptEntryId: `e${i - 20}`,
					tokensBefore: 1,
				}),
			);
			leaf = `c${i}`;
		} else {
			const message = { role: i % 2 ? "user" : "assistant", content: [{ type: "text", text: `step ${i}` }], timestamp: i };
			lines.push(JSON.stringify({ type: "message", id: `e${i}`, parentId: leaf, timestamp: ts(i), message }));
			leaf = `e${i}`;
		}
	}
	return `${lines.join("\n")}\n`;
}

/** Counts turns of the event loop (setImmediate callbacks) until stopped, calling `look` at each. */
function ticker(look: () => void): { stop: () => number } {
	let ticks = 0;
	let on = true;
	const tick = () => {
		if (!on) return;
		ticks++;
		look();
		setImmediate(tick);
	};
	setImmediate(tick);
	return {
		stop: () => {
			on = false;
			return ticks;
		},
	};
}

/** A session of `n` entries written and indexed: its file, sessions folder, index and service. */
function indexedSession(n: number) {
	const file = fresh(`sessions/--w--/2026-06-01T00-00-00-000Z_${SESSION}.jsonl`);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, session(n));
	const sessions = dirname(dirname(file));
	const index = join(dirname(sessions), "index.sqlite");
	const service = openService(sessions, index);
	service.refresh();
	return { file, sessions, index, service };
}

/** Appends a turn back to before the latest two compactions (the append path leaves it to a whole classification). */
function turnBack(file: string, n: number): string {
	const back = `e${Math.floor(n / 1000) * 1000 - 1030}`;
	const message = { role: "user", content: [{ type: "text", text: "again from here" }], timestamp: n + 1 };
	appendFileSync(file, `${JSON.stringify({ type: "message", id: "again", parentId: back, timestamp: ts(n + 1), message })}\n`);
	return back;
}

describe("a whole classification inside pi's sliced refresh", () => {
	it("runs a stretch of rows per turn of the event loop, in one transaction, and equals a fresh build", async () => {
		const n = 3 * STRETCH + 500;
		const { file, sessions, index, service } = indexedSession(n);
		try {
			turnBack(file, n);
			// Another connection looks in at every turn while the classification is under way: it sees the session as it
			// was or as it is after, never a row with a provisional state.
			const other = new Database(index, { readonly: true });
			const provisional = other.prepare("SELECT count(*) AS n FROM events WHERE branch_state = 'unknown'");
			const leaf = other.prepare("SELECT leaf_entry AS leaf FROM sessions");
			const seen = new Set<string>();
			const turns = ticker(() => seen.add(`${(leaf.get() as { leaf: string }).leaf} ${(provisional.get() as { n: number }).n}`));
			const { ms, bytes, entries } = REFRESH_SLICE;
			let slices = 0;
			const summary = await service.refreshSliced({
				budgetMs: 60_000,
				batchMs: ms,
				sliceBytes: bytes,
				sliceEntries: entries,
				onSlice: () => slices++,
			});
			const ticks = turns.stop();
			other.close();
			expect(summary).toMatchObject({ sessionsAppended: 1, sessionsReclassified: 1, pending: 0 });
			// Reading the rows and writing their states, a stretch per turn each: at least twice the stretches.
			expect(ticks).toBeGreaterThanOrEqual(2 * Math.ceil(n / STRETCH));
			// The pass, then the summary runs it left (the rows the compaction now on the path summarizes), each a slice.
			expect(slices).toBeGreaterThan(1);
			expect([...seen].sort()).toEqual(["again 0", `e${n} 0`]);
			const read = service.read({ sessionId: SESSION, entryId: `e${n - 5}` });
			expect(read.classification.branchState).toBe("alternate");
			expect(service.read({ sessionId: SESSION, entryId: "again" }).classification.selectionState).toBe("direct");
		} finally {
			service.close();
		}
		freshBuild(sessions, index);
	});

	// The row ids come from the session's kept shape (a few blobs); a shape that does not hold them is not trusted.
	it.each([
		["ids of other rows", "UPDATE tree_shape SET ids = ? WHERE session_id = ? AND chunk = 0"],
		["a chunk missing", "DELETE FROM tree_shape WHERE session_id = ? AND chunk = 1"],
	])("classifies the session from its rows when its kept shape holds %s", (_, damage) => {
		// Chunk 1 in the middle: the append rewrites only the last one.
		const n = 2 * SHAPE_CHUNK + 500;
		const { file, sessions, index, service } = indexedSession(n);
		const db = new Database(index);
		const kept = db.prepare(`SELECT * FROM tree_shape WHERE chunk = ${damage.slice(-1)}`).get() as { session_id: number; n: number; ids: Buffer };
		if (damage.startsWith("UPDATE")) {
			// Still ascending and as many: each id one lower, so only the rows read tell.
			const ids = new Float64Array(kept.n);
			decodeIds(kept.ids, kept.n, ids, 0);
			db.prepare(damage).run(encodeIds(ids.map((id) => id - 1)), kept.session_id);
		} else db.prepare(damage).run(kept.session_id);
		try {
			turnBack(file, n);
			expect(service.refresh()).toMatchObject({ sessionsAppended: 1, sessionsReclassified: 1 });
			expect(service.read({ sessionId: SESSION, entryId: `e${n - 5}` }).classification.branchState).toBe("alternate");
		} finally {
			service.close();
		}
		// The shape as it was: then every state must be a fresh build's.
		const keys = Object.keys(kept);
		db.prepare(`INSERT OR REPLACE INTO tree_shape (${keys.join(", ")}) VALUES (${keys.map(() => "?").join(", ")})`).run(...Object.values(kept));
		db.close();
		freshBuild(sessions, index);
	});

	it("leaves the re-pointed summaries to summary runs, and answers as a fresh build while they are pending", async () => {
		const n = 3 * STRETCH + 500;
		const { file, sessions, index, service } = indexedSession(n);
		const reference = openService(sessions, join(dirname(sessions), "fresh.sqlite"));
		try {
			const back = turnBack(file, n);
			reference.refresh();
			const { bytes, entries } = REFRESH_SLICE;
			// A budget spent at once: the pass (its one batch), then one batch of summary runs.
			const first = await service.refreshSliced({ budgetMs: 1, batchMs: 1, sliceBytes: bytes, sliceEntries: entries, summaryRun: 256 });
			expect(first).toMatchObject({ sessionsReclassified: 1 });
			expect(first.pending).toBeGreaterThan(0);
			const ids = ["again", back, `e${n}`, `e${n - 1000}`, ...Array.from({ length: 120 }, (_, i) => `e${1 + i * Math.floor(n / 120)}`)].filter(
				(id) => !/^e\d*000$/.test(id),
			);
			for (const id of ids)
				expect(service.read({ sessionId: SESSION, entryId: id }).classification, id).toEqual(
					reference.read({ sessionId: SESSION, entryId: id }).classification,
				);
			const rest = await service.refreshSliced({ budgetMs: 60_000, batchMs: 5, sliceBytes: bytes, sliceEntries: entries });
			expect(rest.pending).toBe(0);
		} finally {
			service.close();
			reference.close();
		}
		freshBuild(sessions, index);
	});
});
