/**
 * The no-op freshness check without walking the history: a refresh that listed every directory leaves their stamps
 * (mtime, ctime, inode) in meta; while every stamp still matches, no session file was created, removed or renamed,
 * and only appends remain to be found, by a stat of the indexed files. Up to SWEEP_FILES files that is all of them
 * (exactly what a full walk finds); beyond, the most recently written ones (where pi appends) and a slice of the
 * others that moves on every check, so the cost stays bounded however many sessions there are. A check that finds
 * nothing writes nothing (the slice's place is kept in memory, and with the freshness stamp when that is written),
 * and a warm process reads the rows it stats from memory until the index changes.
 */
import { statSync } from "node:fs";
import type { SourceRoot } from "../shared/config.js";
import type { RefreshSummary } from "../shared/types.js";
import type { DirStamp, DiscoveredFile, Discovery } from "../source/discover.js";
import { binary } from "./event-identity.js";
import type { RefreshOptions } from "./refresh-options.js";
import type { KnownFile, RefreshPlan } from "./refresh-plan.js";
import type { IndexStore } from "./store.js";

/** Up to this many indexed files, a check stats every one: exactly what a walk finds. */
export const SWEEP_FILES = 4096;
/** A sweep of every indexed file, however many (RefreshOptions.everyFile). */
const SWEEP_ALL = 2 ** 31;

/** What decides which indexed files a quick check stats. */
export type QuickScope = Pick<RefreshOptions, "everyFile" | "sweepFiles" | "watched">;

/** The files a refresh's quick check stats at most. */
function sweepOf(options: QuickScope): number {
	return options.everyFile ? SWEEP_ALL : (options.sweepFiles ?? SWEEP_FILES);
}
/**
 * Beyond SWEEP_FILES, the files a check stats: a stat is a few microseconds, reading a row more, and this bounds a
 * warm check near 10 ms however large the history; appends to older sessions are found by the moving slice.
 */
const SAMPLE_FILES = 2048;
/** Of those, the most recently written files, checked every time. */
const HOT_FILES = 512;
/**
 * A directory changed this close to its listing may change again within the same timestamp tick (coarse file
 * system clocks, network file systems): its stamp proves nothing, and the next refresh lists it again.
 */
const RACY_MS = 2000;
const META_KEY = "dirStamps";
const CURSOR_KEY = "sweepCursor";

interface Stamps {
	roots: Array<{ path: string; kind: string; present: boolean }>;
	dirs: Array<[string, number, number, number]>;
	startedAt: number;
	files: number;
}

/** The stamps of a complete walk to keep for the next check, or "" when a stamp cannot vouch for it. */
export function stampsOf(found: Discovery): string {
	if (!found.plain || !found.dirs || found.startedAt === undefined) return "";
	const stamps: Stamps = {
		roots: found.observations.map((o) => ({ path: o.root.path, kind: o.root.kind, present: o.present })),
		dirs: found.dirs.map((d: DirStamp) => [d.path, d.mtimeMs, d.ctimeMs, d.ino]),
		startedAt: found.startedAt,
		files: found.files.length,
	};
	return JSON.stringify(stamps);
}

/** Forgets the stamps (a refresh that lists the directories writes new ones once it is complete). */
export function forgetStamps(store: IndexStore): void {
	store.setMeta(META_KEY, "");
}

/**
 * After a quick refresh, keeps the rows a warm check stats valid instead of reading them all again at the next check:
 * such a refresh changed no files row but the changed files' own, which are read again here. With more files than
 * the sweep, an append changes which files are the most recently written: those rows are read again at the next check.
 */
export function carryRows(store: IndexStore, plan: RefreshPlan): void {
	if (!plan.rowsRead) return;
	const changed = new Set(plan.changed.map((f) => f.path));
	store.carryCached<{ rows: Row[]; all: boolean }>(plan.rowsRead.key, plan.rowsRead.version, (fixed) => {
		if (changed.size === 0) return true;
		if (!fixed.all) return false;
		const read = store.prepare<[string], KnownFile>(`SELECT ${COLUMNS} FROM files WHERE path = ?`);
		for (const row of fixed.rows) {
			if (!changed.has(row.path)) continue;
			const now = read.get(row.path);
			if (!now || now.root_id !== row.root_id) return false;
			Object.assign(row, now);
		}
		return true;
	});
}

/** Keeps the stamps of a complete refresh, and where the moving slice goes on. */
export function keepStamps(store: IndexStore, plan: RefreshPlan): void {
	if (plan.stamps !== undefined) store.setMeta(META_KEY, plan.stamps);
	if (plan.sweepCursor !== undefined) store.setMeta(CURSOR_KEY, String(plan.sweepCursor));
}

