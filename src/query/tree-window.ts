/**
 * The tree view's rows laid out where the index is, and only a window of them sent: a fork family's tree is read as
 * numbers (row ids, parent links, flags: tree-rows.ts sessionShape), filtered like pi's `/tree`, flattened depth-first
 * and folded in typed arrays, and only the rows asked for get their text. The same rows, prefixes and folds as the
 * whole tree (components/tree/tree-layout.ts treeRows over sessionTree), at a few bytes per entry: a 1,000,000-entry
 * session is never a million objects. The last layout is kept per index until the family's files change.
 */
import { Catalog, sessionSummary } from "../index/catalog.js";
import type { IndexStore } from "../index/store.js";
import { LayoutGoneError } from "../index/tree-layout-store.js";
import { eventIdOf, familySignature, ShapeChunksError, treeRowsByIds } from "../index/tree-rows.js";
import { ArgumentError, NotFoundError } from "../shared/errors.js";
import type { Caller, TreeForkHead, TreeViewRow, TreeWindow, TreeWindowRequest } from "../shared/types.js";
import { COLLECT_FROM, fullCollection } from "./full-collection.js";
import { entryOf, familyRoot } from "./session-tree.js";
import { clipOf, HIT, POS, prefixDrawer } from "./tree-flatten.js";
import { isBigFamily, type LayoutCase, layoutCase, layoutWindow } from "./tree-layout.js";
import { forgetSpilled, spilledWindow } from "./tree-layout-opened.js";
import { SPILL_FROM } from "./tree-layout-spill.js";
import { type LaidRows, rowAt, rowCount } from "./tree-rows-laid.js";
import { buildShape, FOLD_MIN, filterWords, type Member, nodeOf, type Shape, ShapeTooBigError, TREE_WINDOW_MAX } from "./tree-shape.js";
import { Visibility } from "./visibility.js";

export { filterWords, TREE_WINDOW_MAX } from "./tree-shape.js";

/** Rows of a shape with one set of folds: what a kept layout holds, and what a window draws besides. */
export interface Rows extends LaidRows {
	sig: string;
	/**
	 * Per row: an entry's unfolded stretch (its first display position), a fold's breadcrumb (its first user node);
	 * -1: none. One column for both, since a row is one or the other.
	 */
	link: Int32Array;
	hitRows: number[];
}

const cache = new WeakMap<IndexStore, { sig: string; shape: Shape; rows: Rows | null }>();

/** What layRows needs of the display positions, read in one pass: see positionsOf. */
interface Positions {
	/** Positions of a fork's head and of a search hit (always kept), ascending. */
	heads: number[];
	hits: number[];
	/** The runs of foldable positions long enough to fold, three numbers each: first, end, first user node (-1: none). */
	stretches: number[];
}

/**
 * Which positions are kept and which runs of the others may fold, in one pass over what flattening noted of each
 * position (POS): a run is the foldable positions from one whose node does not continue its parent's column on. The
 * focus and, without a query, user messages are kept too.
 */
function positionsOf(sh: Shape, keep: number, searching: boolean): Positions {
	const { flat, pos } = sh;
	const len = flat.length;
	const out: Positions = { heads: [], hits: [], stretches: [] };
	const keepAt = keep >= 0 ? (sh.flatOf[keep] as number) : -1;
	const always = POS.keep | (searching ? 0 : POS.user);
	let from = -1;
	let user = -1;
	for (let f = 0; f < len; f++) {
		const p = pos[f] as number;
		if (p & always || f === keepAt) {
			if (p & POS.head) out.heads.push(f);
			else if (p & POS.hit) out.hits.push(f);
			if (from >= 0 && f - from >= FOLD_MIN) out.stretches.push(from, f, user);
			from = -1;
			continue;
		}
		if (from < 0 || !(p & POS.continues)) {
			if (from >= 0 && f - from >= FOLD_MIN) out.stretches.push(from, f, user);
			from = f;
			user = -1;
		}
		if (user < 0 && p & POS.user) user = flat[f] as number;
	}
	if (from >= 0 && len - from >= FOLD_MIN) out.stretches.push(from, len, user);
	return out;
}

