/**
 * A whole session classified (tree-classify.ts) from its rows read as numbers — parent and ref links resolved to row
 * ids by SQLite, entry ids kept only for the entries a state names — and its rows' states written back a stretch at a
 * time. What it holds is a few words an entry, whatever the session's shape (issue 32 item 2).
 */
import type Database from "better-sqlite3";
import type { NodeState } from "../project/tree.js";
import {
	branchOf,
	classifyingPacked,
	contentFlags,
	contentfulNode,
	kindOf,
	linkFlags,
	NODE,
	type PackedFacts,
	type PackedNodes,
	packedNodes,
	STATE,
	selectionOf,
} from "../project/tree-classify.js";
import { lowerBound } from "../shared/sorted.js";
import { drain } from "../shared/steps.js";
import type { StagedEvent } from "./session-writer.js";
import type { IndexStore } from "./store.js";
import { readingShapeIds } from "./tree-shape-store.js";

/** Rows read or written per statement. */
export const STRETCH = 2048;
/**
 * Rows whose states are compared and written per step: updating nearly every row (a turn back re-points every
 * summary) costs several times reading it, and a small page cache (classifyHeld) writes pages out as it goes.
 */
const WRITES_PER_STEP = 1024;
/** Row ids checked per step for their order. */
const IDS_PER_STEP = 1 << 17;
/** A stretch ends where the next row id is further than this: a rowid range then never steps over many other rows. */
const GAP = 64;

/** The columns of an events row a classification reads, besides its ids (a label's text only for a label entry). */
export interface ClassifiedFields {
	parent_id: string | null;
	ref_id: string | null;
	type: string;
	role: string | null;
	msg_producing: number;
	ctx_flags: number;
	label: string | null;
	ts_ms: number | null;
}

/** What classification reads of an indexed row, its links resolved to row ids. */
interface NodeRow extends ClassifiedFields {
	id: number;
	entry_id: string;
	pid: number | null;
	rid: number | null;
}

/**
 * True when a staged entry has what a classification reads of `row`, and its time: put in that row's place, it leaves
 * every state of the session and its time span as they are.
 */
export function sameClassification(row: ClassifiedFields, s: StagedEvent): boolean {
	const { entry, ev } = s;
	return (
		row.parent_id === entry.parentId &&
		row.ref_id === ev.refId &&
		row.type === ev.type &&
		row.role === ev.role &&
		row.msg_producing === (ev.messageProducing ? 1 : 0) &&
		row.ctx_flags === ev.ctxFlags &&
		(ev.type !== "label" || row.label === ev.label) &&
		row.ts_ms === (ev.tsMs === null ? null : Math.trunc(ev.tsMs))
	);
}

/** How a session's rows stand against its kept shape and its count of entries, inside a commit. */
export interface IndexedRows {
	/** Row ids this commit inserted, not in the kept shape yet (nor in the count). */
	inserted?: readonly number[];
	/** Entries the count holds that are no rows yet. */
	uncounted?: number;
}

/** Summary runs a whole pass leaves rows to (summary-runs.ts markSummaryRuns): by `by`, rowids [first, last], below `below`. */
export interface LeftToRuns {
	by: string;
	first: number;
	last: number;
	below: number;
}

/** What a classification may change of an indexed row. */
interface StateRow {
	id: number;
	edit_state: string | null;
	edit_by: string | null;
	branch_state: string;
	selection_state: string;
	summarized_by: string | null;
	summarized_prov: string | null;
	abandoned_by: string | null;
	cur_label: string | null;
}

// NOT INDEXED on the outer table: by rowid range. The links by the (session_id, entry_id) index, one seek each.
const NODE_SQL = `SELECT e.id, e.entry_id, e.parent_id, e.ref_id, e.type, e.role, e.msg_producing, e.ctx_flags,
	CASE WHEN e.type = 'label' THEN e.label END AS label, e.ts_ms,
	(SELECT p.id FROM events p WHERE p.session_id = e.session_id AND p.entry_id = e.parent_id) AS pid,
	(SELECT r.id FROM events r WHERE r.session_id = e.session_id AND r.entry_id = e.ref_id) AS rid
	FROM events AS e NOT INDEXED WHERE e.id >= ? AND e.id <= ? AND e.session_id = ? ORDER BY e.id`;

