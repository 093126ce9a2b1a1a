/**
 * Appends classified from what they change (equal to a full classification of the session, tree.ts classifyTree):
 * a linear append, a move of the leaf (pi's /tree), a branch off an abandoned entry, context edits, branch summaries
 * and a compaction at the leaf, each with indexed lookups only. The session writer tries these first and classifies
 * the whole session when they answer false.
 */
import type { Statement } from "better-sqlite3";
import { CTX_EXCLUDED, CTX_OMITS, EDITABLE_ROLES, type NodeState } from "../project/tree.js";
import { PathIds } from "./path-ids.js";
import { Claims, PATH_BY_ID_SQL, PATH_ROW_SQL, type PathRow, pathRows, type RowLookup } from "./path-rows.js";
import type { StagedEvent } from "./session-writer.js";
import type { IndexStore } from "./store.js";
import { contentful, markSummaryRuns, type PendingSummary, pendingSummary, runSummarizes } from "./summary-runs.js";

/** How the writer inserts staged events with the states an append worked out (SessionWriter.insertStaged). */
export type InsertStaged = (
	sessionId: number,
	staged: StagedEvent[],
	stateOf: (id: string) => NodeState | undefined,
	labelOf: (id: string) => string | null,
	abandonedOf?: (id: string) => string | null,
) => void;

/** The incremental classification of one session's appends, on the writer's store and row inserter. */
export class AppendClassifier {
	constructor(
		private readonly store: IndexStore,
		private readonly insertStaged: InsertStaged,
	) {}

