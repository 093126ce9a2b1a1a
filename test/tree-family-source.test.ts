/**
 * A big fork family's nodes read a chunk at a time (query/tree-family-source.ts) are the nodes the whole family's
 * shape holds (tree-shape.ts familyNodes): the same row, parent and flags per node, the same sessions' stretches and
 * fork heads, in chunks that are all the root's, the root's and the forks', and all the forks'. Written by hand as pi
 * v3 JSONL: a root of three shape chunks with branches, a --fork copy of every entry with more than a chunk of its own
 * (one of them a branch off a copied entry), a fork of that fork, and a new session naming the root as its parent.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog, type SessionRow } from "../src/index/catalog.js";
import { openStore } from "../src/index/store.js";
import { SHAPE_CHUNK } from "../src/index/tree-shape-store.js";
import { FamilySource } from "../src/query/tree-family-source.js";
import { layoutMembers } from "../src/query/tree-layout.js";
import { familyNodes } from "../src/query/tree-shape.js";
import { treeWindow } from "../src/query/tree-window.js";
import { Visibility } from "../src/query/visibility.js";
import { TREE_FILTER_MODES } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";

const ROOT = "0199f000-0000-7000-8000-0000000000a1";
const FORK = "0199f000-0000-7000-8000-0000000000a2";
const GRAND = "0199f000-0000-7000-8000-0000000000a3";
const NEXT = "0199f000-0000-7000-8000-0000000000a4";
const ROOT_ENTRIES = 2 * SHAPE_CHUNK + 900;
const FORK_OWN = SHAPE_CHUNK + 700;

let tmp: ReturnType<typeof tempDir>;
let index = "";

const ts = (i: number) => new Date(Date.UTC(2026, 2, 1) + i * 1000).toISOString();
const header = (id: string, at: number, parent?: string) =>
	`${JSON.stringify({ type: "session", version: 3, id, timestamp: ts(at), cwd: "/tmp/family", ...(parent ? { parentSession: parent } : {}) })}\n`;
const entry = (id: string, parentId: string | null, at: number, text: string, role = "user") =>
	`${JSON.stringify({ type: "message", id, parentId, timestamp: ts(at), message: { role, content: [{ type: "text", text }], timestamp: 1 } })}\n`;

/** `count` entries on from `first`, a path with a branch back every 997 entries; returns the lines and the last id. */
function path(tag: string, count: number, first: string | null, at: number): { lines: string; last: string; ids: string[] } {
	let lines = "";
	const ids: string[] = [];
	let parent = first;
	for (let i = 0; i < count; i++) {
		const id = `${tag}${i.toString(16).padStart(6, "0")}`;
		// Back up the path now and then (pi's /tree, then a new prompt).
		const from = i % 997 === 996 ? (ids[i - 5] as string) : parent;
		lines += entry(id, from, at + i, `${tag} step ${i}${i % 13 === 0 ? " src/app.ts" : ""}`, i % 4 === 1 ? "assistant" : "user");
		ids.push(id);
		parent = id;
	}
	return { lines, last: parent as string, ids };
}

