/**
 * The tree view of a deeply branched session (a branch every 40 entries, 150 levels at the leaf): a window whose rows
 * are all deeper than CLIP_FROM leaves out the columns above its shallowest row but CLIP_KEEP, marked by CLIP_MARK,
 * the same from the kept layout and laid out in memory; a shallow window draws every column. Expected prefixes and
 * depths come from a walk written here over the entries as the file has them.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../src/index/store.js";
import { CLIP_FROM, CLIP_KEEP, CLIP_MARK } from "../src/query/tree-flatten.js";
import { treeWindow } from "../src/query/tree-window.js";
import type { TreeWindow } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";

const tmp = tempDir("pes-tree-deep-");
afterAll(() => tmp.cleanup());

const SESSION = "7a7b7c7d-2222-4222-8333-944445555888";
const root = join(tmp.dir, "sessions");
const index = join(tmp.dir, "index.sqlite");
const N = 6000;
const EVERY = 40;

/** Entry i's parent: the one above, but every EVERY-th goes back two (pi's /tree, then a prompt there). */
const parentOf = (i: number) => (i === 0 ? -1 : i % EVERY === 0 ? i - 2 : i - 1);
const id = (i: number) => `e${i}`;

/** Every entry's prefix and depth as pi's /tree draws them: siblings in file order, a lone child continues its parent's column. */
function expected(): Map<string, { prefix: string; depth: number }> {
	const kids = new Map<number, number[]>();
	for (let i = 1; i < N; i++) kids.set(parentOf(i), [...(kids.get(parentOf(i)) ?? []), i]);
	const out = new Map<string, { prefix: string; depth: number }>();
	const cols = new Map<number, { cols: string; depth: number; branch: boolean; last: boolean }>();
	cols.set(0, { cols: "", depth: 0, branch: false, last: true });
	out.set(id(0), { prefix: "", depth: 0 });
	for (let i = 1; i < N; i++) {
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
	const min = Math.min(...rows.map((r) => r.depth));
	const clip = min > CLIP_FROM ? min - CLIP_KEEP : 0;
	return rows.map((r) => ({ prefix: clip > 0 ? CLIP_MARK + r.prefix.slice(3 * clip) : r.prefix, depth: r.depth }));
}

const drawn = (w: TreeWindow) => w.rows.map((r) => ({ prefix: r.prefix, depth: r.depth }));

describe("the tree view of a deeply branched session", () => {
	it("a deep window leaves out the columns far above its rows, the same from the kept layout and in memory", () => {
		const folder = join(root, "--deep--");
		mkdirSync(folder, { recursive: true });
		let clock = Date.parse("2026-12-02T10:00:00Z");
		let text = `${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: new Date(clock).toISOString(), cwd: "/deep" })}\n`;
		for (let i = 0; i < N; i++) {
			clock += 1000;
			const message = { role: "user", content: [{ type: "text", text: `ask ${i}` }], timestamp: clock };
			const parentId = parentOf(i) < 0 ? null : id(parentOf(i));
			text += `${JSON.stringify({ type: "message", id: id(i), parentId, timestamp: new Date(clock).toISOString(), message })}\n`;
		}
		writeFileSync(join(folder, "2026-12-02T10-00-00-000Z_deep.jsonl"), text);
		const service = openService(root, index);
		try {
			service.refresh();
			expect(service.keepTreeLayouts().whole).toBeGreaterThan(0);
		} finally {
			service.close();
		}
		// A copy without kept layouts: each open lays the tree out itself.
		const unkept = join(tmp.dir, "unkept.sqlite");
		copyFileSync(index, unkept);
		const db = new Database(unkept);
		db.exec("DELETE FROM tree_layout");
		db.close();
		const want = expected();
		const leafDepth = (want.get(id(N - 1)) as { depth: number }).depth;
		expect(leafDepth).toBeGreaterThan(CLIP_FROM + 100);
		for (const file of [index, unkept]) {
			const store = openStore(file, { readonly: true });
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
});
