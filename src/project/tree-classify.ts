/**
 * A session's tree classified over numbers (I12–I14): entries are indexes in append order, links are indexes, states
 * are bytes. A whole classification then holds a few words an entry, whatever the session's shape (issue 32 item 2);
 * tree.ts classifyTree is the same classification over ids.
 */
import { drain } from "../shared/steps.js";
import type { BranchState, SelectionState } from "../shared/types.js";

/** Entry kinds the classification tells apart. */
export const KIND = { other: 0, message: 1, compaction: 2, branchSummary: 3, contextEdit: 4, label: 5, customMessage: 6 } as const;

const KIND_OF: ReadonlyMap<string, number> = new Map([
	["message", KIND.message],
	["compaction", KIND.compaction],
	["branch_summary", KIND.branchSummary],
	["context_edit", KIND.contextEdit],
	["label", KIND.label],
	["custom_message", KIND.customMessage],
]);

/** The kind code of an entry type. */
export const kindOf = (type: string): number => KIND_OF.get(type) ?? KIND.other;

/** Node flag bits. */
export const NODE = {
	/** The entry gives the model a message. */
	producing: 1,
	/** tree.ts CTX_EXCLUDED: projected but never sent. */
	excluded: 2,
	/** tree.ts CTX_OMITS: a context edit that removes its target. */
	omits: 4,
	/** A system message: folded into a compaction's checkpoint, so not kept after it. */
	system: 8,
	/** A role a context edit's replacement changes (tree.ts EDITABLE_ROLES). */
	editable: 16,
	/** A root entry pi's `/tree` moves to itself: a user or custom message. */
	movesToRoot: 32,
	/** Its parentId is null. */
	parentNull: 64,
	/** Its parentId is its own id (a root). */
	selfParent: 128,
	/** Its refId is null. */
	refNull: 256,
	/** Its refId equals its parentId (a branch summary's fromId in files before pi 0.84.3). */
	refIsParent: 512,
	/** Its refId is the literal "root" (pi 0.73.1's summary at the root). */
	refIsRoot: 1024,
} as const;

/** ctxFlags bit: the message never reaches the model (`excludeFromContext`, or an errored/aborted reply pi-ai never replays). */
export const CTX_EXCLUDED = 1;
/** ctxFlags bit: a context edit that removes its target from the model context. */
export const CTX_OMITS = 2;
/** Roles whose content a context edit replaces (pi 1.6 projectContextEntry). */
export const EDITABLE_ROLES: ReadonlySet<string> = new Set(["user", "assistant", "toolResult", "custom"]);

/** What the flags are made of: an entry's fields, ids compared as strings. */
export interface NodeFields {
	type: string;
	role?: string | null;
	messageProducing: boolean;
	/** tree.ts CTX_EXCLUDED | CTX_OMITS. */
	ctxFlags?: number;
	parentNull: boolean;
	selfParent: boolean;
	refNull: boolean;
	refIsParent: boolean;
	refIsRoot: boolean;
}

/** The flag bits of an entry. */
export function nodeFlags(f: NodeFields): number {
	return (
		contentFlags(f.type, f.role ?? null, f.messageProducing, f.ctxFlags ?? 0) |
		(f.parentNull ? NODE.parentNull : 0) |
		(f.selfParent ? NODE.selfParent : 0) |
		(f.refNull ? NODE.refNull : 0) |
		(f.refIsParent ? NODE.refIsParent : 0) |
		(f.refIsRoot ? NODE.refIsRoot : 0)
	);
}

/** The flag bits an entry's type, role, producing flag and context flags give (nodeFlags without its links). */
export function contentFlags(type: string, role: string | null, producing: boolean, ctx: number): number {
	const editable = type === "custom_message" ? "custom" : (role ?? "");
	return (
		(producing ? NODE.producing : 0) |
		(ctx & CTX_EXCLUDED ? NODE.excluded : 0) |
		(ctx & CTX_OMITS ? NODE.omits : 0) |
		(type === "message" && role === "system" ? NODE.system : 0) |
		(EDITABLE_ROLES.has(editable) ? NODE.editable : 0) |
		((type === "message" && role === "user") || type === "custom_message" ? NODE.movesToRoot : 0)
	);
}

