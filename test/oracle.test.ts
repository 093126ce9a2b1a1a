/**
 * Selection state against pi's own code: buildSessionContext decides what the model sees (our `direct`), and
 * collectEntriesForBranchSummary decides what a branch summary describes (part of our `summarized`).
 */
import { join } from "node:path";
import { collectEntriesForBranchSummary, type SessionEntry, SessionManager } from "@mariozechner/pi-coding-agent";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IndexedCorpus, indexedCorpus, type Manifest } from "./helpers/corpus.js";
import { piContext } from "./helpers/oracle.js";

let indexed: IndexedCorpus;
let db: Database.Database;
let manifest: Manifest;
let corpus: string;

beforeAll(() => {
	indexed = indexedCorpus();
	({ corpus, manifest } = indexed);
	indexed.service.close();
	db = new Database(indexed.indexPath, { readonly: true });
});

afterAll(() => {
	db.close();
	indexed.cleanup();
});

type Row = { entry_id: string; selection_state: string; summarized_prov: string | null; branch_state: string };

function ourEvents(file: string): Row[] {
	return db
		.prepare(
			"SELECT e.entry_id, e.selection_state, e.summarized_prov, e.branch_state FROM events e JOIN sessions s ON s.id = e.session_id JOIN files f ON f.id = s.file_id WHERE f.path = ? ORDER BY e.seq",
		)
		.all(file) as Row[];
}

describe("selection state follows pi's buildSessionContext", () => {
	it("gives exactly pi's context entries `direct`, in every session of the corpus", () => {
		let sessions = 0;
		for (const f of manifest.files.filter((x) => x.isSession)) {
			const file = join(corpus, f.file);
			const { fileEntries, direct } = piContext(file);
			const ours = ourEvents(file);
			// v1 files: pi assigns random ids on migration, in file order; ours are synthetic, in the same order.
			const unique = [...new Map(fileEntries.map((e) => [e.id, e])).keys()];
			const toOurs = new Map(unique.map((id, i) => [id, (f.headerVersion === 1 ? ours[i]?.entry_id : id) as string]));
			const expected = [...direct].map((id) => toOurs.get(id)).sort();
			const actual = ours
				.filter((r) => r.selection_state === "direct")
				.map((r) => r.entry_id)
				.sort();
			expect(actual, f.file).toEqual(expected);
			sessions++;
		}
		expect(sessions).toBe(manifest.files.filter((x) => x.isSession).length);
	});

	it("marks selected-path entries a compaction replaced as summarized (recorded)", () => {
		let seen = 0;
		for (const f of manifest.files.filter((x) => x.isSession && x.headerVersion !== 1)) {
			const file = join(corpus, f.file);
			const { direct, excluded, path } = piContext(file);
			const producing = (e: SessionEntry) =>
				e.type === "message" ||
				e.type === "custom_message" ||
				e.type === "compaction" ||
				(e.type === "branch_summary" && Boolean((e as { summary?: string }).summary));
			const replaced = path.filter((e) => producing(e) && !direct.has(e.id) && !excluded.has(e.id)).map((e) => e.id);
			const ours = new Map(ourEvents(file).map((r) => [r.entry_id, r]));
			// In the context but dropped by convertToLlm (`!!` bash): on the path, never sent.
			for (const id of excluded) expect(ours.get(id)?.selection_state, `${f.file} ${id}`).toBe("omitted");
			for (const id of replaced) {
				expect(ours.get(id)?.selection_state, `${f.file} ${id}`).toBe("summarized");
				expect(ours.get(id)?.summarized_prov).toBe("recorded");
				seen++;
			}
		}
		expect(seen).toBeGreaterThan(0);
	});

	it("marks the abandoned branch each branch summary describes as summarized (derived), per pi's collectEntriesForBranchSummary", () => {
		let seen = 0;
		for (const f of manifest.files.filter((x) => x.isSession && x.headerVersion === 3)) {
			const file = join(corpus, f.file);
			const { fileEntries } = piContext(file);
			const summaries = fileEntries.map((e, i) => [e, i] as const).filter(([e]) => e.type === "branch_summary");
			if (summaries.length === 0) continue;
			const sm = SessionManager.open(file, join(indexed.dir, "unused-session-dir"));
			const ours = new Map(ourEvents(file).map((r) => [r.entry_id, r]));
			for (const [summary, i] of summaries) {
				const oldLeaf = fileEntries[i - 1] as SessionEntry;
				const { entries } = collectEntriesForBranchSummary(sm, oldLeaf.id, summary.parentId as string);
				for (const e of entries) {
					const row = ours.get(e.id);
					if (row?.branch_state !== "alternate") continue;
					const producing =
						e.type === "message" ||
						e.type === "custom_message" ||
						e.type === "compaction" ||
						(e.type === "branch_summary" && Boolean((e as { summary?: string }).summary));
					expect(row.selection_state, `${f.file} ${e.id}`).toBe(producing ? "summarized" : "not-applicable");
					if (producing) expect(row.summarized_prov).toBe("derived");
					seen++;
				}
			}
		}
		expect(seen).toBeGreaterThan(0);
	});
});