/** The one statement that reads a whole session, by design: its row ids from its index alone, when its kept shape cannot give them. */
export const SESSION_ROWS_SQL = "SELECT id FROM events WHERE session_id = ?";

const STATE_SQL = `SELECT id, edit_state, edit_by, branch_state, selection_state, summarized_by, summarized_prov, abandoned_by, cur_label
	FROM events NOT INDEXED WHERE id >= ? AND id <= ? AND session_id = ? ORDER BY id`;

const UPDATE_SQL =
	"UPDATE events SET branch_state = ?, selection_state = ?, summarized_by = ?, summarized_prov = ?, abandoned_by = ?, edit_state = ?, edit_by = ?, cur_label = ? WHERE id = ?";

/** A session's classification: its indexed rows (indexes 0…) then the staged entries, in append order. */
export class SessionClassification {
	private constructor(
		private readonly store: IndexStore,
		private readonly sessionId: number,
		/** The indexed rows' ids, ascending. */
		private readonly rowIds: Float64Array,
		private readonly staged: StagedEvent[],
		private readonly nodes: PackedNodes,
		private readonly facts: PackedFacts,
		/** Entry ids of the indexed compactions, branch summaries and context edits: the entries a state names. */
		private readonly names: Map<number, string>,
		/** The current label of each labelled entry (the latest label entry naming it, in file order). */
		private readonly labels: Map<number, string | null>,
		/** Entries with two or more children: a dangling parent id counts too. */
		readonly forkPoints: number,
		/** The earliest and latest timestamp of its entries (null: none has one). */
		readonly span: { firstMs: number | null; lastMs: number | null },
	) {}

	/** Reads the session's indexed rows and classifies them with `staged` after them; `leafId` is the file's last entry. */
	static read(store: IndexStore, sessionId: number, staged: StagedEvent[], leafId: string | null, rows: IndexedRows = {}): SessionClassification {
		return drain(SessionClassification.reading(store, sessionId, staged, leafId, rows));
	}

	/** read() a stretch of rows at a time: it yields after each one (a host's turn may end there). */
	static *reading(
		store: IndexStore,
		sessionId: number,
		staged: StagedEvent[],
		leafId: string | null,
		rows: IndexedRows = {},
	): Generator<void, SessionClassification> {
		const kept = yield* shapeRowIds(store, sessionId, rows);
		if (kept) {
			try {
				return yield* SessionClassification.readingRows(store, sessionId, kept, staged, leafId);
			} catch (error) {
				if (!(error instanceof RowIdsMismatch)) throw error;
			}
		}
		return yield* SessionClassification.readingRows(store, sessionId, indexRowIds(store, sessionId), staged, leafId);
	}

