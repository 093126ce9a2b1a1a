/**
 * The FTS5 merge policy after a refresh. Every commit adds a segment, and rebuilt files leave deleted rows in the
 * old ones; automerge keeps the count in check only level by level, so a cold index ends with a dozen or more
 * segments, and every term a query looks up (a did-you-mean probes hundreds) is sought in each of them. A refresh that
 * wrote the index goes on with FTS5's incremental optimize ('merge' with a negative page count), which merges all
 * segments into one and drops deleted rows, within a page budget proportional to what the refresh ingested: a cold
 * index is merged whole, a small append pays a few milliseconds, and what a budget leaves the next refresh continues.
 */
import type { IndexStore } from "./store.js";

/** Leaf pages one merge step writes at most: one write transaction, short enough for a sliced refresh's turn. */
export const MERGE_STEP_PAGES = 1000;
/** A refresh that wrote the index merges at least this many pages. */
const MIN_BUDGET_PAGES = 256;
/** Ingested source bytes per page of merge budget: the index is about a third of its sources, so twice its pages. */
const BYTES_PER_PAGE = 2048;

/** The merge budget (leaf pages) of a refresh that ingested `bytes` of session files. */
export function mergeBudget(bytes: number): number {
	return Math.max(MIN_BUDGET_PAGES, Math.ceil(bytes / BYTES_PER_PAGE));
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
