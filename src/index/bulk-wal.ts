/**
 * WAL checkpoints during a bulk ingest. With SQLite's default of 1000 pages, every batch and every merge step of a
 * cold index copied the WAL into the main file with two fsyncs (about a hundred on the 0.5 GB bench corpus), and
 * pages that a later batch rewrote were copied each time. A refresh that reads at least BULK_BYTES lets the WAL grow
 * to BULK_WAL_PAGES first; at its end checkpoints are as usual again and the WAL is emptied if no reader is in it.
 */
import type { IndexStore } from "./store.js";

/** Bytes of changed files from which a refresh counts as a bulk ingest. */
export const BULK_BYTES = 16 * 1024 * 1024;
/** WAL pages a bulk ingest lets accumulate before a commit checkpoints them (64 MB of 4 KiB pages). */
export const BULK_WAL_PAGES = 16384;
/** SQLite's default. */
const DEFAULT_WAL_PAGES = 1000;

/** Connections whose checkpoints a refresh holds back: one that threw midway is released by the next refresh's end. */
const holding = new WeakSet<IndexStore>();

/** Holds checkpoints back while a refresh reads `bytes` of changed files, when that is a bulk ingest. */
export function holdCheckpoints(store: IndexStore, bytes: number): void {
	if (store.readonly || bytes < BULK_BYTES) return;
	store.db.pragma(`wal_autocheckpoint = ${BULK_WAL_PAGES}`);
	holding.add(store);
}

/**
 * After a bulk ingest: checkpoints as usual again, and the WAL copied into the main file now and truncated, without
 * waiting for readers or another writer (with a reader in it, as much as it allows; the WAL then keeps its size).
 */
export function releaseCheckpoints(store: IndexStore): void {
	if (!holding.delete(store)) return;
	const db = store.db;
	db.pragma(`wal_autocheckpoint = ${DEFAULT_WAL_PAGES}`);
	const busy = db.pragma("busy_timeout", { simple: true }) as number;
	try {
		db.pragma("busy_timeout = 0");
		db.pragma("wal_checkpoint(TRUNCATE)");
	} catch {
		// Busy or a full disk: the WAL stays as it is, and a later commit checkpoints it.
	} finally {
		db.pragma(`busy_timeout = ${busy}`);
	}
}