	/** reading() over the session's row ids `rowIds` (ascending); throws RowIdsMismatch when its rows are others. */
	private static *readingRows(
		store: IndexStore,
		sessionId: number,
		rowIds: Float64Array,
		staged: StagedEvent[],
		leafId: string | null,
	): Generator<void, SessionClassification> {
		const m = rowIds.length;
		const nodes = packedNodes(m + staged.length);
		const stagedAt = new Map<string, number>();
		staged.forEach((s, j) => {
			if (!stagedAt.has(s.entry.id)) stagedAt.set(s.entry.id, m + j);
		});
		const indexedRow = store.prepare<[number, string], { id: number }>("SELECT id FROM events WHERE session_id = ? AND entry_id = ?");
		const atRow = (rowId: number | null | undefined) => (rowId == null ? -1 : position(rowIds, rowId));
		const resolve = (id: string | null) => (id === null ? -1 : (stagedAt.get(id) ?? (m > 0 ? atRow(indexedRow.get(sessionId, id)?.id) : -1)));
		const names = new Map<number, string>();
		const labelled: Array<[number, string | null]> = [];
		const children = new Uint8Array(nodes.size);
		const dangling = new Map<string, number>();
		const span = { firstMs: null as number | null, lastMs: null as number | null };
		const spanned = (ms: number | null) => {
			if (ms === null) return;
			const t = Math.trunc(ms);
			span.firstMs = span.firstMs === null ? t : Math.min(span.firstMs, t);
			span.lastMs = span.lastMs === null ? t : Math.max(span.lastMs, t);
		};
		// Scalars, not a fields object per entry: this runs once per entry of the session.
		const put = (k: number, entryId: string, parentId: string | null, refId: string | null, content: number, kind: number, parent: number, ref: number) => {
			const selfParent = parentId !== null && parentId === entryId;
			nodes.kind[k] = kind;
			nodes.parent[k] = selfParent ? -1 : parent;
			nodes.ref[k] = ref;
			nodes.flags[k] = content | linkFlags(entryId, parentId, refId);
			// A parent named twice is a fork point, also when it is no entry of the session.
			const named = selfParent ? k : parent;
			if (named >= 0) children[named] = Math.min(2, (children[named] as number) + 1);
			else if (parentId !== null) dangling.set(parentId, (dangling.get(parentId) ?? 0) + 1);
		};
		const read = store.prepare<[number, number, number], NodeRow>(NODE_SQL);
		yield;
		let k = 0;
		for (const [lo, hi] of stretches(rowIds)) {
			for (const r of read.iterate(rowIds[lo] as number, rowIds[hi - 1] as number, sessionId)) {
				if (r.id !== rowIds[k]) throw new RowIdsMismatch(sessionId, k, m);
				const parent = r.pid !== null ? atRow(r.pid) : r.parent_id === null ? -1 : (stagedAt.get(r.parent_id) ?? -1);
				const ref = r.rid !== null ? atRow(r.rid) : r.ref_id === null ? -1 : (stagedAt.get(r.ref_id) ?? -1);
				put(k, r.entry_id, r.parent_id, r.ref_id, contentFlags(r.type, r.role, r.msg_producing === 1, r.ctx_flags), kindOf(r.type), parent, ref);
				if (r.type === "compaction" || r.type === "branch_summary" || r.type === "context_edit") names.set(k, r.entry_id);
				if (r.type === "label") labelled.push([k, r.label]);
				spanned(r.ts_ms);
				k++;
			}
			yield;
		}
		if (k !== m) throw new RowIdsMismatch(sessionId, k, m);
		staged.forEach((s, j) => {
			const { entry, ev } = s;
			const content = contentFlags(ev.type, ev.role, ev.messageProducing, ev.ctxFlags);
			put(m + j, entry.id, entry.parentId, ev.refId, content, kindOf(ev.type), resolve(entry.parentId), resolve(ev.refId));
			if (ev.type === "label") labelled.push([m + j, ev.label]);
			spanned(ev.tsMs);
		});
		const labels = new Map<number, string | null>();
		for (const [at, text] of labelled) {
			const target = nodes.ref[at] as number;
			if (target >= 0) labels.set(target, text);
		}
		let forks = 0;
		for (const c of children) if (c === 2) forks++;
		for (const c of dangling.values()) if (c > 1) forks++;
		const leaf = leafId === null ? -1 : resolve(leafId);
		const facts = yield* classifyingPacked(nodes, leaf);
		return new SessionClassification(store, sessionId, rowIds, staged, nodes, facts, names, labels, forks, span);
	}

	/** The entry id of the entry at `k`, one a state names. */
	private nameOf(k: number): string | null {
		if (k < 0) return null;
		const m = this.rowIds.length;
		return k >= m ? (this.staged[k - m] as StagedEvent).entry.id : (this.names.get(k) ?? null);
	}