/** The flag bits an entry's links as written give (nodeFlags without its content). */
export function linkFlags(entryId: string, parentId: string | null, refId: string | null): number {
	return (
		(parentId === null ? NODE.parentNull : 0) |
		(parentId !== null && parentId === entryId ? NODE.selfParent : 0) |
		(refId === null ? NODE.refNull : 0) |
		(refId !== null && refId === parentId ? NODE.refIsParent : 0) |
		(refId === "root" ? NODE.refIsRoot : 0)
	);
}

/** True when the entry at `k` gives the model something (a message, or a compaction's summary): a summary can stand for it. */
export function contentfulNode(t: PackedNodes, k: number): boolean {
	return ((t.flags[k] as number) & NODE.producing) !== 0 || t.kind[k] === KIND.compaction;
}

/** A session's entries as numbers, in append order, unique by id. */
export interface PackedNodes {
	readonly size: number;
	readonly kind: Uint8Array;
	readonly flags: Uint16Array;
	/** The parent's index; -1 at a root (null, missing or its own id). */
	readonly parent: Int32Array;
	/** The index of the entry refId names (compaction's firstKeptEntryId, summary's fromId, edit's or label's target); -1 none. */
	readonly ref: Int32Array;
}

/** Room for `size` entries, every link -1. */
export function packedNodes(size: number): PackedNodes {
	return { size, kind: new Uint8Array(size), flags: new Uint16Array(size), parent: new Int32Array(size).fill(-1), ref: new Int32Array(size).fill(-1) };
}

/** An entry's state: its branch state and selection state in one byte. */
export const STATE = {
	unknown: 0,
	direct: 1,
	omitted: 2,
	/** On the path, before the latest compaction's kept range: summarized by it (recorded). */
	compacted: 3,
	selectedNone: 4,
	alternateNone: 5,
	/** Off the path, in a branch a summary describes (derived). */
	abandoned: 6,
	notSelected: 7,
} as const;

const BRANCH: readonly BranchState[] = ["unknown", "selected", "selected", "selected", "selected", "alternate", "alternate", "alternate"];
const SELECTION: readonly SelectionState[] = ["unknown", "direct", "omitted", "summarized", "not-applicable", "not-applicable", "summarized", "not-selected"];

/** The branch state of a state byte. */
export const branchOf = (state: number): BranchState => BRANCH[state] as BranchState;
/** The selection state of a state byte. */
export const selectionOf = (state: number): SelectionState => SELECTION[state] as SelectionState;

/** A session's classification over indexes. */
export interface PackedFacts {
	/** The materialized leaf's index (-1: no entries). */
	leaf: number;
	state: Uint8Array;
	/** The latest compaction on the path, which summarizes every `compacted` entry; -1 none. */
	compaction: number;
	/** The context edit in effect on each entry; -1 none. Its NODE.omits flag says omitted or replaced. */
	editBy: Int32Array;
	/** The branch summary whose abandoned branch holds each entry, on the path too; null when the session has none. */
	abandonedBy: Int32Array | null;
}

const OUTSIDE = 3;
const IN_TREE = 2;
const ON_PATH = 4;

/** Entries per step of classifyingPacked's passes: a few milliseconds each. */
const STEP = 1 << 16;
/** True after every STEP-th iteration `i` of a pass: a step ends there. */
const stepEnds = (i: number): boolean => (i & (STEP - 1)) === STEP - 1;

/** Classifies every entry; `leaf` is the materialized leaf's index, -1 for the last entry. */
export function classifyPacked(t: PackedNodes, leaf: number): PackedFacts {
	return drain(classifyingPacked(t, leaf));
}

