/**
 * The session browser's listing in one query: every session with its size, its fork points, its parent session with
 * what the child copied of it (what tells a /clone from a /fork or --fork, see query/sessions), and how many sessions
 * name it as their parent. Bounded: at most `limit` rows, newest activity first, with the total count alongside.
 */
import type { IndexStore } from "./store.js";

/** One row of the listing, as SQLite returns it. */
export interface SessionListRow {
	public_id: string;
	name: string | null;
	cwd: string;
	file: string;
	created: string;
	entries: number;
	leaf_entry: string | null;
	last_ms: number | null;
	parent_public: string | null;
	parent_name: string | null;
	parent_cwd: string | null;
	holds_parent_leaf: number;
	/** Entries of the child that are copies of the parent's (same entry id), and those on the parent's abandoned branches. */
	copied: number;
	copied_alternate: number;
	forks: number;
	branches: number;
	total: number;
}

// Fork points are stored per session at ingest (sessions.fork_points): grouping every event here cost 30 ms per
// 60,000 events (bench/session-list.ts), read on every browser open.
// What a child s copied of its parent p (pl: the parent's leaf event): the facts that tell a /clone from a /fork or
// --fork (query/sessions originOf). Shared by the listing and by one session's lineage (a trace).
const ORIGIN_COLUMNS = `
	CASE WHEN pl.id IS NOT NULL AND (EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND e.entry_id = pl.entry_id)
		OR (pl.type = 'label' AND EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND e.entry_id = pl.parent_id))) THEN 1 ELSE 0 END
		AS holds_parent_leaf,
	CASE WHEN p.id IS NULL THEN 0 ELSE (SELECT count(*) FROM events c JOIN events pe ON pe.session_id = p.id AND pe.entry_id = c.entry_id
		WHERE c.session_id = s.id) END AS copied,
	CASE WHEN p.id IS NULL THEN 0 ELSE (SELECT count(*) FROM events c JOIN events pe ON pe.session_id = p.id AND pe.entry_id = c.entry_id
		WHERE c.session_id = s.id AND pe.branch_state = 'alternate') END AS copied_alternate`;
const ORIGIN_JOINS = `
LEFT JOIN sessions p ON p.id = s.parent_session
LEFT JOIN events pl ON pl.session_id = p.id AND pl.entry_id = p.leaf_entry`;

const LIST_SQL = `
SELECT s.public_id, s.name, s.cwd, f.path AS file, s.created, s.entries, s.leaf_entry, s.last_ms,
	p.public_id AS parent_public, p.name AS parent_name, p.cwd AS parent_cwd,${ORIGIN_COLUMNS},
	coalesce(k.n, 0) AS forks, s.fork_points AS branches, count(*) OVER () AS total
FROM sessions s
JOIN files f ON f.id = s.file_id${ORIGIN_JOINS}
LEFT JOIN (SELECT parent_session AS sid, count(*) AS n FROM sessions WHERE parent_session IS NOT NULL GROUP BY parent_session) k ON k.sid = s.id
ORDER BY s.last_ms IS NULL, s.last_ms DESC, s.created DESC, s.public_id DESC
LIMIT ?`;

/** What one session copied of its parent, with both folders (originOf's input); undefined without a parent row. */
export type OriginFacts = Pick<SessionListRow, "copied" | "copied_alternate" | "holds_parent_leaf" | "parent_cwd" | "cwd">;

/** The origin facts of one session (by row id): a few indexed passes over that session's events. */
export function originFacts(store: IndexStore, sessionId: number): OriginFacts | undefined {
	return store
		.prepare<[number], OriginFacts>(`SELECT s.cwd, p.cwd AS parent_cwd,${ORIGIN_COLUMNS}\nFROM sessions s${ORIGIN_JOINS}\nWHERE s.id = ? AND p.id IS NOT NULL`)
		.get(sessionId);
}

/** Every session (at most `limit`), newest activity first; `total` on each row counts all of them. */
export function listSessionRows(store: IndexStore, limit: number): SessionListRow[] {
	return store.prepare<[number], SessionListRow>(LIST_SQL).all(limit);
}
