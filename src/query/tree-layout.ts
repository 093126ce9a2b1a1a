/**
 * The tree view of a big session or fork family read from its kept layout (index/tree-layout-store.ts): a window is a
 * few chunk reads, whatever the family's size. The kept rows are layRows' with nothing unfolded and no focus; the
 * folds a request opens or the focus splits are laid out again on their own (a fold is a chain of plain entries, so
 * only the focus is kept inside it). A family is kept under its root, each session's nodes one stretch in node order,
 * so an entry's node is a search within its session's stretch. What it answers equals tree-window.ts's answer from
 * the whole layout.
 */
import type { SessionRow } from "../index/catalog.js";
import { Catalog, sessionSummary } from "../index/catalog.js";
import type { IndexStore } from "../index/store.js";
import { familyBelow, type LayoutHead, type LayoutMember, LayoutReader, type LayoutValues, layoutHead } from "../index/tree-layout-store.js";
import { eventIdOf, treeRowsByIds } from "../index/tree-rows.js";
import { NotFoundError } from "../shared/errors.js";
import type { TreeFilterMode, TreeViewRow, TreeWindow, TreeWindowRequest } from "../shared/types.js";
import { entryOf, TREE_FAMILY_LIMIT } from "./session-tree.js";
import { clipOf, prefixDrawer } from "./tree-flatten.js";
import { nodeInRows, nodeOfRow } from "./tree-layout-append.js";
import { FOLD_MIN, type Shape, TREE_WINDOW_MAX } from "./tree-shape.js";
import type { Visibility } from "./visibility.js";

/** Sessions from this many entries keep their layout: a smaller one is laid out whole in a few milliseconds. */
export const LAYOUT_MIN = 5000;

/**
 * A request the kept layout can answer: a session and the sessions forked from it (its family, laid out as one tree),
 * nothing searched or typed, every entry of every one shown to this caller.
 */
export interface LayoutCase {
	/** The family's root: the layout is kept under it. */
	session: SessionRow;
	filter: TreeFilterMode;
	sig: string;
	/** The asked session and its ancestors up to the root (where an entry asked for is looked up, in this order). */
	chain: SessionRow[];
	/** Sessions in the family (1: the root alone) and their entries together. */
	members: number;
	entries: number;
}

/** Most labels or context edits a kept head lists: past it, an append lays the session out whole. */
export const MARKS_MAX = 10000;

/** Levels of forks familySignature (tree-rows.ts) walks: a family reaching deeper has no kept layout. */
const FAMILY_DEPTH = 32;

/** The entries of a family: its root's and those of the sessions below it (as familyBelow lists them). */
function familyEntries(root: SessionRow, below: ReadonlyArray<{ entries: number }>): number {
	return below.reduce((sum, s) => sum + s.entries, root.entries);
}

/** Whether a family is big enough to keep its layout (whatever is asked of it). */
export function isBigFamily(store: IndexStore, root: SessionRow): boolean {
	return familyEntries(root, familyBelow(store, root.id, TREE_FAMILY_LIMIT)) >= LAYOUT_MIN;
}

/** The layout case of a request, or null when the whole layout must be built. */
export function layoutCase(
	store: IndexStore,
	visibility: Visibility,
	request: TreeWindowRequest,
	family: { root: SessionRow; chain: SessionRow[]; sig: string },
	words: string[],
): LayoutCase | null {
	const { root, chain } = family;
	if (words.length > 0 || (request.query ?? "").trim() !== "") return null;
	const below = familyBelow(store, root.id, TREE_FAMILY_LIMIT);
	const entries = familyEntries(root, below);
	if (entries < LAYOUT_MIN || below.length >= TREE_FAMILY_LIMIT || below.some((s) => s.depth >= FAMILY_DEPTH)) return null;
	// A cut-off hides the caller's own last entries, a hidden fork leaves the family: the kept layout does not apply.
	if (!visibility.allowsEventId(Number.MAX_SAFE_INTEGER, root)) return null;
	const catalog = new Catalog(store);
	for (const { id } of below) {
		const s = catalog.session(id);
		if (!s || !visibility.allowsSession(s) || !visibility.allowsEventId(Number.MAX_SAFE_INTEGER, s)) return null;
	}
	return { session: root, filter: request.filter ?? "default", sig: family.sig, chain, members: below.length + 1, entries };
}

