import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseQuery } from "../src/query/query-parse.js";
import type { HistoryService } from "../src/service/service.js";
import { FRAGMENT_SLOTS } from "../src/shared/bounds.js";
import { type IndexedCorpus, indexedCorpus, KIND_OF, type Manifest, type Occurrence } from "./helpers/corpus.js";
import { expectEqualsFreshBuild } from "./helpers/dump.js";

let indexed: IndexedCorpus;
let corpus: string;
let indexPath: string;
let service: HistoryService;
let manifest: Manifest;
let db: Database.Database;

beforeAll(() => {
	indexed = indexedCorpus();
	({ corpus, indexPath, service, manifest } = indexed);
	db = new Database(indexPath, { readonly: true });
});

afterAll(() => {
	db.close();
	indexed.cleanup();
});

function eventFor(o: Occurrence): { id: number; entry_id: string } | undefined {
	const file = join(corpus, o.file);
	if (o.entryId !== null) {
		return db
			.prepare(
				"SELECT e.id, e.entry_id FROM events e JOIN sessions s ON s.id = e.session_id JOIN files f ON f.id = s.file_id WHERE f.path = ? AND e.entry_id = ?",
			)
			.get(file, o.entryId) as { id: number; entry_id: string } | undefined;
	}
	// v1 entries have no ids in the file: the manifest names the line.
	return db
		.prepare("SELECT e.id, e.entry_id FROM events e JOIN sessions s ON s.id = e.session_id JOIN files f ON f.id = s.file_id WHERE f.path = ? AND e.line = ?")
		.get(file, o.line) as { id: number; entry_id: string } | undefined;
}

function matchingKinds(eventId: number, text: string): string[] {
	const match = parseQuery(`"${text}"`).match as string;
	const frags = (db.prepare("SELECT frags FROM events WHERE id = ?").get(eventId) as { frags: string }).frags.split(" ");
	const rows = db
		.prepare("SELECT rowid FROM fts WHERE fts MATCH ? AND rowid BETWEEN ? AND ?")
		.all(match, eventId * FRAGMENT_SLOTS, eventId * FRAGMENT_SLOTS + FRAGMENT_SLOTS - 1) as Array<{
		rowid: number;
	}>;
	return rows.map((r) => (frags[r.rowid % FRAGMENT_SLOTS] as string).replace(/:.*$/, ""));
}