/** classifyPacked() in steps of STEP entries per pass: it yields after each one (a host's turn may end there). */
export function* classifyingPacked(t: PackedNodes, leaf: number): Generator<void, PackedFacts> {
	const n = t.size;
	const at = leaf >= 0 && leaf < n ? leaf : n - 1;
	const mark = yield* inTree(t.parent, n);
	const state = new Uint8Array(n);
	const editBy = new Int32Array(n).fill(-1);
	const path = at >= 0 && mark[at] === IN_TREE ? pathTo(t.parent, at) : new Int32Array(0);
	for (const v of path) mark[v] = ON_PATH;
	const compaction = yield* project(t, path, state, editBy);
	const abandonedBy = yield* abandoning(t);
	for (let i = 0; i < n; i++) {
		if (stepEnds(i)) yield;
		const m = mark[i];
		if (m === OUTSIDE || state[i] !== 0) continue;
		const contentful = contentfulNode(t, i);
		if (m === ON_PATH) state[i] = contentful && compaction >= 0 ? STATE.compacted : STATE.selectedNone;
		else if (!contentful) state[i] = STATE.alternateNone;
		else state[i] = abandonedBy !== null && (abandonedBy[i] as number) >= 0 ? STATE.abandoned : STATE.notSelected;
	}
	return { leaf: at, state, compaction: compaction >= 0 ? (path[compaction] as number) : -1, editBy, abandonedBy };
}

/** IN_TREE for entries a root reaches, OUTSIDE for those in or below a parent cycle; linear, each entry walked once. */
function* inTree(parent: Int32Array, n: number): Generator<void, Uint8Array> {
	const mark = new Uint8Array(n);
	const chain = new Int32Array(n);
	for (let i = 0; i < n; i++) {
		if (stepEnds(i)) yield;
		let top = 0;
		let v = i;
		while (v !== -1 && mark[v] === 0) {
			mark[v] = 1;
			chain[top++] = v;
			v = parent[v] as number;
		}
		// Back at an entry of this walk: a cycle, so nothing walked reaches a root.
		const found = v === -1 ? IN_TREE : mark[v] === 1 ? OUTSIDE : (mark[v] as number);
		while (top > 0) mark[chain[--top] as number] = found;
	}
	return mark;
}

/** Root → `leaf` indexes of an entry in the tree. */
function pathTo(parent: Int32Array, leaf: number): Int32Array {
	let length = 0;
	for (let v = leaf; v !== -1; v = parent[v] as number) length++;
	const path = new Int32Array(length);
	for (let v = leaf, k = length - 1; v !== -1; v = parent[v] as number, k--) path[k] = v;
	return path;
}

/**
 * pi 1.6's buildSessionProjection on the selected path: the latest compaction emits its summary (and system
 * checkpoint), then the path entries from its firstKeptEntryId up to it (system messages excepted: they are folded
 * into the checkpoint), then everything after it. Context edits among those entries apply to their targets, the
 * latest one per target winning; `replacement: null` empties the target. A retain-none compaction (firstKeptEntryId
 * = its own id) keeps nothing before it. `!!` bash executions are projected but dropped by convertToLlm.
 * Sets `direct` and `omitted` states and the edits in effect; returns the latest compaction's path position or -1.
 */
function* project(t: PackedNodes, path: Int32Array, state: Uint8Array, editBy: Int32Array): Generator<void, number> {
	let c = path.length - 1;
	while (c >= 0 && t.kind[path[c] as number] !== KIND.compaction) c--;
	function* visit(each: (v: number, first: boolean) => void): Generator<void, void> {
		let from = 0;
		if (c >= 0) {
			const compaction = path[c] as number;
			each(compaction, true);
			let kept = false;
			for (let i = 0; i < c; i++) {
				if (stepEnds(i)) yield;
				const v = path[i] as number;
				if (v === t.ref[compaction]) kept = true;
				if (kept && ((t.flags[v] as number) & NODE.system) === 0) each(v, false);
			}
			from = c + 1;
		}
		for (let i = from; i < path.length; i++) {
			if (stepEnds(i)) yield;
			each(path[i] as number, false);
		}
	}
	yield* visit((v) => {
		if (t.kind[v] === KIND.contextEdit && (t.ref[v] as number) >= 0) editBy[t.ref[v] as number] = v;
	});
	// An older compaction inside the kept range contributes nothing: only the newest one, first, does.
	yield* visit((v, first) => {
		const producing = t.kind[v] === KIND.compaction ? first : ((t.flags[v] as number) & NODE.producing) !== 0;
		if (!producing) return;
		const edit = editBy[v] as number;
		const omitted = (edit >= 0 && ((t.flags[edit] as number) & NODE.omits) !== 0) || ((t.flags[v] as number) & NODE.excluded) !== 0;
		state[v] = omitted ? STATE.omitted : STATE.direct;
	});
	// A replacement only changes roles pi edits, and an edit of an entry the model does not get has no effect.
	yield* visit((v) => {
		const target = t.ref[v] as number;
		if (t.kind[v] !== KIND.contextEdit || target < 0) return;
		const edit = editBy[target] as number;
		if (edit < 0) return;
		const applies = ((t.flags[edit] as number) & NODE.omits) !== 0 || ((t.flags[target] as number) & NODE.editable) !== 0;
		if (!applies || (state[target] !== STATE.direct && state[target] !== STATE.omitted)) editBy[target] = -1;
	});
	return c;
}

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
export function abandonedBranches(t: PackedNodes): Int32Array | null {
	return drain(abandoning(t));
}

