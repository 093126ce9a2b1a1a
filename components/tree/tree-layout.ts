/**
 * The tree view's rows, like pi's `/tree`: a linear stretch stays in one column, a branch point's children get `├─ `
 * and `└─ ` with `│` gutters below them, and sessions forked or cloned from the family attach as sub-trees at their
 * fork point, so a fork family reads as one tree across files. Long stretches of plain rows fold into one `… N
 * entries …` row (→ unfolds one); with a query, every row that is not a hit or part of the tree's shape folds, so the
 * hits stand in place between breadcrumbs. Pure data: no React, no terminal.
 */
import type { TreeEntry, TreeFork, TreeForkHead, TreeResult, TreeViewRow, TreeWindow, TreeWindowRequest } from "../../src/shared/types.js";

/** Plain rows in a row needed before a stretch folds (folding one or two rows would save nothing). */
export const FOLD_MIN = 3;

/** One node of the family's tree: an entry of some session, or the head of an attached fork. */
interface Node {
	key: string;
	sessionId: string;
	entry: TreeEntry | null;
	fork: TreeFork | null;
	children: Node[];
}

/** One row of the tree view. */
export type TreeRow = TreeViewRow;

/** A fork's head row from the fork's whole data. */
export function forkHead(f: TreeFork): TreeForkHead {
	const { forks: _forks, entries, newSession, ...rest } = f;
	return { ...rest, newSession: newSession === true, own: entries.length, firstOwn: entries[0]?.entryId ?? null };
}

/** What the rows depend on besides the data: unfolded stretches, whether a query marks hits, the row kept in view. */
export interface TreeRowOptions {
	/** Keys of the first row of stretches the user unfolded. */
	unfolded: ReadonlySet<string>;
	/** A query is active: hits stay, other plain rows fold (user messages too). */
	searching: boolean;
	/** A row that never folds (the event the tree was opened on). */
	keep: string | null;
}

/** Key of an entry's row: session and entry (entry ids repeat across the files of a family). */
export function entryKey(sessionId: string, entryId: string): string {
	return `${sessionId}/${entryId}`;
}

/** Key of a fork's head row. */
export function forkKey(sessionId: string): string {
	return `fork:${sessionId}`;
}

function attachForks(forks: TreeFork[], parents: Map<string, Node>, roots: Node[]): void {
	for (const fork of forks) {
		const sid = fork.session.id;
		const head: Node = { key: forkKey(sid), sessionId: sid, entry: null, fork, children: [] };
		const at = fork.forkPoint ? parents.get(fork.forkPoint) : undefined;
		(at ? at.children : roots).push(head);
		const own = new Map<string, Node>();
		for (const e of fork.entries) {
			const n: Node = { key: entryKey(sid, e.entryId), sessionId: sid, entry: e, fork: null, children: [] };
			const parent = e.parentId ? own.get(e.parentId) : undefined;
			(parent ? parent.children : head.children).push(n);
			own.set(e.entryId, n);
		}
		// A fork of the fork continues from one of its own entries, or from an entry it copied (shown by the parent's row).
		const lookup = new Map(parents);
		for (const [id, n] of own) lookup.set(id, n);
		attachForks(fork.forks, lookup, head.children);
	}
}

/** The family as nodes: the root session's entries by parent id, forks attached at their fork points. */
function buildNodes(data: TreeResult): Node[] {
	const sid = data.session.id;
	const byId = new Map<string, Node>();
	const roots: Node[] = [];
	for (const e of data.entries) {
		const n: Node = { key: entryKey(sid, e.entryId), sessionId: sid, entry: e, fork: null, children: [] };
		const parent = e.parentId ? byId.get(e.parentId) : undefined;
		(parent ? parent.children : roots).push(n);
		if (!byId.has(e.entryId)) byId.set(e.entryId, n);
	}
	attachForks(data.forks, byId, roots);
	return roots;
}

/** A flattened node before folding: its prefix, whether it may fold, and whether it continues the row above. */
interface Flat {
	node: Node;
	prefix: string;
	depth: number;
	/** It is the only child of the row just above it (so it belongs to that row's stretch). */
	continues: boolean;
	branchChild: boolean;
}

/** Depth-first, children in file order (forks after), without recursion: a 100,000-entry chain must not overflow. */
function flatten(roots: Node[]): Flat[] {
	const out: Flat[] = [];
	type Item = { node: Node; gutter: string; connector: string; childGutter: string; depth: number; continues: boolean };
	const stack: Item[] = [];
	const pushChildren = (children: Node[], gutter: string, depth: number, continues: boolean) => {
		if (children.length === 1) {
			const only = children[0] as Node;
			stack.push({ node: only, gutter, connector: "", childGutter: gutter, depth, continues });
			return;
		}
		for (let i = children.length - 1; i >= 0; i--) {
			const last = i === children.length - 1;
			stack.push({
				node: children[i] as Node,
				gutter,
				connector: last ? "└─ " : "├─ ",
				childGutter: gutter + (last ? "   " : "│  "),
				depth: depth + 1,
				continues: false,
			});
		}
	};
	pushChildren(roots, "", 0, false);
	while (stack.length > 0) {
		const it = stack.pop() as Item;
		out.push({ node: it.node, prefix: it.gutter + it.connector, depth: it.depth, continues: it.continues, branchChild: it.connector !== "" });
		pushChildren(it.node.children, it.childGutter, it.depth, true);
	}
	return out;
}