function unchanged(path: string, mtimeMs: number, ctimeMs: number, ino: number): boolean {
	const st = statSync(path, { throwIfNoEntry: false });
	return st?.isDirectory() === true && st.mtimeMs === mtimeMs && st.ctimeMs === ctimeMs && st.ino === ino;
}

function rootPresent(path: string): boolean {
	return statSync(path, { throwIfNoEntry: false }) !== undefined;
}

type Row = KnownFile & { root: string };

/**
 * Where each open index's moving slice stands in this process: a check that finds nothing moves it on without
 * writing the index (a commit, and now and then a checkpoint, on every check); it is kept with the freshness stamp.
 */
const cursors = new WeakMap<IndexStore, number>();

/**
 * A fresh process starts the slice where the last stamp left it, moved on by one slice per this much time since
 * then: processes started one after the other (a command run again and again) do not all check the same files.
 */
const SLICE_STEP_MS = 1000;

/** Where this check's moving slice starts: after the id this process reached, or the kept one moved on with time. */
function sliceStart(store: IndexStore, sliceLength: number): number {
	const reached = cursors.get(store);
	if (reached !== undefined) return reached;
	const kept = Number(store.meta(CURSOR_KEY) ?? "0") || 0;
	const steps = Math.floor((Date.now() - Date.parse(store.meta("freshAt") ?? "")) / SLICE_STEP_MS);
	if (!(steps > 0)) return kept;
	// Ids are about dense (a removed file leaves a gap): a step of slice ids is about a slice of files.
	const maxId = store.prepare<[], number>("SELECT max(id) FROM files").pluck().get() ?? 0;
	return maxId > 0 ? (kept + steps * sliceLength) % maxId : 0;
}

/**
 * The rows every check of this index reads the same way while it is unchanged: all indexed files when they fit
 * the sweep, else the most recently written. Cached until the index changes, so a warm check reads no rows.
 */
function fixedRows(store: IndexStore, rootIds: Map<string, number>, sweep: number, walked: number): { rows: Row[]; all: boolean; key: string } {
	const ids = [...rootIds.values()].join(",");
	const key = `quickCheck:${ids}:${sweep}`;
	const fixed = store.cached(key, () => {
		const rootOf = new Map([...rootIds].map(([path, id]) => [id, path]));
		// The rows are this call's own objects: given their root in place rather than copied (thousands of them).
		const withRoot = (rows: KnownFile[]): Row[] => {
			for (const r of rows) (r as Row).root = rootOf.get(r.root_id as number) as string;
			return rows as Row[];
		};
		// The last walk found more files than the sweep (none came or went since, or the stamps would not match): no read
		// of thousands of rows to learn it. Else one read answers both whether all fit and, when they do, which they are.
		if (walked <= sweep) {
			const all = store.prepare<[number], KnownFile>(`SELECT ${columnsOf(ids)} LIMIT ?`).all(sweep + 1);
			if (all.length <= sweep) return { rows: withRoot(all), all: true };
		}
		const hot = Math.min(HOT_FILES, Math.floor(Math.min(sweep, SAMPLE_FILES) / 4));
		// The newest by id first, then their rows: sorting whole rows (paths) for the top costs several times more.
		const newest = `SELECT ${columnsOf(ids)} AND id IN (SELECT id FROM files WHERE root_id IN (${ids}) ORDER BY mtime_ms DESC LIMIT ?)`;
		return { rows: withRoot(store.prepare<[number], KnownFile>(newest).all(hot)), all: false };
	});
	return { ...fixed, key };
}

const COLUMNS = "id, path, size, mtime_ms, ctime_ms, ino, root_id";
const columnsOf = (ids: string) => `${COLUMNS} FROM files WHERE root_id IN (${ids})`;

