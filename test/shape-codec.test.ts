/** The kept tree shape's run encoding of row ids and parent links, and the doubles chunks were written in before. */
import { describe, expect, it } from "vitest";
import { decodeFlags, decodeIds, decodeParents, encodeFlags, encodeIds, encodeParents, isRunEncoded } from "../src/index/shape-codec.js";

const ids = (b: Uint8Array, n: number) => {
	const out = new Float64Array(n + 2).fill(-9);
	decodeIds(b, n, out, 1);
	return Array.from(out);
};
const parents = (b: Uint8Array, n: number) => {
	const out = new Int32Array(n + 2).fill(-9);
	decodeParents(b, n, out, 1);
	return Array.from(out);
};
/** The same bytes one byte into a bigger buffer: a blob need not be aligned. */
const unaligned = (b: Buffer) => {
	const big = Buffer.alloc(b.length + 1);
	b.copy(big, 1);
	return big.subarray(1);
};

describe("row ids of a kept shape chunk", () => {
	it.each([
		["no entries", [], 1],
		["one run", [7, 8, 9, 10], 3],
		["runs broken by another session's rows", [7, 8, 20, 21, 22, 40], 7],
		["every id alone", [5, 3, 9], 7],
		["ids past 2^24", [2 ** 24 + 1, 2 ** 24 + 2, 2 ** 30], 5],
	])("%s: decode what was encoded", (_name, values, words) => {
		const b = encodeIds(values);
		expect(b.length).toBe(words * 4);
		expect(isRunEncoded(b)).toBe(true);
		expect(ids(b, values.length)).toEqual([-9, ...values, -9]);
		expect(ids(unaligned(b), values.length)).toEqual([-9, ...values, -9]);
	});

	it("reads a chunk written as doubles before", () => {
		const values = [3, 4, 5, 2 ** 30];
		const b = Buffer.from(Float64Array.from(values).buffer);
		expect(isRunEncoded(b)).toBe(false);
		expect(ids(b, values.length)).toEqual([-9, ...values, -9]);
		expect(ids(unaligned(b), values.length)).toEqual([-9, ...values, -9]);
	});

	it("refuses runs that do not add up to the chunk's entries", () => {
		expect(() => ids(encodeIds([1, 2, 3]), 4)).toThrow(/3 row ids for 4 entries/);
	});
});

describe("parent links of a kept shape chunk", () => {
	it.each([
		["one path (each under the row above)", [0, -1, -1, -1], 3],
		["a branch, a late parent, a root", [0, -1, 17, -1, -2, 0], 9],
		["no link is the row above", [5, 6, 7], 7],
	])("%s: decode what was encoded", (_name, values, words) => {
		const b = encodeParents(values);
		expect(b.length).toBe(words * 4);
		expect(parents(b, values.length)).toEqual([-9, ...values, -9]);
		expect(parents(unaligned(b), values.length)).toEqual([-9, ...values, -9]);
	});

	it("reads a chunk written as doubles before (a first link of the row above included)", () => {
		const values = [-1, -1, 0, 12, -2];
		const b = Buffer.from(Float64Array.from(values).buffer);
		expect(isRunEncoded(b)).toBe(false);
		expect(parents(b, values.length)).toEqual([-9, ...values, -9]);
	});

	it("names the entries whose link is not the row above, from where the chunk is written, in either form", () => {
		const values = [0, -1, 17, -1, -2, -1];
		for (const b of [encodeParents(values), Buffer.from(Float64Array.from(values).buffer)]) {
			const links: number[] = [];
			decodeParents(b, values.length, new Int32Array(10), 4, links);
			expect(links).toEqual([4, 6, 8]);
		}
	});

	it("refuses a link outside the chunk", () => {
		expect(() => parents(encodeParents([0, 5, 6]), 2)).toThrow(/at 2 of 2 entries/);
	});
});

describe("fixed flags of a kept shape chunk", () => {
	const flags = (b: Uint8Array, n: number) => {
		const out = new Uint16Array(n + 2).fill(9);
		decodeFlags(b, n, out, 1);
		return Array.from(out);
	};
	it("takes a byte each when all fit, two when one does not, and reads both (two as written before)", () => {
		const small = Uint16Array.from([1, 0, 64, 237]);
		expect(encodeFlags(small).length).toBe(4);
		expect(flags(encodeFlags(small), 4)).toEqual([9, 1, 0, 64, 237, 9]);
		const wide = Uint16Array.from([1, 300, 2]);
		expect(encodeFlags(wide).length).toBe(6);
		expect(flags(encodeFlags(wide), 3)).toEqual([9, 1, 300, 2, 9]);
		expect(flags(unaligned(Buffer.from(wide.buffer)), 3)).toEqual([9, 1, 300, 2, 9]);
	});
});
