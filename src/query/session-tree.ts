/**
 * A session's whole tree for the tree view: every entry of the fork family's root session, and each session forked
 * or cloned from it attached at its fork point with only the entries it wrote itself (copies are the parent's rows).
 * A constant number of queries per family member (tree-rows.ts), never one trace per entry.
 */
import { Catalog, type SessionRow, sessionSummary } from "../index/catalog.js";
import { binary } from "../index/event-identity.js";
import type { IndexStore } from "../index/store.js";
import { forkTreeRows, matchingEvents, sessionTreeRows, type TreeRow } from "../index/tree-rows.js";
import { ArgumentError, NotFoundError } from "../shared/errors.js";
import type { Caller, SemanticKind, TreeEntry, TreeFork, TreeRequest, TreeResult } from "../shared/types.js";
import { parseQuery } from "./query-parse.js";
import { Visibility } from "./visibility.js";

/** Sessions of one family listed before the rest is left out with a note (a family is a handful of files). */
export const TREE_FAMILY_LIMIT = 64;
/** Parent-session steps walked up to the family root (a header cycle must not loop). */
const ROOT_DEPTH = 32;

/** A tree row as the tree view's entry (`hits`: row ids that match the query). */
export function entryOf(r: TreeRow, hits: Set<number>): TreeEntry {
	const kind = r.first_frag ? (r.first_frag.slice(0, r.first_frag.lastIndexOf(":")) as SemanticKind) : null;
	return {
		entryId: r.entry_id,
		parentId: r.parent_id,
		entryType: r.type,
		...(r.role ? { role: r.role } : {}),
		kind,
		...(r.tool_name ? { toolName: r.tool_name } : {}),
		preview: r.preview,
		timestamp: r.ts,
		branchState: r.branch_state,
		selectionState: r.selection_state,
		...(r.edit_state && r.edit_by ? { contextEdit: { state: r.edit_state, by: r.edit_by } } : {}),
		...(r.is_error !== null ? { isError: r.is_error === 1 } : {}),
		...(r.cur_label ? { label: r.cur_label } : {}),
		...(r.type === "compaction" ? { summary: "compaction" as const } : r.type === "branch_summary" ? { summary: "branch" as const } : {}),
		...(hits.has(r.id) ? { hit: true } : {}),
		...(r.call_preview ? { call: r.call_preview } : {}),
	};
}

/** Where a forked session's own history leaves its parent: the parent entry its first own entry continues from. */
function forkPointOf(rows: Array<TreeRow & { copied: number }>, parent: SessionRow, parentIds: Set<string>): string | null {
	const copied = new Set(rows.filter((r) => r.copied === 1).map((r) => r.entry_id));
	const firstOwn = rows.find((r) => r.copied === 0 && r.parent_id !== null && (copied.has(r.parent_id) || parentIds.has(r.parent_id)));
	if (firstOwn) return firstOwn.parent_id;
	// No entry of its own yet (a /clone, a --fork before its first reply): it continues from the last entry it copied,
	// which for a --fork copy of every entry is the parent's materialized leaf.
	if (parent.leaf_entry && copied.has(parent.leaf_entry)) return parent.leaf_entry;
	return rows.filter((r) => r.copied === 1).at(-1)?.entry_id ?? null;
}

class FamilyBuilder {
	readonly notes: string[] = [];
	/** Row id → own entry ids of every session built, to place the focus on the row that shows an entry. */
	readonly own = new Map<number, Set<string>>();
	/** Sessions attached so far, the root included. */
	private sessions = 1;

	constructor(
		readonly store: IndexStore,
		readonly catalog: Catalog,
		readonly visibility: Visibility,
		readonly match: string | null,
	) {}

	hitsOf(sessions: number[]): Set<number> {
		return this.match === null ? new Set() : matchingEvents(this.store, this.match, sessions);
	}

