/** What the index holds, counted from its own tables: sizes, counts, roots, unreadable files and id conflicts. */
import { statSync } from "node:fs";
import type { IndexStatus } from "../shared/types.js";
import { SCHEMA_VERSION } from "./schema.js";
import type { IndexStore } from "./store.js";

/** The index's status (DESIGN §5 `status`), naming `indexPath` as the index file people know. */
export function indexStatus(s: IndexStore, indexPath: string): IndexStatus {
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
	let indexBytes = 0;
	for (const suffix of ["", "-wal"]) {
		try {
			indexBytes += statSync(s.path + suffix).size;
		} catch {
			// no WAL
		}
	}
	return {
		index: indexPath,
		sessions: one<{ n: number }>("SELECT count(*) AS n FROM sessions").n,
		events: one<{ n: number }>("SELECT count(*) AS n FROM events").n,
		fragments: one<{ n: number | null }>("SELECT sum(nfrags) AS n FROM events").n ?? 0,
		files: files.n,
		sourceBytes: files.bytes ?? 0,
		indexBytes,
		freshAt: s.meta("freshAt"),
		roots: s
			.prepare<[], { path: string; kind: string; present: number }>("SELECT path, kind, present FROM roots ORDER BY id")
			.all()
			.map((r) => ({ path: r.path, kind: r.kind, present: r.present === 1 })),
		errors,
		conflicts,
		...(notes.length ? { notes } : {}),
		schemaVersion: SCHEMA_VERSION,
	};
}
