/**
 * No lookup of the index walks a whole session (issue 32 items 2 and 9): on a new index SQLite has no statistics,
 * and a lookup by two columns written as one OR was planned as a walk of the session's whole parent index, once per
 * compaction — quadratic in a session's entries. Every statement a sliced build of a long session with compactions,
 * branch summaries and labels compiled must find its rows by more than the session alone (or by rowid).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { refresh } from "../src/index/refresh.js";
import { SESSION_ROWS_SQL } from "../src/index/session-classify.js";
import { openStore } from "../src/index/store.js";
import { search } from "../src/query/search.js";
import { indexedCorpus } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-plans-");

const T0 = Date.parse("2026-01-01T00:00:00Z");

/** A linear session of `n` messages, a compaction after every 10th, a branch summary after every 25th, a label every 7th. */
function longSession(n: number, compactions = true): string {
	const lines: unknown[] = [{ type: "session", version: 3, id: "plans", timestamp: new Date(T0).toISOString(), cwd: "/plans" }];
	let counter = 0;
	const id = () => `e${(++counter).toString(16).padStart(6, "0")}`;
	const path: string[] = [];
	let prev = null as string | null;
	const push = (line: Record<string, unknown>) => {
		lines.push({ ...line, timestamp: new Date(T0 + counter * 1000).toISOString() });
		prev = line.id as string;
		path.push(prev);
	};
	for (let i = 0; i < n; i++) {
		const before = prev;
		const role = i % 2 === 0 ? "user" : "assistant";
		push({ type: "message", id: id(), parentId: prev, message: { role, content: [{ type: "text", text: `turn ${i} webhook` }], timestamp: T0 + i } });
		const at = prev as string;
		if (compactions && i % 10 === 9)
			push({ type: "compaction", id: id(), parentId: at, summary: `compacted ${i}`, firstKeptEntryId: before ?? at, tokensBefore: 1 });
		if (i % 25 === 24 && path.length > 6) push({ type: "branch_summary", id: id(), parentId: path[path.length - 6], fromId: prev, summary: `explored ${i}` });
		if (i % 7 === 6) push({ type: "label", id: id(), parentId: prev, targetId: at, label: `mark ${i}` });
	}
	return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

/** Values for a statement's parameters, positional or named: what they are does not change the plan's shape. */
function bindings(sql: string): unknown[] {
	const named = [...new Set([...sql.matchAll(/[:@$]([A-Za-z_]\w*)/g)].map((m) => m[1] as string))];
	if (named.length > 0) return [Object.fromEntries(named.map((k) => [k, "x"]))];
	return Array.from({ length: (sql.replace(/'[^']*'/g, "").match(/\?/g) ?? []).length }, () => "x");
}

describe("index lookups on a new index (issue 32 item 2)", () => {
	it("a sliced build of a long session with compactions never plans a lookup as a walk of the whole session", () => {
		const sessions = fresh("sessions");
		mkdirSync(sessions, { recursive: true });
		writeFileSync(join(sessions, "long.jsonl"), longSession(600));
		const index = join(dirname(sessions), "index.sqlite");
		const store = openStore(index);
		try {
			// Small slices: every slice after the first is an append, and each compaction in it is classified on its own.
			const summary = refresh(store, [{ path: sessions, kind: "extra" }], { sliceBytes: 4096, summaryRun: 64 });
			expect(summary.errors).toEqual([]);
			// Classifying a session as a whole reads its row ids from its index, by design.
			const wholeSession = (sql: string) => sql === SESSION_ROWS_SQL;
			const statements = store.preparedSql().filter((sql) => /\bFROM events\b|\bUPDATE events\b/.test(sql) && !wholeSession(sql));
			expect(statements.length).toBeGreaterThan(10);
			const walks: string[] = [];
			for (const sql of statements) {
				const plan = store.db
					.prepare(`EXPLAIN QUERY PLAN ${sql}`)
					.all(...bindings(sql))
					.map((r) => (r as { detail: string }).detail);
				// "(session_id=?)" alone walks every row of the session; a scan of events walks every row of the index.
				for (const step of plan) if (/^(SEARCH|SCAN) events\b.*\(session_id=\?\)$|^SCAN events\b(?!.*rowid)/.test(step)) walks.push(`${step} ← ${sql}`);
			}
			expect(walks).toEqual([]);
		} finally {
			store.close();
		}
		freshBuild(sessions, index);
	});

	it("rewinds with branch summaries, read in slices, are appends: the session is never classified again as a whole", () => {
		const sessions = fresh("sessions");
		mkdirSync(sessions, { recursive: true });
		writeFileSync(join(sessions, "rewinds.jsonl"), longSession(600, false));
		const index = join(dirname(sessions), "index.sqlite");
		const store = openStore(index);
		try {
			// Reclassifying the whole session at its last slice held one turn of pi's event loop for the session's size.
			const summary = refresh(store, [{ path: sessions, kind: "extra" }], { sliceBytes: 4096 });
			expect(summary.errors).toEqual([]);
			expect(summary.sessionsReclassified ?? 0).toBe(0);
		} finally {
			store.close();
		}
		freshBuild(sessions, index);
	});

	it("the recent events with no query (the explorer's first page) are read newest first, not by walking every session", () => {
		const c = indexedCorpus("pes-plans-recent-", { copy: false });
		try {
			// Statistics as the index of a 5 GB, 25,000-session history has them (pi-history's close runs optimize, which
			// analyzes): with them SQLite planned the listing as every session's events through the parent index, the
			// whole table (0.6 GB of pages, half a second).
			c.service.close();
			const store = openStore(c.indexPath);
			store.db.exec("ANALYZE");
			const stats: Array<[string, string, string]> = [
				["events", "events_filter", "1563767 1 1 1 1 1 1 1 1"],
				["events", "events_summarized", "285193 37 37"],
				["events", "events_label", "4915 1001"],
				["events", "events_ref", "14967 2 1"],
				["events", "events_tool_call", "594064 24 1"],
				["events", "events_parent", "1563767 61 1"],
				["events", "events_ts", "1563767 2"],
				["events", "sqlite_autoindex_events_1", "1563767 61 1"],
				["sessions", "sessions_cwd", "25149 667 9"],
				["sessions", "sessions_header", "25149 1"],
				["sessions", "sqlite_autoindex_sessions_2", "25149 1"],
				["sessions", "sqlite_autoindex_sessions_1", "25149 1"],
			];
			store.db.exec("DELETE FROM sqlite_stat1 WHERE tbl IN ('events', 'sessions')");
			const put = store.db.prepare("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)");
			for (const row of stats) put.run(...row);
			// Read again by the planner.
			store.db.exec("ANALYZE sqlite_schema");
			try {
				const answer = search(store, { query: "", limit: 30 });
				expect(answer.hits.length).toBe(30);
				const listing = store.preparedSql().filter((sql) => /WITH hits AS MATERIALIZED/.test(sql) && !/MATCH/.test(sql));
				expect(listing.length).toBe(1);
				const plan = store.db
					.prepare(`EXPLAIN QUERY PLAN ${listing[0]}`)
					.all(...bindings(listing[0] as string))
					.map((r) => (r as { detail: string }).detail);
				expect(plan.filter((step) => /^(SEARCH|SCAN) (e|sx)\b/.test(step))).toEqual([
					"SEARCH e USING INDEX events_ts (ts_ms>?)",
					"SEARCH sx USING INTEGER PRIMARY KEY (rowid=?)",
				]);
			} finally {
				store.close();
			}
		} finally {
			c.cleanup();
		}
	});
});
