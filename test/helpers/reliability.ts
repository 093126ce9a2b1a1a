/** Shared parts of the reliability tests (test/reliability-*.test.ts): a scratch area, index invariants, file lists. */
import { cpSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect } from "vitest";
import { FRAGMENT_SLOTS } from "../../src/shared/bounds.js";
import { CORPUS_DIR, tempDir } from "./corpus.js";
import { expectEqualsFreshBuild as equalsFreshBuild } from "./dump.js";

/** A scratch directory for one test file: `fresh(name)` gives a new path inside it; `cleanups` run at the end. */
export function scratch(prefix: string): {
	fresh: (name: string) => string;
	freshBuild: (sessions: string, index: string) => void;
	cleanups: Array<() => void>;
} {
	let tmp: ReturnType<typeof tempDir> | undefined;
	let counter = 0;
	const cleanups: Array<() => void> = [];
	beforeAll(() => {
		tmp = tempDir(prefix);
	});
	afterAll(() => {
		for (const c of cleanups.splice(0)) c();
		tmp?.cleanup();
	});
	const dir = () => {
		if (!tmp) throw new Error("scratch used outside a test");
		return tmp.dir;
	};
	return {
		fresh: (name) => join(dir(), `w${counter++}`, name),
		// Asserts that `index` holds exactly what a fresh full build of `sessions` holds.
		freshBuild: (sessions, index) => equalsFreshBuild(sessions, index, join(dir(), `fresh-${counter++}.sqlite`)),
		cleanups,
	};
}

/**
 * Copies the fixture corpus leaving out session files over `maxBytes` (the few big ones hold most of the corpus's
 * 340,000 indexed tokens): the refresh machinery under test does not depend on file size, and every comparison with
 * a fresh build dumps every token of both indexes.
 */
export function copySmallCorpus(target: string, maxBytes = 100_000): string {
	cpSync(CORPUS_DIR, target, { recursive: true, filter: (src) => !(src.endsWith(".jsonl") && statSync(src).size > maxBytes) });
	mkdirSync(target, { recursive: true });
	return target;
}

/** Our own invariants over an index file: every row hangs off a session and the counts agree. */
export function checkInvariants(index: string, deep = true): void {
	const db = new Database(index, { readonly: true });
	try {
		expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
		// Rows without a session only of a removed session whose rows are still being deleted (session-removal.ts).
		const orphanEvents = db
			.prepare(
				"SELECT count(*) AS n FROM events e LEFT JOIN sessions s ON s.id = e.session_id WHERE s.id IS NULL AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'removing:' || e.session_id)",
			)
			.get() as { n: number };
		expect(orphanEvents.n).toBe(0);
		const counts = db.prepare("SELECT s.id, s.entries, (SELECT count(*) FROM events e WHERE e.session_id = s.id) AS n FROM sessions s").all() as Array<{
			entries: number;
			n: number;
		}>;
		for (const c of counts) expect(c.n).toBe(c.entries);
		const orphanCalls = db.prepare("SELECT count(*) AS n FROM tool_calls t LEFT JOIN events e ON e.id = t.event_id WHERE e.id IS NULL").get() as { n: number };
		expect(orphanCalls.n).toBe(0);
		const sessionsWithoutFile = db.prepare("SELECT count(*) AS n FROM sessions s LEFT JOIN files f ON f.id = s.file_id WHERE f.id IS NULL").get() as {
			n: number;
		};
		expect(sessionsWithoutFile.n).toBe(0);
		const fts = new Database(index);
		try {
			// FTS5's own check of its index structures.
			fts.exec("INSERT INTO fts(fts) VALUES ('integrity-check')");
		} finally {
			fts.close();
		}
		if (!deep) return;
		db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, fts, 'instance')");
		const strayTokens = db
			.prepare(
				`SELECT count(*) AS n FROM temp.v v LEFT JOIN events e ON e.id = v.doc / ${FRAGMENT_SLOTS} WHERE e.id IS NULL OR v.doc % ${FRAGMENT_SLOTS} >= e.nfrags`,
			)
			.get() as { n: number };
		expect(strayTokens.n).toBe(0);
	} finally {
		db.close();
	}
}

/** Every .jsonl file under `dir`, sorted. */
export function sessionFiles(dir: string): string[] {
	const out: string[] = [];
	const walk = (d: string) => {
		for (const e of readdirSync(d, { withFileTypes: true })) {
			if (e.isDirectory()) walk(join(d, e.name));
			else if (e.name.endsWith(".jsonl")) out.push(join(d, e.name));
		}
	};
	walk(dir);
	return out.sort();
}
