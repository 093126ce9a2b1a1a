/** Tree facts of one session: materialized leaf, roots, and per-entry branch and selection state (I12–I14). */
import type { BranchState, ContextEdit, Provenance, SelectionState } from "../shared/types.js";

/** What classification needs to know about an entry, in append order. */
export interface TreeNode {
	id: string;
	parentId: string | null;
	type: string;
	/** firstKeptEntryId of a compaction, fromId of a branch summary, targetId of a context edit or label. */
	refId: string | null;
	messageProducing: boolean;
	/** Message role (`system` messages fold into a compaction's checkpoint; edits only change some roles). */
	role?: string | null;
	/** CTX_EXCLUDED: a `!!` bash execution pi's convertToLlm drops; CTX_OMITS: a context edit with `replacement: null`. */
	ctxFlags?: number;
}

/** ctxFlags bit: the message never reaches the model (`excludeFromContext`, or an errored/aborted reply pi-ai never replays). */
export const CTX_EXCLUDED = 1;
/** ctxFlags bit: a context edit that removes its target from the model context. */
export const CTX_OMITS = 2;
/** Roles whose content a context edit replaces (pi 1.6 projectContextEntry). */
export const EDITABLE_ROLES: ReadonlySet<string> = new Set(["user", "assistant", "toolResult", "custom"]);

/** The classification of one entry. */
export interface NodeState {
	branchState: BranchState;
	selectionState: SelectionState;
	summarizedBy: { entryId: string; provenance: Provenance } | null;
	/** The context edit in effect on this entry, if any. */
	contextEdit?: ContextEdit | null;
}

/** The tree facts of a session. */
export interface TreeFacts {
	leafId: string | null;
	roots: string[];
	/** Ids on the root → materialized-leaf path, root first. */
	path: string[];
	states: Map<string, NodeState>;
	/** The branch summary whose abandoned branch holds each entry (on the path too): kept so a later leaf move can use it. */
	abandonedBy: Map<string, string>;
}

/** Entries by id: a Map, or a lookup answered by the index one entry at a time. */
export interface ParentLookup {
	get(id: string): { parentId: string | null } | undefined;
}

/** Children by parent id, in append order: a Map, or an indexed lookup. */
export interface ChildrenLookup {
	get(id: string): string[] | undefined;
}

/** Walks parentIds from `id` toward the root, stopping at a missing parent or a cycle; returns leaf-first ids. */
export function ancestry(id: string, byId: ParentLookup, limit = Number.POSITIVE_INFINITY): string[] {
	const out: string[] = [];
	const seen = new Set<string>();
	let current: string | null = id;
	while (current !== null && !seen.has(current) && out.length < limit) {
		const node = byId.get(current);
		if (!node) break;
		seen.add(current);
		out.push(current);
		current = node.parentId;
	}
	return out;
}

/**
 * Classifies every entry. `nodes` are unique by id in append order; `leafId` is the id on the last entry line
 * (pi's leaf on load, which may repeat an earlier id when pi duplicated entries).
 */
