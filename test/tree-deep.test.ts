/**
 * The tree view of a deeply branched session (a branch every 40 entries, 150 levels at the leaf): a window whose rows
 * are all deeper than CLIP_FROM leaves out the columns above its shallowest row but CLIP_KEEP, marked by TREE_CLIP_MARK; a
 * window that drops more than CLIP_DROP levels below its first row is clipped from there, rows left of it showing the
 * mark and their connector; a shallow window draws every column. The same from the kept layout and laid out in
 * memory. Expected prefixes and depths come from a walk written here over the entries as the file has them.
 */
import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../src/index/store.js";
import { CLIP_DROP, CLIP_FROM, CLIP_KEEP } from "../src/query/tree-flatten.js";
import { treeWindow } from "../src/query/tree-window.js";
import { TREE_CLIP_MARK as CLIP_MARK, type TreeWindow } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";

const tmp = tempDir("pes-tree-deep-");
afterAll(() => tmp.cleanup());

const SESSION = "7a7b7c7d-2222-4222-8333-944445555888";
const root = join(tmp.dir, "sessions");
const index = join(tmp.dir, "index.sqlite");
const N = 6000;
const EVERY = 40;

/** Entry i's parent: the one above, but every EVERY-th goes back two (pi's /tree, then a prompt there). */
const parents = Array.from({ length: N }, (_, i) => (i === 0 ? -1 : i % EVERY === 0 ? i - 2 : i - 1));
const parentOf = (i: number) => parents[i] as number;
const id = (i: number) => `e${i}`;
let clock = Date.parse("2026-12-02T10:00:00Z");
/** The lines of entries `from`..`to` - 1: user prompts. */
const lines = (from: number, to: number) => {
	let text = "";
	for (let i = from; i < to; i++) {
		clock += 1000;
		const message = { role: "user", content: [{ type: "text", text: `ask ${i}` }], timestamp: clock };
		const parentId = parentOf(i) < 0 ? null : id(parentOf(i));
		text += `${JSON.stringify({ type: "message", id: id(i), parentId, timestamp: new Date(clock).toISOString(), message })}\n`;
	}
	return text;
};

/** Every entry's prefix and depth as pi's /tree draws them: siblings in file order, a lone child continues its parent's column. */
function expected(): Map<string, { prefix: string; depth: number }> {
	const n = parents.length;
	const kids = new Map<number, number[]>();
	for (let i = 1; i < n; i++) kids.set(parentOf(i), [...(kids.get(parentOf(i)) ?? []), i]);
	const out = new Map<string, { prefix: string; depth: number }>();
	const cols = new Map<number, { cols: string; depth: number; branch: boolean; last: boolean }>();
	cols.set(0, { cols: "", depth: 0, branch: false, last: true });
	out.set(id(0), { prefix: "", depth: 0 });
	for (let i = 1; i < n; i++) {
		const p = cols.get(parentOf(i)) as { cols: string; depth: number; branch: boolean; last: boolean };
		const sibs = kids.get(parentOf(i)) as number[];
		const branch = sibs.length !== 1;
		const last = sibs.at(-1) === i;
		const c = { cols: p.cols + (p.branch ? (p.last ? "   " : "│  ") : ""), depth: p.depth + (branch ? 1 : 0), branch, last };
		cols.set(i, c);
		out.set(id(i), { prefix: c.cols + (branch ? (last ? "└─ " : "├─ ") : ""), depth: c.depth });
	}
	return out;
}

/** The rows of a window as the walk above draws them, with the window's columns left out as CLIP_FROM says. */
function clipped(w: TreeWindow, want: Map<string, { prefix: string; depth: number }>) {
	const rows = w.rows.map((r) => want.get(r.key.slice(SESSION.length + 1)) as { prefix: string; depth: number });
	const from = Math.max(Math.min(...rows.map((r) => r.depth)), (rows[0]?.depth ?? 0) - CLIP_DROP);
	const clip = from > CLIP_FROM ? from - CLIP_KEEP : 0;
	// A row's columns: its prefix but its own connector (a branch child's last three characters).
	const columns = (r: { prefix: string }) => r.prefix.length / 3 - (/[├└]─ $/.test(r.prefix) ? 1 : 0);
	return rows.map((r) => ({ prefix: clip > 0 ? CLIP_MARK + r.prefix.slice(3 * Math.min(clip, columns(r))) : r.prefix, depth: r.depth }));
}

