/**
 * A big fork family's nodes for a layout made a chunk at a time (tree-layout-spill.ts), in the order tree-shape.ts
 * familyNodes makes them, without holding the root's: the root's entries are read from its kept shape a chunk at a
 * time, and each fork's own entries (a --fork copy's copies of its parent are not nodes) are found reading its shape
 * a chunk at a time and held. Only for a layout case: every session and entry of the family shows (tree-layout.ts).
 */
import { Catalog, type SessionRow, sessionSummary } from "../index/catalog.js";
import { binary } from "../index/event-identity.js";
import type { IndexStore } from "../index/store.js";
import type { LayoutMember } from "../index/tree-layout-store.js";
import { entryIdsOf, eventIdOf, SHAPE, ShapeChunks } from "../index/tree-rows.js";
import { PARENT_NONE, PARENT_PREVIOUS } from "../index/tree-shape-store.js";
import { indexOfSorted } from "../shared/sorted.js";
import { TREE_FAMILY_LIMIT } from "./session-tree.js";
import { type NodeChunk, type NodeSource, ShapeNodes } from "./tree-node-source.js";
import { type Col, i32, ShapeTooBigError, u16 } from "./tree-shape.js";

/** A fork's own entries as its shape lists them: position, row id, parent link (KeptShape's) and flags. */
interface Own {
	pos: Col<Int32Array>;
	ids: Col<Int32Array>;
	links: Col<Int32Array>;
	flags: Col<Uint16Array>;
}

/** One session of the family: where its nodes are and how a row id finds its node. */
interface Part {
	row: SessionRow;
	/** Node of its fork head (-1: the root), its first own node and how many follow. */
	head: number;
	first: number;
	count: number;
	/** Its own entries' row ids, ascending (null: the root, read from its shape). */
	ids: Int32Array | null;
	/** Its entries, copies included (what a fork of it may copy). */
	rows: number;
	parent: number;
	member: LayoutMember;
}

/** A family's nodes: the root's from its kept shape a chunk at a time, the forks' held. */
export class FamilySource implements NodeSource {
	readonly nodes: number;
	readonly size: number;
	readonly leafNode: number;
	/** Each session's stretch of nodes, as a kept family layout lists them. */
	readonly members: LayoutMember[];
	private readonly root: ShapeNodes;
	private readonly rootCount: number;
	private readonly row = i32();
	private readonly parent = i32();
	private readonly flags = u16();
	private readonly parts: Part[] = [];
	private readonly catalog: Catalog;
	private sessions = 1;

	/** `words`: a typed filter's (SHAPE.text on the entries holding them); past `maxHeld` forks' nodes, ShapeTooBigError. */
	constructor(
		private readonly store: IndexStore,
		root: SessionRow,
		private readonly words: readonly string[] = [],
		private readonly maxHeld = Number.POSITIVE_INFINITY,
	) {
		this.catalog = new Catalog(store);
		this.root = new ShapeNodes(new ShapeChunks(store, root.id, words));
		this.size = this.root.size;
		this.rootCount = this.root.nodes;
		const member: LayoutMember = { id: root.id, publicId: root.public_id, head: -1, first: 0, count: this.rootCount, fork: null };
		this.parts.push({ row: root, head: -1, first: 0, count: this.rootCount, ids: null, rows: this.rootCount, parent: -1, member });
		this.forks(0, new Set([root.id]));
		this.nodes = this.rootCount + this.row.length;
		this.members = this.parts.map((p) => p.member);
		this.leafNode = root.leaf_entry ? this.nodeOf(0, eventIdOf(store, root.id, root.leaf_entry)) : -1;
	}