export function classifyTree(nodes: TreeNode[], leafId: string | null): TreeFacts {
	const byId = new Map<string, TreeNode>();
	for (const n of nodes) if (!byId.has(n.id)) byId.set(n.id, n);
	// pi 1.x: several roots per file (resetLeaf, branchWithSummary(null)); an entry that is its own parent is a root too.
	const roots = nodes.filter((n) => n.parentId === null || n.parentId === n.id || !byId.has(n.parentId)).map((n) => n.id);
	const leaf = leafId !== null && byId.has(leafId) ? leafId : (nodes.at(-1)?.id ?? null);
	const path = leaf === null ? [] : ancestry(leaf, byId).reverse();
	const onPath = new Set(path);
	const reachable = reachableFromRoots(nodes, roots);

	const states = new Map<string, NodeState>();
	const { direct, omitted, edits, latestCompaction } = projection(path, byId);
	const abandoned = abandonedBranches(nodes, byId);

	for (const node of byId.values()) {
		// An empty branch summary gives the model no message (pi's projectContextEntry): nothing to summarize or select.
		const contentful = node.messageProducing || node.type === "compaction";
		if (!reachable.has(node.id)) {
			// Inside a parent cycle: the entry has no defined place in the tree.
			states.set(node.id, { branchState: "unknown", selectionState: "unknown", summarizedBy: null });
			continue;
		}
		if (onPath.has(node.id)) {
			const edit = edits.get(node.id);
			const contextEdit: ContextEdit | null = edit ? { state: edit.omits ? "omitted" : "replaced", by: edit.id } : null;
			if (direct.has(node.id)) states.set(node.id, { branchState: "selected", selectionState: "direct", summarizedBy: null, contextEdit });
			else if (omitted.has(node.id)) states.set(node.id, { branchState: "selected", selectionState: "omitted", summarizedBy: null, contextEdit });
			else if (contentful && latestCompaction)
				states.set(node.id, { branchState: "selected", selectionState: "summarized", summarizedBy: { entryId: latestCompaction, provenance: "recorded" } });
			else states.set(node.id, { branchState: "selected", selectionState: "not-applicable", summarizedBy: null });
			continue;
		}
		const by = abandoned.get(node.id);
		if (!contentful) states.set(node.id, { branchState: "alternate", selectionState: "not-applicable", summarizedBy: null });
		else if (by) states.set(node.id, { branchState: "alternate", selectionState: "summarized", summarizedBy: { entryId: by, provenance: "derived" } });
		else states.set(node.id, { branchState: "alternate", selectionState: "not-selected", summarizedBy: null });
	}
	return { leafId: leaf, roots, path, states, abandonedBy: abandoned };
}

/**
 * pi 1.6's buildSessionProjection on the selected path: the latest compaction emits its summary (and system
 * checkpoint), then the path entries from its firstKeptEntryId up to it (system messages excepted: they are folded
 * into the checkpoint), then everything after it. Context edits among those entries apply to their targets, the
 * latest one per target winning; `replacement: null` empties the target. A retain-none compaction (firstKeptEntryId
 * = its own id) keeps nothing before it. `!!` bash executions are projected but dropped by convertToLlm.
 */
function projection(path: string[], byId: Map<string, TreeNode>) {
	let compactionIdx = -1;
	for (let i = path.length - 1; i >= 0; i--) {
		if (byId.get(path[i] as string)?.type === "compaction") {
			compactionIdx = i;
			break;
		}
	}
	const context: TreeNode[] = [];
	if (compactionIdx >= 0) {
		const compaction = byId.get(path[compactionIdx] as string) as TreeNode;
		context.push(compaction);
		let kept = false;
		for (let i = 0; i < compactionIdx; i++) {
			const node = byId.get(path[i] as string) as TreeNode;
			if (node.id === compaction.refId) kept = true;
			if (kept && !(node.type === "message" && node.role === "system")) context.push(node);
		}
		for (let i = compactionIdx + 1; i < path.length; i++) context.push(byId.get(path[i] as string) as TreeNode);
	} else {
		for (const id of path) context.push(byId.get(id) as TreeNode);
	}
	const edits = new Map<string, { id: string; omits: boolean }>();
	for (const node of context) {
		if (node.type === "context_edit" && node.refId !== null) edits.set(node.refId, { id: node.id, omits: ((node.ctxFlags ?? 0) & CTX_OMITS) !== 0 });
	}
	const direct = new Set<string>();
	const omitted = new Set<string>();
	context.forEach((node, index) => {
		// An older compaction inside the kept range contributes nothing: only the newest one, first, does.
		const producing = node.type === "compaction" ? index === 0 : node.messageProducing;
		if (!producing) return;
		const edit = edits.get(node.id);
		if (edit?.omits || ((node.ctxFlags ?? 0) & CTX_EXCLUDED) !== 0) omitted.add(node.id);
		else direct.add(node.id);
	});
	// A replacement only changes roles pi edits; on anything else it is recorded but has no effect.
	for (const [target, edit] of edits) {
		const node = byId.get(target);
		const role = node?.type === "custom_message" ? "custom" : (node?.role ?? null);
		if (!edit.omits && (node === undefined || !EDITABLE_ROLES.has(role ?? ""))) edits.delete(target);
		else if (!direct.has(target) && !omitted.has(target)) edits.delete(target);
	}
	return { direct, omitted, edits, latestCompaction: compactionIdx >= 0 ? (path[compactionIdx] as string) : null };
}

