/**
 * The FTS5 trigram peer (DESIGN §7, issue 16 item 1), measured in a child of its own: what hermes-style indexes and
 * session-search-lite build, over the same fragments our index holds (same files, same projection, same I20
 * window), so a user choosing between the two compares like with like.
 *   trigram-worker.js --peer P --index OURS --roots A,B [--runs N]
 * It builds P from scratch (timed: parse + project + insert, as our cold index is), runs the query mix on it, then
 * measures recall on the needles (bench/vocabulary.ts NEEDLES) for the peer and for our index through
 * HistoryService, against a ground truth computed here from the fragment text (on a sample of sessions).
 * The peer's SQL lives here: the bench is not part of src's layering, and the peer is not our index.
 */
import { closeSync, openSync, rmSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { boundFragment, OWN_TOOLS, projectEntry } from "../src/project/entry.js";
import { HistoryService } from "../src/service/service.js";
import { discover } from "../src/source/discover.js";
import { completeLines } from "../src/source/lines.js";
import { SessionParser } from "../src/source/parse.js";
import { benchConfig, maxRssBytes, median, parseArgs, percentile, report } from "./child.js";
import type { NeedleResult } from "./results.js";
import { NEEDLES, type Needle, QUERY_MIX } from "./vocabulary.js";

const { options } = parseArgs(process.argv.slice(2));
const peerPath = options.get("peer");
const ourIndex = options.get("index");
const roots = (options.get("roots") ?? "").split(",").filter(Boolean);
const runs = Number(options.get("runs") ?? "20");
if (!peerPath || !ourIndex || roots.length === 0) {
	process.stderr.write("usage: trigram-worker.js --peer PATH --index OURS --roots DIR[,DIR] [--runs N]\n");
	process.exit(2);
}

/** Rows per transaction: large enough that commits do not dominate, as a peer tuned for bulk loads would do. */
const BATCH_ROWS = 5000;
/**
 * Recall is scored on the truth's events in at most this many sessions (evenly spaced in path order): ours are
 * listed per session (every hit, 50 per page, the service's maximum), so the cost stays bounded on the large size.
 */
const SAMPLE_SESSIONS = 40;

for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(peerPath + suffix, { force: true });
const db = new Database(peerPath);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
// The peer keeps what it needs to answer the mix's filters (cwd, kind) and to name an event (file, entry id).
db.exec(`
CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL, cwd TEXT NOT NULL);
CREATE TABLE frag (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, entry_id TEXT NOT NULL, kind TEXT NOT NULL, ts INTEGER);
CREATE VIRTUAL TABLE t USING fts5(text, tokenize='trigram');
`);
const insFile = db.prepare<[number, string, string]>("INSERT INTO files (id, path, cwd) VALUES (?, ?, ?)");
const insFrag = db.prepare<[number, number, string, string, number | null]>("INSERT INTO frag (id, file_id, entry_id, kind, ts) VALUES (?, ?, ?, ?, ?)");
const insText = db.prepare<[number, string]>("INSERT INTO t (rowid, text) VALUES (?, ?)");

// ---- build (timed) -------------------------------------------------------------------------------------------
const started = performance.now();
const cpuStart = process.cpuUsage();
let fileId = 0;
let fragId = 0;
let events = 0;
let pending = 0;
db.exec("BEGIN");
for (const file of discover(benchConfig(roots).roots).files) {
	const fd = openSync(file.path, "r");
	try {
		const parser = new SessionParser();
		const seen = new Set<string>();
		let cwd: string | null = null;
		const id = ++fileId;
		for (const line of completeLines(fd)) {
			const outcome = parser.accept(line);
			if (outcome.kind === "header") {
				cwd = outcome.header.cwd;
				insFile.run(id, file.path, cwd);
				continue;
			}
			if (outcome.kind !== "entry" || cwd === null || seen.has(outcome.entry.id)) continue;
			seen.add(outcome.entry.id);
			const ev = projectEntry(outcome.entry, cwd);
			// The same fragments our index holds: results of our own tools are not indexed (file-scan.ts).
			if (ev.role === "toolResult" && OWN_TOOLS.has(ev.toolName ?? "")) continue;
			events++;
			for (const fragment of ev.fragments) {
				const { head, tail, omitted } = boundFragment(fragment.text);
				const id2 = ++fragId;
				insFrag.run(id2, id, ev.entryId, fragment.kind, ev.tsMs);
				insText.run(id2, omitted ? `${head}\n${tail}` : head);
				if (++pending >= BATCH_ROWS) {
					db.exec("COMMIT; BEGIN");
					pending = 0;
				}
			}
		}
	} finally {
		closeSync(fd);
	}
}
db.exec("COMMIT");
const buildMs = performance.now() - started;
const cpu = process.cpuUsage(cpuStart);
const buildRss = maxRssBytes();
db.pragma("wal_checkpoint(TRUNCATE)");
const bytes = statSync(peerPath).size;
/** Bytes of the table's stored text (the trigram table keeps it; ours goes back to the source files). */
let contentBytes: number | null = null;
try {
	contentBytes = (db.prepare("SELECT sum(pgsize) AS n FROM dbstat WHERE name = 't_content'").get() as { n: number | null }).n;
} catch {
	// dbstat is optional in SQLite builds
}

// ---- query mix -----------------------------------------------------------------------------------------------
function stats(values: number[]) {
	return { p50: percentile(values, 50), p95: percentile(values, 95), max: Math.max(...values), first: values[0] ?? Number.NaN, runs: values.length };
}

/** The mix as the peer answers it, ranked by bm25 (`rank`) or newest first (what hermes-style tools do). */
function runMix(order: "rank" | "time") {
	return QUERY_MIX.map((q) => {
		const where: string[] = ["t MATCH ?"];
		const params: unknown[] = [q.trigram.match];
		if (q.filters?.kinds?.length) {
			where.push(`f.kind IN (${q.filters.kinds.map(() => "?").join(", ")})`);
			params.push(...q.filters.kinds);
		}
		if (q.filters?.cwds?.length) {
			// Our cwd filter includes the cwd's subtree: the peer is asked the same.
			where.push(`(${q.filters.cwds.map(() => "(fi.cwd = ? OR fi.cwd LIKE ? || '/%')").join(" OR ")})`);
			for (const c of q.filters.cwds) params.push(c, c);
		}
		const orderBy = order === "rank" ? "t.rank" : "f.ts DESC";
		const sql = `SELECT f.id, fi.path, f.entry_id FROM t JOIN frag f ON f.id = t.rowid JOIN files fi ON fi.id = f.file_id
		WHERE ${where.join(" AND ")} ORDER BY ${orderBy} LIMIT 10`;
		const stmt = db.prepare(sql);
		const times: number[] = [];
		let hits = 0;
		for (let i = 0; i < runs; i++) {
			const t0 = performance.now();
			hits = stmt.all(...params).length;
			times.push(performance.now() - t0);
		}
		return { name: q.name, match: q.trigram.match, unsupported: q.trigram.unsupported ?? null, hits, ...stats(times) };
	});
}
const mix = runMix("rank");
const mixByTime = runMix("time");

function timeOf(run: () => unknown): number {
	const t0 = performance.now();
	run();
	return performance.now() - t0;
}

// ---- recall on the needles -----------------------------------------------------------------------------------
const WORD = /[A-Za-z0-9]+/g;
const CAMEL = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

/** Ground truth for one fragment text, written for the bench (not our tokenizer): see Needle in vocabulary.ts. */
function contains(text: string, needle: Needle): boolean {
	if (needle.truth === "substring") return text.includes(needle.text);
	const want = needle.text.toLowerCase();
	const lower = text.toLowerCase();
	if (!lower.includes(want)) return false;
	for (const word of text.match(WORD) ?? []) {
		for (const piece of [word, ...word.split(CAMEL)]) {
			const p = piece.toLowerCase();
			if (needle.truth === "word" ? p === want : p.startsWith(want)) return true;
		}
	}
	return false;
}

/**
 * How the peer answers a needle: a trigram MATCH for ≥ 3 characters, else LIKE (a scan of the stored text); `top`
 * is the query a user waits for (ten by rank, or the ten newest for LIKE, which has no rank).
 */
function peerQuery(needle: Needle): { all: string; top: string; param: string; how: string } {
	const short = [...needle.text].length < 3;
	return short
		? {
				all: "SELECT rowid FROM t WHERE text LIKE ?",
				top: "SELECT rowid FROM t WHERE text LIKE ? ORDER BY rowid DESC LIMIT 10",
				param: `%${needle.text}%`,
				how: "LIKE (scan)",
			}
		: {
				all: "SELECT rowid FROM t WHERE t MATCH ?",
				top: "SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT 10",
				param: `"${needle.text}"`,
				how: "MATCH substring",
			};
}

const keyOf = db.prepare<[number], { path: string; entry_id: string }>(
	"SELECT fi.path, f.entry_id FROM frag f JOIN files fi ON fi.id = f.file_id WHERE f.id = ?",
);
const truth = NEEDLES.map(() => new Set<string>());
for (const row of db.prepare("SELECT rowid AS id, text FROM t").iterate() as Iterable<{ id: number; text: string }>) {
	let key: string | undefined;
	NEEDLES.forEach((needle, i) => {
		if (!contains(row.text, needle)) return;
		if (key === undefined) {
			const k = keyOf.get(row.id) as { path: string; entry_id: string };
			key = `${k.path}\t${k.entry_id}`;
		}
		(truth[i] as Set<string>).add(key);
	});
}

const service = HistoryService.open({ config: benchConfig(roots, ourIndex) });
// Our session ids by file, to list a session's hits with the sessionIds filter (read from our index's catalog).
const ours = new Database(ourIndex, { readonly: true });
const sessionOf = new Map(
	(ours.prepare("SELECT f.path, s.public_id FROM sessions s JOIN files f ON f.id = s.file_id").all() as Array<{ path: string; public_id: string }>).map((r) => [
		r.path,
		r.public_id,
	]),
);
ours.close();
const fileOfKey = (key: string) => key.slice(0, key.indexOf("\t"));
const needles: NeedleResult[] = NEEDLES.map((needle, i) => {
	const all = truth[i] as Set<string>;
	const files = [...new Set([...all].map(fileOfKey))].sort();
	const step = Math.max(1, files.length / SAMPLE_SESSIONS);
	const sampled = new Set(Array.from({ length: Math.min(files.length, SAMPLE_SESSIONS) }, (_, k) => files[Math.floor(k * step)] as string));
	const want = new Set([...all].filter((k) => sampled.has(fileOfKey(k))));
	const score = (found: Set<string>) => {
		let hit = 0;
		let extra = 0;
		for (const k of found) {
			if (!sampled.has(fileOfKey(k))) continue;
			if (want.has(k)) hit++;
			else extra++;
		}
		return { found: hit + extra, recall: want.size ? hit / want.size : Number.NaN, extra };
	};
	const pq = peerQuery(needle);
	const peerFound = new Set<string>();
	for (const r of db.prepare(pq.all).all(pq.param) as Array<{ rowid: number }>) {
		const k = keyOf.get(r.rowid) as { path: string; entry_id: string };
		peerFound.add(`${k.path}\t${k.entry_id}`);
	}
	const ourFound = new Set<string>();
	for (const file of sampled) {
		const sessionId = sessionOf.get(file);
		if (!sessionId) continue;
		for (let offset = 0; ; offset += 50) {
			const page = service.search({ query: needle.text, prefix: needle.truth === "prefix", filters: { sessionIds: [sessionId] }, limit: 50, offset });
			for (const h of page.hits) ourFound.add(`${h.session.file}\t${h.entryId}`);
			if (page.hits.length < 50) break;
		}
	}
	// The wait for the first ten, as each side would answer a person.
	const top = db.prepare(pq.top);
	const peerMs = median(Array.from({ length: 5 }, () => timeOf(() => top.all(pq.param))));
	const ourMs = median(Array.from({ length: 5 }, () => timeOf(() => service.search({ query: needle.text, prefix: needle.truth === "prefix", limit: 10 }))));
	return {
		label: needle.label,
		truth: all.size,
		sampled: want.size,
		sessions: sampled.size,
		peerHow: pq.how,
		peer: { ...score(peerFound), ms: peerMs },
		ours: { ...score(ourFound), ms: ourMs },
	};
});
service.close();
db.close();

report("trigram", {
	buildMs,
	cpuMs: (cpu.user + cpu.system) / 1000,
	buildRssBytes: buildRss,
	files: fileId,
	events,
	fragments: fragId,
	bytes,
	contentBytes,
	mix,
	mixByTime,
	needles,
});