/** Whether a row must stay visible: the tree's shape, what the row marks, and (with a query) the hits. */
function kept(f: Flat, options: TreeRowOptions): boolean {
	const n = f.node;
	if (!n.entry || n.children.length !== 1 || f.branchChild || !f.continues) return true;
	if (options.keep === n.key) return true;
	const e = n.entry;
	if (e.label || e.summary || e.isError || e.contextEdit || e.hit) return true;
	if (options.searching) return false;
	return e.entryType === "message" && e.role === "user";
}

/** The first user message of a folded stretch: the breadcrumb that says where in the conversation it is. */
function crumbOf(run: Flat[]): TreeEntry | null {
	for (const f of run) if (f.node.entry?.role === "user") return f.node.entry;
	return null;
}

/** Flattened rows with linear stretches of plain rows folded (unless unfolded), in display order. */
export function treeRows(data: TreeResult, options: TreeRowOptions): TreeRow[] {
	const flat = flatten(buildNodes(data));
	const out: TreeRow[] = [];
	const emit = (f: Flat, stretch: string | null) => {
		const n = f.node;
		if (n.fork) out.push({ type: "fork", key: n.key, prefix: f.prefix, sessionId: n.sessionId, fork: forkHead(n.fork), depth: f.depth, stretch: null });
		else if (n.entry) out.push({ type: "entry", key: n.key, prefix: f.prefix, sessionId: n.sessionId, entry: n.entry, depth: f.depth, stretch });
	};
	let i = 0;
	while (i < flat.length) {
		const f = flat[i] as Flat;
		if (kept(f, options)) {
			emit(f, null);
			i++;
			continue;
		}
		// A stretch: plain rows, each the only child of the one above.
		let j = i + 1;
		while (j < flat.length && (flat[j] as Flat).continues && !kept(flat[j] as Flat, options)) j++;
		const run = flat.slice(i, j);
		if (run.length < FOLD_MIN) {
			for (const r of run) emit(r, null);
		} else if (options.unfolded.has(f.node.key)) {
			for (const r of run) emit(r, f.node.key);
		} else {
			out.push({
				type: "fold",
				key: `fold:${f.node.key}`,
				prefix: f.prefix,
				sessionId: f.node.sessionId,
				count: run.length,
				crumb: crumbOf(run),
				depth: f.depth,
				stretch: f.node.key,
			});
		}
		i = j;
	}
	return out;
}

/** The index of the row with `key` (an entry, a fork's head or a fold row), -1 when no row has it. */
export function rowIndex(rows: readonly TreeRow[], key: string | null): number {
	return key === null ? -1 : rows.findIndex((r) => r.key === key);
}

/** Indexes of the rows that are query hits, in display order. */
export function hitRows(rows: readonly TreeRow[]): number[] {
	const out: number[] = [];
	rows.forEach((r, i) => {
		if (r.type === "entry" && r.entry.hit) out.push(i);
	});
	return out;
}

/** The next (dir 1) or previous (dir -1) hit row from `cursor`, wrapping around; null without hits. */
export function stepHit(rows: readonly TreeRow[], cursor: number, dir: 1 | -1): { index: number; wrapped: boolean } | null {
	const hits = hitRows(rows);
	if (hits.length === 0) return null;
	if (dir === 1) {
		const next = hits.find((i) => i > cursor);
		return next === undefined ? { index: hits[0] as number, wrapped: true } : { index: next, wrapped: false };
	}
	const prev = hits.filter((i) => i < cursor).at(-1);
	return prev === undefined ? { index: hits.at(-1) as number, wrapped: true } : { index: prev, wrapped: false };
}

/** The first row of a window of `height` rows that centres `cursor` (clamped to the rows). */
export function centredTop(cursor: number, height: number, count: number): number {
	if (height <= 0 || count <= height) return 0;
	return Math.max(0, Math.min(cursor - Math.floor(height / 2), count - height));
}

/**
 * A window of a whole tree answer, laid out here (a service without `treeWindow`, and tests): the same answer the
 * index's windows give for the unfiltered view.
 */
export function windowOf(data: TreeResult, request: TreeWindowRequest): TreeWindow {
	const keep = data.focus ? entryKey(data.focus.sessionId, data.focus.entryId) : null;
	const rows = treeRows(data, { unfolded: new Set(request.unfolded ?? []), searching: (request.query ?? "").trim() !== "", keep });
	const want = request.cursor ?? (request.cursor === undefined ? (keep ?? (data.leafId ? entryKey(data.session.id, data.leafId) : null)) : null);
	const cursor = rowIndex(rows, want);
	const count = Math.max(0, Math.floor(request.count));
	const start = Math.max(0, Math.min(request.top ?? Math.max(0, cursor) - Math.floor(count / 2), rows.length - count));
	const forks = (fs: TreeFork[]): number => fs.reduce((n, f) => n + 1 + forks(f.forks), 0);
	return {
		session: data.session,
		leafId: data.leafId,
		focus: data.focus,
		entries: data.entries.length,
		forks: forks(data.forks),
		hits: data.hits,
		hidden: 0,
		total: rows.length,
		start,
		rows: rows.slice(start, start + count),
		cursor,
		hitRows: hitRows(rows),
		notes: data.notes,
	};
}
