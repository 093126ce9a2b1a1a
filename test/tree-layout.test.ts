/**
 * The tree view's layout against hand-drawn frames: gutters like pi's /tree, the leaf-path dots, markers, folded
 * stretches and their breadcrumbs, forks attached at their fork point, hits highlighted in place (⟦…⟧ below marks
 * the match tone), n/N stepping and the visible window. Every expected frame is drawn by hand from the input tree.
 */
import { describe, expect, it } from "vitest";
import type { StyledLine } from "../components/core/styled.js";
import { centredTop, entryKey, forkKey, rowIndex, stepHit, type TreeRow, type TreeRowOptions, treeRows } from "../components/tree/tree-layout.js";
import { queryTerms, sharedColumns, treeLine, treeLines } from "../components/tree/tree-lines.js";
import type { TreeEntry, TreeFork, TreeResult } from "../src/shared/types.js";

const ROOT = "0000-root-aaaa1111";
const FORK = "0000-fork-bbbb2222";

function e(id: string, parentId: string | null, role: string, preview: string, extra: Partial<TreeEntry> = {}): TreeEntry {
	return {
		entryId: id,
		parentId,
		entryType: extra.entryType ?? "message",
		role,
		kind: role === "user" ? "user.text" : "assistant.text",
		preview,
		timestamp: "2026-03-01T10:00:00Z",
		branchState: "selected",
		selectionState: "direct",
		...extra,
	};
}

function tree(entries: TreeEntry[], forks: TreeFork[] = []): TreeResult {
	return {
		session: { id: ROOT, cwd: "/p/proj", file: "/p/a.jsonl" },
		leafId: entries.at(-1)?.entryId ?? null,
		entries,
		forks,
		focus: null,
		hits: 0,
		notes: [],
	};
}

function fork(forkPoint: string, entries: TreeEntry[], copiedAll = true, copied = 7): TreeFork {
	return { session: { id: FORK, cwd: "/p/other-proj", file: "/p/b.jsonl" }, forkPoint, copied, copiedAll, entries, forks: [] };
}

/** A frame as text: match-toned segments in ⟦⟧, so highlighting is drawn in the expected frame too. */
function frame(lines: StyledLine[]): string[] {
	return lines.map((l) =>
		l
			.map((s) => (s.tone === "match" ? `⟦${s.text}⟧` : s.text))
			.join("")
			.trimEnd(),
	);
}

const OPTS: TreeRowOptions = { unfolded: new Set(), searching: false, keep: null };

function draw(data: TreeResult, options: Partial<TreeRowOptions> = {}, cursor = -1, terms: string[] = [], width = 80): string[] {
	const rows = treeRows(data, { ...OPTS, ...options });
	return frame(treeLines({ rows, cursor, top: 0, height: 100, width, terms, rootSession: ROOT }));
}

// A session with a /tree-style move: two branches from r2, the second begun by a labelled branch summary.
const branched = [
	e("r1", null, "user", "fix the retry loop"),
	e("r2", "r1", "assistant", "looking"),
	e("r3", "r2", "user", "try A", { branchState: "alternate" }),
	e("r4", "r3", "toolResult", "ENOENT", { branchState: "alternate", isError: true, toolName: "read", kind: "tool.result" }),
	e("r5", "r2", "", "dead end A", { entryType: "branch_summary", summary: "branch", label: "why", kind: "summary.branch" }),
	e("r6", "r5", "user", "try B"),
	e("r7", "r6", "assistant", "B works", { contextEdit: { state: "replaced", by: "x1" } }),
];

// A linear chain: a user message, twelve plain replies, a user message at the leaf.
const chain = [
	e("c0", null, "user", "start"),
	...Array.from({ length: 12 }, (_, i) => e(`c${i + 1}`, `c${i}`, "assistant", `step ${i + 1}`)),
	e("c13", "c12", "user", "end"),
];