	/** The state of the entry at `k`. */
	stateAt(k: number): NodeState {
		const { facts } = this;
		const code = facts.state[k] as number;
		const by = code === STATE.compacted ? facts.compaction : code === STATE.abandoned ? (facts.abandonedBy?.[k] ?? -1) : -1;
		const edit = facts.editBy[k] as number;
		return {
			branchState: branchOf(code),
			selectionState: selectionOf(code),
			summarizedBy: by < 0 ? null : { entryId: this.nameOf(by) as string, provenance: code === STATE.compacted ? "recorded" : "derived" },
			contextEdit: edit < 0 ? null : { state: (this.nodes.flags[edit] as number) & NODE.omits ? "omitted" : "replaced", by: this.nameOf(edit) as string },
		};
	}

	/** The branch summary whose abandoned branch holds the entry at `k`. */
	abandonedAt(k: number): string | null {
		return this.nameOf(this.facts.abandonedBy?.[k] ?? -1);
	}

	/** The current label of the entry at `k`. */
	labelAt(k: number): string | null {
		return this.labels.get(k) ?? null;
	}

	/** The staged entry `j`'s index. */
	stagedIndex(j: number): number {
		return this.rowIds.length + j;
	}

	/** True when the entry at `k` is summarized by the latest compaction on the path. */
	compactedAt(k: number): boolean {
		return this.facts.state[k] === STATE.compacted;
	}

	/**
	 * The summary runs (summary-runs.ts) that can summarize or re-point, after this pass, the rows the latest compaction
	 * on the path summarizes, readers seeing them as made meanwhile: null without such a compaction. Below `below`, the
	 * lowest row id of a contentful entry on the path it does not summarize, the runs summarize no other entry.
	 */
	leftToRuns(): LeftToRuns | null {
		const { facts, rowIds, staged, nodes } = this;
		if (facts.compaction < 0) return null;
		const m = rowIds.length;
		const rowIdAt = (k: number) => (k < m ? (rowIds[k] as number) : (staged[k - m] as StagedEvent).eventId);
		let below = Number.POSITIVE_INFINITY;
		let last = Number.NEGATIVE_INFINITY;
		for (let k = 0; k < facts.state.length; k++) {
			const code = facts.state[k] as number;
			last = Math.max(last, rowIdAt(k));
			if (code !== STATE.compacted && branchOf(code) === "selected" && contentfulNode(nodes, k)) below = Math.min(below, rowIdAt(k));
		}
		below = Math.min(below, last + 1);
		return { by: this.nameOf(facts.compaction) as string, first: rowIdAt(0), last: below - 1, below };
	}

	/** Writes every indexed row whose states changed, reading them a stretch at a time. */
	writeIndexed(): void {
		drain(this.writingIndexed(null));
	}

	/**
	 * writeIndexed() a stretch of rows at a time: it yields after each one. With `runs`, a row they will summarize or
	 * re-point as this pass would is left to them; returns how many were.
	 */
	*writingIndexed(runs: LeftToRuns | null): Generator<void, number> {
		const { store, rowIds, sessionId } = this;
		const read = store.prepare<[number, number, number], StateRow>(STATE_SQL);
		const update = store.prepare(UPDATE_SQL);
		let left = 0;
		for (const [lo, hi] of stretches(rowIds)) {
			// All of a stretch first: the updates below must not run while its rows are being read.
			const rows = read.all(rowIds[lo] as number, rowIds[hi - 1] as number, sessionId);
			for (const [i, r] of rows.entries()) {
				if (writeState(r, lo + i, this, update, runs)) left++;
				if (i % WRITES_PER_STEP === WRITES_PER_STEP - 1) yield;
			}
			yield;
		}
		return left;
	}
}

/**
 * Updates a row whose states differ from what the classification found; true when its summary is left to `runs`
 * (summary-runs.ts withSummary makes it: selected, no edit in effect, below the runs' bound).
 */