	chunk(c: number): NodeChunk {
		const from = c * this.size;
		const to = Math.min(this.nodes, from + this.size);
		if (to <= this.rootCount) return this.root.chunk(c);
		const forkFrom = Math.max(from, this.rootCount) - this.rootCount;
		const forkTo = to - this.rootCount;
		if (from >= this.rootCount) {
			return { ids: this.row.a.subarray(forkFrom, forkTo), parents: this.parent.a.subarray(forkFrom, forkTo), flags: this.flags.a.subarray(forkFrom, forkTo) };
		}
		// The chunk where the root's nodes end and the forks' begin.
		const r = this.root.chunk(c);
		const ids = new Int32Array(to - from);
		const parents = new Int32Array(to - from);
		const flags = new Uint16Array(to - from);
		ids.set(r.ids);
		parents.set(r.parents);
		flags.set(r.flags);
		ids.set(this.row.a.subarray(forkFrom, forkTo), r.ids.length);
		parents.set(this.parent.a.subarray(forkFrom, forkTo), r.ids.length);
		flags.set(this.flags.a.subarray(forkFrom, forkTo), r.ids.length);
		return { ids, parents, flags };
	}

	/** The node of a session's entry (its row id), -1 when it has none there. */
	private nodeOf(part: number, rowId: number | undefined): number {
		if (rowId === undefined) return -1;
		const p = this.parts[part] as Part;
		if (p.ids === null) return this.root.nodeOfRow(rowId);
		const i = indexOfSorted(p.ids, rowId);
		return i < 0 ? -1 : p.first + i;
	}

	/** A node after the root's: a fork's head (row -1) or own entry. */
	private node(row: number, parent: number, flags: number): number {
		const n = this.rootCount + this.row.length;
		if (this.row.length >= this.maxHeld) throw new ShapeTooBigError(`tree shape: forks of more than ${this.maxHeld} nodes`);
		this.row.push(row);
		this.parent.push(parent);
		this.flags.push(flags);
		return n;
	}

	/** The node showing entry `entryId` for a session's forks: its own, else an ancestor session's (tree-shape.ts attachNode). */
	private attachNode(part: number, entryId: string): number {
		for (let at = part; at >= 0; at = (this.parts[at] as Part).parent) {
			const p = this.parts[at] as Part;
			const n = this.nodeOf(at, eventIdOf(this.store, p.row.id, entryId));
			if (n >= 0) return n;
		}
		return -1;
	}

	/** The forks of session `pi`, recursively, attached at their fork points: tree-shape.ts ShapeBuilder.forks, a chunk at a time. */
	private forks(pi: number, seen: Set<number>): void {
		const parent = (this.parts[pi] as Part).row;
		const order = [...this.catalog.childSessions(parent.id)].sort((a, b) => binary(a.created, b.created) || binary(a.public_id, b.public_id));
		for (const child of order) {
			if (seen.has(child.id)) continue;
			// A layout case has fewer sessions than the family limit (tree-layout.ts layoutCase): never cut here.
			if (++this.sessions > TREE_FAMILY_LIMIT) return;
			seen.add(child.id);
			this.fork(pi, child);
			this.forks(this.parts.length - 1, seen);
		}
	}

