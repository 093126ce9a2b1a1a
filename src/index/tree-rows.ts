/**
 * The rows of a session's whole tree for the tree view: one query for a session's entries, one for the entries of
 * every session forked from it (each flagged when it is a byte-identical copy of the parent's entry), one for the
 * entries of a set of sessions that match an FTS5 expression. Bounded by the session's size, never one read per entry.
 */
import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import type { BranchState, SelectionState } from "../shared/types.js";
import type { IndexStore } from "./store.js";
import { summaryOverlay } from "./summary-runs.js";

const SLOTS = FRAGMENT_SLOTS;

/** The columns of an events row a tree row shows. */
export interface TreeRow {
	id: number;
	session_id: number;
	entry_id: string;
	parent_id: string | null;
	type: string;
	role: string | null;
	tool_name: string | null;
	/** The first fragment id (`tool.call:2`), or '' without fragments. */
	first_frag: string;
	preview: string;
	ts: string;
	branch_state: BranchState;
	selection_state: SelectionState;
	summarized_by: string | null;
	summarized_prov: string | null;
	msg_producing: number;
	edit_state: "replaced" | "omitted" | null;
	edit_by: string | null;
	is_error: number | null;
	cur_label: string | null;
}

const COLUMNS = `e.id, e.session_id, e.entry_id, e.parent_id, e.type, e.role, e.tool_name,
	CASE WHEN instr(e.frags, ' ') > 0 THEN substr(e.frags, 1, instr(e.frags, ' ') - 1) ELSE e.frags END AS first_frag,
	e.preview, e.ts, e.branch_state, e.selection_state, e.summarized_by, e.summarized_prov, e.msg_producing, e.edit_state, e.edit_by, e.is_error, e.cur_label`;

/** Every entry of a session in file order (rowids grow in append order within a session). */
export function sessionTreeRows(store: IndexStore, session: number): TreeRow[] {
	return store.prepare<[number], TreeRow>(`SELECT ${COLUMNS} FROM events e WHERE e.session_id = ? ORDER BY e.id`).all(session).map(summaryOverlay(store));
}

/** Every entry of the sessions whose parent session is `parent`, in file order, `copied` = 1 for twins of the parent's. */
export function forkTreeRows(store: IndexStore, parent: number): Array<TreeRow & { copied: number }> {
	return store
		.prepare<[number, number], TreeRow & { copied: number }>(
			`SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM events p WHERE p.session_id = ? AND p.entry_id = e.entry_id AND p.line_hash = e.line_hash) AS copied
			FROM events e WHERE e.session_id IN (SELECT id FROM sessions WHERE parent_session = ?) ORDER BY e.session_id, e.id`,
		)
		.all(parent, parent)
		.map(summaryOverlay(store));
}

/** Row ids of the events of `sessions` with a fragment matching the MATCH expression (built by query-parse only). */
export function matchingEvents(store: IndexStore, match: string, sessions: number[]): Set<number> {
	if (sessions.length === 0) return new Set();
	const rows = store
		.prepare<[string, string], { eid: number }>(
			`SELECT DISTINCT rowid / ${SLOTS} AS eid FROM fts WHERE fts MATCH ?
			AND (rowid / ${SLOTS}) IN (SELECT id FROM events WHERE session_id IN (SELECT value FROM json_each(?)))`,
		)
		.all(match, JSON.stringify(sessions));
	return new Set(rows.map((r) => r.eid));
}
