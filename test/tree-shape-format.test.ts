/**
 * The kept tree shape's row ids and parent links are run-encoded (shape-codec.ts); an index written before holds them
 * as doubles. Such an index answers the tree view as a fresh build does, and an append to it rewrites its last chunk
 * in the new form with nothing lost (the index then equals a fresh build).
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { isRunEncoded } from "../src/index/shape-codec.js";
import { SHAPE_CHUNK } from "../src/index/tree-shape-store.js";
import { TREE_FILTER_MODES, type TreeWindow } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { decodeChunk, expectSameIndex, type ShapeChunk } from "./helpers/dump.js";

const tmp = tempDir("pes-shape-format-");
afterAll(() => tmp.cleanup());

const SESSION = "0f0e0d0c-2222-4222-8333-944445555777";
const root = join(tmp.dir, "sessions");
const file = join(root, "--w--", "2026-12-01T10-00-00-000Z_format.jsonl");
let clock = Date.parse("2026-12-01T10:00:00Z");

/** `n` user entries after `after` (null: the first under the header); the last one's id. */
function users(prefix: string, n: number, after: string | null, text = (i: number) => `ask ${prefix} ${i}`): string {
	let out = "";
	let parent = after;
	for (let i = 0; i < n; i++) {
		clock += 1000;
		const id = `${prefix}${i}`;
		const message = { role: "user", content: [{ type: "text", text: text(i) }], timestamp: clock };
		out += `${JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(clock).toISOString(), message })}\n`;
		parent = id;
	}
	return out;
}

/** Every mode's first window and the whole tree unfolded. */
function windows(index: string): Record<string, { first: TreeWindow; all: string[] }> {
	const service = openService(root, index);
	try {
		service.refresh();
		const out: Record<string, { first: TreeWindow; all: string[] }> = {};
		for (const filter of TREE_FILTER_MODES) {
			const first = service.treeWindow({ sessionId: SESSION, filter, count: 1000 });
			const unfolded = first.rows.filter((r) => r.type === "fold").map((r) => r.stretch as string);
			const all: string[] = [];
			for (let top = 0, total = 1; top < total; top += 1000) {
				const page = service.treeWindow({ sessionId: SESSION, filter, unfolded, count: 1000, top });
				total = page.total;
				// The last page is clamped to end at the last row: only its rows from `top` on are new.
				page.rows.forEach((r, i) => {
					if (page.start + i >= top && r.type === "entry") all.push(r.entry.entryId);
				});
			}
			out[filter] = { first, all };
		}
		return out;
	} finally {
		service.close();
	}
}

/** Rewrites every kept shape chunk as indexes before the run encoding held it: ids and links doubles, flags two bytes. */
function asDoubles(index: string): number {
	const db = new Database(index);
	try {
		const rows = db.prepare("SELECT session_id, chunk, n, ids, pars, flags FROM tree_shape").all() as Array<ShapeChunk & { session_id: number; chunk: number }>;
		const write = db.prepare("UPDATE tree_shape SET ids = ?, pars = ?, flags = ? WHERE session_id = ? AND chunk = ?");
		for (const r of rows) {
			expect(isRunEncoded(r.ids) && isRunEncoded(r.pars) && r.flags.length === r.n).toBe(true);
			const { ids, pars, flags } = decodeChunk(r);
			write.run(Buffer.from(ids.buffer), Buffer.from(Float64Array.from(pars).buffer), Buffer.from(flags.buffer), r.session_id, r.chunk);
		}
		return rows.length;
	} finally {
		db.close();
	}
}

/** Per chunk, in chunk order: "runs" (with a byte of flags each) or "doubles" (with two), row ids and links alike. */
function chunkForms(index: string): string[] {
	const db = new Database(index, { readonly: true });
	try {
		const rows = db.prepare("SELECT n, ids, pars, flags FROM tree_shape ORDER BY chunk").all() as ShapeChunk[];
		return rows.map((r) =>
			isRunEncoded(r.ids) && isRunEncoded(r.pars) && r.flags.length === r.n
				? "runs"
				: !isRunEncoded(r.ids) && !isRunEncoded(r.pars) && r.flags.length === 2 * r.n
					? "doubles"
					: "mixed",
		);
	} finally {
		db.close();
	}
}

describe("kept tree shapes written as doubles", () => {
	it("read like a fresh build, and an append rewrites the last chunk in runs", () => {
		mkdirSync(join(root, "--w--"), { recursive: true });
		const header = `${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: new Date(clock).toISOString(), cwd: "/work/format" })}\n`;
		// Two chunks and a branch off an early entry (a parent link that is a row id, not "the row above").
		writeFileSync(file, header + users("u", SHAPE_CHUNK + 10, null) + users("b", 3, "u5"));
		const old = join(tmp.dir, "old.sqlite");
		const service = openService(root, old);
		service.refresh();
		service.close();
		expect(asDoubles(old)).toBe(2);
		expect(chunkForms(old)).toEqual(["doubles", "doubles"]);

		const fresh = join(tmp.dir, "fresh.sqlite");
		const expected = windows(fresh);
		expect(expected.all?.all).toHaveLength(SHAPE_CHUNK + 13);
		expect(windows(old)).toEqual(expected);

		appendFileSync(file, users("c", 4, `b2`));
		const fresh2 = join(tmp.dir, "fresh2.sqlite");
		const after = windows(fresh2);
		expect(after.all?.all.slice(-7)).toEqual(["b0", "b1", "b2", "c0", "c1", "c2", "c3"]);
		expect(windows(old)).toEqual(after);
		expect(chunkForms(old)).toEqual(["doubles", "runs"]);
		expectSameIndex(old, fresh2);
	});
});