	/**
	 * The fast path of an append, equal to a full classification (tree.ts classifyTree), costing what the append
	 * changes. The new entries must form one chain hanging off an entry P and end at the new leaf; each case below
	 * uses indexed lookups only:
	 * - P the previous leaf (a linear append, pi's common case): nothing classified before changes, except labels.
	 * - P above it on the selected path (pi's /tree): the path's tail below P leaves it and takes the state it has off
	 *   it, from its stored abandoned-branch facts (costs the tail).
	 * - P off the selected path (a branch off an abandoned entry): P's stretch up to the path joins it and the path's
	 *   tail below that junction leaves it (costs both stretches).
	 * - A context edit among the new entries changes its target's edit and selection state (one row).
	 * - A branch summary among them marks its abandoned branch, the entries from its old leaf up to the new
	 *   position's path that no earlier summary claimed (costs that branch).
	 * False (nothing written) for anything else — a compaction among the new entries (commit hands it to
	 * commitCompaction), a compaction or context edit in a stretch that leaves or joins the path,
	 * a stretch that meets no selected entry, a context edit naming a joining or new entry, an empty branch summary (on
	 * the path it is summarized by the latest compaction, found only by walking the path), an entry an earlier one
	 * already points at — and the caller classifies the whole session.
	 */
	commitExtension(sessionId: number, staged: StagedEvent[], leafId: string | null, previousLeafId: string | null): boolean {
		const last = staged.at(-1);
		if (last === undefined || previousLeafId === null || leafId !== last.entry.id) return false;
		const s = this.store;
		// Read before any write below, except by the loops that skip what an earlier loop wrote (see each).
		const row = pathRows(s);
		const leaf = row.get(sessionId, previousLeafId);
		if (leaf?.branch_state !== "selected") return false;
		const from = (staged[0] as StagedEvent).entry.parentId;
		const point = from === null ? undefined : from === previousLeafId ? leaf : row.get(sessionId, from);
		if (point === undefined) return false;
		const edited = s.prepare<[number, string], { n: number }>(
			"SELECT 1 AS n FROM events WHERE session_id = ? AND ref_id = ? AND type = 'context_edit' LIMIT 1",
		);
		// Row ids, not rows: a stretch can hold most of a million-entry session (a branch off an old entry).
		let leaving = new PathIds();
		let joining = new PathIds();
		if (point !== leaf) {
			let junction = point;
			if (point.branch_state !== "selected") {
				const stretch = this.stretchUp(row, edited, sessionId, point);
				if (stretch === null) return false;
				joining = stretch.rows;
				junction = stretch.junction;
			}
			// The path's tail below the junction leaves it (found by parent lookups).
			const tail = this.pathBelow(row, sessionId, leaf, junction.entry_id);
			if (tail === null) return false;
			leaving = tail;
		}
		const pointedAt = s.prepare<[number, string], { n: number }>("SELECT 1 AS n FROM events WHERE session_id = ? AND parent_id = ? LIMIT 1");
		const referred = s.prepare<[number, string], { n: number }>("SELECT 1 AS n FROM events WHERE session_id = ? AND ref_id = ? LIMIT 1");
		const ids = new Map(staged.map((x, i) => [x.entry.id, i]));
		let parent = from;
		for (const { entry, ev } of staged) {
			if (entry.parentId !== parent || ev.type === "compaction") return false;
			// An earlier entry naming this id (as parent, or as a label, edit or compaction target) changes with it.
			if (pointedAt.get(sessionId, entry.id) || referred.get(sessionId, entry.id)) return false;
			// An edit of an entry of this very append: decided by the full classification (rare).
			if (ev.type === "context_edit" && ev.refId !== null && ids.has(ev.refId)) return false;
			// An empty branch summary is summarized by the latest compaction on the path, which is not at hand here.
			if (ev.type === "branch_summary" && !ev.messageProducing) return false;
			parent = entry.id;
		}
		// Rows a compaction's pending runs still summarize: a row joining the path there is left to the full classification.
		const pending = pendingSummary(s, sessionId);
		if (pending) for (const id of joining) if (id < pending.below && id >= pending.next) return false;
		// On the new path above the branch: still selected (not in the tail that leaves), or joining it.
		const aboveNewLeaf = (r: PathRow) => (r.branch_state === "selected" && !leaving.has(r.id)) || joining.has(r.id);
		const claims = this.abandonedBy(row, sessionId, staged, ids, aboveNewLeaf);
		if (claims === null) return false;

		this.gainsChild(sessionId, point.entry_id);
		// The latest label per target wins, in file order: the new labels are the latest of all.
		const labels = new Map<string, string | null>();
		for (const { ev } of staged) if (ev.type === "label" && ev.refId !== null) labels.set(ev.refId, ev.label);
		const leave = s.prepare(
			"UPDATE events SET branch_state = 'alternate', selection_state = ?, summarized_by = ?, summarized_prov = ?, abandoned_by = ?, edit_state = NULL, edit_by = NULL WHERE id = ?",
		);
		for (const id of leaving) {
			const r = row.byId(id) as PathRow;
			// Off the path an entry's state is its own (tree.ts classifyTree): no context, only an abandoned branch's summary.
			const by = claims.of(r.id) ?? r.abandoned_by;
			if (!contentful(r)) leave.run("not-applicable", null, null, by, r.id);
			else if (by) leave.run("summarized", by, "derived", by, r.id);
			else leave.run("not-selected", null, null, by, r.id);
		}
		// Off the path already and newly claimed by a summary: summarized through it when it has content.
		const claim = s.prepare(
			"UPDATE events SET abandoned_by = ?, selection_state = CASE WHEN ? THEN 'summarized' ELSE selection_state END, summarized_by = CASE WHEN ? THEN ? ELSE summarized_by END, summarized_prov = CASE WHEN ? THEN 'derived' ELSE summarized_prov END WHERE id = ?",
		);
		for (const [id, by] of claims) {
			// Not a leaving row (written above): the others are as read.
			if (leaving.has(id)) continue;
			const r = row.byId(id) as PathRow;
			const summarized = r.branch_state === "alternate" && contentful(r) ? 1 : 0;
			claim.run(by, summarized, summarized, by, summarized, r.id);
		}
		// After every compaction on the path (none joins or leaves it): a message reaches the model unless pi drops it.
		const inContext = (messageProducing: boolean, ctxFlags: number) =>
			!messageProducing ? "not-applicable" : (ctxFlags & CTX_EXCLUDED) !== 0 ? "omitted" : "direct";
		const join = s.prepare(
			"UPDATE events SET branch_state = 'selected', selection_state = ?, summarized_by = NULL, summarized_prov = NULL, edit_state = NULL, edit_by = NULL WHERE id = ?",
		);
		for (const id of joining) {
			// Its kind and flags, which no write changes (a joining row is above the new leaf: never claimed).
			const r = row.byId(id) as PathRow;
			join.run(inContext(r.msg_producing === 1, r.ctx_flags), id);
		}
		const setLabel = s.prepare("UPDATE events SET cur_label = ? WHERE session_id = ? AND entry_id = ?");
		for (const [target, label] of labels) if (!ids.has(target)) setLabel.run(label, sessionId, target);
		// Edits read their targets as written by now.
		this.applyEdits(s.prepare(PATH_ROW_SQL), sessionId, staged, leaving, joining, pending);
		const states = new Map<string, NodeState>();
		for (const { entry, ev } of staged) {
			states.set(entry.id, { branchState: "selected", selectionState: inContext(ev.messageProducing, ev.ctxFlags), summarizedBy: null });
		}
		this.insertStaged(
			sessionId,
			staged,
			(id) => states.get(id),
			(id) => labels.get(id) ?? null,
		);
		return true;
	}