function reachableFromRoots(nodes: TreeNode[], roots: string[]): Set<string> {
	const children = childrenOf(nodes);
	const seen = new Set<string>(roots);
	const stack = [...roots];
	while (stack.length > 0) {
		const id = stack.pop() as string;
		for (const child of children.get(id) ?? []) {
			if (!seen.has(child)) {
				seen.add(child);
				stack.push(child);
			}
		}
	}
	return seen;
}

/** A root entry pi's `/tree` moves to itself (its text back in the editor) rather than to before it. */
const movesToRoot = (n: TreeNode) => (n.type === "message" && n.role === "user") || n.type === "custom_message";

/**
 * The abandoned branch each branch summary describes (derived): pi summarizes from the old leaf back to the
 * common ancestor with the new position. Since pi 0.84.3 the summary records that old leaf as `fromId`; in older
 * files `fromId` equals `parentId` (the branch point), and the old leaf is the entry written just before the
 * summary, since pi appends it right after navigating (also pi 0.73.1's `fromId: "root"` with `parentId: null`). A
 * summary with `parentId: null` shares no ancestor, except the root message pi moved to.
 * The first summary in file order claims an entry. Entries outside the tree (in or below a parent cycle) are
 * claimed by none: their state is unknown.
 *
 * Linear in entries for any shape: one depth-first numbering answers "is an ancestor of the new position" in
 * constant time, and each walk skips the entries earlier summaries claimed (a union-find over parent links), so
 * every entry is claimed once and every summary stops after a near-constant number of steps past its claims.
 */
export function abandonedBranches(nodes: TreeNode[], byId: Map<string, TreeNode>): Map<string, string> {
	const out = new Map<string, string>();
	if (!nodes.some((n) => n.type === "branch_summary")) return out;
	const index = new Map<string, number>();
	const unique: TreeNode[] = [];
	for (const n of byId.values()) {
		index.set(n.id, unique.length);
		unique.push(n);
	}
	const size = unique.length;
	const parent = new Int32Array(size).fill(-1);
	const childCount = new Int32Array(size + 1);
	for (let i = 0; i < size; i++) {
		const p = (unique[i] as TreeNode).parentId;
		const at = p === null ? undefined : index.get(p);
		if (at !== undefined && at !== i) {
			parent[i] = at;
			childCount[at + 1] = (childCount[at + 1] as number) + 1;
		}
	}
	// Children in one flat array (counting sort by parent): no list per entry.
	for (let i = 0; i < size; i++) childCount[i + 1] = (childCount[i + 1] as number) + (childCount[i] as number);
	const children = new Int32Array(Math.max(1, childCount[size] as number));
	const fill = childCount.slice(0, size);
	for (let i = 0; i < size; i++) {
		const p = parent[i] as number;
		if (p >= 0) children[(fill[p] as number)++] = i;
	}
	// Depth-first entry and exit numbers from every root; an entry never entered is outside the tree.
	const enter = new Int32Array(size).fill(-1);
	const exit = new Int32Array(size);
	const stack = new Int32Array(size);
	const cursor = new Int32Array(size);
	let clock = 0;
	for (let r = 0; r < size; r++) {
		if (parent[r] !== -1) continue;
		let top = 0;
		stack[0] = r;
		enter[r] = clock++;
		cursor[r] = childCount[r] as number;
		while (top >= 0) {
			const v = stack[top] as number;
			const c = cursor[v] as number;
			if (c < (childCount[v + 1] as number)) {
				cursor[v] = c + 1;
				const w = children[c] as number;
				enter[w] = clock++;
				cursor[w] = childCount[w] as number;
				stack[++top] = w;
			} else {
				exit[v] = clock++;
				top--;
			}
		}
	}
	const isAncestorOrSelf = (a: number, b: number) => (enter[a] as number) <= (enter[b] as number) && (exit[b] as number) <= (exit[a] as number);
	// next[i] = i while unclaimed; a claimed entry points at its parent (`size`: above the root, never claimed).
	const next = new Int32Array(size + 1);
	for (let i = 0; i <= size; i++) next[i] = i;
	const find = (i: number): number => {
		let root = i;
		while (next[root] !== root) root = next[root] as number;
		while (next[i] !== root) {
			const up = next[i] as number;
			next[i] = root;
			i = up;
		}
		return root;
	};
	for (let i = 0; i < nodes.length; i++) {
		const summary = nodes[i] as TreeNode;
		if (summary.type !== "branch_summary") continue;
		const target = summary.parentId;
		// pi 0.73.1 wrote a summary at the root as `parentId: null, fromId: "root"`: a null branch point, not a leaf.
		const rootPoint = target === null && summary.refId === "root";
		// A recorded fromId that is no entry describes nothing.
		const recorded = summary.refId !== null && summary.refId !== target && !rootPoint;
		const oldLeaf = recorded ? (byId.has(summary.refId as string) ? summary.refId : null) : i > 0 ? (nodes[i - 1] as TreeNode).id : null;
		if (oldLeaf === null || oldLeaf === target) continue;
		const from = index.get(oldLeaf);
		if (from === undefined || enter[from] === -1) continue;
		const at = target === null ? undefined : index.get(target);
		const to = at !== undefined && enter[at] !== -1 ? at : -1;
		for (let u = find(from); u !== size && !(to >= 0 && isAncestorOrSelf(u, to)); u = find(u)) {
			const p = parent[u] as number;
			// pi moves to the root only for a root user or custom message (its text goes back to the editor): that message
			// is the common ancestor of both positions, so collectEntriesForBranchSummary stops below it.
			if (rootPoint && p === -1 && movesToRoot(unique[u] as TreeNode)) break;
			out.set((unique[u] as TreeNode).id, summary.id);
			next[u] = p === -1 ? size : p;
		}
	}
	return out;
}

