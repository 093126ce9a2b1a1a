/**
 * A bulk build holds FTS5's merging off while it writes and merges once at its end (bulk-merge.ts): the index then
 * ends in one segment with its merge settings as before, and a build that died midway leaves them for the next
 * refresh to restore, so later appends are merged as usual.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { holdMerges } from "../src/index/bulk-merge.js";
import { BULK_BYTES } from "../src/index/bulk-wal.js";
import { refresh } from "../src/index/refresh.js";
import type { IndexStore } from "../src/index/store.js";
import { openStore } from "../src/index/store.js";
import { scratch } from "./helpers/reliability.js";
import { toolResultSession } from "./helpers/tool-result-session.js";

const { fresh } = scratch("pes-bulk-merge-");

/** A session of `turns` tool results of about `bytes` each, with a distinct word per turn. */
function session(id: string, turns: number, bytes: number): string {
	return toolResultSession(id, turns, bytes, (i) => `needle${id}${i}`);
}

/** FTS5's merge settings in effect (its defaults where never set). */
function config(store: IndexStore): { automerge: number; crisismerge: number } {
	const get = (k: string) => store.db.prepare<[string], number>("SELECT v FROM fts_config WHERE k = ?").pluck().get(k);
	return { automerge: get("automerge") ?? 4, crisismerge: get("crisismerge") ?? 16 };
}
const segments = (store: IndexStore) => store.db.prepare("SELECT count(DISTINCT segid) FROM fts_idx").pluck().get();
const hits = (store: IndexStore, word: string) => store.db.prepare("SELECT count(*) FROM fts WHERE fts MATCH ?").pluck().get(`"${word}"`);

describe("FTS5 merging during a bulk build", () => {
	it("a cold index is merged once into one segment and keeps its merge settings; a dead build's are restored", () => {
		const sessions = fresh("sessions");
		mkdirSync(sessions, { recursive: true });
		const turns = 12;
		const perTurn = Math.ceil(BULK_BYTES / 3 / turns) + 1024;
		for (const id of ["a", "b", "c"]) writeFileSync(join(sessions, `${id}.jsonl`), session(id, turns, perTurn));
		const index = join(dirname(sessions), "index.sqlite");
		const store = openStore(index);
		try {
			const before = config(store);
			// Small batches: several commits, so several segments before the final merge.
			const during: unknown[] = [];
			const summary = refresh(store, [{ path: sessions, kind: "extra" }], {
				batchBytes: 4 * 1024 * 1024,
				onProgress: () => during.push(config(store).automerge),
			});
			expect(summary.errors).toEqual([]);
			expect(summary.eventsIngested).toBe(3 * turns);
			expect(during).toContain(0);
			expect(segments(store)).toBe(1);
			expect(config(store)).toEqual(before);
			for (const id of ["a", "b", "c"]) expect(hits(store, `needle${id}${turns - 1}`)).toBe(1);

			// A build that died with its merges held (as if killed): the next refresh, even one that finds nothing, restores them.
			writeFileSync(join(sessions, "d.jsonl"), session("d", turns, 1024));
			holdMerges(store, 4 * BULK_BYTES, true);
			expect(config(store).automerge).toBe(0);
			const next = refresh(store, [{ path: sessions, kind: "extra" }], { budgetMs: 60_000 });
			expect(next.eventsIngested).toBe(turns);
			expect(config(store)).toEqual(before);
			expect(hits(store, `needled${turns - 1}`)).toBe(1);
		} finally {
			store.close();
		}
	});
});