const drawn = (w: TreeWindow) => w.rows.map((r) => ({ prefix: r.prefix, depth: r.depth }));

describe("the tree view of a deeply branched session", () => {
	it("a deep window leaves out the columns far above its rows, the same from the kept layout and in memory", () => {
		const folder = join(root, "--deep--");
		mkdirSync(folder, { recursive: true });
		const file = join(folder, "2026-12-02T10-00-00-000Z_deep.jsonl");
		writeFileSync(
			file,
			`${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: new Date(clock).toISOString(), cwd: "/deep" })}\n${lines(0, N)}`,
		);
		const want = expected();
		const leafDepth = (want.get(id(N - 1)) as { depth: number }).depth;
		expect(leafDepth).toBeGreaterThan(CLIP_FROM + 100);
		for (const store of indexed()) {
			try {
				const atLeaf = treeWindow(store, { sessionId: SESSION, count: 60 });
				expect(atLeaf.rows.every((r) => r.prefix.startsWith(CLIP_MARK))).toBe(true);
				expect(drawn(atLeaf)).toEqual(clipped(atLeaf, want));
				// Every row a few columns from the mark: nothing far above them is drawn.
				expect(Math.max(...atLeaf.rows.map((r) => r.prefix.length))).toBeLessThan(3 * (CLIP_KEEP + 20));
				const top = treeWindow(store, { sessionId: SESSION, count: 60, top: 0 });
				expect(top.rows.some((r) => r.prefix.startsWith(CLIP_MARK))).toBe(false);
				expect(drawn(top)).toEqual(clipped(top, want));
				// A window across the depth where clipping starts.
				const across = treeWindow(store, { sessionId: SESSION, count: 200, top: 5 * CLIP_FROM });
				expect(drawn(across)).toEqual(clipped(across, want));
			} finally {
				store.close();
			}
		}
	});

	it("a window that drops from a deep branch to a shallow one is clipped from its first row", () => {
		// A branch off the sixth entry after the deep end: the last in pi's /tree order, and the leaf.
		for (let i = 0; i < 5; i++) parents.push(i === 0 ? 5 : parents.length - 1);
		appendFileSync(join(root, "--deep--", "2026-12-02T10-00-00-000Z_deep.jsonl"), lines(N, N + 5));
		const want = expected();
		for (const store of indexed()) {
			try {
				const atLeaf = treeWindow(store, { sessionId: SESSION, count: 60 });
				const depths = atLeaf.rows.map((r) => r.depth);
				expect((depths[0] as number) - Math.min(...depths)).toBeGreaterThan(CLIP_DROP);
				expect(drawn(atLeaf)).toEqual(clipped(atLeaf, want));
				// The shallow branch's rows: the mark and their connector.
				expect(atLeaf.rows.at(-5)?.prefix).toBe(`${CLIP_MARK}└─ `);
				expect(Math.max(...atLeaf.rows.map((r) => r.prefix.length))).toBeLessThan(3 * (CLIP_KEEP + CLIP_DROP + 60));
			} finally {
				store.close();
			}
		}
	});
});

/** The index refreshed and its layouts kept, and a copy without kept layouts (each open lays the tree out itself), each opened read-only. */
function indexed(): ReturnType<typeof openStore>[] {
	const service = openService(root, index);
	try {
		service.refresh();
		expect(service.keepTreeLayouts().left).toBe(0);
	} finally {
		service.close();
	}
	const unkept = join(tmp.dir, "unkept.sqlite");
	copyFileSync(index, unkept);
	const db = new Database(unkept);
	db.exec("DELETE FROM tree_layout");
	db.close();
	return [index, unkept].map((f) => openStore(f, { readonly: true }));
}
