/**
 * A bulk refresh (a cold index) holds the WAL's checkpoints back and leaves the WAL empty at its end (bulk-wal.ts):
 * the index is then one file again, and later commits checkpoint as usual. A reader in the WAL is never waited for.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { BULK_BYTES, BULK_WAL_PAGES } from "../src/index/bulk-wal.js";
import { refresh } from "../src/index/refresh.js";
import { openStore } from "../src/index/store.js";
import { scratch } from "./helpers/reliability.js";
import { toolResultSession } from "./helpers/tool-result-session.js";

const { fresh } = scratch("pes-bulk-wal-");

/** A session of `turns` tool results of `bytes` each: big on disk, cheap to index (a fragment's middle is left out, I20). */
function bigSession(id: string, turns: number, bytes: number): string {
	return toolResultSession(id, turns, bytes, (i) => `result ${i}`);
}

const walBytes = (index: string) => statSync(`${index}-wal`, { throwIfNoEntry: false })?.size ?? 0;

describe("WAL checkpoints of a bulk refresh", () => {
	it("a cold index of more than BULK_BYTES ends with an empty WAL and usual checkpoints; a reader in the WAL is not waited for", () => {
		const sessions = fresh("sessions");
		mkdirSync(sessions, { recursive: true });
		const turns = 12;
		const perTurn = Math.ceil(BULK_BYTES / turns) + 1024;
		writeFileSync(join(sessions, "a.jsonl"), bigSession("a", turns, perTurn));
		const index = join(dirname(sessions), "index.sqlite");
		const store = openStore(index);
		try {
			// While it writes, commits leave the WAL to grow (the setting is read after each committed batch).
			const during: unknown[] = [];
			const onProgress = () => during.push(store.db.pragma("wal_autocheckpoint", { simple: true }));
			const summary = refresh(store, [{ path: sessions, kind: "extra" }], { onProgress });
			expect(summary.errors).toEqual([]);
			expect(summary.eventsIngested).toBe(turns);
			expect(during).toContain(BULK_WAL_PAGES);
			// Everything is in the main file: the WAL is truncated, and the connection checkpoints at SQLite's default again.
			expect(walBytes(index)).toBe(0);
			expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);

			// A reader holds a snapshot in the WAL while a second bulk refresh writes: the refresh neither waits nor fails.
			writeFileSync(join(sessions, "b.jsonl"), bigSession("b", turns, perTurn));
			const reader = new Database(index, { readonly: true });
			try {
				reader.exec("BEGIN");
				expect(reader.prepare("SELECT count(*) AS n FROM events").get()).toEqual({ n: turns });
				const second = refresh(store, [{ path: sessions, kind: "extra" }]);
				expect(second.errors).toEqual([]);
				expect(second.busy ?? false).toBe(false);
				expect(second.eventsIngested).toBe(turns);
				// The reader's snapshot is intact, and the connection is back to usual checkpoints.
				expect(reader.prepare("SELECT count(*) AS n FROM events").get()).toEqual({ n: turns });
				expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
				reader.exec("COMMIT");
			} finally {
				reader.close();
			}

			// A host that asks for short batches (pi's event loop) keeps SQLite's checkpoints throughout.
			writeFileSync(join(sessions, "c.jsonl"), bigSession("c", turns, perTurn));
			during.length = 0;
			const sliced = refresh(store, [{ path: sessions, kind: "extra" }], { batchMs: 50, onProgress });
			expect(sliced.eventsIngested).toBe(turns);
			expect(during.length).toBeGreaterThan(0);
			expect(new Set(during)).toEqual(new Set([1000]));
		} finally {
			store.close();
		}
	});
});