function writeState(r: StateRow, k: number, c: SessionClassification, update: Database.Statement, runs: LeftToRuns | null): boolean {
	const label = c.labelAt(k);
	const abandonedBy = c.abandonedAt(k);
	if (runs && c.compactedAt(k) && r.id < runs.below && r.branch_state === "selected" && r.edit_state === null && r.edit_by === null) {
		if (abandonedBy !== r.abandoned_by || label !== r.cur_label)
			update.run(r.branch_state, r.selection_state, r.summarized_by, r.summarized_prov, abandonedBy, null, null, label, r.id);
		return true;
	}
	const st = c.stateAt(k);
	const by = st.summarizedBy?.entryId ?? null;
	const prov = st.summarizedBy?.provenance ?? null;
	const editState = st.contextEdit?.state ?? null;
	const editBy = st.contextEdit?.by ?? null;
	if (
		st.branchState !== r.branch_state ||
		st.selectionState !== r.selection_state ||
		by !== r.summarized_by ||
		prov !== r.summarized_prov ||
		editState !== r.edit_state ||
		editBy !== r.edit_by ||
		abandonedBy !== r.abandoned_by ||
		label !== r.cur_label
	)
		update.run(st.branchState, st.selectionState, by, prov, abandonedBy, editState, editBy, label, r.id);
	return false;
}

/** The session's count of entries (sessions.entries): its rows, each with a distinct seq from 0. */
export function sessionEntries(store: IndexStore, sessionId: number): number {
	return store.prepare<[number], { n: number }>("SELECT entries AS n FROM sessions WHERE id = ?").get(sessionId)?.n ?? 0;
}

/** The rows read are not the session's row ids where the k-th was expected. */
class RowIdsMismatch extends Error {
	constructor(sessionId: number, k: number, m: number) {
		super(`session ${sessionId}: its rows are not its ${m} row ids (at ${k})`);
	}
}

/**
 * A session's row ids, ascending, from its kept shape (a few blobs, whatever its size) and the ids this commit
 * inserted after it: null when the shape does not hold as many ascending ids as the session has entries. The rows
 * read then confirm each one.
 */
function* shapeRowIds(store: IndexStore, sessionId: number, { inserted = [], uncounted = 0 }: IndexedRows): Generator<void, Float64Array | null> {
	const entries = sessionEntries(store, sessionId) - uncounted;
	if (entries < 0) return null;
	// A session without rows yet (every session of a cold index) has no shape to read: its ids are the inserted ones.
	const ids = entries === 0 ? new Float64Array(inserted.length) : yield* readingShapeIds(store, sessionId, entries, entries + inserted.length);
	if (!ids) return null;
	ids.set(inserted, entries);
	for (let k = 1; k < ids.length; k++) {
		if ((ids[k] as number) <= (ids[k - 1] as number)) return null;
		if (k % IDS_PER_STEP === 0) yield;
	}
	return ids;
}

/** A session's row ids, ascending, read from an index alone (SESSION_ROWS_SQL): one statement over the session. */
function indexRowIds(store: IndexStore, sessionId: number): Float64Array {
	let ids = new Float64Array(1024);
	let k = 0;
	for (const id of store.prepare<[number], number>(SESSION_ROWS_SQL).pluck().iterate(sessionId)) {
		if (k === ids.length) {
			const grown = new Float64Array(k * 2);
			grown.set(ids);
			ids = grown;
		}
		ids[k++] = id;
	}
	return ids.slice(0, k).sort();
}

/** Where `rowId` is in the ascending `ids` (-1: not there). */
function position(ids: Float64Array, rowId: number): number {
	const at = lowerBound(ids, rowId);
	return ids[at] === rowId ? at : -1;
}

/** Index ranges [lo, hi) of `ids`, each at most STRETCH ids with no gap wider than GAP: one rowid range each. */
function* stretches(ids: Float64Array): Generator<[number, number]> {
	let lo = 0;
	while (lo < ids.length) {
		let hi = lo + 1;
		while (hi < ids.length && hi - lo < STRETCH && (ids[hi] as number) - (ids[hi - 1] as number) <= GAP) hi++;
		yield [lo, hi];
		lo = hi;
	}
}
