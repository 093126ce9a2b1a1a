/**
 * A whole session classified from its rows as numbers (session-classify.ts, issue 32 item 2): links resolved to row
 * ids by SQLite, also to entries appended later (an earlier entry naming a later one), to none (a missing parent, two
 * entries naming it: a fork point), to the entry itself, and around a parent cycle. The session's rows are split by
 * another session's rows between refreshes, and one session is longer than a read stretch. Hand-checked states, and
 * each refresh equals a fresh build (whose classification resolves the links in memory).
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openService } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-session-classify-");

const ts = "2026-03-01T00:00:01.000Z";
const header = (id: string) => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/w" });
const user = (id: string, parentId: string | null, text = `asks ${id}`) =>
	JSON.stringify({ type: "message", id, parentId, timestamp: ts, message: { role: "user", content: [{ type: "text", text }], timestamp: 1 } });
const reply = (id: string, parentId: string | null) =>
	JSON.stringify({
		type: "message",
		id,
		parentId,
		timestamp: ts,
		message: { role: "assistant", content: [{ type: "text", text: `answers ${id}` }], stopReason: "stop", timestamp: 1 },
	});
const compaction = (id: string, parentId: string, firstKeptEntryId: string) =>
	JSON.stringify({ type: "compaction", id, parentId, timestamp: ts, summary: `summary ${id}`, firstKeptEntryId, tokensBefore: 10 });
const label = (id: string, parentId: string, targetId: string, text: string) =>
	JSON.stringify({ type: "label", id, parentId, timestamp: ts, targetId, label: text });

/** Each entry's branch state, selection state, summarizing entry and label, and the session's fork points. */
function states(index: string, session: string) {
	const db = new Database(index, { readonly: true });
	try {
		const rows = db
			.prepare<[string], { entry_id: string; branch_state: string; selection_state: string; summarized_by: string | null; cur_label: string | null }>(
				`SELECT e.entry_id, e.branch_state, e.selection_state, e.summarized_by, e.cur_label FROM events e JOIN sessions s ON s.id = e.session_id
				WHERE s.public_id = ? AND e.synthetic = 0`,
			)
			.all(session);
		const forks = db.prepare<[string], { fork_points: number }>("SELECT fork_points FROM sessions WHERE public_id = ?").get(session)?.fork_points;
		return {
			of: new Map(
				rows.map((r) => [
					r.entry_id,
					`${r.branch_state}/${r.selection_state}${r.summarized_by ? ` by ${r.summarized_by}` : ""}${r.cur_label ? ` "${r.cur_label}"` : ""}`,
				]),
			),
			forks,
		};
	} finally {
		db.close();
	}
}

