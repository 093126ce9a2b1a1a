/**
 * Kept tree layouts brought up to the index after a refresh (issue 32 item 3): every big session or fork family the
 * kept layout covers (tree-layout.ts layoutCase) gets, per filter mode, its layout updated from its tail (a lone
 * session's append at the leaf) or laid out whole (any other change, any change to a family), so the explorer's first
 * open after indexing, a branch, a compaction or a new fork reads a few chunks instead of laying the family out. Each
 * (family, mode) is one unit of work: a sliced caller yields between units and lays out whole only families small
 * enough for one turn.
 */
import { Catalog } from "../index/catalog.js";
import type { IndexStore } from "../index/store.js";
import { LAYOUT_CHUNK, LayoutGoneError, layoutHead, layoutSessions } from "../index/tree-layout-store.js";
import { familySignature, ShapeChunksError } from "../index/tree-rows.js";
import { TREE_FILTER_MODES } from "../shared/types.js";
import { COLLECT_FROM, fullCollection } from "./full-collection.js";
import { LAYOUT_MIN, type LayoutCase, layoutCase } from "./tree-layout.js";
import { appendToLayout } from "./tree-layout-append.js";
import { keepSpilled, SPILL_FROM } from "./tree-layout-spill.js";
import { keepStreamed } from "./tree-layout-stream.js";
import { familyNodes, ShapeTooBigError } from "./tree-shape.js";
import { Visibility } from "./visibility.js";

/**
 * The biggest session or family (in nodes) an indexer lays out whole: it holds the family's nodes and about 15 bytes a
 * node besides while it writes the layout (tree-layout-stream.ts), after a refresh in the same process; above this the
 * indexer's peak RSS would pass the 300 MB bound (DESIGN §7). Bigger ones are laid out a chunk at a time (`spill`).
 */
export const INDEXER_WHOLE_MAX_ENTRIES = 4_000_000;

/** What a pass over the stale layouts may do. */
export interface KeepOptions {
	/** Families of more nodes (entries, a fork's copies not counted) are only updated from their tail, never laid out whole. */
	maxWholeEntries?: number;
	/** Most values of a column an update from the tail may rewrite (else it is left, or laid out whole if small). */
	maxTail?: number;
	/** Most nodes a layout may hold waiting for a child (tree-layout-stream.ts FRAMES_MAX); past it, left. */
	maxFrames?: number;
	/**
	 * Lone sessions and families of more than `maxWholeEntries`, or of SPILL_FROM entries (a family's forks' copies
	 * included), laid out whole without holding their nodes (tree-layout-spill.ts) instead of left or held: for a pass
	 * that may take as long as the session is big (the indexer's, not pi's sliced one).
	 */
	spill?: boolean;
	/** Most nodes of a family's forks a layout a chunk at a time holds (FAMILY_HELD_MAX); past it, left. */
	maxHeld?: number;
	/** Checked before each unit: true stops the pass (the rest waits for the next one). */
	shouldStop?: () => boolean;
}

/** What a pass did. */
export interface KeepSummary {
	/** Layouts updated from their tail, laid out whole, and left stale (too big for this pass, or stopped). */
	appended: number;
	whole: number;
	left: number;
}

/** The layout cases whose kept layout is missing or older than the session's files, newest session first. */
export function staleLayouts(store: IndexStore): LayoutCase[] {
	if (store.readonly) return [];
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, undefined);
	const out: LayoutCase[] = [];
	for (const id of layoutSessions(store, LAYOUT_MIN)) {
		const session = catalog.session(id);
		if (!session) continue;
		const sig = familySignature(store, id);
		// Whether the family has a kept layout at all does not depend on the filter mode: asked once.
		const lc = layoutCase(store, visibility, { sessionId: session.public_id, count: 0 }, { root: session, chain: [session], sig }, []);
		if (!lc) continue;
		for (const filter of TREE_FILTER_MODES) if (layoutHead(store, id, filter)?.sig !== sig) out.push({ ...lc, filter });
	}
	return out;
}

/** Brings one kept layout up to its session from its tail, when it can; false: it must be laid out whole. */
function appendOne(store: IndexStore, lc: LayoutCase, options: KeepOptions): boolean {
	const head = layoutHead(store, lc.session.id, lc.filter);
	// Rewriting more than half the layout from its tail costs more (time and memory) than laying it out whole.
	const limit = Math.min(options.maxTail ?? Number.POSITIVE_INFINITY, Math.max(2 * LAYOUT_CHUNK, (head?.nodes ?? 0) / 2));
	try {
		return head !== null && appendToLayout(store, lc, head, limit)?.sig === lc.sig;
	} catch (e) {
		if (!(e instanceof LayoutGoneError)) throw e;
		return false;
	}
}

/** Brings one kept layout up to its session: from its tail when it can, else (within the options' bounds) laid out whole. */
export function keepOne(store: IndexStore, lc: LayoutCase, options: KeepOptions = {}): "appended" | "whole" | "left" {
	return appendOne(store, lc, options) ? "appended" : keepFamily(store, [lc], options);
}

