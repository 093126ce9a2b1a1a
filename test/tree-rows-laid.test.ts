/** A laid-out row holds the display positions from its start to the next row's: its count, a position's row. */
import { describe, expect, it } from "vitest";
import { type LaidRows, rowAt, rowCount } from "../src/query/tree-rows-laid.js";

/** Rows over `shown` positions, starting where `starts` says (a fold holds several). */
const rows = (starts: number[]): LaidRows => ({
	start: Int32Array.from(starts),
	type: new Uint8Array(starts.length),
	total: starts.length,
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
		expect(of.map((_, f) => rowAt(laid.start, f))).toEqual(of);
	});
});