/** abandonedBranches() in steps (classifyingPacked). */
function* abandoning(t: PackedNodes): Generator<void, Int32Array | null> {
	const size = t.size;
	const { parent, kind, flags, ref } = t;
	if (!kind.includes(KIND.branchSummary)) return null;
	const out = new Int32Array(size).fill(-1);
	const { enter, exit } = yield* depthFirst(parent, size);
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
	for (let i = 0; i < size; i++) {
		if (stepEnds(i)) yield;
		if (kind[i] !== KIND.branchSummary) continue;
		const f = flags[i] as number;
		// The branch point: its parent (the summary itself when it names itself).
		const target = f & NODE.selfParent ? i : (parent[i] as number);
		// pi 0.73.1 wrote a summary at the root as `parentId: null, fromId: "root"`: a null branch point, not a leaf.
		const rootPoint = (f & NODE.parentNull) !== 0 && (f & NODE.refIsRoot) !== 0;
		const recorded = (f & NODE.refNull) === 0 && (f & NODE.refIsParent) === 0 && !rootPoint;
		// A recorded fromId that is no entry describes nothing.
		const from = recorded ? (ref[i] as number) : i - 1;
		if (from < 0 || from === target || enter[from] === -1) continue;
		const to = target >= 0 && enter[target] !== -1 ? target : -1;
		for (let u = find(from); u !== size && !(to >= 0 && isAncestorOrSelf(u, to)); u = find(u)) {
			const p = parent[u] as number;
			// pi moves to the root only for a root user or custom message (its text goes back to the editor): that message
			// is the common ancestor of both positions, so collectEntriesForBranchSummary stops below it.
			if (rootPoint && p === -1 && ((flags[u] as number) & NODE.movesToRoot) !== 0) break;
			out[u] = i;
			next[u] = p === -1 ? size : p;
		}
	}
	return out;
}

/** Depth-first entry and exit numbers from every root; an entry never entered (-1) is outside the tree. */
function* depthFirst(parent: Int32Array, size: number): Generator<void, { enter: Int32Array; exit: Int32Array }> {
	// Children in one flat array (counting sort by parent): no list per entry.
	const first = new Int32Array(size + 1);
	for (let i = 0; i < size; i++) {
		const p = parent[i] as number;
		if (p >= 0) first[p + 1] = (first[p + 1] as number) + 1;
	}
	for (let i = 0; i < size; i++) first[i + 1] = (first[i + 1] as number) + (first[i] as number);
	const children = new Int32Array(Math.max(1, first[size] as number));
	const cursor = first.slice(0, size);
	for (let i = 0; i < size; i++) {
		const p = parent[i] as number;
		if (p >= 0) children[(cursor[p] as number)++] = i;
	}
	const enter = new Int32Array(size).fill(-1);
	const exit = new Int32Array(size);
	const stack = new Int32Array(size);
	let clock = 0;
	yield;
	for (let r = 0; r < size; r++) {
		if (stepEnds(r)) yield;
		if (parent[r] !== -1) continue;
		let top = 0;
		stack[0] = r;
		enter[r] = clock++;
		cursor[r] = first[r] as number;
		while (top >= 0) {
			if (stepEnds(clock)) yield;
			const v = stack[top] as number;
			const c = cursor[v] as number;
			if (c < (first[v + 1] as number)) {
				cursor[v] = c + 1;
				const w = children[c] as number;
				enter[w] = clock++;
				cursor[w] = first[w] as number;
				stack[++top] = w;
			} else {
				exit[v] = clock++;
				top--;
			}
		}
	}
	return { enter, exit };
}
