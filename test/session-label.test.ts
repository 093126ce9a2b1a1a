/**
 * Sessions told apart: a session, its /clone and its --fork made the same minute share the UUIDv7 timestamp prefix;
 * labels use the shortest differing tail instead, and copies of one entry across the family are one row.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sessionLabel, shortIds } from "../components/core/session-label.js";
import { lineText } from "../components/core/styled.js";
import { initialState, reduce } from "../components/root/state.js";
import { hitRows } from "../components/search/search-view.js";
import { makeHit } from "./helpers/ink.js";

// Three UUIDv7 ids written the same millisecond: the first 12 hex digits (the timestamp) are equal.
const FAMILY = ["01a22a21-7c3e-7a10-8f00-3b5e9d2c41aa", "01a22a21-7c3e-7b22-9e11-0c4d6a7e41aa", "01a22a21-7c3e-7c33-a122-5f1e2b3c9d07"];

describe("session labels", () => {
	it("shortens ids from the random end, to the fewest digits that still differ", () => {
		const short = shortIds(FAMILY);
		const labels = FAMILY.map((id) => short.get(id));
		expect(new Set(labels).size).toBe(3);
		for (const l of labels) expect(FAMILY[0]?.replace(/-/g, "").startsWith(l as string)).toBe(false);
		// The first two end alike in "41aa": they need more digits; the third is told apart by 4.
		expect(labels).toEqual(["c41aa", "e41aa", "9d07"]);
	});

	it("gives every id the tail the rule asks for, on random sets of ids that end alike", () => {
		// The rule as stated, length by length: at least 4 digits (dashes dropped), more while another id ends the same.
		const tail = (id: string, n: number) => id.replace(/-/g, "").slice(-n);
		const reference = (ids: string[]) => {
			const unique = [...new Set(ids)];
			return new Map(
				unique.map((id) => {
					let n = 4;
					const full = id.replace(/-/g, "").length;
					while (n < full && unique.some((other) => other !== id && tail(other, n) === tail(id, n))) n++;
					return [id, tail(id, n)];
				}),
			);
		};
		const id = fc.array(fc.constantFrom("a", "b", "-", "0"), { maxLength: 9 }).map((cs) => cs.join(""));
		fc.assert(
			fc.property(fc.array(id, { maxLength: 12 }), (ids) => {
				expect(shortIds(ids)).toEqual(reference(ids));
			}),
			{ numRuns: 1000 },
		);
	});

	it("names a session by its name, else its folder, plus the id part", () => {
		expect(sessionLabel({ name: "refactor auth", cwd: "/home/a/code/api" }, FAMILY[2] as string, "9d07")).toBe("refactor auth #9d07");
		expect(sessionLabel({ name: null, cwd: "/home/a/code/api" }, FAMILY[2] as string, "9d07")).toBe("api #9d07");
	});
});

describe("fork-family copies", () => {
	it("tells expanded copies apart on a one-line row too (narrow terminals), by the differing id part", () => {
		const short = shortIds(FAMILY);
		const rows = FAMILY.map((sessionId) =>
			lineText(hitRows(makeHit({ sessionId, entryId: "e7", snippet: "same text in every copy" }), 100, Date.now(), false, 1, short.get(sessionId))[0] ?? []),
		);
		expect(rows.map((r) => /#([0-9a-f]+)/.exec(r)?.[1])).toEqual(["c41aa", "e41aa", "9d07"]);
		for (const r of rows) expect(r).toContain("same text in every copy");
	});

	it("shows copies of one entry in several sessions as one row, the best-ranked copy first", () => {
		const copies = FAMILY.map((sessionId, i) => makeHit({ sessionId, entryId: "e7", score: 10 - i }));
		const other = makeHit({ sessionId: FAMILY[0], entryId: "e8" });
		const s0 = initialState({ size: { columns: 100, rows: 30 } });
		const s = reduce(s0, {
			type: "search-done",
			seq: s0.hits.results.seq,
			more: 0,
			result: { hits: [...copies, other], notes: [], index: { sessions: 3, events: 10, freshAt: null, pending: 0 } },
		});
		expect(s.hits.results.hits.map((h) => `${h.sessionId}/${h.entryId}`)).toEqual([`${FAMILY[0]}/e7`, `${FAMILY[0]}/e8`]);
		const row = hitRows(s.hits.results.hits[0] as ReturnType<typeof makeHit>, 100, Date.now(), false, 2, "c41aa", 2)
			.map(lineText)
			.join("\n");
		expect(row).toContain("same entry in 3 sessions");
		expect(row).toContain("#c41aa");
		expect(s.hits.results.copies[`${FAMILY[0]}/e7`]?.map((h) => h.sessionId)).toEqual([FAMILY[1], FAMILY[2]]);
		const expanded = reduce({ ...s, focus: "list" as const, mode: "list" as const }, { type: "key", input: "", key: { rightArrow: true } });
		expect(expanded.hits.results.hits.map((h) => h.sessionId)).toEqual([FAMILY[0], FAMILY[1], FAMILY[2], FAMILY[0]]);
		// New index data searches again, keeping the selection: the expanded row stays expanded.
		const again = reduce(expanded, { type: "index-changed" });
		const answered = reduce(again, {
			type: "search-done",
			seq: again.hits.results.seq,
			more: 0,
			result: { hits: [...copies, other], notes: [], index: { sessions: 3, events: 10, freshAt: null, pending: 0 } },
		});
		expect(answered.hits.results.hits.map((h) => h.sessionId)).toEqual([FAMILY[0], FAMILY[1], FAMILY[2], FAMILY[0]]);
		// A new query starts folded.
		const typed = reduce(answered, { type: "key", input: "xy", key: {} });
		expect(typed.hits.results.seq).toBeGreaterThan(answered.hits.results.seq);
		const fresh = reduce(typed, {
			type: "search-done",
			seq: typed.hits.results.seq,
			more: 0,
			result: { hits: [...copies, other], notes: [], index: { sessions: 3, events: 10, freshAt: null, pending: 0 } },
		});
		expect(fresh.hits.results.hits).toHaveLength(2);
	});
});