/** Neighbors of an entry in branch order (I11, I12): ids, before oldest-first, after nearest-first. */
export interface BranchNeighbors {
	before: string[];
	after: string[];
	/** Children at a fork the walk reached: the alternatives it did not follow, or every child where it stopped. */
	forkCandidates: string[];
	stoppedAtFork: boolean;
}

/**
 * Branch-order neighbors: the parent chain up; down, the child on the root → materialized-leaf path when the entry
 * is on it, elsewhere the only child, stopping at an unresolved fork with every candidate reported (I12).
 */
export function branchNeighbors(
	target: string,
	byId: ParentLookup,
	children: ChildrenLookup,
	onPath: (id: string) => boolean,
	before: number,
	after: number,
): BranchNeighbors {
	// Only as far up as asked: with an indexed lookup each step is one row.
	const up = ancestry(target, byId, before + 1)
		.slice(1, 1 + before)
		.reverse();
	const down: string[] = [];
	const candidates: string[] = [];
	let stopped = false;
	const seen = new Set<string>([target]);
	let current = target;
	for (let step = 0; step < Math.max(1, after); step++) {
		const kids = (children.get(current) ?? []).filter((k) => !seen.has(k));
		if (kids.length === 0) break;
		let next: string | undefined;
		if (onPath(current)) next = kids.find(onPath);
		if (next === undefined && kids.length === 1) next = kids[0];
		if (next === undefined) {
			candidates.push(...kids);
			stopped = true;
			break;
		}
		for (const k of kids) if (k !== next) candidates.push(k);
		if (step >= after) break;
		down.push(next);
		seen.add(next);
		current = next;
	}
	return { before: up, after: down, forkCandidates: candidates, stoppedAtFork: stopped };
}

/** Children of every entry, in append order. */
export function childrenOf(nodes: Array<{ id: string; parentId: string | null }>): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const n of nodes) {
		if (n.parentId === null) continue;
		const list = out.get(n.parentId);
		if (list) list.push(n.id);
		else out.set(n.parentId, [n.id]);
	}
	return out;
}
