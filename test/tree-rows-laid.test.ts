/** A laid-out row holds the display positions from its start to the next row's: its count, a position's row. */
import { describe, expect, it } from "vitest";
import { type LaidRows, rowAt, rowCount, rowCounts, rowsOfPositions } from "../src/query/tree-rows-laid.js";

/** Rows over `shown` positions, starting where `starts` says (a fold holds several). */
const rows = (starts: number[]): LaidRows => ({
	start: Int32Array.from(starts),
	type: new Uint8Array(starts.length),
	total: starts.length,
	kept: new Uint8Array(0),
});

describe("rows laid out over display positions", () => {
	it.each([
		// positions 0..6: a row each, then a fold of 0..3
		{ starts: [0, 1, 2, 3, 4, 5, 6], shown: 7, counts: [1, 1, 1, 1, 1, 1, 1], of: [0, 1, 2, 3, 4, 5, 6] },
		{ starts: [0, 4, 5, 6], shown: 7, counts: [4, 1, 1, 1], of: [0, 0, 0, 0, 1, 2, 3] },
		{ starts: [0, 1, 5], shown: 9, counts: [1, 4, 4], of: [0, 1, 1, 1, 1, 2, 2, 2, 2] },
		{ starts: [0], shown: 1, counts: [1], of: [0] },
	])("starts $starts over $shown positions", ({ starts, shown, counts, of }) => {
		const laid = rows(starts);
		expect(starts.map((_, r) => rowCount(laid, r, shown))).toEqual(counts);
		expect([...rowCounts(laid, shown)]).toEqual(counts);
		expect([...rowsOfPositions(laid, shown)]).toEqual(of);
		expect(of.map((_, f) => rowAt(laid.start, f))).toEqual(of);
		// Any range of them, as a kept layout writes them chunk by chunk.
		for (let a = 0; a <= shown; a++)
			for (let b = a; b <= shown; b++) expect([...rowsOfPositions(laid, shown, a, b)], `positions ${a}..${b}`).toEqual(of.slice(a, b));
		for (let a = 0; a <= counts.length; a++)
			for (let b = a; b <= counts.length; b++) expect([...rowCounts(laid, shown, a, b)], `rows ${a}..${b}`).toEqual(counts.slice(a, b));
	});
});
