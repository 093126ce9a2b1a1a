/**
 * The cold index's two biggest parts measured apart, in one process: scanning every file as the indexer does (read,
 * parse, project, tokenize: src/project/file-scan.ts), and FTS5 alone writing the same token streams into a bare
 * table of the index's full-text schema, merged whole at the end as a bulk build merges. DESIGN §7 bounds the whole
 * cold index by a multiple of the parse floor; these say how much of that multiple two parts take by themselves.
 *   node dist/bench/cold-parts.js ROOT...
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { BATCH_BYTES } from "../src/index/refresh-options.js";
import { FTS_SQL, KIND_COLUMN_INDEX, KIND_COLUMNS } from "../src/index/schema.js";
import { scanFile } from "../src/project/file-scan.js";
import { FRAGMENT_SLOTS } from "../src/shared/bounds.js";
import { discover } from "../src/source/discover.js";
import { benchConfig, report } from "./child.js";

const roots = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), "pes-cold-parts-"));
const db = new Database(join(dir, "fts.sqlite"));
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.exec(FTS_SQL);
// As a bulk build holds merges (src/index/bulk-merge.ts) and merges once at its end.
db.exec("INSERT INTO fts(fts, rank) VALUES ('automerge', 0); INSERT INTO fts(fts, rank) VALUES ('crisismerge', 1000)");
const insert = KIND_COLUMNS.map((c) => db.prepare(`INSERT INTO fts(rowid, ${c.column}) VALUES (?, ?)`));

// Oldest first, as a refresh reads them (src/index/refresh-plan.ts): row ids then grow as FTS5 wants them to.
const files = discover(benchConfig(roots).roots).files.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
let scanMs = 0;
let ftsMs = 0;
let scanCpu = 0;
let ftsCpu = 0;
let eventId = 0;
let fragments = 0;
let streamBytes = 0;
let batched = 0;
const clock = () => [performance.now(), process.cpuUsage()] as const;
const since = ([ms, cpu]: ReturnType<typeof clock>) => {
	const used = process.cpuUsage(cpu);
	return [performance.now() - ms, (used.user + used.system) / 1000] as const;
};
for (const file of files) {
	const scanStart = clock();
	const scanned = scanFile({ path: file.path, mode: "rebuild" });
	const [sm, sc] = since(scanStart);
	scanMs += sm;
	scanCpu += sc;
	const ftsStart = clock();
	// One transaction per BATCH_BYTES of files, as a refresh commits: FTS5 flushes a segment at every commit.
	if (!db.inTransaction) db.exec("BEGIN");
	for (const entry of scanned.entries) {
		eventId++;
		entry.fts.forEach((f, position) => {
			// System prompt sections go to their own table, once per distinct text (src/index/system-texts.ts).
			if (f.kind === "system.prompt") return;
			(insert[KIND_COLUMN_INDEX.get(f.kind) as number] as Database.Statement).run(eventId * FRAGMENT_SLOTS + position, f.text);
			fragments++;
			streamBytes += f.text.length;
		});
	}
	batched += file.size;
	if (batched >= BATCH_BYTES) {
		db.exec("COMMIT");
		batched = 0;
	}
	const [fm, fc] = since(ftsStart);
	ftsMs += fm;
	ftsCpu += fc;
}
if (db.inTransaction) {
	const commitStart = clock();
	db.exec("COMMIT");
	const [fm, fc] = since(commitStart);
	ftsMs += fm;
	ftsCpu += fc;
}
const mergeStart = clock();
db.exec("INSERT INTO fts(fts) VALUES ('optimize')");
const [mergeMs, mergeCpu] = since(mergeStart);
db.close();
rmSync(dir, { recursive: true, force: true });
report("coldParts", {
	files: files.length,
	events: eventId,
	fragments,
	streamBytes,
	scanMs,
	scanCpuMs: scanCpu,
	ftsMs,
	ftsCpuMs: ftsCpu,
	mergeMs,
	mergeCpuMs: mergeCpu,
});
