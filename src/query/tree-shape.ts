/**
 * A fork family's tree as numbers for the tree view (tree-window.ts): read from the index as row ids, parent links
 * and flags (tree-rows.ts sessionShape), filtered like pi's `/tree` and flattened depth-first in typed arrays
 * (tree-flatten.ts), so a 1,000,000-entry session is never a million objects.
 */

import { Catalog, type SessionRow, sessionSummary } from "../index/catalog.js";
import { binary } from "../index/event-identity.js";
import type { IndexStore } from "../index/store.js";
import { entryIdsOf, eventIdOf, matchingEvents, SHAPE, sessionShape } from "../index/tree-rows.js";
import type { KeptShape } from "../index/tree-shape-store.js";
import { NotFoundError } from "../shared/errors.js";
import { indexOfSorted } from "../shared/sorted.js";
import type { TreeForkHead, TreeWindowRequest } from "../shared/types.js";
import { parseQuery } from "./query-parse.js";
import { TREE_FAMILY_LIMIT } from "./session-tree.js";
import { type Flattened, flatten, HIT } from "./tree-flatten.js";
import type { Visibility } from "./visibility.js";

export const FOLD_MIN = 3;
/** Most rows one window answer holds. */
export const TREE_WINDOW_MAX = 1000;

/** One session of the family: its nodes by row id (sorted), the head of a fork (-1 for the root). */
export interface Member {
	row: SessionRow;
	ids: Col<Int32Array>;
	/** Each id's node; null when they are 0, 1, … (a root whose every entry shows): no column of a million positions. */
	nodes: Col<Int32Array> | null;
	head: number;
	/** Visible rows, copies included (what a fork of it may copy). */
	rows: number;
	parent: number;
}

/** The family's nodes, the filtered tree flattened in display order. */
export interface Shape extends Flattened {
	members: Member[];
	nodeRow: Int32Array;
	nodeMember: Int32Array;
	nodeParent: Int32Array;
	nodeFlags: Uint16Array;
	heads: Map<number, TreeForkHead>;
	leafNode: number;
	focus: { sessionId: string; entryId: string } | null;
	focusNode: number;
	notes: string[];
}

/** A growable column of numbers: a million entries are a few megabytes, not a million array slots. */
export class Col<T extends Int32Array | Uint16Array> {
	length = 0;
	constructor(
		public a: T,
		private readonly make: (n: number) => T,
	) {}
	push(v: number): void {
		if (this.length === this.a.length) {
			const b = this.make(this.a.length * 2 + 64);
			b.set(this.a);
			this.a = b;
		}
		this.a[this.length++] = v;
	}
	/** Room for `n` more without doubling past what is needed. */
	reserve(n: number): void {
		if (this.a.length - this.length >= n) return;
		const b = this.make(this.length + n);
		b.set(this.a.subarray(0, this.length));
		this.a = b;
	}
	/** Takes `a` as the whole column (no copy): a later push copies it to a bigger one first, so `a` is never written past its end. */
	adopt(a: T): void {
		this.a = a;
		this.length = a.length;
	}
	/** The filled part (a view, no copy). */
	get view(): T {
		return this.a.subarray(0, this.length) as T;
	}
}
export const i32 = () => new Col<Int32Array>(new Int32Array(0), (n) => new Int32Array(n));
export const u16 = () => new Col<Uint16Array>(new Uint16Array(0), (n) => new Uint16Array(n));

export function nodeOf(m: Member, rowId: number | undefined): number {
	if (rowId === undefined) return -1;
	const i = indexOfSorted(m.ids.view, rowId);
	return i < 0 ? -1 : m.nodes === null ? i : (m.nodes.a[i] as number);
}

/**
 * Each entry's parent as a position (the entry above for PARENT_PREVIOUS); -1 for none, or a parent later in the file.
 * Written over the parent links it reads: every entry gets the one above, then the few `links` (the entries whose link
 * is something else, ascending) get theirs.
 */