/** The row columns being filled, and how many rows are. */
interface RowCols {
	start: Int32Array;
	type: Uint8Array;
	link: Int32Array;
	rows: number;
}

/** A column of `len` values for the rows: a spare one of the shape's (each is taken once), else a new one. */
function column(sh: Shape, len: number): Int32Array {
	while (sh.spare.length > 0) {
		const s = sh.spare.pop() as Int32Array;
		// Every value of a rows column is written before it is read: no need to clear it.
		if (s.length >= len) return s.subarray(0, len);
	}
	return new Int32Array(len);
}

/**
 * A row each for the display positions [from, to) (`st`: the first position of their unfolded stretch, else -1), as
 * entries: most rows of a big tree are such runs, filled a column at a time. Heads are marked after (layRows).
 */
function ownRows(c: RowCols, from: number, to: number, st: number): void {
	const r = c.rows;
	const n = to - from;
	// Their kind stays 0 (entry): the column starts zeroed, and its untouched pages are never mapped.
	for (let k = 0; k < n; k++) c.start[r + k] = from + k;
	c.link.fill(st, r, r + n);
	c.rows = r + n;
}

/** The rows: kept nodes one each, stretches of plain nodes folded unless unfolded (tree-layout.ts treeRows). */
function layRows(sh: Shape, unfolded: ReadonlySet<number>, searching: boolean, sig: string): Rows {
	const len = sh.flat.length;
	const { heads, hits, stretches } = positionsOf(sh, sh.focusNode, searching);
	// At most one row per shown node: filled in place, then cut to the rows laid out.
	const c: RowCols = {
		start: column(sh, len),
		type: new Uint8Array(len),
		link: column(sh, len),
		rows: 0,
	};
	// Every position between two stretches gets a row of its own.
	let own = 0;
	for (let s = 0; s < stretches.length; s += 3) {
		const i = stretches[s] as number;
		const j = stretches[s + 1] as number;
		ownRows(c, own, i, -1);
		if (unfolded.has(sh.flat[i] as number)) ownRows(c, i, j, i);
		else {
			const r = c.rows;
			c.start[r] = i;
			c.type[r] = 2;
			c.link[r] = stretches[s + 2] as number;
			c.rows = r + 1;
		}
		own = j;
	}
	ownRows(c, own, len, -1);
	const rows = c.rows;
	const start = c.start.subarray(0, rows);
	for (const f of heads) c.type[rowAt(start, f)] = 1;
	return {
		sig,
		start,
		type: c.type.subarray(0, rows),
		link: c.link.subarray(0, rows),
		total: rows,
		hitRows: hits.map((f) => rowAt(start, f)),
	};
}

/** The node a row key names: an entry (`session/entry`), a fork's head (`fork:session`) or a fold (`fold:<key>`). */
function nodeOfKey(store: IndexStore, sh: Shape, key: string): number {
	const k = key.startsWith("fold:") ? key.slice("fold:".length) : key;
	if (k.startsWith("fork:")) {
		const m = sh.members.find((x) => x.row.public_id === k.slice("fork:".length));
		return m ? m.head : -1;
	}
	const slash = k.indexOf("/");
	if (slash < 0) return -1;
	const m = sh.members.find((x) => x.row.public_id === k.slice(0, slash));
	return m ? nodeOf(m, eventIdOf(store, m.row.id, k.slice(slash + 1))) : -1;
}

/** The row showing a node: itself, else (hidden by the filter) its nearest shown ancestor; -1 when none. */
function rowOfNode(sh: Shape, rows: Rows, node: number): number {
	for (let n = node; n >= 0; n = sh.nodeParent[n] as number) {
		const f = sh.flatOf[n] as number;
		if (f >= 0) return rowAt(rows.start, f);
	}
	return -1;
}

