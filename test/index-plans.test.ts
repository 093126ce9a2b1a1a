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
import { openStore } from "../src/index/store.js";
import { scratch } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-plans-");

const T0 = Date.parse("2026-01-01T00:00:00Z");

/** A linear session of `n` messages, a compaction after every 10th, a branch summary after every 25th, a label every 7th. */
function longSession(n: number): string {
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
		if (i % 10 === 9) push({ type: "compaction", id: id(), parentId: at, summary: `compacted ${i}`, firstKeptEntryId: before ?? at, tokensBefore: 1 });
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
			// A statement that asks for the whole session (classifying it as a whole) reads it by design.
			const wholeSession = (sql: string) => /WHERE (e\.)?session_id = \? ORDER BY/.test(sql);
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
});
