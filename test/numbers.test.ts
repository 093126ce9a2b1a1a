/** grouped() writes numbers as toLocaleString("en-US") does (ICU is the reference), without loading the locale. */
import { describe, expect, it } from "vitest";
import { grouped } from "../src/shared/numbers.js";

const CASES = [0, -0, 1, 7, 12, 999, 1000, 1001, 9999, 10_000, 12_345, 99_999, 100_000, 999_999, 1_000_000, 1_234_567, 2 ** 31, 2 ** 53 - 1];

describe("grouped", () => {
	it.each(CASES.flatMap((n) => [n, -n]))("writes %d as en-US does", (n) => {
		expect(grouped(n)).toBe(n.toLocaleString("en-US"));
	});

	it.each([1.5, 1234.5678, -0.25, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])("writes the non-integer or unsafe %d as en-US does", (n) => {
		expect(grouped(n)).toBe(n.toLocaleString("en-US"));
	});

	it("groups every power of ten the same way", () => {
		for (let n = 1, digits = 1; digits <= 15; n *= 10, digits++) expect(grouped(n * 7)).toBe((n * 7).toLocaleString("en-US"));
	});
});
