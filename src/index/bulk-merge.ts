/**
 * FTS5's merging during a bulk build. A refresh that writes most of the index merges it into one segment at its end
 * (fts-merge.ts); automerge meanwhile merged the segments of every commit level by level, so each term's rows were
 * rewritten once per level and then once more by that final merge. A bulk build that is sure to reach its end turns
 * automerge (and the crisis merge) off while it writes, and the final merge writes everything once.
 * The settings are kept in meta in the same transaction: a build that dies midway leaves them for the next refresh to
 * restore, before anything else is written.
 */
import { BULK_BYTES } from "./bulk-wal.js";
import { type IndexStore, isBusyError } from "./store.js";

/** Meta key of the events' FTS5 merge settings while a bulk build holds them off. */
const HELD_KEY = "merges-held";

/** Segments of one level that still force a merge while held (FTS5 allows fewer than 2000 in all). */
const HELD_CRISIS = 1000;

/** An FTS5 setting of the events' table, or its default when never set. */
function setting(store: IndexStore, key: string, fallback: number): number {
	return store.prepare<[string], number>("SELECT v FROM fts_config WHERE k = ?").pluck().get(key) ?? fallback;
}

function write(store: IndexStore, key: string, value: number): void {
	// FTS5 reads a setting as an integer only: a bound JavaScript number would be a real.
	store.db.exec(`INSERT INTO fts(fts, rank) VALUES ('${key}', ${Math.trunc(value)})`);
}

/**
 * Holds FTS5's merging off for a refresh that will write `bytes` of files into an index holding `indexed` bytes, when
 * that is a bulk build that merges whole at its end (at least as much new as old) and that runs to its end (`whole`:
 * no budget, no slices; a refresh stopped midway would leave its segments unmerged). No-op when another writer holds
 * the index.
 */
export function holdMerges(store: IndexStore, bytes: number, whole: boolean): void {
	if (store.readonly || !whole || bytes < BULK_BYTES) return;
	try {
		store.db
			.transaction(() => {
				const indexed = store.prepare<[], number>("SELECT total(indexed_bytes) FROM files").pluck().get() ?? 0;
				if (bytes < indexed || store.meta(HELD_KEY) !== null) return;
				store.setMeta(HELD_KEY, JSON.stringify({ automerge: setting(store, "automerge", 4), crisismerge: setting(store, "crisismerge", 16) }));
				write(store, "automerge", 0);
				write(store, "crisismerge", HELD_CRISIS);
			})
			.immediate();
	} catch (error) {
		if (!isBusyError(error)) throw error;
	}
}

/** FTS5's merge settings back as they were before a bulk build held them (this run's or one that died); false when busy. */
export function releaseMerges(store: IndexStore): boolean {
	if (store.readonly) return true;
	const held = store.meta(HELD_KEY);
	if (held === null) return true;
	const saved = JSON.parse(held) as { automerge: number; crisismerge: number };
	try {
		store.db
			.transaction(() => {
				write(store, "automerge", saved.automerge);
				write(store, "crisismerge", saved.crisismerge);
				store.prepare("DELETE FROM meta WHERE key = ?").run(HELD_KEY);
			})
			.immediate();
	} catch (error) {
		if (!isBusyError(error)) throw error;
		return false;
	}
	return true;
}