/** The indexed files this check stats: all of them, or the hot ones and the next slice after the cursor. */
function filesToCheck(
	store: IndexStore,
	rootIds: Map<string, number>,
	sweep: number,
	walked: number,
): { rows: Row[]; cursor?: number; rowsRead: NonNullable<RefreshPlan["rowsRead"]> } {
	const fixed = fixedRows(store, rootIds, sweep, walked);
	const rowsRead = { key: fixed.key, version: store.cacheVersion() };
	if (fixed.all) return { rows: fixed.rows, rowsRead };
	const ids = [...rootIds.values()].join(",");
	const rootOf = new Map([...rootIds].map(([path, id]) => [id, path]));
	const length = Math.min(sweep, SAMPLE_FILES) - fixed.rows.length;
	const after = sliceStart(store, length);
	const slice = (from: number, n: number) =>
		store.prepare<[number, number], KnownFile>(`SELECT ${columnsOf(ids)} AND id > ? ORDER BY id LIMIT ?`).all(from, n) as Row[];
	let next = slice(after, length);
	if (next.length < length) next = next.concat(slice(0, length - next.length));
	const hot = new Set(fixed.rows.map((r) => r.id));
	next = next.filter((r) => !hot.has(r.id));
	for (const r of next) r.root = rootOf.get(r.root_id as number) as string;
	const cursor = next.at(-1)?.id ?? 0;
	cursors.set(store, cursor);
	return { rows: fixed.rows.concat(next), cursor, rowsRead };
}

/**
 * The plan of a refresh whose directories are as the last complete refresh listed them: the stat'ed files that
 * changed, nothing gone. Null when a full walk is needed (no stamps, roots or a directory changed, a file vanished).
 */
export function quickPlan(
	store: IndexStore,
	roots: SourceRoot[],
	priorityFiles: readonly string[],
	summary: RefreshSummary,
	scope: QuickScope = {},
): RefreshPlan | null {
	const text = store.meta(META_KEY);
	if (!text) return null;
	const stamps = JSON.parse(text) as Stamps;
	if (stamps.roots.length !== roots.length || stamps.roots.some((r, i) => r.path !== roots[i]?.path || r.kind !== roots[i]?.kind)) return null;
	for (const r of stamps.roots) if (rootPresent(r.path) !== r.present) return null;
	for (const [path, mtimeMs, ctimeMs, ino] of stamps.dirs) {
		if (mtimeMs > stamps.startedAt - RACY_MS || !unchanged(path, mtimeMs, ctimeMs, ino)) return null;
	}
	const rootIds = new Map<string, number>();
	for (const r of store.prepare<[], { id: number; path: string }>("SELECT id, path FROM roots").all())
		if (roots.some((root) => root.path === r.path)) rootIds.set(r.path, r.id);
	if (rootIds.size !== roots.filter((r) => stamps.roots.some((s) => s.path === r.path && s.present)).length) return null;
	// A watch of every folder the last walk listed saw every write since the last complete refresh: it named the
	// files to stat (the priority files), and no other file changed.
	const watch = scope.everyFile ? undefined : scope.watched;
	const watched = watch !== undefined && stamps.dirs.every(([path]) => watch.covers(path));
	const { rows, cursor, rowsRead } = watched
		? { rows: [] as Row[], cursor: undefined, rowsRead: undefined }
		: filesToCheck(store, rootIds, sweepOf(scope), stamps.files);
	const priority = new Set(priorityFiles);
	const unseen = new Set(priorityFiles);
	const changed: DiscoveredFile[] = [];
	const known = new Map<string, KnownFile>();
	// One stat per row and nothing else unless it changed: this loop is the check's cost.
	const check = (row: Row): boolean => {
		const st = statSync(row.path, { throwIfNoEntry: false });
		// Gone or replaced by something else under an unchanged directory stamp: let a full walk see it.
		if (!st?.isFile()) return false;
		if (st.size === row.size && st.mtimeMs === row.mtime_ms && st.ctimeMs === row.ctime_ms && st.ino === row.ino) return true;
		changed.push({ path: row.path, root: row.root, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino });
		known.set(row.path, row);
		return true;
	};
	for (const row of rows) {
		if (unseen.size > 0) unseen.delete(row.path);
		if (!check(row)) return null;
	}
	for (const path of unseen) {
		const row = store.prepare<[string], Row>("SELECT f.*, r.path AS root FROM files f JOIN roots r ON r.id = f.root_id WHERE f.path = ?").get(path);
		// The caller's own file not indexed yet (or outside the roots): a full walk decides.
		if (!row || !rootIds.has(row.root)) return null;
		if (!check(row)) return null;
	}
	summary.files = stamps.files;
	summary.quick = true;
	if (watched) summary.watched = true;
	changed.sort((a, b) => Number(priority.has(b.path)) - Number(priority.has(a.path)) || a.mtimeMs - b.mtimeMs || binary(a.path, b.path));
	const observations = roots.map((root) => ({ root, present: stamps.roots.some((s) => s.path === root.path && s.present), unreadable: [] }));
	return { files: [], observations, rootIds, known, changed, dropped: new Map(), quick: true, sweepCursor: cursor, rowsRead };
}