/** Lays out whole the stale modes of one session or family (`units`), its nodes read once; "left" past the bound. */
function keepFamily(store: IndexStore, units: LayoutCase[], options: KeepOptions): "whole" | "left" {
	const lc = units[0] as LayoutCase;
	// The bound is on the layout's nodes: a fork's copies of its parent's entries count in its entries, not as nodes.
	const max = options.maxWholeEntries ?? Number.POSITIVE_INFINITY;
	// A family's entries count its forks' copies: its nodes are not known before they are found.
	if (options.spill && (lc.members === 1 ? lc.session.entries : lc.entries) >= Math.min(SPILL_FROM, max + 1)) return keepBig(store, units, options);
	if (lc.session.entries > max) return "left";
	const collect = lc.session.entries >= COLLECT_FROM ? fullCollection() : null;
	// What a refresh before the pass left (its parsed files, its statements' buffers) goes first as well.
	collect?.();
	try {
		const nodes = familyNodes(store, lc.session, new Visibility(new Catalog(store), undefined), max);
		for (const u of units) {
			keepStreamed(store, u, nodes, options.maxFrames);
			collect?.();
		}
	} catch (e) {
		if (e instanceof ShapeTooBigError) return "left";
		throw e;
	}
	return "whole";
}

/** Lays out whole the stale modes of one big lone session or family a chunk at a time (keepSpilled); "left" past its bounds. */
function keepBig(store: IndexStore, units: LayoutCase[], options: KeepOptions): "whole" | "left" {
	try {
		keepSpilled(store, units, options.maxFrames, options.maxHeld);
	} catch (e) {
		if (e instanceof ShapeTooBigError || e instanceof ShapeChunksError) return "left";
		throw e;
	}
	return "whole";
}

/** Layouts a bounded pass left, per index (session, filter, signature): the next pass does not try them again. */
const leftBefore = new WeakMap<IndexStore, Set<string>>();

/** The layouts a pass with these options left before, and the key of a unit in it. */
function leftSet(store: IndexStore, options: KeepOptions): { left: Set<string>; key: (lc: LayoutCase) => string } {
	let left = leftBefore.get(store) ?? new Set<string>();
	// Bounded in a long-lived host: forgetting only costs a unit that bails early (or a too-big shape built again).
	if (left.size > 1000) left = new Set();
	leftBefore.set(store, left);
	return {
		left,
		key: (lc) =>
			JSON.stringify([lc.session.id, lc.filter, lc.sig, options.maxWholeEntries, options.maxTail, options.maxFrames, options.spill, options.maxHeld]),
	};
}

/** Brings every stale kept layout up to the index in one go (a worker thread, the CLI's `index`). */
export function keepLayouts(store: IndexStore, options: KeepOptions = {}): KeepSummary {
	const summary: KeepSummary = { appended: 0, whole: 0, left: 0 };
	const { left, key } = leftSet(store, options);
	// A whole layout reads the family's shape and writes every column once: a search's big cache and map would only
	// add those pages to the indexer's peak RSS (as a refresh's writes, refresh-run.ts).
	store.withSmallCache(() => {
		const stale = staleLayouts(store);
		for (let i = 0; i < stale.length; ) {
			const lc = stale[i] as LayoutCase;
			// A session's or family's modes follow each other: those laid out whole are laid out together, their nodes read
			// once (a lone session's modes are first updated from their tail where they can).
			let j = i + 1;
			while (j < stale.length && (stale[j] as LayoutCase).session.id === lc.session.id) j++;
			let units = stale.slice(i, j).filter((u) => !left.has(key(u)));
			summary.left += j - i - units.length;
			i = j;
			if (units.length === 0) continue;
			if (options.shouldStop?.()) {
				summary.left += units.length;
				continue;
			}
			if (lc.members === 1) {
				const whole = units.filter((u) => !appendOne(store, u, options));
				summary.appended += units.length - whole.length;
				units = whole;
				if (units.length === 0) continue;
			}
			const done = keepFamily(store, units, options);
			summary[done] += units.length;
			if (done === "left") for (const u of units) left.add(key(u));
		}
	});
	return summary;
}

/** keepLayouts with a turn of the event loop (`pause`) before each unit: a host's loop is held for one unit at most. */
export async function keepLayoutsSliced(store: IndexStore, pause: () => Promise<void>, options: KeepOptions = {}): Promise<KeepSummary> {
	const summary: KeepSummary = { appended: 0, whole: 0, left: 0 };
	const { left, key } = leftSet(store, options);
	for (const lc of staleLayouts(store)) {
		if (left.has(key(lc)) || options.shouldStop?.()) {
			summary.left++;
			continue;
		}
		await pause();
		const done = keepOne(store, lc, options);
		summary[done]++;
		if (done === "left") left.add(key(lc));
	}
	return summary;
}