	/** One fork's head and own nodes. */
	private fork(pi: number, child: SessionRow): void {
		const parent = (this.parts[pi] as Part).row;
		const shape = new ShapeChunks(this.store, child.id, this.words, parent.id);
		// Which positions are copies (a bit each), and the own entries, read a chunk at a time.
		const copiedAt = new Uint8Array(Math.ceil(shape.entries / 8));
		const isCopied = (k: number) => k >= 0 && ((copiedAt[k >> 3] as number) & (1 << (k & 7))) !== 0;
		const own: Own = { pos: i32(), ids: i32(), links: i32(), flags: u16() };
		let copied = 0;
		let lastCopied = -1;
		let lastCopiedRow = -1;
		let rows = 0;
		for (let c = 0; c < shape.count; c++) {
			const s = shape.read(c);
			for (let k = 0; k < s.ids.length; k++, rows++) {
				const f = s.flags[k] as number;
				if (f & SHAPE.copied) {
					copiedAt[rows >> 3] = (copiedAt[rows >> 3] as number) | (1 << (rows & 7));
					copied++;
					lastCopied = rows;
					lastCopiedRow = s.ids[k] as number;
					continue;
				}
				own.pos.push(rows);
				own.ids.push(s.ids[k] as number);
				own.links.push(s.parents[k] as number);
				own.flags.push(f);
			}
		}
		// Where the fork starts (ShapeBuilder.forks' first loop over its entries): its first own entry whose parent is a
		// copy, and the first entries without a parent.
		const positions = new ShapeNodes(new ShapeChunks(this.store, child.id));
		let forkFrom = -1;
		const strays: number[] = [];
		for (let o = 0; o < own.ids.length && forkFrom < 0; o++) {
			const k = own.pos.a[o] as number;
			const par = own.links.a[o] as number;
			if (par === PARENT_PREVIOUS && k > 0 && isCopied(k - 1)) forkFrom = o;
			else if (par > 0) {
				if (isCopied(positions.nodeOfRow(par))) forkFrom = o;
			} else if (par === PARENT_NONE && strays.length < 8) strays.push(o);
		}
		const rowOf = (o: number) => own.ids.a[o] as number;
		const firstOwn = own.ids.length > 0 ? 0 : -1;
		const names = entryIdsOf(this.store, [...[forkFrom, firstOwn, ...strays].filter((o) => o >= 0).map(rowOf), ...(lastCopied >= 0 ? [lastCopiedRow] : [])]);
		const strayFrom = strays.find((o) => {
			const p = names.get(rowOf(o))?.parent;
			return p !== null && p !== undefined && this.attachNode(pi, p) >= 0;
		});
		// Compared by position, as the whole shape's loop does.
		const posOf = (o: number) => own.pos.a[o] as number;
		const from = forkFrom >= 0 && (strayFrom === undefined || posOf(forkFrom) < posOf(strayFrom)) ? forkFrom : (strayFrom ?? -1);
		let forkPoint: string | null = null;
		if (from >= 0) forkPoint = names.get(rowOf(from))?.parent ?? null;
		else {
			const leaf = parent.leaf_entry;
			const leafRow = leaf ? eventIdOf(this.store, child.id, leaf) : undefined;
			const at = leafRow === undefined ? -1 : positions.nodeOfRow(leafRow);
			if (leaf && at >= 0 && isCopied(at)) forkPoint = leaf;
			else if (lastCopied >= 0) forkPoint = names.get(lastCopiedRow)?.entry ?? null;
		}
		const newSession = copied === 0;
		if (newSession && forkPoint === null) forkPoint = parent.leaf_entry;
		const attach = forkPoint ? this.attachNode(pi, forkPoint) : -1;
		const head = this.node(-1, attach, 0);
		// Own entries: a parent above is the entry before when that was own too, a link its own node, else the head.
		let prevOwn = -1;
		let prevK = -2;
		const ids = own.ids.view;
		for (let o = 0; o < ids.length; o++) {
			const k = own.pos.a[o] as number;
			const par = own.links.a[o] as number;
			let p = -1;
			if (par === PARENT_PREVIOUS) p = prevK === k - 1 ? prevOwn : -1;
			else if (par !== PARENT_NONE) {
				const i = indexOfSorted(ids.subarray(0, o), par);
				p = i < 0 ? -1 : head + 1 + i;
			}
			prevOwn = this.node(ids[o] as number, p >= 0 ? p : head, own.flags.a[o] as number);
			prevK = k;
		}
		const parentRows = (this.parts[pi] as Part).rows;
		const fork = {
			session: sessionSummary(child),
			forkPoint,
			copied,
			copiedAll: parentRows > 0 && copied >= parentRows,
			newSession,
			own: ids.length,
			firstOwn: firstOwn >= 0 ? (names.get(rowOf(firstOwn))?.entry ?? null) : null,
		};
		const member: LayoutMember = { id: child.id, publicId: child.public_id, head, first: head + 1, count: ids.length, fork };
		this.parts.push({ row: child, head, first: head + 1, count: ids.length, ids, rows, parent: pi, member });
	}
}
