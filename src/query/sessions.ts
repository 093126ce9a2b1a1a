/**
 * The session browser's listing: every indexed session (the explorer is trusted, DESIGN §5) or those whose cwd lies
 * under a workspace folder, with size, fork points and fork lineage. One query in src/index; the workspace test is
 * the search's own (canonical paths, path-component boundary), so "this workspace" means the same on both screens.
 */
import { listSessionRows, type OriginFacts, type SessionListRow } from "../index/session-list.js";
import type { IndexStore } from "../index/store.js";
import type { SessionLineage, SessionListing, SessionListRequest, SessionListResult, SessionOrigin } from "../shared/types.js";
import { canonicalPathCached, isWithin } from "./authorize.js";

/** At most this many sessions are read (newest activity first); the answer says when more exist. */
export const SESSION_LIST_LIMIT = 10_000;

/**
 * How a child came from its parent, from what it copied (pi records only the parent's path): nothing copied is a new
 * session that names a parent (`newSession({parentSession})`); a copy of the parent's abandoned branches is a
 * `--fork` (it copies every entry); the path up to the parent's materialized leaf, in the same folder, is a `/clone`;
 * a path that stops earlier is a `/fork`.
 */
export function originOf(r: Pick<SessionListRow, "copied" | "copied_alternate" | "holds_parent_leaf" | "parent_cwd" | "cwd">): SessionOrigin {
	if (r.copied === 0) return "new";
	if (r.copied_alternate > 0) return "fork";
	return r.holds_parent_leaf === 1 && r.parent_cwd === r.cwd ? "clone" : "fork";
}

/**
 * How a trace names a session's lineage: originOf, with a whole copy (`pi --fork`: the parent's abandoned branches
 * copied too, or the path to its leaf taken into another folder) told apart from a `/fork` of an earlier entry.
 */
export function lineageHow(f: OriginFacts): SessionLineage["how"] {
	const origin = originOf(f);
	if (origin !== "fork") return origin;
	return f.copied_alternate > 0 || f.holds_parent_leaf === 1 ? "copy" : "fork";
}

function listing(r: SessionListRow): SessionListing {
	const origin = originOf(r);
	return {
		id: r.public_id,
		...(r.name ? { name: r.name } : {}),
		cwd: r.cwd,
		file: r.file,
		created: r.created,
		lastAt: r.last_ms === null ? null : new Date(r.last_ms).toISOString(),
		events: r.entries,
		branches: r.branches,
		leafId: r.leaf_entry,
		parent: r.parent_public === null ? null : { id: r.parent_public, ...(r.parent_name ? { name: r.parent_name } : {}), origin },
		forks: r.forks,
	};
}

/** The sessions of the listing request, newest activity first. */
export function listSessions(store: IndexStore, request: SessionListRequest = {}, limit = SESSION_LIST_LIMIT): SessionListResult {
	const rows = listSessionRows(store, limit);
	const total = rows[0]?.total ?? 0;
	const root = request.workspace ? (canonicalPathCached(request.workspace) ?? request.workspace) : null;
	const kept = root === null ? rows : rows.filter((r) => isWithin(root, canonicalPathCached(r.cwd) ?? r.cwd));
	return { sessions: kept.map(listing), total: root === null ? total : kept.length, truncated: total > rows.length };
}
