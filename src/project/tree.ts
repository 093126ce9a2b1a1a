/** Tree facts of one session: materialized leaf, roots, and per-entry branch and selection state (I12–I14). */
import type { BranchState, ContextEdit, Provenance, SelectionState } from "../shared/types.js";
import { branchOf, classifyPacked, kindOf, NODE, nodeFlags, packedNodes, STATE, selectionOf } from "./tree-classify.js";

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

export { CTX_EXCLUDED, CTX_OMITS, EDITABLE_ROLES } from "./tree-classify.js";

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
 * Classifies every entry (tree-classify.ts, over indexes). `nodes` are unique by id in append order (a later copy of
 * an id is ignored); `leafId` is the id on the last entry line (pi's leaf on load, which may repeat an earlier id when
 * pi duplicated entries).
 */
export function classifyTree(nodes: TreeNode[], leafId: string | null): TreeFacts {
	const index = new Map<string, number>();
	const unique: TreeNode[] = [];
	for (const n of nodes) {
		if (index.has(n.id)) continue;
		index.set(n.id, unique.length);
		unique.push(n);
	}
	const packed = packedNodes(unique.length);
	unique.forEach((n, i) => {
		const parentId = n.parentId;
		const parent = parentId === null ? undefined : index.get(parentId);
		packed.kind[i] = kindOf(n.type);
		packed.parent[i] = parent === undefined || parent === i ? -1 : parent;
		packed.ref[i] = n.refId === null ? -1 : (index.get(n.refId) ?? -1);
		packed.flags[i] = nodeFlags({
			...n,
			parentNull: parentId === null,
			selfParent: parentId === n.id,
			refNull: n.refId === null,
			refIsParent: n.refId !== null && n.refId === parentId,
			refIsRoot: n.refId === "root",
		});
	});
	const leafAt = leafId === null ? -1 : (index.get(leafId) ?? -1);
	const facts = classifyPacked(packed, leafAt);
	const idOf = (i: number) => (unique[i] as TreeNode).id;
	const roots = unique.filter((_, i) => packed.parent[i] === -1).map((n) => n.id);
	const leaf = facts.leaf >= 0 ? idOf(facts.leaf) : null;
	const path = leaf === null ? [] : ancestry(leaf, { get: (id) => unique[index.get(id) ?? -1] }).reverse();
	const states = new Map<string, NodeState>();
	const abandonedBy = new Map<string, string>();
	unique.forEach((n, i) => {
		const code = facts.state[i] as number;
		const st: NodeState = { branchState: branchOf(code), selectionState: selectionOf(code), summarizedBy: null };
		if (code === STATE.compacted) st.summarizedBy = { entryId: idOf(facts.compaction), provenance: "recorded" };
		if (code === STATE.abandoned) st.summarizedBy = { entryId: idOf(facts.abandonedBy?.[i] as number), provenance: "derived" };
		if (code === STATE.direct || code === STATE.omitted) {
			const edit = facts.editBy[i] as number;
			st.contextEdit = edit < 0 ? null : { state: (packed.flags[edit] as number) & NODE.omits ? "omitted" : "replaced", by: idOf(edit) };
		}
		states.set(n.id, st);
		const by = facts.abandonedBy?.[i] ?? -1;
		if (by >= 0) abandonedBy.set(n.id, idOf(by));
	});
	return { leafId: leaf, roots, path, states, abandonedBy };
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
