/** PathIds (src/index/path-ids.ts): the row ids a walk up a session's path met, whatever order the walk met them in. */
import { describe, expect, it } from "vitest";
import { PathIds } from "../src/index/path-ids.js";

describe("the row ids a walk up a path met", () => {
	it.each([
		["descending, as parents before children give them", [900, 512, 511, 7, 1]],
		["one id", [42]],
		["none", []],
		["an id met again right away (a parent cycle of one)", [10, 10, 9]],
		["a parent after its child in the file: out of order from there on", [50, 40, 45, 30, 40]],
		["ascending from the start", [1, 2, 3]],
		["ids past 32 bits", [2 ** 33, 5, 2 ** 31]],
		["negative ids", [3, -1, -(2 ** 31)]],
	])("%s: has what was added and nothing else, each once", (_name, added) => {
		const ids = new PathIds();
		for (const id of added) ids.add(id);
		const want = new Set(added);
		expect(new Set(ids)).toEqual(want);
		expect([...ids].length).toBe(want.size);
		expect(ids.size).toBe(want.size);
		for (const probe of [...added, 0, 6, 8, 46, 513, 899, 901, 2 ** 32, -3]) expect(ids.has(probe), `has ${probe}`).toBe(want.has(probe));
		expect(ids.min()).toBe(added.length === 0 ? undefined : Math.min(...added));
		// Back down the walk: each id once, the last added first.
		expect([...ids.reversed()]).toEqual([...want].reverse());
	});

	it("membership asked between adds, as a walk checks for an entry it met before", () => {
		const ids = new PathIds();
		const walk = [100, 90, 80, 95, 70, 90];
		const seenAt: boolean[] = [];
		for (const id of walk) {
			seenAt.push(ids.has(id));
			ids.add(id);
		}
		expect(seenAt).toEqual([false, false, false, false, false, true]);
	});
});