function parentNodes(shape: KeptShape): Int32Array {
	const { ids, parents: out, links } = shape;
	const other = links.map((k) => out[k] as number);
	for (let k = 0; k < out.length; k++) out[k] = k - 1;
	for (let l = 0; l < links.length; l++) {
		const k = links[l] as number;
		const par = other[l] as number;
		// A parent later in the file is not attached (root()'s loop has not met it yet).
		const at = par > 0 ? indexOfSorted(ids, par) : -1;
		out[k] = at >= 0 && at < k ? at : -1;
	}
	return out;
}

/** The words of a typed filter, lower-case. */
export function filterWords(text: string | undefined): string[] {
	return (text ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

/** A shape grew past the nodes its builder was allowed (buildShape's `maxNodes`): not built. */
export class ShapeTooBigError extends Error {}

class ShapeBuilder {
	readonly members: Member[] = [];
	readonly nodeRow = i32();
	readonly nodeMember = i32();
	readonly nodeParent = i32();
	readonly nodeFlags = u16();
	readonly heads = new Map<number, TreeForkHead>();
	readonly notes: string[] = [];
	hitSet: Set<number> = new Set();
	private sessions = 1;

	constructor(
		readonly store: IndexStore,
		readonly catalog: Catalog,
		readonly visibility: Visibility,
		readonly words: string[],
		readonly maxNodes = Number.POSITIVE_INFINITY,
	) {}

	private node(row: number, member: number, parent: number, flags: number): number {
		const n = this.nodeRow.length;
		if (n >= this.maxNodes) throw new ShapeTooBigError(`tree shape: more than ${this.maxNodes} nodes`);
		this.nodeRow.push(row);
		this.nodeMember.push(member);
		this.nodeParent.push(parent);
		this.nodeFlags.push(flags | (row >= 0 && this.hitSet.has(row) ? HIT : 0));
		return n;
	}

	root(row: SessionRow): Member {
		const s = sessionShape(this.store, row.id, this.words, null);
		const m: Member = { row, ids: i32(), nodes: i32(), head: -1, rows: 0, parent: -1 };
		this.members.push(m);
		const n = s.ids.length;
		if (n > this.maxNodes) throw new ShapeTooBigError(`tree shape: more than ${this.maxNodes} nodes`);
		// Every entry shown to this caller (ids ascend, so the cut-off, if any, is past the last): nodes are positions.
		if (n > 0 && this.nodeRow.length === 0 && this.visibility.allowsEventId(s.ids[n - 1] as number, row)) {
			this.allRoot(m, s);
			return m;
		}
		const nodes = i32();
		m.nodes = nodes;
		for (const c of [this.nodeRow, this.nodeMember, this.nodeParent, this.nodeFlags, m.ids, nodes]) c.reserve(n);
		let prev = -1;
		for (let k = 0; k < s.ids.length; k++) {
			const id = s.ids[k] as number;
			if (!this.visibility.allowsEventId(id, row)) {
				prev = -1;
				continue;
			}
			const par = s.parents[k] as number;
			const parent = par === -1 ? prev : par === 0 ? -1 : nodeOf(m, par);
			prev = this.node(id, 0, parent, s.flags[k] as number);
			m.ids.push(id);
			nodes.push(prev);
		}
		m.rows = m.ids.length;
		return m;
	}

	/** root() when every entry shows: the shape's columns become the nodes' (the builder owns them), as the loop would fill them. */
	private allRoot(m: Member, s: KeptShape): void {
		const n = s.ids.length;
		this.nodeRow.adopt(s.ids);
		m.ids.adopt(s.ids);
		this.nodeMember.adopt(new Int32Array(n));
		this.nodeFlags.adopt(s.flags);
		this.nodeParent.adopt(parentNodes(s));
		if (this.hitSet.size > 0) for (let k = 0; k < n; k++) if (this.hitSet.has(s.ids[k] as number)) s.flags[k] = (s.flags[k] as number) | HIT;
		m.nodes = null;
		m.rows = n;
	}

	/** The node showing entry `entryId` for a member's forks: its own, else an ancestor member's. */
	private attachNode(member: number, entryId: string): number {
		for (let at = member; at >= 0; at = (this.members[at] as Member).parent) {
			const m = this.members[at] as Member;
			const n = nodeOf(m, eventIdOf(this.store, m.row.id, entryId));
			if (n >= 0) return n;
		}
		return -1;
	}

	/** The forks of member `pi`, recursively, attached at their fork points. */
	forks(pi: number, seen: Set<number>): void {
		const parent = (this.members[pi] as Member).row;
		const children = this.catalog.childSessions(parent.id);
		const order = [...children].sort((a, b) => binary(a.created, b.created) || binary(a.public_id, b.public_id));
		for (const child of order) {
			if (seen.has(child.id) || !this.visibility.allowsSession(child)) continue;
			if (++this.sessions > TREE_FAMILY_LIMIT) {
				this.notes.push(`more than ${TREE_FAMILY_LIMIT} sessions in this fork family: the rest are not attached`);
				return;
			}
			seen.add(child.id);
			const s = sessionShape(this.store, child.id, this.words, parent.id);
			// Positions shown to the caller, as numbers: a --fork copy of a huge session has as many as its parent.
			const shownAt = new Int32Array(s.ids.length);
			let shownCount = 0;
			for (let k = 0; k < s.ids.length; k++) if (this.visibility.allowsEventId(s.ids[k] as number, child)) shownAt[shownCount++] = k;
			const allowed = shownAt.subarray(0, shownCount);
			const isCopied = (k: number) => ((s.flags[k] as number) & SHAPE.copied) !== 0;
			let copied = 0;
			let lastCopied = -1;
			let firstOwn = -1;
			let forkFrom = -1;
			const strays: number[] = [];
			const allIds = s.ids;
			for (const k of allowed) {
				if (isCopied(k)) {
					copied++;
					lastCopied = k;
					continue;
				}
				if (firstOwn < 0) firstOwn = k;
				if (forkFrom >= 0) continue;
				const par = s.parents[k] as number;
				if (par === -1 && k > 0 && isCopied(k - 1)) forkFrom = k;
				else if (par > 0) {
					const at = indexOfSorted(allIds, par);
					if (at >= 0 && isCopied(at)) forkFrom = k;
				} else if (par === 0 && strays.length < 8) strays.push(k);
			}
			const leafOf = (p: SessionRow) => p.leaf_entry;
			let forkPoint: string | null = null;
			const names = entryIdsOf(
				this.store,
				[forkFrom, firstOwn, lastCopied, ...strays].filter((k) => k >= 0).map((k) => s.ids[k] as number),
			);
			const strayFrom = strays.find((k) => {
				const p = names.get(s.ids[k] as number)?.parent;
				return p !== null && p !== undefined && this.attachNode(pi, p) >= 0;
			});
			const from = forkFrom >= 0 && (strayFrom === undefined || forkFrom < strayFrom) ? forkFrom : (strayFrom ?? -1);
			if (from >= 0) forkPoint = names.get(s.ids[from] as number)?.parent ?? null;
			else {
				const leaf = leafOf(parent);
				const leafRow = leaf ? eventIdOf(this.store, child.id, leaf) : undefined;
				const at = leafRow === undefined ? -1 : indexOfSorted(allIds, leafRow);
				if (leaf && at >= 0 && isCopied(at) && allowed.includes(at)) forkPoint = leaf;
				else if (lastCopied >= 0) forkPoint = names.get(s.ids[lastCopied] as number)?.entry ?? null;
			}
			const newSession = copied === 0;
			if (newSession && forkPoint === null) forkPoint = parent.leaf_entry;
			const attach = forkPoint ? this.attachNode(pi, forkPoint) : -1;
			const mi = this.members.length;
			const head = this.node(-1, mi, attach, 0);
			const nodes = i32();
			const m: Member = { row: child, ids: i32(), nodes, head, rows: allowed.length, parent: pi };
			this.members.push(m);
			let own = 0;
			let prevOwn = -1;
			let prevK = -2;
			for (const k of allowed) {
				if (isCopied(k)) continue;
				const id = s.ids[k] as number;
				const par = s.parents[k] as number;
				const p = par === -1 ? (prevK === k - 1 ? prevOwn : -1) : par === 0 ? -1 : nodeOf(m, par);
				prevOwn = this.node(id, mi, p >= 0 ? p : head, s.flags[k] as number);
				prevK = k;
				m.ids.push(id);
				nodes.push(prevOwn);
				own++;
			}
			const parentRows = (this.members[pi] as Member).rows;
			this.heads.set(head, {
				session: sessionSummary(child),
				forkPoint,
				copied,
				copiedAll: parentRows > 0 && copied >= parentRows,
				newSession,
				own,
				firstOwn: firstOwn >= 0 ? (names.get(s.ids[firstOwn] as number)?.entry ?? null) : null,
			});
			this.forks(mi, seen);
		}
	}
}

/**
 * The family's shape for a request. `maxNodes` bounds the nodes (the root's entries and the forks' own ones: copies
 * are not nodes), checked as they are added, before the layout's columns are made: past it, ShapeTooBigError.
 */
export function buildShape(
	store: IndexStore,
	root: SessionRow,
	chain: SessionRow[],
	visibility: Visibility,
	request: TreeWindowRequest,
	maxNodes = Number.POSITIVE_INFINITY,
): Shape {
	const catalog = new Catalog(store);
	const words = filterWords(request.text);
	const b = new ShapeBuilder(store, catalog, visibility, words, maxNodes);
	const parsed = request.query?.trim() ? parseQuery(request.query, { prefix: true }) : null;
	if (parsed?.match) {
		const family = [root.id, ...familyIds(catalog, root.id)];
		b.hitSet = matchingEvents(store, parsed.match, family);
	}
	const m0 = b.root(root);
	b.forks(0, new Set([root.id]));
	const leafNode = root.leaf_entry ? nodeOf(m0, eventIdOf(store, root.id, root.leaf_entry)) : -1;
	let focus: Shape["focus"] = null;
	let focusNode = -1;
	if (request.entryId) {
		for (const s of chain) {
			const m = b.members.find((x) => x.row.id === s.id);
			const node = m ? nodeOf(m, eventIdOf(store, s.id, request.entryId)) : -1;
			if (node >= 0) {
				focus = { sessionId: s.public_id, entryId: request.entryId };
				focusNode = node;
				break;
			}
		}
		if (!focus && eventIdOf(store, (chain[0] as SessionRow).id, request.entryId) === undefined)
			throw new NotFoundError((chain[0] as SessionRow).public_id, request.entryId);
	}
	const flat = flatten(nodesOf(b), request.filter ?? "default", words.length > 0, leafNode);
	return { ...nodesOf(b), ...flat, leafNode, focus, focusNode, notes: [...(parsed?.notes ?? []), ...b.notes] };
}

/** A whole family's nodes (no words, query or focus), read once for the layouts of every filter mode. */
export type FamilyNodes = Pick<Shape, "members" | "nodeRow" | "nodeMember" | "nodeParent" | "nodeFlags" | "heads" | "leafNode" | "notes">;

/** The nodes of a whole family for its kept layouts. `maxNodes` as buildShape's. */
export function familyNodes(store: IndexStore, root: SessionRow, visibility: Visibility, maxNodes: number): FamilyNodes {
	const b = new ShapeBuilder(store, new Catalog(store), visibility, [], maxNodes);
	const m0 = b.root(root);
	b.forks(0, new Set([root.id]));
	const leafNode = root.leaf_entry ? nodeOf(m0, eventIdOf(store, root.id, root.leaf_entry)) : -1;
	return { ...nodesOf(b), leafNode, notes: b.notes };
}

/** The builder's nodes as a Shape holds them. */
function nodesOf(b: ShapeBuilder): Pick<Shape, "members" | "nodeRow" | "nodeMember" | "nodeParent" | "nodeFlags" | "heads"> {
	return {
		members: b.members,
		nodeRow: b.nodeRow.view,
		nodeMember: b.nodeMember.view,
		nodeParent: b.nodeParent.view,
		nodeFlags: b.nodeFlags.view,
		heads: b.heads,
	};
}

/** Row ids of the sessions below `root` (children, theirs, …), bounded like the family. */
function familyIds(catalog: Catalog, root: number): number[] {
	const out: number[] = [];
	const todo = [root];
	const seen = new Set([root]);
	while (todo.length > 0 && out.length < TREE_FAMILY_LIMIT * 4) {
		for (const c of catalog.childSessions(todo.pop() as number)) {
			if (seen.has(c.id)) continue;
			seen.add(c.id);
			out.push(c.id);
			todo.push(c.id);
		}
	}
	return out;
}
