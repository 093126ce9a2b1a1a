/**
 * The tree view reads a session's shape kept at ingest (tree-shape-store.ts): after every append — a branch off an
 * old entry, a label on an entry of an earlier refresh, an entry whose parent comes in a later refresh — the tree
 * answers what the file says (hand-checked below) and what a fresh build of the same file answers, in every filter
 * mode, and the index equals the fresh build (the kept shapes included).
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SHAPE_CHUNK } from "../src/index/tree-shape-store.js";
import { TREE_FILTER_MODES, type TreeWindow, type TreeWindowRequest } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { expectSameIndex } from "./helpers/dump.js";

const tmp = tempDir("pes-tree-shape-");
afterAll(() => tmp.cleanup());

const SESSION = "0f0e0d0c-1111-4222-8333-944445555666";
const root = join(tmp.dir, "sessions");
const file = join(root, "--w--", "2026-12-01T10-00-00-000Z_shape.jsonl");
const live = join(tmp.dir, "live.sqlite");
let clock = Date.parse("2026-12-01T10:00:00Z");
let last: string | null = null;

const line = (o: Record<string, unknown>) => `${JSON.stringify(o)}\n`;
/** An entry under `parent` (default: the one before), its message by kind. */
function entry(id: string, kind: "user" | "assistant" | "result", parent: string | null = last): string {
	clock += 1000;
	const ts = clock;
	last = id;
	const message =
		kind === "user"
			? { role: "user", content: [{ type: "text", text: `ask ${id}` }], timestamp: ts }
			: kind === "assistant"
				? {
						role: "assistant",
						content: [
							{ type: "text", text: `reply ${id}` },
							{ type: "toolCall", id: `call_${id}`, name: "read", arguments: { path: `src/${id}.ts` } },
						],
						stopReason: "toolUse",
						timestamp: ts,
					}
				: {
						role: "toolResult",
						toolCallId: `call_${parent}`,
						toolName: "read",
						content: [{ type: "text", text: `file ${id}` }],
						isError: false,
						timestamp: ts,
					};
	return line({ type: "message", id, parentId: parent, timestamp: new Date(ts).toISOString(), message });
}
/** Turns of user, assistant, tool result under the last entry. */
function turns(prefix: string, n: number): string {
	let out = "";
	for (let i = 0; i < n; i++) out += entry(`${prefix}u${i}`, "user") + entry(`${prefix}a${i}`, "assistant") + entry(`${prefix}r${i}`, "result");
	return out;
}

/** The whole tree, every stretch unfolded, as (entry id, depth) in display order. */
function tree(index: string, filter: TreeWindowRequest["filter"]): { rows: Array<[string, number]>; window: TreeWindow } {
	const service = openService(root, index);
	try {
		service.refresh();
		const w = service.treeWindow({ sessionId: SESSION, filter, count: 1000 });
		const unfolded = w.rows.filter((r) => r.type === "fold").map((r) => r.stretch as string);
		const all = service.treeWindow({ sessionId: SESSION, filter, unfolded, count: 1000 });
		return { rows: all.rows.flatMap((r) => (r.type === "entry" ? [[r.entry.entryId, r.depth] as [string, number]] : [])), window: w };
	} finally {
		service.close();
	}
}

let step = 0;
/** Refreshes the live index; every mode answers as a fresh build does, and the indexes are equal. */
function check(): Record<string, Array<[string, number]>> {
	step++;
	const fresh = join(tmp.dir, `fresh-${step}.sqlite`);
	const out: Record<string, Array<[string, number]>> = {};
	for (const mode of TREE_FILTER_MODES) {
		const a = tree(live, mode);
		const b = tree(fresh, mode);
		expect(a.rows, `step ${step} ${mode}`).toEqual(b.rows);
		expect(a.window, `step ${step} ${mode}`).toEqual(b.window);
		out[mode] = a.rows;
	}
	expectSameIndex(live, fresh, `step ${step}`);
	return out;
}

describe("the kept tree shape across appends", () => {
	it("a branch, a late label and a late parent read as the file says, like a fresh build", () => {
		mkdirSync(join(root, "--w--"), { recursive: true });
		writeFileSync(file, line({ type: "session", version: 3, id: SESSION, timestamp: new Date(clock).toISOString(), cwd: "/work/shape" }) + turns("t", 10));
		const first = check();
		expect(first.all?.length).toBe(30);
		expect(first["labeled-only"]).toEqual([]);

		// A branch off the first turn's reply: a second child of t.a0, shown after t.a0's first subtree.
		appendFileSync(file, turns("t", 0) + entry("b.u0", "user", "ta0") + entry("b.a0", "assistant"));
		const second = check();
		const all = (second.all ?? []).map(([id]) => id);
		expect(all.indexOf("b.u0")).toBe(all.indexOf("tr9") + 1);
		expect(second.all?.find(([id]) => id === "b.u0")?.[1]).toBe(1);

		// A label on an entry of the first refresh; an entry whose parent is written only in the next refresh.
		clock += 1000;
		appendFileSync(file, line({ type: "label", id: "lab1", parentId: "b.a0", timestamp: new Date(clock).toISOString(), targetId: "tu3", label: "mark" }));
		appendFileSync(file, entry("late.child", "user", "late.parent"));
		const third = check();
		expect(third["labeled-only"]?.map(([id]) => id)).toEqual(["tu3"]);
		const orphanAt = (third["user-only"] ?? []).findIndex(([id]) => id === "late.child");
		expect(orphanAt).toBeGreaterThanOrEqual(0);

		appendFileSync(file, entry("late.parent", "user", "b.a0") + entry("after", "assistant", "late.child"));
		const fourth = check();
		const order = (fourth.all ?? []).map(([id]) => id);
		// late.parent (the later line) is now late.child's parent: the child follows it, one deeper in nothing but order.
		expect(order.indexOf("late.child")).toBe(order.indexOf("late.parent") + 1);
		expect(order.indexOf("after")).toBe(order.indexOf("late.child") + 1);

		// Past a chunk of the kept shape (SHAPE_CHUNK entries) in one append: the same as a fresh build still.
		appendFileSync(file, turns("z", Math.ceil(SHAPE_CHUNK / 3) + 5));
		expect(check().all?.length).toBe(1000);
	});
});
