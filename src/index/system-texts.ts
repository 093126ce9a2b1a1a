/**
 * pi 1.x system prompt sections, stored once per distinct text: pi repeats its default prompt in every session,
 * fork and compaction, so per-session storage would grow the index for nothing. An event keeps only the ids of its
 * sections' texts (events.sys_texts). Searched only when a filter asks for the `system.prompt` kind (DESIGN §5).
 */
import { hash } from "node:crypto";
import { deleteFtsRows } from "./fts-totals.js";
import type { IndexStore } from "./store.js";

/** The id of a section text (its FTS tokens), adding it the first time any session carries it. */
export function systemTextId(store: IndexStore, text: string): number {
	const key = hash("sha1", text, "hex");
	const row = store.prepare<[string], { id: number }>("SELECT id FROM system_texts WHERE hash = ?").get(key);
	if (row) return row.id;
	const id = Number(store.prepare("INSERT INTO system_texts (hash) VALUES (?)").run(key).lastInsertRowid);
	store.prepare("INSERT INTO system_fts (rowid, text) VALUES (?, ?)").run(id, text);
	return id;
}

/** Drops the given texts when no event uses them any more (after a session's rows were deleted). */
export function dropUnusedSystemTexts(store: IndexStore, ids: number[]): void {
	if (ids.length === 0) return;
	const used = new Set(
		store
			.prepare<[string], { value: number }>(
				"SELECT DISTINCT j.value FROM events e, json_each('[' || e.sys_texts || ']') j WHERE e.sys_texts IS NOT NULL AND j.value IN (SELECT value FROM json_each(?))",
			)
			.all(JSON.stringify(ids))
			.map((r) => r.value),
	);
	const unused = ids.filter((id) => !used.has(id));
	deleteFtsRows(store, "system_fts", unused);
	for (const id of unused) store.prepare("DELETE FROM system_texts WHERE id = ?").run(id);
}

/** A ranked system-prompt hit: the event, its best score, matching sections, and the first matching fragment's row id. */
export interface SystemCandidate {
	eid: number;
	best: number;
	n: number;
	fid: number;
}

/**
 * Events whose system sections match `match` (an FTS5 expression over our tokens), best first; `where` and
 * `params` are the search's event filters over alias `e`. `slots` is the fragment row-id multiplier.
 */
export function searchSystemTexts(store: IndexStore, match: string, where: string[], params: unknown[], slots: number, limit: number): SystemCandidate[] {
	const filters = where.length ? `AND ${where.join(" AND ")}` : "";
	return store
		.prepare<unknown[], SystemCandidate>(
			`WITH m AS MATERIALIZED (SELECT rowid AS tid, bm25(system_fts) AS score FROM system_fts WHERE system_fts MATCH ?)
			SELECT e.id AS eid, min(m.score) AS best, count(*) AS n, e.id * ${slots} + min(j.key) AS fid
			FROM events e JOIN json_each('[' || e.sys_texts || ']') j JOIN m ON m.tid = j.value JOIN sessions sx ON sx.id = e.session_id
			WHERE e.sys_texts IS NOT NULL ${filters} GROUP BY e.id ORDER BY best, e.ts_ms DESC, sx.created DESC, sx.public_id DESC, e.seq DESC LIMIT ?`,
		)
		.all(match, ...params, limit);
}