	/**
	 * A compaction appended at the leaf (pi's /compact), equal to a full classification: every contentful entry of the
	 * path leaves the context for the new summary (tree.ts names the latest compaction as the summary of all of them)
	 * except the kept range from its firstKeptEntryId to the leaf, which is classified again from its own entries.
	 * Written now: the kept range (costs that range) and a marker; the entries above it are summarized by this one in
	 * runs, later (summary-runs.ts; readers see them made already). False for a compaction that does not hang at the
	 * leaf or that an earlier entry names, and where rowids do not follow the path.
	 */
	commitCompaction(sessionId: number, compaction: StagedEvent, leafId: string | null, previousLeafId: string): boolean {
		const { entry, ev } = compaction;
		if (leafId !== entry.id || entry.parentId !== previousLeafId) return false;
		const s = this.store;
		const row = s.prepare<[number, string], PathRow>(PATH_ROW_SQL);
		const leaf = row.get(sessionId, previousLeafId);
		if (leaf?.branch_state !== "selected") return false;
		// Two lookups, one per index: as one OR, SQLite's planner may walk the session's whole parent index instead.
		const pointedAt = s.prepare<[number, string], { n: number }>("SELECT 1 AS n FROM events WHERE session_id = ? AND parent_id = ? LIMIT 1");
		const referred = s.prepare<[number, string], { n: number }>("SELECT 1 AS n FROM events WHERE session_id = ? AND ref_id = ? LIMIT 1");
		if (pointedAt.get(sessionId, entry.id) || referred.get(sessionId, entry.id)) return false;
		// The kept range, leaf first: the path from the leaf up to firstKeptEntryId, when that is on the path. Row ids
		// (a crafted compaction may keep most of a huge session), read again below.
		const kept = new PathIds();
		const first = ev.refId === null ? undefined : row.get(sessionId, ev.refId);
		if (first?.branch_state === "selected") {
			let current: PathRow | undefined = leaf;
			let reached = false;
			while (current && !kept.has(current.id)) {
				kept.add(current.id);
				if (current.entry_id === first.entry_id) {
					reached = true;
					break;
				}
				current = current.parent_id === null ? undefined : row.get(sessionId, current.parent_id);
			}
			if (!reached) return false;
		}
		// Every contentful entry above the kept range leaves the context (or was summarized by an older compaction and is
		// now summarized by this one). Event ids are given in file order and a child comes after its parent, so those
		// are the session's selected rows from its first row to below the kept range's first: handed to summary runs
		// (summary-runs.ts), which readers see made already. Checked: the selected rows from the kept range's first
		// row on are exactly the kept range, and the session's first row (the lowest id) is a root, found by an index.
		const keptLo = kept.min() ?? leaf.id + 1;
		const root = s
			.prepare<[number], { id: number; seq: number }>("SELECT id, seq FROM events WHERE session_id = ? AND parent_id IS NULL ORDER BY id LIMIT 1")
			.get(sessionId);
		if (root?.seq !== 0) return false;
		if (kept.size > 0) {
			// NOT INDEXED: by rowid range from the kept range on, not over the whole session.
			const selected = s
				.prepare<[number, number], { n: number }>("SELECT count(*) AS n FROM events NOT INDEXED WHERE id >= ? AND session_id = ? AND branch_state = 'selected'")
				.get(keptLo, sessionId)?.n;
			if (selected !== kept.size) return false;
		}
		this.gainsChild(sessionId, previousLeafId);
		markSummaryRuns(s, sessionId, entry.id, root.id, keptLo - 1, keptLo);
		const byId = s.prepare<[number], PathRow>(PATH_BY_ID_SQL);
		// Path order: the reverse of the walk up from the leaf.
		const keptRows = function* () {
			for (const id of kept.reversed()) yield byId.get(id) as PathRow;
		};
		// The context now: the summary, then the kept range in path order without system messages (folded into it).
		const system = (r: PathRow) => r.type === "message" && r.role === "system";
		const edits = new Map<string, { id: string; omits: boolean }>();
		for (const r of keptRows()) if (r.type === "context_edit") this.editOf(s, r, edits);
		const set = s.prepare("UPDATE events SET selection_state = ?, summarized_by = NULL, summarized_prov = NULL, edit_state = ?, edit_by = ? WHERE id = ?");
		const summarize = s.prepare(
			"UPDATE events SET selection_state = 'summarized', summarized_by = ?, summarized_prov = 'recorded', edit_state = NULL, edit_by = NULL WHERE id = ?",
		);
		for (const r of keptRows()) {
			// Kept but not a message of the context (a system message, an older compaction): summarized by this one.
			if (r.msg_producing !== 1 || system(r)) {
				if (contentful(r)) summarize.run(entry.id, r.id);
				continue;
			}
			const edit = edits.get(r.entry_id);
			const omitted = edit?.omits === true || (r.ctx_flags & CTX_EXCLUDED) !== 0;
			// A replacement only changes roles pi edits; on anything else it is recorded but has no effect.
			const effective = edit !== undefined && (edit.omits || EDITABLE_ROLES.has(r.type === "custom_message" ? "custom" : (r.role ?? "")));
			set.run(omitted ? "omitted" : "direct", effective ? (edit.omits ? "omitted" : "replaced") : null, effective ? edit.id : null, r.id);
		}
		this.insertStaged(
			sessionId,
			[compaction],
			() => ({ branchState: "selected", selectionState: "direct", summarizedBy: null }),
			() => null,
		);
		return true;
	}