	/** The forks of `parent` (whose own entry ids are `parentIds`), recursively. */
	forks(parent: SessionRow, parentIds: Set<string>, seen: Set<number>): TreeFork[] {
		const rows = forkTreeRows(this.store, parent.id);
		const bySession = new Map<number, Array<TreeRow & { copied: number }>>();
		for (const r of rows) {
			const list = bySession.get(r.session_id) ?? [];
			if (list.length === 0) bySession.set(r.session_id, list);
			list.push(r);
		}
		// A fork without an indexed entry yet has no rows but is still a member of the family.
		for (const child of this.catalog.childSessions(parent.id)) if (!bySession.has(child.id)) bySession.set(child.id, []);
		const hits = this.hitsOf([...bySession.keys()]);
		const out: TreeFork[] = [];
		// Oldest first, by the header's start time: the order the user made them in, whatever order they were indexed in.
		const started = (sid: number) => this.catalog.session(sid)?.created ?? "";
		const publicId = (sid: number) => this.catalog.session(sid)?.public_id ?? "";
		const order = [...bySession.keys()].sort((a, b) => binary(started(a), started(b)) || binary(publicId(a), publicId(b)));
		for (const sid of order) {
			const list = bySession.get(sid) ?? [];
			const child = this.catalog.session(sid);
			if (!child || seen.has(sid) || !this.visibility.allowsSession(child)) continue;
			if (++this.sessions > TREE_FAMILY_LIMIT) {
				this.notes.push(`more than ${TREE_FAMILY_LIMIT} sessions in this fork family: the rest are not attached`);
				break;
			}
			seen.add(sid);
			const visible = list.filter((r) => this.visibility.allowsEventId(r.id, child));
			const own = visible.filter((r) => r.copied === 0);
			const ownIds = new Set(own.map((r) => r.entry_id));
			this.own.set(sid, ownIds);
			const copiedIds = new Set(visible.filter((r) => r.copied === 1).map((r) => r.entry_id));
			// Nothing copied: a new session naming this one as its parent, which comes after its leaf.
			const newSession = copiedIds.size === 0;
			out.push({
				session: sessionSummary(child),
				forkPoint: forkPointOf(visible, parent, parentIds) ?? (newSession ? parent.leaf_entry : null),
				copied: copiedIds.size,
				...(newSession ? { newSession } : {}),
				copiedAll: parentIds.size > 0 && [...parentIds].every((id) => copiedIds.has(id)),
				entries: own.map((r) => entryOf(r, hits)),
				forks: this.forks(child, new Set([...ownIds, ...copiedIds]), seen),
			});
		}
		return out;
	}
}

/** The family root above a session: parent sessions walked up while visible, stopping at a cycle. */
export function familyRoot(catalog: Catalog, visibility: Visibility, start: SessionRow): { root: SessionRow; chain: SessionRow[] } {
	const chain = [start];
	let cur = start;
	for (let i = 0; i < ROOT_DEPTH && cur.parent_session !== null; i++) {
		const parent = catalog.session(cur.parent_session);
		if (!parent || !visibility.allowsSession(parent) || chain.some((s) => s.id === parent.id)) break;
		chain.push(parent);
		cur = parent;
	}
	return { root: cur, chain };
}

/** The tree of the fork family of a session, centred on an event (DESIGN §5 extension for the tree view). */
export function sessionTree(store: IndexStore, request: TreeRequest & { caller?: Caller }): TreeResult {
	if (!request.sessionId) throw new ArgumentError("sessionId is required");
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, request.caller);
	const asked = catalog.sessionByPublicId(request.sessionId);
	if (!asked || !visibility.allowsSession(asked)) throw new NotFoundError(request.sessionId);
	const parsed = request.query?.trim() ? parseQuery(request.query, { prefix: true }) : null;
	const { root, chain } = familyRoot(catalog, visibility, asked);
	const b = new FamilyBuilder(store, catalog, visibility, parsed?.match ?? null);
	const rows = sessionTreeRows(store, root.id).filter((r) => visibility.allowsEventId(r.id, root));
	const hits = b.hitsOf([root.id]);
	const rootIds = new Set(rows.map((r) => r.entry_id));
	b.own.set(root.id, rootIds);
	const entries = rows.map((r) => entryOf(r, hits));
	const forks = b.forks(root, rootIds, new Set([root.id]));
	let focus: TreeResult["focus"] = null;
	if (request.entryId) {
		// A copied entry shows as the row of the session that wrote it: walk up from the asked session to it.
		const owner = chain.find((s) => b.own.get(s.id)?.has(request.entryId as string));
		if (owner) focus = { sessionId: owner.public_id, entryId: request.entryId };
		else if (!catalog.eventByEntry(asked.id, request.entryId)) throw new NotFoundError(request.sessionId, request.entryId);
	}
	const count = (fs: TreeFork[]): number => fs.reduce((n, f) => n + f.entries.filter((e) => e.hit).length + count(f.forks), 0);
	return {
		session: sessionSummary(root),
		leafId: root.leaf_entry,
		entries,
		forks,
		focus,
		hits: entries.filter((e) => e.hit).length + count(forks),
		notes: [...(parsed?.notes ?? []), ...b.notes],
	};
}