describe("tree layout: hand-drawn frames", () => {
	const cases: Array<{ name: string; data: TreeResult; options?: Partial<TreeRowOptions>; cursor?: number; terms?: string[]; frame: string[] }> = [
		{
			name: "a branch point: ├─ and └─ with a │ gutter, the leaf path dotted, label, summary, error and edit marks",
			data: tree(branched),
			cursor: 0,
			frame: [
				"❯ • user: fix the retry loop",
				"  • assistant: looking",
				"  ├─ user: try A",
				"  │  result read: ENOENT ✗ error",
				"  └─ • [why] ◇ branch summary: dead end A",
				"     • user: try B",
				"     • assistant: B works ⇄ replaced",
			],
		},
		{
			name: "a --fork at the leaf continues the column; its own entries follow its head, without the root's dots",
			data: tree(branched, [fork("r7", [e("f1", "r7", "user", "forked follow-up"), e("f2", "f1", "assistant", "ok")])]),
			frame: [
				"  • user: fix the retry loop",
				"  • assistant: looking",
				"  ├─ user: try A",
				"  │  result read: ENOENT ✗ error",
				"  └─ • [why] ◇ branch summary: dead end A",
				"     • user: try B",
				"     • assistant: B works ⇄ replaced",
				"     ⑂ fork #bbbb2222 · /p/other-proj · copied every entry (7) · 2 own",
				"     user: forked follow-up",
				"     assistant: ok",
			],
		},
		{
			name: "a clone at a branch point is a third branch there, attached after the file's own children",
			data: tree(branched, [fork("r2", [], false, 2)]),
			frame: [
				"  • user: fix the retry loop",
				"  • assistant: looking",
				"  ├─ user: try A",
				"  │  result read: ENOENT ✗ error",
				"  ├─ • [why] ◇ branch summary: dead end A",
				"  │  • user: try B",
				"  │  • assistant: B works ⇄ replaced",
				"  └─ ⑂ fork #bbbb2222 · /p/other-proj · copied one path (2) · 0 own",
			],
		},
		{
			name: "a linear stretch of plain rows folds into one row between the user messages",
			data: tree(chain),
			frame: ["  • user: start", "  … 12 entries …", "  • user: end"],
		},
		{
			name: "an unfolded stretch shows every row",
			data: tree(chain.slice(0, 6).concat([e("u", "c5", "user", "end")])),
			options: { unfolded: new Set([entryKey(ROOT, "c1")]) },
			frame: [
				"  • user: start",
				"  • assistant: step 1",
				"  • assistant: step 2",
				"  • assistant: step 3",
				"  • assistant: step 4",
				"  • assistant: step 5",
				"  • user: end",
			],
		},
		{
			name: "two plain rows never fold (a fold row would save nothing)",
			data: tree(chain.slice(0, 3).concat([e("u", "c2", "user", "end")])),
			frame: ["  • user: start", "  • assistant: step 1", "  • assistant: step 2", "  • user: end"],
		},
		{
			name: "searching: hits stay in place, highlighted; the rest folds into breadcrumbs that name a user message",
			data: tree(
				chain.map((x) =>
					x.entryId === "c4" || x.entryId === "c9"
						? { ...x, preview: `${x.preview}: Retry again`, hit: true }
						: x.entryId === "c6"
							? { ...x, role: "user", kind: "user.text", preview: "midway" }
							: x,
				),
			),
			options: { searching: true },
			terms: queryTerms("retry"),
			frame: [
				"  • user: start",
				"  … 3 entries …",
				"  • assistant: step 4: ⟦Retry⟧ again",
				"  … 4 entries · user: midway …",
				"  • assistant: step 9: ⟦Retry⟧ again",
				"  … 3 entries …",
				"  • user: end",
			],
		},
		{
			name: "the event the tree opened on never folds away",
			data: tree(chain),
			options: { keep: entryKey(ROOT, "c6") },
			frame: ["  • user: start", "  … 5 entries …", "  • assistant: step 6", "  … 6 entries …", "  • user: end"],
		},
	];
	for (const c of cases) {
		it(c.name, () => {
			expect(draw(c.data, c.options, c.cursor ?? -1, c.terms ?? [])).toEqual(c.frame);
		});
	}

	it("cuts a long row at the width with an ellipsis", () => {
		expect(draw(tree([e("r1", null, "user", "a very long question about the webhook retry loop")]), {}, -1, [], 24)).toEqual(["  • user: a very long q…"]);
	});
});

