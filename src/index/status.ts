/** What the index holds, counted from its own tables: sizes, counts, roots, unreadable files and id conflicts. */
import { statSync } from "node:fs";
import type { IndexStatus } from "../shared/types.js";
import { droppedRoots } from "./refresh-plan.js";
import { type DroppedRoot, droppedReason, ROOTS_DROPPED_KEY, type RootClaim } from "./root-owners.js";
import { SCHEMA_VERSION } from "./schema.js";
import type { IndexStore } from "./store.js";

/**
 * The index's status (DESIGN §5 `status`), naming `indexPath` as the index file people know; with `claim`, the roots
 * that agent dir's next refresh takes out say why (read only: nothing is written).
 */
export function indexStatus(s: IndexStore, indexPath: string, claim?: RootClaim): IndexStatus {
	// It reads every event and file row: through a write's small cache, as through the search map each page read
	// would count in the process's RSS (0.8 GB for a 5 GB history).
	return s.withSmallCache(() => statusOf(s, indexPath, claim));
}

function statusOf(s: IndexStore, indexPath: string, claim?: RootClaim): IndexStatus {
	const one = <T>(sql: string) => s.prepare<[], T>(sql).get() as T;
	const files = one<{ n: number; bytes: number | null }>("SELECT count(*) AS n, sum(CASE WHEN size > 0 THEN size ELSE 0 END) AS bytes FROM files");
	const errors = s
		.prepare<[], { path: string; note: string | null; status: string }>(
			"SELECT path, note, status FROM files WHERE status = 'error' OR note LIKE 'cannot read%' OR note LIKE '%last indexed state kept%' OR skipped_lines > 0 ORDER BY path",
		)
		.all()
		.map((r) => ({ file: r.path, error: r.note ?? r.status }));
	for (const dir of JSON.parse(s.meta("unreadableDirs") ?? "[]") as string[])
		errors.push({ file: dir, error: "cannot list this folder; its sessions are kept as last indexed" });
	const conflicts = s
		.prepare<[], { header_id: string; paths: string }>(
			"SELECT s.header_id, json_group_array(f.path) AS paths FROM sessions s JOIN files f ON f.id = s.file_id GROUP BY s.header_id HAVING count(*) > 1",
		)
		.all()
		.map((r) => ({
			sessionId: r.header_id,
			files: (JSON.parse(r.paths) as string[]).sort(),
			rule: "the file whose path sorts first keeps the id; the others are <id>~<8 hex of their path>",
		}));
	const notes = s
		.prepare<[], { path: string; note: string }>("SELECT path, note FROM files WHERE note LIKE '%different content%' ORDER BY path")
		.all()
		.map((r) => ({ file: r.path, note: r.note }));
	const leavingRoots = claim ? droppedRoots(s, claim, false) : new Map<number, DroppedRoot>();
	let indexBytes = 0;
	for (const suffix of ["", "-wal"]) {
		try {
			indexBytes += statSync(s.path + suffix).size;
		} catch {
			// no WAL
		}
	}
	const events = one<{ n: number; frags: number | null }>("SELECT count(*) AS n, sum(nfrags) AS frags FROM events");
	return {
		index: indexPath,
		sessions: one<{ n: number }>("SELECT count(*) AS n FROM sessions").n,
		events: events.n,
		fragments: events.frags ?? 0,
		files: files.n,
		sourceBytes: files.bytes ?? 0,
		indexBytes,
		freshAt: s.meta("freshAt"),
		roots: s
			.prepare<[], { id: number; path: string; kind: string; present: number }>("SELECT id, path, kind, present FROM roots ORDER BY id")
			.all()
			.map((r) => {
				const leaving = leavingRoots.get(r.id);
				return { path: r.path, kind: r.kind, present: r.present === 1, ...(leaving ? { leaving: droppedReason(leaving) } : {}) };
			}),
		...rootsDropped(s),
		errors,
		conflicts,
		...(notes.length ? { notes } : {}),
		schemaVersion: SCHEMA_VERSION,
	};
}

/** The roots the last refresh that dropped any took out (root-owners.ts), as status says them. */
function rootsDropped(s: IndexStore): Pick<IndexStatus, "rootsDropped"> {
	const value = s.meta(ROOTS_DROPPED_KEY);
	if (!value) return {};
	try {
		const parsed = JSON.parse(value) as { at: string; roots: Array<DroppedRoot & { kind: string; sessions: number }> };
		const roots = parsed.roots.map((r) => ({ path: r.path, kind: r.kind, reason: droppedReason(r), sessions: r.sessions }));
		return { rootsDropped: { at: parsed.at, roots } };
	} catch {
		return {};
	}
}