beforeAll(() => {
	tmp = tempDir("pes-family-source-");
	const dir = join(tmp.dir, "sessions", "--tmp-family--");
	mkdirSync(dir, { recursive: true });
	const rootFile = join(dir, "2026-03-01T00-00-00-000Z_root.jsonl");
	const root = path("r", ROOT_ENTRIES, null, 1);
	writeFileSync(rootFile, header(ROOT, 0) + root.lines);
	// A --fork copy of every entry (byte for byte), its own turns, and one of them a branch off a copied entry.
	const forkFile = join(dir, "2026-03-02T00-00-00-000Z_fork.jsonl");
	const copies = readFileSync(rootFile, "utf8").split("\n").slice(1).join("\n");
	const own = path("f", FORK_OWN, root.last, 20_000);
	const branch = entry("fbranch", root.ids[3000] as string, 30_000, "a branch off a copied entry");
	writeFileSync(forkFile, header(FORK, 19_999, rootFile) + copies + own.lines + branch);
	// A fork of the fork: its copies, then a few of its own.
	const grandFile = join(dir, "2026-03-03T00-00-00-000Z_grand.jsonl");
	copyFileSync(forkFile, grandFile);
	const grandLines = readFileSync(grandFile, "utf8").split("\n");
	grandLines[0] = header(GRAND, 39_999, forkFile).trimEnd();
	writeFileSync(grandFile, grandLines.join("\n") + path("g", 40, "fbranch", 40_000).lines);
	// A new session after the root: nothing copied.
	writeFileSync(join(dir, "2026-03-04T00-00-00-000Z_next.jsonl"), header(NEXT, 50_000, rootFile) + path("n", 12, null, 50_001).lines);
	index = join(tmp.dir, "index.sqlite");
	const service = openService(join(tmp.dir, "sessions"), index);
	try {
		service.refresh();
	} finally {
		service.close();
	}
}, 120_000);
afterAll(() => tmp?.cleanup());

describe("a fork family's nodes read a chunk at a time", () => {
	it("are the whole shape's nodes: rows, parents, flags, sessions' stretches, fork heads and the leaf", () => {
		const store = openStore(index, { readonly: true });
		try {
			const catalog = new Catalog(store);
			const root = catalog.sessionByPublicId(ROOT) as SessionRow;
			const want = familyNodes(store, root, new Visibility(catalog, undefined), Number.POSITIVE_INFINITY);
			const got = new FamilySource(store, root);
			expect(got.nodes).toBe(want.nodeRow.length);
			// Chunks of the root only, of the root and the forks, and of the forks only.
			const chunks = Math.ceil(got.nodes / got.size);
			expect(chunks).toBeGreaterThanOrEqual(4);
			expect(ROOT_ENTRIES % got.size).not.toBe(0);
			const rows: number[] = [];
			const parents: number[] = [];
			const flags: number[] = [];
			for (let c = 0; c < chunks; c++) {
				const chunk = got.chunk(c);
				expect(chunk.ids.length).toBe(Math.min(got.size, got.nodes - c * got.size));
				rows.push(...chunk.ids);
				parents.push(...chunk.parents);
				flags.push(...chunk.flags);
			}
			expect(rows).toEqual([...want.nodeRow]);
			expect(parents).toEqual([...want.nodeParent]);
			expect(flags).toEqual([...want.nodeFlags]);
			expect(got.members).toEqual(layoutMembers(want));
			expect(got.members.map((m) => m.publicId)).toEqual([ROOT, FORK, GRAND, NEXT]);
			expect(got.members[1]?.count).toBe(FORK_OWN + 1);
			expect(got.members[1]?.fork?.copied).toBe(ROOT_ENTRIES);
			expect(got.leafNode).toBe(want.leafNode);
		} finally {
			store.close();
		}
	});

	it("an open laying the family out a chunk at a time answers as the whole layout, in every filter mode", () => {
		const store = openStore(index, { readonly: true });
		try {
			for (const filter of TREE_FILTER_MODES) {
				for (const req of [
					{ sessionId: ROOT, filter },
					{ sessionId: FORK, entryId: "fbranch", filter },
					{ sessionId: GRAND, cursor: `fork:${GRAND}`, filter },
				]) {
					const whole = treeWindow(store, { ...req, count: 400 }, { spillFrom: Number.POSITIVE_INFINITY });
					const spilled = treeWindow(store, { ...req, count: 400 }, { spillFrom: 1000 });
					expect(spilled).toEqual(whole);
					expect(treeWindow(store, { ...req, top: whole.total - 300, count: 300 }, { spillFrom: 1000 })).toEqual(
						treeWindow(store, { ...req, top: whole.total - 300, count: 300 }, { spillFrom: Number.POSITIVE_INFINITY }),
					);
				}
			}
		} finally {
			store.close();
		}
	});
});