	/** Records a context edit row's target and kind, the latest one per target winning. */
	private editOf(s: IndexStore, r: PathRow, edits: Map<string, { id: string; omits: boolean }>): void {
		const target = s.prepare<[number], { ref_id: string | null }>("SELECT ref_id FROM events WHERE id = ?").get(r.id)?.ref_id ?? null;
		if (target !== null) edits.set(target, { id: r.entry_id, omits: (r.ctx_flags & CTX_OMITS) !== 0 });
	}

	/**
	 * An append hangs under `entryId`: a fork point now if it had exactly one child before. Also under the leaf, which
	 * has children when the last line repeats an earlier entry (pi's leaf on load is then that earlier entry).
	 */
	private gainsChild(sessionId: number, entryId: string): void {
		const s = this.store;
		const children = s.prepare<[number, string], { n: number }>("SELECT count(*) AS n FROM events WHERE session_id = ? AND parent_id = ?");
		if (children.get(sessionId, entryId)?.n === 1) s.prepare("UPDATE sessions SET fork_points = fork_points + 1 WHERE id = ?").run(sessionId);
	}

	/**
	 * An entry off the selected path and its ancestors up to the path (their row ids): the stretch a branch off it
	 * brings onto the path, and the path entry it meets. Null when the stretch holds what shapes the context (a
	 * compaction, a context edit, an entry a context edit names), an empty branch summary (see commitExtension), an
	 * entry in a parent cycle, or meets no selected entry.
	 */
	private stretchUp(
		row: RowLookup,
		edited: Statement<[number, string], { n: number }>,
		sessionId: number,
		start: PathRow,
	): { rows: PathIds; junction: PathRow } | null {
		// Also what a parent cycle is found by: an entry met twice.
		const rows = new PathIds();
		let current: PathRow | undefined = start;
		while (current && current.branch_state !== "selected") {
			if (current.branch_state !== "alternate" || current.type === "compaction" || current.type === "context_edit" || rows.has(current.id)) return null;
			if (current.type === "branch_summary" && current.msg_producing !== 1) return null;
			if (edited.get(sessionId, current.entry_id)) return null;
			rows.add(current.id);
			current = current.parent_id === null ? undefined : row.get(sessionId, current.parent_id);
		}
		return current ? { rows, junction: current } : null;
	}