/** The window from a kept layout; null when there is none or it is not whole (then laid out again). */
function keptWindow(store: IndexStore, lc: LayoutCase, request: TreeWindowRequest): TreeWindow | null {
	try {
		return layoutWindow(store, lc, request);
	} catch (e) {
		if (e instanceof LayoutGoneError) return null;
		throw e;
	}
}

/** A window of the tree view of a session's fork family (DESIGN §5 extension for the tree view); `bounds.spillFrom` as SPILL_FROM. */
export function treeWindow(store: IndexStore, request: TreeWindowRequest & { caller?: Caller }, bounds: { spillFrom?: number } = {}): TreeWindow {
	if (!request.sessionId) throw new ArgumentError("sessionId is required");
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, request.caller);
	const asked = catalog.sessionByPublicId(request.sessionId);
	if (!asked || !visibility.allowsSession(asked)) throw new NotFoundError(request.sessionId);
	const { root, chain } = familyRoot(catalog, visibility, asked);
	const words = filterWords(request.text);
	const family = familySignature(store, root.id);
	const shapeSig = JSON.stringify([
		family,
		request.sessionId,
		request.entryId ?? null,
		request.query?.trim() ?? "",
		request.filter ?? "default",
		words,
		request.caller ?? null,
	]);
	let held = cache.get(store);
	if (held?.sig !== shapeSig) {
		// A big session's kept layout answers with a few chunk reads; else it is laid out here, in memory. An open only
		// reads: the explorer's is on a read-only connection, and the indexer keeps the layouts (tree-layout-keep.ts).
		const keep = layoutCase(store, visibility, request, { root, chain, sig: family }, words);
		const kept = keep ? keptWindow(store, keep, request) : null;
		if (kept) {
			cache.delete(store);
			forgetSpilled(root.id);
			return kept;
		}
		// A big lone session or family with none kept (before the indexer's pass), or a filter typed in its tree view: laid
		// out a chunk at a time to a scratch file (a search's hits are laid out in memory: they change the rows, not only
		// who shows). A family's entries count its forks' copies.
		const searching = (request.query ?? "").trim() !== "";
		const spill = keep ?? (words.length > 0 && !searching ? layoutCase(store, visibility, request, { root, chain, sig: family }, []) : null);
		if (spill && (spill.members === 1 ? spill.session.entries : spill.entries) >= (bounds.spillFrom ?? SPILL_FROM)) {
			cache.delete(store);
			try {
				return spilledWindow(store, spill, request, words);
			} catch (e) {
				// A crafted shape past the layout's bounds, or a damaged one: laid out in memory from what is there.
				if (!(e instanceof ShapeTooBigError || e instanceof ShapeChunksError)) throw e;
			}
		}
		// The old layout goes before the new one is built: two of a million-entry session's would be held at once. A big
		// one's columns are collected first, or each filter mode tried would add its own (full-collection.ts).
		const dropped = held?.shape.nodeRow.length ?? 0;
		cache.delete(store);
		held = undefined;
		const big = keep !== null || isBigFamily(store, root);
		if (big && dropped >= COLLECT_FROM) fullCollection()?.();
		// A big family laid out here (no kept layout, or a filter typed) reads its rows through a write's small unmapped
		// cache, as the indexer does: through the search cache's map each page read would count in the peak RSS.
		const build = () => buildShape(store, root, chain, visibility, request);
		held = { sig: shapeSig, shape: big ? store.withSmallCache(build) : build(), rows: null };
		cache.set(store, held);
	}
	const sh = held.shape;
	const unfolded = new Set<number>();
	for (const k of request.unfolded ?? []) {
		const n = nodeOfKey(store, sh, k);
		if (n >= 0) unfolded.add(n);
	}
	const searching = (request.query ?? "").trim() !== "";
	const rowsSig = JSON.stringify([[...unfolded].sort((a, b) => a - b), searching]);
	if (held.rows?.sig !== rowsSig) held.rows = layRows(sh, unfolded, searching, rowsSig);
	const rows = held.rows;
	const root0 = sh.members[0] as Member;
	let want = -1;
	if (request.cursor) want = nodeOfKey(store, sh, request.cursor);
	if (want < 0 && !request.cursor) want = sh.focusNode >= 0 ? sh.focusNode : sh.leafNode;
	const cursor = want >= 0 ? rowOfNode(sh, rows, want) : -1;
	const size = Math.max(0, Math.min(TREE_WINDOW_MAX, Math.floor(request.count)));
	const centre = Math.max(0, cursor) - Math.floor(size / 2);
	const first = Math.max(0, Math.min(request.top ?? centre, rows.total - size));
	const end = Math.min(rows.total, first + size);
	// The rows' text: entries, fold breadcrumbs and the first entry of each stretch (its key), in one read.
	const need = new Set<number>();
	for (let r = first; r < end; r++) {
		const node = sh.flat[rows.start[r] as number] as number;
		if ((sh.nodeRow[node] as number) >= 0) need.add(sh.nodeRow[node] as number);
		const link = rows.link[r] as number;
		// A fold's breadcrumb is a node, an entry's stretch a display position.
		if (link >= 0) need.add(sh.nodeRow[rows.type[r] === 2 ? link : (sh.flat[link] as number)] as number);
	}
	const byId = new Map(treeRowsByIds(store, [...need]).map((r) => [r.id, r]));
	const hitIds = new Set<number>();
	for (const id of need) {
		const m = sh.members.find((x) => x.row.id === byId.get(id)?.session_id);
		const node = m ? nodeOf(m, id) : -1;
		if (node >= 0 && (sh.nodeFlags[node] as number) & HIT) hitIds.add(id);
	}
	const sidOf = (node: number) => (sh.members[sh.nodeMember[node] as number] as Member).row.public_id;
	const keyOf = (node: number) => `${sidOf(node)}/${byId.get(sh.nodeRow[node] as number)?.entry_id ?? ""}`;
	const entry = (node: number) => {
		const r = byId.get(sh.nodeRow[node] as number);
		return r ? entryOf(r, hitIds) : null;
	};
	const up = (node: number) => sh.up[node] as number;
	const bits = (node: number) => sh.bits[node] as number;
	// A deep window leaves out the columns far above its rows (clipOf), as one read from a kept layout does.
	const whole = prefixDrawer(up, bits);
	const depthOf = (node: number) => whole(node).depth;
	const rowNodes: number[] = [];
	for (let r = first; r < end; r++) rowNodes.push(sh.flat[rows.start[r] as number] as number);
	const clip = clipOf(rowNodes.map(depthOf));
	const drawn = clip > 0 ? prefixDrawer(up, bits, clip, depthOf) : whole;
	const out: TreeViewRow[] = [];
	for (let r = first; r < end; r++) {
		const node = sh.flat[rows.start[r] as number] as number;
		const { prefix, depth } = drawn(node);
		const sessionId = sidOf(node);
		const t = rows.type[r] as number;
		if (t === 1) {
			const fork = sh.heads.get(node) as TreeForkHead;
			out.push({ type: "fork", key: `fork:${fork.session.id}`, prefix, sessionId, fork, depth, stretch: null });
		} else if (t === 2) {
			const c = rows.link[r] as number;
			out.push({
				type: "fold",
				key: `fold:${keyOf(node)}`,
				prefix,
				sessionId,
				count: rowCount(rows, r, sh.flat.length),
				crumb: c >= 0 ? entry(c) : null,
				depth,
				stretch: keyOf(node),
			});
		} else {
			const e = entry(node);
			const st = rows.link[r] as number;
			if (e) out.push({ type: "entry", key: keyOf(node), prefix, sessionId, entry: e, depth, stretch: st >= 0 ? keyOf(sh.flat[st] as number) : null });
		}
	}
	return {
		session: sessionSummary(root0.row),
		leafId: root0.row.leaf_entry,
		focus: sh.focus,
		entries: root0.ids.length,
		forks: sh.members.length - 1,
		hits: sh.hits,
		hidden: sh.hidden,
		total: rows.total,
		start: first,
		rows: out,
		cursor,
		hitRows: rows.hitRows,
		notes: sh.notes,
	};
}