/** Each session's stretch of nodes in a family's nodes, in node order; null when one is not a stretch (not kept). */
export function layoutMembers(sh: Pick<Shape, "members" | "heads" | "nodeRow">): LayoutMember[] | null {
	const out: LayoutMember[] = [];
	let next = 0;
	for (const m of sh.members) {
		const first = m.head + 1;
		if (Math.max(m.head, 0) !== next) return null;
		const nodes = m.nodes?.view ?? null;
		const count = nodes?.length ?? m.ids.length;
		if (nodes) for (let k = 0; k < count; k++) if (nodes[k] !== first + k) return null;
		next = first + count;
		const fork = m.head < 0 ? null : (sh.heads.get(m.head) ?? null);
		if (m.head >= 0 && !fork) return null;
		out.push({ id: m.row.id, publicId: m.row.public_id, head: m.head, first, count, fork });
	}
	return next === sh.nodeRow.length ? out : null;
}

const readers = new WeakMap<IndexStore, { key: string; reader: LayoutReader }>();
/** The reader of a kept layout, kept across windows of the same layout (scrolling reads each chunk once). */
function readerOf(store: IndexStore, session: number, filter: string, sig: string): LayoutReader {
	const key = JSON.stringify([session, filter, sig]);
	const held = readers.get(store);
	if (held?.key === key) return held.reader;
	const reader = new LayoutReader(store, session, filter);
	readers.set(store, { key, reader });
	return reader;
}

/** One row as laid out: its first display position, kind (0 entry, 2 fold), entries, and the stretch it opens from. */
interface Row {
	start: number;
	type: number;
	count: number;
	stretch: number;
}

/** A window of the tree view from the kept layout, or null when none is kept for the session as it is now. */
export function layoutWindow(store: IndexStore, lc: LayoutCase, request: TreeWindowRequest): TreeWindow | null {
	// Only read: a stale layout is brought up to date by the indexer (tree-layout-keep.ts), within its bounds. Updated
	// here from its tail, a branch far up a 1.2M-entry session took a second and 333 MB.
	const head = layoutHead(store, lc.session.id, lc.filter);
	if (head?.sig !== lc.sig) return null;
	// The head and every chunk from one snapshot: another process may be writing the layout again.
	return store.db.transaction(() => {
		const now = layoutHead(store, lc.session.id, lc.filter);
		return now?.sig === lc.sig ? windowOf(store, lc, request, now) : null;
	})();
}