describe("tree layout: moving", () => {
	const rows = treeRows(tree(chain.map((x) => (["c2", "c7", "c11"].includes(x.entryId) ? { ...x, hit: true } : x))), { ...OPTS, searching: true });
	const at = (id: string) => rowIndex(rows, entryKey(ROOT, id));

	it.each([
		{ from: "c0", dir: 1 as const, to: "c2", wrapped: false },
		{ from: "c2", dir: 1 as const, to: "c7", wrapped: false },
		{ from: "c11", dir: 1 as const, to: "c2", wrapped: true },
		{ from: "c7", dir: -1 as const, to: "c2", wrapped: false },
		{ from: "c2", dir: -1 as const, to: "c11", wrapped: true },
	])("n/N from $from ($dir) lands on $to", ({ from, dir, to, wrapped }) => {
		expect(stepHit(rows, at(from), dir)).toEqual({ index: at(to), wrapped });
	});

	it("has no hit to step to without hits", () => {
		expect(stepHit(treeRows(tree(chain), OPTS), 0, 1)).toBeNull();
	});

	it("finds a fork's head by its key", () => {
		const r = treeRows(tree(branched, [fork("r2", [])]), OPTS);
		expect((r[rowIndex(r, forkKey(FORK))] as TreeRow).type).toBe("fork");
	});
});

describe("tree layout: the visible window of a 1,000-entry session", () => {
	const big = [e("b0", null, "user", "q 0")];
	for (let i = 1; i < 1200; i++) big.push(e(`b${i}`, `b${i - 1}`, i % 2 ? "assistant" : "user", `q ${i}`));
	const rows = treeRows(tree(big), OPTS);

	it("draws only the window, the cursor centred", () => {
		expect(rows.length).toBe(1200);
		const cursor = rowIndex(rows, entryKey(ROOT, "b600"));
		const top = centredTop(cursor, 9, rows.length);
		const lines = frame(treeLines({ rows, cursor, top, height: 9, width: 40, terms: [], rootSession: ROOT }));
		expect(top).toBe(596);
		expect(lines).toEqual([
			"  • user: q 596",
			"  • assistant: q 597",
			"  • user: q 598",
			"  • assistant: q 599",
			"❯ • user: q 600",
			"  • assistant: q 601",
			"  • user: q 602",
			"  • assistant: q 603",
			"  • user: q 604",
		]);
	});

	it("clamps the window at both ends", () => {
		expect(centredTop(2, 9, 1200)).toBe(0);
		expect(centredTop(1199, 9, 1200)).toBe(1191);
		expect(centredTop(5, 9, 4)).toBe(0);
	});

	it("selected rows are drawn inverse over the whole width", () => {
		const line = treeLine(rows[0] as TreeRow, true, 30, [], ROOT);
		expect(line.every((s) => s.inverse)).toBe(true);
		expect(line.map((s) => s.text).join("").length).toBe(30);
	});
});

describe("tree layout: the rows on screen of a deep window", () => {
	it.each([
		{ name: "spine rows, one column shared", prefixes: ["⋯   ", "⋯   └─ ", "⋯      ", "⋯      ├─ "], shared: 1 },
		{ name: "one row: all its columns", prefixes: ["⋯         └─ "], shared: 3 },
		{ name: "rows that differ in their first column", prefixes: ["⋯│  ├─ ", "⋯   └─ "], shared: 0 },
		{ name: "a row's own connector is not shared", prefixes: ["⋯   ├─ ", "⋯   ├─ "], shared: 1 },
		{ name: "a window that was not clipped", prefixes: ["      ", "⋯   "], shared: 0 },
		{ name: "no rows read yet", prefixes: [], shared: 0 },
	])("$name: $shared", ({ prefixes, shared }) => {
		expect(sharedColumns(prefixes)).toBe(shared);
	});

	it("draws the rows from their first column that differs, after the mark", () => {
		const row = (id: string, prefix: string): TreeRow => ({
			type: "entry",
			key: entryKey(ROOT, id),
			prefix,
			sessionId: ROOT,
			entry: e(id, null, "user", `ask ${id}`),
			depth: 0,
			stretch: null,
		});
		const rows = [row("d1", "⋯            "), row("d2", "⋯            ├─ "), row("d3", "⋯            └─ "), row("d4", "⋯               ")];
		// Hand-drawn: the four columns every row holds are left out, the branch's connectors and the last row's column kept.
		expect(frame(treeLines({ rows, cursor: 0, top: 0, height: 4, width: 60, terms: [], rootSession: ROOT }))).toEqual([
			"❯ ⋯• user: ask d1",
			"  ⋯├─ • user: ask d2",
			"  ⋯└─ • user: ask d3",
			"  ⋯   • user: ask d4",
		]);
	});
});