	/**
	 * The entries the new branch summaries claim (tree.ts abandonedBranches): from each summary's old leaf up to the
	 * first entry above the new leaf, those no earlier summary holds (first in file order wins). Null when an old
	 * leaf is an entry of this append below its summary.
	 */
	private abandonedBy(
		row: RowLookup,
		sessionId: number,
		staged: StagedEvent[],
		ids: Map<string, number>,
		aboveNewLeaf: (r: PathRow) => boolean,
	): Claims | null {
		const claims = new Claims();
		for (let k = 0; k < staged.length; k++) {
			const { entry, ev } = staged[k] as StagedEvent;
			if (ev.type !== "branch_summary") continue;
			const target = entry.parentId;
			const recorded = ev.refId !== null && ev.refId !== target;
			let oldLeaf: string | null;
			if (recorded) oldLeaf = ev.refId;
			else if (k > 0) oldLeaf = (staged[k - 1] as StagedEvent).entry.id;
			else
				oldLeaf =
					this.store.prepare<[number], { entry_id: string }>("SELECT entry_id FROM events WHERE session_id = ? ORDER BY id DESC LIMIT 1").get(sessionId)
						?.entry_id ?? null;
			if (oldLeaf === null || oldLeaf === target) continue;
			const inAppend = ids.get(oldLeaf);
			// An earlier entry of this append is on the new position's path: the summary abandons nothing.
			if (inAppend !== undefined) {
				if (inAppend < k) continue;
				return null;
			}
			// Rows, not entry ids: a branch left far up a huge session holds millions (the walk meets each entry's first row).
			const seen = new PathIds();
			const mine = new PathIds();
			let current = row.get(sessionId, oldLeaf);
			while (current && !aboveNewLeaf(current) && !seen.has(current.id)) {
				seen.add(current.id);
				// An entry outside the tree (in or below a parent cycle) is claimed by none (tree.ts abandonedBranches).
				if (claims.of(current.id) === undefined && current.abandoned_by === null && current.branch_state !== "unknown") mine.add(current.id);
				current = current.parent_id === null ? undefined : row.get(sessionId, current.parent_id);
			}
			claims.add(entry.id, mine);
		}
		return claims;
	}

	/**
	 * The new context edits, on the selected path after every compaction: each target in the model context (its
	 * message reaches the model or is omitted from it) takes the latest edit's state (tree.ts projection).
	 */
	private applyEdits(
		row: Statement<[number, string], PathRow>,
		sessionId: number,
		staged: StagedEvent[],
		leaving: PathIds,
		joining: PathIds,
		pending: PendingSummary | null,
	): void {
		const edits = new Map<string, { id: string; omits: boolean }>();
		for (const { entry, ev } of staged)
			if (ev.type === "context_edit" && ev.refId !== null) edits.set(ev.refId, { id: entry.id, omits: (ev.ctxFlags & CTX_OMITS) !== 0 });
		const set = this.store.prepare("UPDATE events SET selection_state = ?, edit_state = ?, edit_by = ? WHERE id = ?");
		for (const [target, edit] of edits) {
			const r = row.get(sessionId, target);
			if (r === undefined || leaving.has(r.id)) continue;
			// As readers see it: a pending run summarizes it (out of the context, no edit applies).
			if (runSummarizes(pending, { ...r, session_id: sessionId })) continue;
			const produced = joining.has(r.id)
				? r.msg_producing === 1
				: r.branch_state === "selected" && (r.selection_state === "direct" || r.selection_state === "omitted");
			if (!produced) continue;
			const excluded = (r.ctx_flags & CTX_EXCLUDED) !== 0;
			if (edit.omits) set.run("omitted", "omitted", edit.id, r.id);
			else {
				// A replacement only changes roles pi edits; on anything else it is recorded but has no effect.
				const role = r.type === "custom_message" ? "custom" : (r.role ?? "");
				const editable = EDITABLE_ROLES.has(role);
				set.run(excluded ? "omitted" : "direct", editable ? "replaced" : null, editable ? edit.id : null, r.id);
			}
		}
	}

	/**
	 * The row ids of the selected path's entries from `leaf` up to (not including) `point`, or null when that stretch holds what
	 * shapes the rest of the path's context (a compaction, a context edit) or `point` is not above `leaf`.
	 */
	private pathBelow(row: RowLookup, sessionId: number, leaf: PathRow, point: string): PathIds | null {
		const out = new PathIds();
		let current: PathRow | undefined = leaf;
		while (current && current.entry_id !== point) {
			if (current.type === "compaction" || current.type === "context_edit" || current.branch_state !== "selected") return null;
			out.add(current.id);
			current = current.parent_id === null ? undefined : row.get(sessionId, current.parent_id);
		}
		return current ? out : null;
	}
}
