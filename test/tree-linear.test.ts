/**
 * Tree classification is linear in entries for any shape (issue 32 item 2), measured by work, not time: every read of
 * an entry's parent link is counted, and the count per entry stays a small constant as the session grows fourfold —
 * with a branch summary every few entries on a deepening main line, and with summaries that go back and forth
 * between a deep tip and a branch near the root (each would walk the whole depth in a quadratic classification).
 * Which summary claims which entry is checked against the definition, walked naively, on random trees.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyTree, type TreeNode } from "../src/project/tree.js";
import { classifyingPacked, classifyPacked, KIND, NODE, packedNodes } from "../src/project/tree-classify.js";

/** Nodes whose parent links count their reads. */
function counted(raw: Array<Omit<TreeNode, "messageProducing"> & { messageProducing?: boolean }>): { nodes: TreeNode[]; reads: () => number } {
	let reads = 0;
	const nodes = raw.map((r) => {
		const parentId = r.parentId;
		const node = { ...r, messageProducing: r.messageProducing ?? r.type === "message" } as TreeNode;
		Object.defineProperty(node, "parentId", {
			get: () => {
				reads++;
				return parentId;
			},
		});
		return node;
	});
	return { nodes, reads: () => reads };
}

type Raw = { id: string; parentId: string | null; type: string; refId: string | null };

/** A main line that deepens; every `every` entries a 3-entry side branch is abandoned with a summary back to the line. */
function summariesOnDeepLine(entries: number, every: number): Raw[] {
	const out: Raw[] = [];
	let tip: string | null = null;
	const add = (parentId: string | null, type = "message", refId: string | null = null) => {
		const id = `e${out.length}`;
		out.push({ id, parentId, type, refId });
		return id;
	};
	while (out.length < entries) {
		tip = add(tip);
		if (out.length % every === 0) {
			let side = add(tip);
			side = add(side);
			side = add(side);
			tip = add(tip, "branch_summary", side);
		}
	}
	return out;
}

/** A deep main line, then summaries going back and forth between its tip and a branch off its second entry. */
function backAndForth(entries: number): Raw[] {
	const out: Raw[] = [];
	const add = (parentId: string | null, type = "message", refId: string | null = null) => {
		const id = `e${out.length}`;
		out.push({ id, parentId, type, refId });
		return id;
	};
	let tip = add(null);
	const second = add(tip);
	tip = second;
	while (out.length < entries / 2) tip = add(tip);
	let near = add(second);
	while (out.length < entries) {
		// Leave the near-root branch for the deep tip (summary under the tip), then come back (summary under `second`).
		const atTip = add(tip, "branch_summary", near);
		tip = add(atTip);
		near = add(add(second, "branch_summary", tip));
	}
	return out;
}

/** The definition, walked naively: from each summary's old leaf up to the first ancestor of its position; first summary wins. */
function naiveAbandoned(nodes: Raw[]): Map<string, string> {
	const byId = new Map(nodes.map((n) => [n.id, n]));
	const up = (id: string | null) => {
		const path: string[] = [];
		const seen = new Set<string>();
		for (let c = id; c !== null && byId.has(c) && !seen.has(c); c = byId.get(c)?.parentId ?? null) {
			seen.add(c);
			path.push(c);
		}
		return path;
	};
	const out = new Map<string, string>();
	nodes.forEach((s, i) => {
		if (s.type !== "branch_summary") return;
		const recorded = s.refId !== null && s.refId !== s.parentId;
		const oldLeaf = recorded ? (byId.has(s.refId as string) ? s.refId : null) : i > 0 ? (nodes[i - 1] as Raw).id : null;
		if (oldLeaf === null || oldLeaf === s.parentId) return;
		const target = new Set(up(s.parentId));
		for (const id of up(oldLeaf)) {
			if (target.has(id)) break;
			if (!out.has(id)) out.set(id, s.id);
		}
	});
	return out;
}

describe("tree classification is linear in entries (issue 32 item 2)", () => {
	for (const [name, shape] of [
		["a summary every 10 entries on a deepening line", (n: number) => summariesOnDeepLine(n, 10)],
		["a summary every 3 entries on a deepening line", (n: number) => summariesOnDeepLine(n, 3)],
		["summaries back and forth between a deep tip and a branch near the root", backAndForth],
	] as const) {
		it(`${name}: parent-link reads per entry stay constant as the session grows fourfold`, () => {
			const perEntry: number[] = [];
			for (const size of [4_000, 16_000]) {
				const raw = shape(size);
				const { nodes, reads } = counted(raw);
				const facts = classifyTree(nodes, (raw.at(-1) as Raw).id);
				expect(facts.states.size).toBe(raw.length);
				perEntry.push(reads() / raw.length);
			}
			// A quadratic walk reads hundreds of links per entry at these sizes, more at each; a linear one a handful.
			for (const r of perEntry) expect(r).toBeLessThan(12);
			expect((perEntry[1] as number) / (perEntry[0] as number)).toBeLessThan(1.2);
		});
	}

	it("each summary claims what the definition says, on random trees", () => {
		const arb = fc.array(fc.record({ parent: fc.nat(), summary: fc.boolean(), ref: fc.option(fc.nat(), { nil: null }) }), { minLength: 1, maxLength: 60 });
		fc.assert(
			fc.property(arb, (spec) => {
				const raw: Raw[] = spec.map((s, i) => {
					const parentId = i === 0 ? null : `e${s.parent % i}`;
					const refId = s.summary ? (s.ref === null ? parentId : `e${s.ref % (i + 1)}`) : null;
					return { id: `e${i}`, parentId, type: s.summary ? "branch_summary" : "message", refId };
				});
				const { nodes } = counted(raw);
				const facts = classifyTree(nodes, (raw.at(-1) as Raw).id);
				expect(Object.fromEntries(facts.abandonedBy)).toEqual(Object.fromEntries(naiveAbandoned(raw)));
			}),
			{ numRuns: 300 },
		);
	});

	it("classifies a big session in steps, each a bounded number of entries per pass, with the one-call result", () => {
		// A line of 300,000 entries, a compaction near its end, and a branch summary that abandons its upper half.
		const n = 300_000;
		const t = packedNodes(n);
		for (let i = 0; i < n; i++) {
			t.kind[i] = KIND.message;
			t.flags[i] = NODE.producing | NODE.refNull;
			t.parent[i] = i - 1;
		}
		const summary = n - 2;
		t.kind[summary] = KIND.branchSummary;
		t.flags[summary] = NODE.refNull;
		t.parent[summary] = n / 2;
		t.kind[n - 10] = KIND.compaction;
		t.flags[n - 10] = 0;
		t.ref[n - 10] = n - 30;
		let steps = 0;
		const run = classifyingPacked(t, n - 1);
		let next = run.next();
		for (; !next.done; next = run.next()) steps++;
		// Every pass over the entries (reachability, the final states, the numbering, the summaries' claims) steps.
		expect(steps).toBeGreaterThanOrEqual(4 * Math.floor(n / 65_536));
		const once = classifyPacked(t, n - 1);
		expect(Buffer.from(next.value.state)).toEqual(Buffer.from(once.state));
		expect(next.value.abandonedBy?.[n - 3]).toBe(summary);
		expect(next.value.abandonedBy?.[n / 2 - 1]).toBe(-1);
	});
});
