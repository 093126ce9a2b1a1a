import { describe, expect, it } from "vitest";
import { branchNeighbors, childrenOf, classifyTree, type TreeNode } from "../src/project/tree.js";

const n = (id: string, parentId: string | null, type = "message", extra: Partial<TreeNode> = {}): TreeNode => ({
	id,
	parentId,
	type,
	refId: null,
	messageProducing: type === "message" || type === "custom_message",
	...extra,
});

// The seed's example: A → B → C → D (old branch), B → E → F (materialized later).
const seed = [n("A", null), n("B", "A"), n("C", "B"), n("D", "C"), n("E", "B"), n("F", "E")];

describe("classifyTree", () => {
	it("takes the last entry in file order as the materialized leaf", () => {
		const facts = classifyTree(seed, "F");
		expect(facts.leafId).toBe("F");
		expect(facts.path).toEqual(["A", "B", "E", "F"]);
		expect(facts.states.get("C")?.branchState).toBe("alternate");
		expect(facts.states.get("E")?.branchState).toBe("selected");
	});

	it("treats missing parents and self-parents as roots (pi 1.x getTree) and cycles as unknown", () => {
		const facts = classifyTree([n("A", null), n("X", "gone"), n("P", "Q"), n("Q", "P"), n("S", "S"), n("B", "A")], "B");
		expect(facts.roots).toEqual(["A", "X", "S"]);
		expect(facts.states.get("X")?.branchState).toBe("alternate");
		expect(facts.states.get("P")?.selectionState).toBe("unknown");
		expect(facts.states.get("S")?.branchState).toBe("alternate");
	});

	it("follows pi's compaction rule: before firstKept is summarized, from firstKept on is direct", () => {
		const nodes = [
			n("m", null, "model_change"),
			n("u1", "m"),
			n("a1", "u1"),
			n("u2", "a1"),
			n("a2", "u2"),
			n("c", "a2", "compaction", { refId: "u2" }),
			n("u3", "c"),
		];
		const facts = classifyTree(nodes, "u3");
		const sel = (id: string) => facts.states.get(id)?.selectionState;
		expect([sel("u1"), sel("a1")]).toEqual(["summarized", "summarized"]);
		expect([sel("u2"), sel("a2"), sel("c"), sel("u3")]).toEqual(["direct", "direct", "direct", "direct"]);
		expect(sel("m")).toBe("not-applicable");
		expect(facts.states.get("u1")?.summarizedBy).toEqual({ entryId: "c", provenance: "recorded" });
	});

	it("marks the abandoned branch a branch summary describes as summarized (derived)", () => {
		// A → B → C → D, then navigate back to B with a summary: S is a child of B written right after D.
		const nodes = [n("A", null), n("B", "A"), n("C", "B"), n("D", "C"), n("S", "B", "branch_summary", { messageProducing: true }), n("E", "S")];
		const facts = classifyTree(nodes, "E");
		expect(facts.states.get("C")).toEqual({ branchState: "alternate", selectionState: "summarized", summarizedBy: { entryId: "S", provenance: "derived" } });
		expect(facts.states.get("D")?.selectionState).toBe("summarized");
		expect(facts.states.get("S")?.selectionState).toBe("direct");
	});

	it("leaves a plain rewind not-selected", () => {
		expect(classifyTree(seed, "F").states.get("D")?.selectionState).toBe("not-selected");
	});
});

describe("branchNeighbors", () => {
	const byId = new Map(seed.map((x) => [x.id, { parentId: x.parentId }]));
	const children = childrenOf(seed);
	const onPath = (id: string) => ["A", "B", "E", "F"].includes(id);
	it.each([
		["E: parent chain up, F after", "E", 1, 5, ["B"], ["F"], []],
		["B: follows the materialized path and reports C", "B", 1, 5, ["A"], ["E", "F"], ["C"]],
		["C: off the path, follows the only child", "C", 2, 5, ["A", "B"], ["D"], []],
		["A: before is empty at a root", "A", 3, 1, [], ["B"], []],
	])("%s", (_name, target, before, after, up, down, forks) => {
		const r = branchNeighbors(target, byId, children, onPath, before, after);
		expect([r.before, r.after, r.forkCandidates]).toEqual([up, down, forks]);
	});

	it("stops at an unresolved fork off the path and returns every candidate", () => {
		const nodes = [n("A", null), n("B", "A"), n("C", "B"), n("D", "B"), n("L", "A")];
		const r = branchNeighbors("B", new Map(nodes.map((x) => [x.id, x])), childrenOf(nodes), (id) => id === "A" || id === "L", 0, 5);
		expect(r).toMatchObject({ after: [], forkCandidates: ["C", "D"], stoppedAtFork: true });
	});
});