describe("ingest of the fixture corpus", () => {
	it("indexes every session file with the manifest's entries and materialized leaf", () => {
		const sessions = manifest.files.filter((f) => f.isSession);
		const status = service.status();
		expect(status.sessions).toBe(sessions.length);
		expect(status.files).toBe(manifest.files.length);
		expect(status.events).toBe(sessions.reduce((n, f) => n + f.entries, 0));
		for (const f of sessions) {
			const row = db
				.prepare("SELECT s.entries, s.leaf_entry, s.header_id FROM sessions s JOIN files fl ON fl.id = s.file_id WHERE fl.path = ?")
				.get(join(corpus, f.file)) as { entries: number; leaf_entry: string; header_id: string } | undefined;
			expect(row, f.file).toBeDefined();
			expect(row?.entries, f.file).toBe(f.entries);
			expect(row?.header_id).toBe(f.sessionId);
			// v1 files get synthetic ids; pi's own ids for them are random until it migrates the file.
			if (f.headerVersion !== 1) expect(row?.leaf_entry, f.file).toBe(f.leafIdOnLoad);
		}
	});

	it("holds every `found` needle as a fragment of the right event and kind", () => {
		let checked = 0;
		for (const needle of manifest.needles.filter((n) => n.expect === "found")) {
			for (const o of needle.occurrences.filter((x) => x.searchable && KIND_OF[x.kind])) {
				const ev = eventFor(o);
				expect(ev, `${needle.id} ${o.file}:${o.line}`).toBeDefined();
				expect(matchingKinds(ev?.id ?? -1, needle.text), `${needle.id} ${needle.plantedAs} ${o.kind}`).toContain(KIND_OF[o.kind]);
				checked++;
			}
		}
		expect(checked).toBeGreaterThan(50);
	});

	it("holds no `not_found` needle anywhere (thinking, custom data, damaged lines, non-session files)", () => {
		const absent = manifest.needles.filter((n) => n.expect === "not_found");
		expect(absent.length).toBeGreaterThan(5);
		for (const needle of absent) {
			const match = parseQuery(`"${needle.text}"`).match as string;
			const rows = db.prepare("SELECT rowid FROM fts WHERE fts MATCH ?").all(match);
			expect(rows, `${needle.id} ${needle.plantedAs}`).toEqual([]);
		}
	});

	it("keeps label text out of the searchable text and on the label events", () => {
		for (const needle of manifest.needles.filter((n) => n.plantedAs.startsWith("label"))) {
			const match = parseQuery(`"${needle.text}"`).match as string;
			expect(db.prepare("SELECT rowid FROM fts WHERE fts MATCH ?").all(match)).toEqual([]);
			for (const o of needle.occurrences) {
				const row = db
					.prepare("SELECT e.label FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.header_id = ? AND e.entry_id = ?")
					.get(o.sessionId, o.entryId) as { label: string };
				expect(row.label).toBe(needle.text);
			}
		}
	});

	it("resolves parent sessions by file name when the recorded path no longer exists (moved folders, --path-root)", () => {
		let checked = 0;
		for (const f of manifest.files.filter((x) => x.isSession)) {
			const row = db
				.prepare(
					"SELECT s.parent_path, p.path AS parent_file FROM sessions s JOIN files fl ON fl.id = s.file_id LEFT JOIN sessions ps ON ps.id = s.parent_session LEFT JOIN files p ON p.id = ps.file_id WHERE fl.path = ?",
				)
				.get(join(corpus, f.file)) as { parent_path: string | null; parent_file: string | null };
			if (f.parentSessionRel) {
				expect(existsSync(row.parent_path as string), "the recorded path is from another machine").toBe(false);
				expect(row.parent_file, f.file).toBe(join(corpus, f.parentSessionRel));
				checked++;
			} else {
				// No parent, or one that is not in the corpus at all (a v1 branchedFrom to a file never written).
				expect(row.parent_file).toBeNull();
			}
		}
		expect(checked).toBeGreaterThan(5);
	});

	it("collapses pi's duplicated header and entries, and skips torn and malformed lines", () => {
		const dup = manifest.files.find((f) => f.quirks.some((q) => q.startsWith("duplicate-header")));
		const torn = manifest.files.find((f) => f.quirks.some((q) => q.startsWith("truncated-last-line")));
		expect(dup && torn).toBeTruthy();
		const fileRow = (f: { file: string }) =>
			db
				.prepare("SELECT f.duplicate_entries, f.indexed_bytes, f.note, s.entries FROM files f JOIN sessions s ON s.file_id = f.id WHERE f.path = ?")
				.get(join(corpus, f.file)) as {
				duplicate_entries: number;
				indexed_bytes: number;
				note: string | null;
				entries: number;
			};
		// The second header line is ignored; the session is indexed once with the manifest's entries.
		expect(
			readFileSync(join(corpus, (dup as { file: string }).file), "utf8")
				.split("\n")
				.filter((l) => l.includes('"type":"session"')).length,
		).toBe(2);
		expect(fileRow(dup as { file: string }).entries).toBe((dup as { entries: number }).entries);
		const tornBytes = readFileSync(join(corpus, (torn as { file: string }).file));
		expect(fileRow(torn as { file: string }).indexed_bytes).toBe(tornBytes.lastIndexOf(10) + 1);
	});
});

describe("incremental refresh", () => {
	it("touches nothing when nothing changed and ingests exactly one appended line", () => {
		const again = service.refresh();
		expect(again).toMatchObject({ filesChanged: 0, linesIngested: 0, sessionsAdded: 0, sessionsAppended: 0, sessionsRebuilt: 0 });

		const target = manifest.files.find((f) => f.isSession && f.headerVersion === 3 && f.quirks.length === 0) as Manifest["files"][number];
		const file = join(corpus, target.file);
		const line = JSON.stringify({
			type: "message",
			id: "feedf00d",
			parentId: target.leafIdOnLoad,
			timestamp: "2026-11-30T00:00:00.000Z",
			message: { role: "user", content: [{ type: "text", text: "appended turn mentions zephyr-quokka-424242" }], timestamp: 1796000000000 },
		});
		appendFileSync(file, `${line}\n`);
		const after = service.refresh();
		expect(after).toMatchObject({ filesChanged: 1, linesIngested: 1, eventsIngested: 1, sessionsAppended: 1, sessionsRebuilt: 0 });
		const hits = service.search({ query: "zephyr-quokka-424242" }).hits;
		expect(hits.map((h) => [h.sessionId, h.entryId, h.branchState])).toEqual([[target.sessionId, "feedf00d", "selected"]]);
	});

	it("rebuilds a file that pi rewrote in place (migration) and equals a fresh build", () => {
		const v1 = manifest.files.find((f) => f.headerVersion === 1) as Manifest["files"][number];
		const file = join(corpus, v1.file);
		// What pi's migration does: ids appended to every entry, version 3 in the header.
		const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
		let prev: string | null = null;
		const migrated = lines.map((l, i) => {
			const o = JSON.parse(l);
			if (i === 0) return JSON.stringify({ ...o, version: 3 });
			const id = `m${String(i).padStart(7, "0")}`;
			const out = JSON.stringify({ ...o, id, parentId: prev });
			prev = id;
			return out;
		});
		writeFileSync(file, `${migrated.join("\n")}\n`);
		const summary = service.refresh();
		expect(summary.sessionsRebuilt).toBe(1);
		expectEqualsFreshBuild(corpus, indexPath, join(indexed.dir, "fresh.sqlite"));
	});
});
