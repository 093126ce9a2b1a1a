/**
 * The FTS5 merge policy after a refresh. Every commit adds a segment, and automerge keeps their number in check only
 * level by level, so a cold index ended with a dozen or more segments, and every term a query looks up (a did-you-mean
 * probes hundreds) is sought in each of them. A refresh that wrote at least half of the index (a cold index, a
 * history rebuilt) goes on with FTS5's optimize, incrementally ('merge' with a negative page count), into one
 * segment; a budgeted refresh that builds a history over several calls does not (each call writes only its share).
 * Smaller refreshes leave it to FTS5's automerge and deletemerge: an optimize after them rewrites the whole
 * index for a few new rows (rewriting it all for a few new rows). A bulk build that runs to its end holds automerge
 * off meanwhile (bulk-merge.ts): its segments are merged here, once.
 */
import { type IndexStore, isBusyError } from "./store.js";

/** Leaf pages one merge step writes at most: one write transaction, short enough for a sliced refresh's turn. */
export const MERGE_STEP_PAGES = 1000;

/** True when a refresh that read `bytes` of session files wrote enough of the index to merge it whole. */
export function mergesWhole(store: IndexStore, bytes: number): boolean {
	const indexed = store.prepare<[], number>("SELECT total(indexed_bytes) FROM files").pluck().get() ?? 0;
	return bytes > 0 && bytes * 2 >= indexed;
}

/**
 * One step of the incremental optimize of the events' FTS table, in a write transaction of its own: up to `pages`
 * leaf pages. False when there was nothing left to merge (one segment, no cycle under way).
 */
export function mergeStep(store: IndexStore, pages: number): boolean {
	const changes = store.prepare<[], number>("SELECT total_changes()").pluck();
	const before = changes.get() ?? 0;
	store.db.transaction(() => store.prepare("INSERT INTO fts(fts, rank) VALUES ('merge', ?)").run(-Math.max(1, Math.trunc(pages)))).immediate();
	// The command's own row is one change; a step that merged wrote leaf pages besides.
	return (changes.get() ?? 0) - before > 1;
}

/**
 * Leaf pages of a step of the extension's sliced refresh: a step reads every segment it merges, so after a refresh
 * that committed hundreds of times (a fork family of 400 files) a step of MERGE_STEP_PAGES held pi's loop too long.
 */
export const MERGE_SLICE_PAGES = 250;

/** One step of `pages` leaf pages; false when nothing was left to merge or another process holds the index. */
export function mergeStepUnlessBusy(store: IndexStore, pages = MERGE_STEP_PAGES): boolean {
	try {
		return mergeStep(store, pages);
	} catch (error) {
		if (!isBusyError(error)) throw error;
		return false;
	}
}
