/**
 * The explorer's query history on disk (issue 31.9): a small JSON list beside the index, readable by its user only.
 * It holds what the user typed into the query line, bounded (cleanEntries), never session text. A folder that cannot
 * be written (a read-only index location) leaves the history in memory for the run, without an error.
 */
import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cleanEntries } from "../../components/search/query-recall.js";

/** The history file of the index at `indexPath`. */
export function queryHistoryPath(indexPath: string): string {
	return join(dirname(indexPath), "query-history.json");
}

/** The stored queries, newest first; none when the file is missing, unreadable or not a list of queries. */
export function loadQueryHistory(indexPath: string): string[] {
	try {
		const data: unknown = JSON.parse(readFileSync(queryHistoryPath(indexPath), "utf8"));
		return Array.isArray(data) ? cleanEntries(data) : [];
	} catch {
		return [];
	}
}

/** Stores `entries` (cleaned again), replacing the file whole; false when the folder cannot be written. */
export function saveQueryHistory(indexPath: string, entries: readonly string[]): boolean {
	const path = queryHistoryPath(indexPath);
	const tmp = `${path}.${process.pid}.tmp`;
	try {
		// Created 0600 and renamed over the old file: a reader never sees half a list, and no one else can read it.
		writeFileSync(tmp, `${JSON.stringify(cleanEntries(entries))}\n`, { mode: 0o600 });
		chmodSync(tmp, 0o600);
		renameSync(tmp, path);
		return true;
	} catch {
		try {
			unlinkSync(tmp);
		} catch {
			// nothing was written
		}
		return false;
	}
}