describe("a whole classification over row ids", () => {
	it("resolves links to later, missing, own and cyclic entries across refreshes split by another session's rows", () => {
		const root = fresh("sessions");
		mkdirSync(join(root, "--w--"), { recursive: true });
		const file = join(root, "--w--", "2026-03-01T00-00-00-000Z_odd.jsonl");
		const other = join(root, "--w--", "2026-03-01T00-00-00-000Z_other.jsonl");
		const index = join(root, "..", "index.sqlite");
		let otherLeaf: string | null = null;
		let otherCount = 0;
		/** Another session's rows, more than a stretch's gap of them, so the odd session's rows are not one range. */
		const grow = () => {
			const lines = [];
			for (let i = 0; i < 100; i++) {
				const id = `o${otherCount++}`;
				lines.push(user(id, otherLeaf));
				otherLeaf = id;
			}
			if (otherCount === 100) writeFileSync(other, `${header("other")}\n`);
			appendFileSync(other, `${lines.join("\n")}\n`);
		};
		const refresh = () => {
			const service = openService(root, index);
			try {
				service.refresh();
			} finally {
				service.close();
			}
			freshBuild(root, index);
		};
		grow();
		// x1 names an entry written later; the compaction keeps a1.
		writeFileSync(file, `${[header("odd"), user("u1", null), reply("a1", "u1"), user("x1", "later"), compaction("c1", "a1", "a1")].join("\n")}\n`);
		refresh();
		let got = states(index, "odd");
		expect(got.of.get("u1")).toBe("selected/summarized by c1");
		expect(got.of.get("a1")).toBe("selected/direct");
		expect(got.of.get("c1")).toBe("selected/direct");
		expect(got.of.get("x1")).toBe("alternate/not-selected");
		expect(got.forks).toBe(0);

		grow();
		refresh();
		// The entry x1 names arrives and the leaf goes on below x1, so the path runs through that link; the compaction
		// leaves the path; a label names x1.
		appendFileSync(file, `${[reply("later", "a1"), user("u2", "x1"), label("lab", "u2", "x1", "marked")].join("\n")}\n`);
		grow();
		refresh();
		got = states(index, "odd");
		for (const id of ["u1", "a1", "later", "u2"]) expect(got.of.get(id), id).toBe("selected/direct");
		expect(got.of.get("x1")).toBe('selected/direct "marked"');
		expect(got.of.get("c1")).toBe("alternate/not-selected");
		expect(got.of.get("lab")).toBe("selected/not-applicable");
		expect(got.forks).toBe(1);

		// Two entries under a missing parent, one its own parent, a cycle with an entry below it, a label and a new leaf.
		appendFileSync(
			file,
			`${[user("d1", "gone"), user("d2", "gone"), user("s1", "s1"), user("p", "q"), user("q", "p"), reply("k", "p"), label("lab0", "lab", "u1", "first"), user("u3", "lab0")].join("\n")}\n`,
		);
		grow();
		refresh();
		got = states(index, "odd");
		for (const id of ["a1", "later", "u2", "u3"]) expect(got.of.get(id), id).toBe("selected/direct");
		expect(got.of.get("u1")).toBe('selected/direct "first"');
		expect(got.of.get("x1")).toBe('selected/direct "marked"');
		for (const id of ["lab", "lab0"]) expect(got.of.get(id), id).toBe("selected/not-applicable");
		for (const id of ["d1", "d2", "s1"]) expect(got.of.get(id), id).toBe("alternate/not-selected");
		for (const id of ["p", "q", "k"]) expect(got.of.get(id), id).toBe("unknown/unknown");
		// a1 (c1, later), the missing "gone" (d1, d2) and p (q, k).
		expect(got.forks).toBe(3);
	});

	it("classifies a session longer than a read stretch when a turn back past a compaction is appended", () => {
		const root = fresh("sessions");
		mkdirSync(join(root, "--w--"), { recursive: true });
		const file = join(root, "--w--", "2026-03-01T00-00-00-000Z_long.jsonl");
		const index = join(root, "..", "index.sqlite");
		const lines = [header("long")];
		let leaf: string | null = null;
		for (let i = 0; i < 9000; i++) {
			const id: string = i % 3000 === 2999 ? `c${i}` : `e${i}`;
			lines.push(id.startsWith("c") ? compaction(id, leaf as string, `e${i - 10}`) : i % 2 ? reply(id, leaf) : user(id, leaf));
			leaf = id;
		}
		writeFileSync(file, `${lines.join("\n")}\n`);
		const service = openService(root, index);
		try {
			service.refresh();
			expect(states(index, "long").of.get("e100")).toBe("selected/summarized by c8999");
			// Back to before the second compaction: it, the third and everything after e5990 leave the path.
			appendFileSync(file, `${user("back", "e5990")}\n`);
			expect(service.refresh().sessionsReclassified).toBe(1);
		} finally {
			service.close();
		}
		const got = states(index, "long");
		expect(got.of.get("e100")).toBe("selected/summarized by c2999");
		expect(got.of.get("e2989")).toBe("selected/direct");
		expect(got.of.get("e5990")).toBe("selected/direct");
		expect(got.of.get("e5991")).toBe("alternate/not-selected");
		expect(got.of.get("c8999")).toBe("alternate/not-selected");
		expect(got.forks).toBe(1);
		freshBuild(root, index);
	});
});