/** A window of the tree view from a layout's head and values (a kept layout's, or one made at the open). */
export function windowOf(store: IndexStore, lc: LayoutCase, request: TreeWindowRequest, head: LayoutHead, values?: LayoutValues): TreeWindow {
	const session = lc.session;
	const L = values ?? readerOf(store, session.id, lc.filter, head.sig);
	const members: LayoutMember[] = head.members ?? [{ id: session.id, publicId: session.public_id, head: -1, first: 0, count: head.nodes, fork: null }];
	const byPublic = new Map(members.map((m) => [m.publicId, m]));
	/** The session a node belongs to: stretches are in node order, each from its head (the root's from 0). */
	const memberOf = (node: number): LayoutMember => {
		let lo = 0;
		let hi = members.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if ((members[mid] as LayoutMember).head <= node) lo = mid;
			else hi = mid - 1;
		}
		return members[lo] as LayoutMember;
	};
	/** A session's node of an event row id (its stretch ascends in row ids), -1 when none. */
	const nodeIn = (m: LayoutMember, id: number | undefined): number => {
		if (id === undefined) return -1;
		if (!head.members) return nodeOfRow(L, head, id);
		return nodeInRows(L, m.first, m.first + m.count - 1, id);
	};
	const nodeOfEntry = (m: LayoutMember | undefined, entryId: string) => (m ? nodeIn(m, eventIdOf(store, m.id, entryId)) : -1);
	const nodeOfKey = (key: string): number => {
		const k = key.startsWith("fold:") ? key.slice("fold:".length) : key;
		if (k.startsWith("fork:")) return byPublic.get(k.slice("fork:".length))?.head ?? -1;
		const slash = k.indexOf("/");
		return slash < 0 ? -1 : nodeOfEntry(byPublic.get(k.slice(0, slash)), k.slice(slash + 1));
	};
	/** A node's display position (-1: hidden by the filter). */
	const flatOf = (node: number) => {
		const f = L.at("near", node);
		return f >= 0 && L.at("flat", f) === node ? f : -1;
	};
	// The focus: the entry's node in the asked session, else (a copy) in the nearest ancestor that wrote it.
	let focusNode = -1;
	let focus: TreeWindow["focus"] = null;
	if (request.entryId) {
		for (const s of lc.chain) {
			const node = nodeOfEntry(
				members.find((m) => m.id === s.id),
				request.entryId,
			);
			if (node >= 0) {
				focusNode = node;
				focus = { sessionId: s.public_id, entryId: request.entryId };
				break;
			}
		}
		const asked = lc.chain[0] ?? session;
		if (!focus && eventIdOf(store, asked.id, request.entryId) === undefined) throw new NotFoundError(asked.public_id, request.entryId);
	}
	const unfolded = new Set<number>();
	for (const k of request.unfolded ?? []) {
		const n = nodeOfKey(k);
		if (n >= 0) unfolded.add(n);
	}
	// Folds laid out again: the one holding the focus, and those whose first entry (or a part's) is unfolded.
	const redo = new Map<number, Row[]>();
	const foldAt = (f: number) => {
		const r = L.at("rowOfFlat", f);
		if (L.at("rowType", r) !== 2 || redo.has(r)) return;
		const start = L.at("rowStart", r);
		const end = start + L.at("rowCount", r);
		const parts: Row[] = [];
		const stretch = (i: number, j: number) => {
			if (j - i < FOLD_MIN) for (let k = i; k < j; k++) parts.push({ start: k, type: 0, count: 1, stretch: -1 });
			else if (unfolded.has(L.at("flat", i))) for (let k = i; k < j; k++) parts.push({ start: k, type: 0, count: 1, stretch: i });
			else parts.push({ start: i, type: 2, count: j - i, stretch: i });
		};
		const q = focusNode >= 0 ? flatOf(focusNode) : -1;
		if (q >= start && q < end) {
			stretch(start, q);
			parts.push({ start: q, type: 0, count: 1, stretch: -1 });
			stretch(q + 1, end);
		} else stretch(start, end);
		redo.set(r, parts);
	};
	if (focusNode >= 0 && flatOf(focusNode) >= 0) foldAt(flatOf(focusNode));
	for (const n of unfolded) if (flatOf(n) >= 0) foldAt(flatOf(n));
	const changed = [...redo.keys()].sort((a, b) => a - b);
	let total = head.total;
	for (const r of changed) total += (redo.get(r) as Row[]).length - 1;
	/** The shown row of a kept row `r` (its first, when laid out again). */
	const shownRow = (r: number) => {
		let v = r;
		for (const c of changed) if (c < r) v += (redo.get(c) as Row[]).length - 1;
		return v;
	};
	/** The rows from shown row `first` on, `size` of them. */
	const rowsFrom = (first: number, size: number): Row[] => {
		// Find the kept row holding shown row `first` (and where in its rows laid out again, if it was).
		let r = 0;
		let v = 0;
		let offset = 0;
		let found = false;
		for (const c of changed) {
			if (first < v + (c - r)) {
				r += first - v;
				found = true;
				break;
			}
			v += c - r;
			r = c;
			const len = (redo.get(c) as Row[]).length;
			if (first < v + len) {
				offset = first - v;
				found = true;
				break;
			}
			v += len;
			r = c + 1;
		}
		if (!found) r += first - v;
		const out: Row[] = [];
		for (; out.length < size && r < head.total; r++) {
			const again = redo.get(r);
			if (again) {
				for (let k = offset; k < again.length && out.length < size; k++) out.push(again[k] as Row);
				offset = 0;
			} else out.push({ start: L.at("rowStart", r), type: L.at("rowType", r), count: L.at("rowCount", r), stretch: -1 });
		}
		return out;
	};
	/** The row showing a node: itself, else its nearest shown ancestor; -1 when none. */
	const rowOfNode = (node: number): number => {
		const f = L.at("near", node);
		if (f < 0) return -1;
		const r = L.at("rowOfFlat", f);
		const again = redo.get(r);
		if (!again) return shownRow(r);
		let k = again.length - 1;
		while (k > 0 && (again[k] as Row).start > f) k--;
		return shownRow(r) + k;
	};
	let want = -1;
	if (request.cursor) want = nodeOfKey(request.cursor);
	if (want < 0 && !request.cursor) want = focusNode >= 0 ? focusNode : head.leafNode;
	const cursor = want >= 0 ? rowOfNode(want) : -1;
	const size = Math.max(0, Math.min(TREE_WINDOW_MAX, Math.floor(request.count)));
	const centre = Math.max(0, cursor) - Math.floor(size / 2);
	const first = Math.max(0, Math.min(request.top ?? centre, total - size));
	const rows = rowsFrom(first, Math.min(total, first + size) - first);
	const nodeAt = (f: number) => L.at("flat", f);
	const need = new Set<number>();
	for (const r of rows) {
		const id = L.at("row", nodeAt(r.start));
		if (id >= 0) need.add(id);
		if (r.stretch >= 0) need.add(L.at("row", nodeAt(r.stretch)));
	}
	const byId = new Map(treeRowsByIds(store, [...need]).map((r) => [r.id, r]));
	const keyOf = (node: number) => `${memberOf(node).publicId}/${byId.get(L.at("row", node))?.entry_id ?? ""}`;
	// A deep window draws only the columns near its rows (clipOf): their depths are kept, so the walk stops there.
	const depthOf = (node: number) => L.at("depth", node);
	const drawn = prefixDrawer(
		(node) => L.at("up", node),
		(node) => L.at("bits", node),
		clipOf(rows.map((r) => depthOf(nodeAt(r.start)))),
		depthOf,
	);
	const none = new Set<number>();
	const out: TreeViewRow[] = [];
	for (const r of rows) {
		const node = nodeAt(r.start);
		const { prefix, depth } = drawn(node);
		const m = memberOf(node);
		const sessionId = m.publicId;
		if (r.type === 1 && m.fork) {
			out.push({ type: "fork", key: `fork:${m.fork.session.id}`, prefix, sessionId, fork: m.fork, depth, stretch: null });
		} else if (r.type === 2) {
			out.push({ type: "fold", key: `fold:${keyOf(node)}`, prefix, sessionId, count: r.count, crumb: null, depth, stretch: keyOf(node) });
		} else {
			const e = byId.get(L.at("row", node));
			if (e)
				out.push({
					type: "entry",
					key: keyOf(node),
					prefix,
					sessionId,
					entry: entryOf(e, none),
					depth,
					stretch: r.stretch >= 0 ? keyOf(nodeAt(r.stretch)) : null,
				});
		}
	}
	return {
		session: sessionSummary(session),
		leafId: session.leaf_entry,
		focus,
		entries: (members[0] as LayoutMember).count,
		forks: members.length - 1,
		hits: 0,
		hidden: head.hidden,
		total,
		start: first,
		rows: out,
		cursor,
		hitRows: [],
		notes: [],
	};
}
