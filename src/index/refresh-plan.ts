/** What a refresh has to do: discover the files, record what was seen of each root, and decide which files changed. */
import type { SourceRoot } from "../shared/config.js";
import type { RefreshSummary } from "../shared/types.js";
import { type DiscoveredFile, type Discovery, discover, type RootObservation } from "../source/discover.js";
import { sameFingerprint } from "../source/fingerprint.js";
import { binary } from "./event-identity.js";
import { forgetStamps, type QuickScope, quickPlan, stampsOf } from "./quick-check.js";
import { type DroppedRoot, parseOwners, ROOT_OWNERS_KEY, type RootClaim, settleRoots } from "./root-owners.js";
import { removingSessions } from "./session-removal.js";
import { type IndexStore, isBusyError } from "./store.js";
import { pendingSummarySessions } from "./summary-runs.js";

/** A files row as discovery is compared with it. */
export interface KnownFile {
	id: number;
	path: string;
	size: number;
	mtime_ms: number;
	ctime_ms: number;
	ino: number;
	root_id: number | null;
}

/** What one refresh starts from: everything discovered, the indexed files, and the changed files in ingest order. */
export interface RefreshPlan {
	files: DiscoveredFile[];
	observations: RootObservation[];
	rootIds: Map<string, number>;
	known: Map<string, KnownFile>;
	changed: DiscoveredFile[];
	/** Roots no agent dir holds any more, by root id: their files leave the index (root-owners.ts). */
	dropped: Map<number, DroppedRoot & { kind: string }>;
	/** Made from directory stamps (quick-check.ts): `files` is empty and nothing can be gone. */
	quick?: boolean;
	/** The stamps of this plan's walk, kept once the refresh is complete ("" when they cannot vouch for it). */
	stamps?: string;
	/** Where the next quick check's moving slice of files starts. */
	sweepCursor?: number;
	/** The cached rows a quick check stat'ed from, and the index's cache version then (carryRows). */
	rowsRead?: { key: string; version: string };
}

/** The indexed files rows, by path: what discovery is compared with. */
function knownFiles(store: IndexStore): Map<string, KnownFile> {
	const rows = store.prepare<[], KnownFile>("SELECT id, path, size, mtime_ms, ctime_ms, ino, root_id FROM files").all();
	return new Map(rows.map((r) => [r.path, r]));
}

/** Discovered files whose fingerprint differs from the index (all of them with `full`). */
function changedFiles(files: DiscoveredFile[], known: Map<string, KnownFile>, full: boolean): DiscoveredFile[] {
	return full ? [...files] : files.filter((f) => !sameFingerprint(known.get(f.path), f));
}

/** Number of session files under `roots` that a refresh would read (a discovery pass, no parsing). */
export function countPending(store: IndexStore, roots: SourceRoot[]): number {
	// A session whose compaction still re-points older summaries (summary-runs.ts) is pending work too.
	// ... and so is a removed session whose rows are still being deleted (session-removal.ts).
	return changedFiles(discover(roots).files, knownFiles(store), false).length + pendingSummarySessions(store) + removingSessions(store).length;
}

function upsertRoots(store: IndexStore, observations: RootObservation[]): Map<string, number> {
	const ids = new Map<string, number>();
	const now = Date.now();
	for (const obs of observations) {
		store
			.prepare(
				"INSERT INTO roots (path, kind, present, observed_at) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET kind = excluded.kind, present = excluded.present, observed_at = excluded.observed_at",
			)
			.run(obs.root.path, obs.root.kind, obs.present ? 1 : 0, now);
		const row = store.prepare<[string], { id: number }>("SELECT id FROM roots WHERE path = ?").get(obs.root.path);
		if (row) ids.set(obs.root.path, row.id);
	}
	return ids;
}

/** The roots table's rows that `claim` leaves with no owner; with `write`, the settled owners are stored. */
export function droppedRoots(store: IndexStore, claim: RootClaim, write: boolean): Map<number, DroppedRoot & { kind: string }> {
	const rows = store.prepare<[], { id: number; path: string; kind: string }>("SELECT id, path, kind FROM roots ORDER BY id").all();
	const settled = settleRoots(
		rows.map((r) => r.path),
		parseOwners(store.meta(ROOT_OWNERS_KEY)),
		claim,
	);
	if (write) store.setMeta(ROOT_OWNERS_KEY, JSON.stringify(settled.owners));
	const dropped = new Map<number, DroppedRoot & { kind: string }>();
	for (const d of settled.dropped) {
		const row = rows.find((r) => r.path === d.path);
		if (row) dropped.set(row.id, { ...d, kind: row.kind });
	}
	return dropped;
}

/**
 * Discovers files (or takes `found`, a discovery just made) and decides which changed, noting problems in `summary`;
 * null when the refresh cannot start (read-only, busy).
 */
export function planRefresh(
	store: IndexStore,
	roots: SourceRoot[],
	full: boolean,
	priorityFiles: readonly string[],
	summary: RefreshSummary,
	found?: Discovery,
	claim?: RootClaim,
	scope?: QuickScope,
): RefreshPlan | null {
	if (store.readonly) {
		summary.notes.push("the index is open read-only; not refreshed");
		return null;
	}
	if (!full && !found) {
		const quick = quickPlan(store, roots, priorityFiles, summary, scope);
		if (quick) return quick;
	}
	const discovery = found ?? discover(roots);
	const { files, observations } = discovery;
	summary.files = files.length;
	for (const obs of observations) {
		if (!obs.present && obs.root.kind !== "default")
			summary.notes.push(`session dir ${obs.root.path} is not available (${obs.error ?? "missing"}); its sessions are kept`);
		for (const dir of obs.unreadable) summary.notes.push(`cannot list ${dir}; its sessions are kept as last indexed`);
	}
	const unreadable = JSON.stringify(observations.flatMap((o) => o.unreadable));
	let rootIds: Map<string, number>;
	let dropped = new Map<number, DroppedRoot & { kind: string }>();
	try {
		rootIds = store.db
			.transaction(() => {
				// status lists them until a refresh can read them again.
				store.setMeta("unreadableDirs", unreadable);
				// Until this refresh is complete, its files are not all indexed: no quick check may trust the old stamps.
				forgetStamps(store);
				const ids = upsertRoots(store, observations);
				// Read and written in this transaction: another agent dir sharing the index settles its own holds in turn.
				if (claim) dropped = droppedRoots(store, claim, true);
				return ids;
			})
			.immediate();
	} catch (error) {
		if (!isBusyError(error)) throw error;
		summary.busy = true;
		summary.notes.push("index busy: another process is writing it; searched what is indexed");
		return null;
	}
	const known = knownFiles(store);
	const changed = changedFiles(files, known, full);
	const priority = new Set(priorityFiles);
	// Oldest first, so event ids follow recency (session-writer.ts beginFile); the caller's own files before all.
	changed.sort((a, b) => Number(priority.has(b.path)) - Number(priority.has(a.path)) || a.mtimeMs - b.mtimeMs || binary(a.path, b.path));
	return { files, observations, rootIds, known, changed, dropped, stamps: stampsOf(discovery) };
}
