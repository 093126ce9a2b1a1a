/**
 * The windows a snippet picks among (query/snippet.ts windows): for each match, the distinct terms and matches lying
 * wholly inside the window it anchors, worked out in one pass. Ground truth: filtering every match for every window.
 */
import { describe, expect, it } from "vitest";
import { type Match, windows } from "../src/query/snippet.js";

/** A seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

describe("snippet windows", () => {
	it("count the terms and matches inside each match's window as filtering every match does", () => {
		const next = random(29);
		for (let c = 0; c < 300; c++) {
			const n = Math.floor(next() * 40);
			const length = 50 + Math.floor(next() * 2000);
			const budget = 16 + Math.floor(next() * 300);
			// Overlapping spans too (a phrase and a camelCase part of it), sorted as findMatches returns them.
			const matches: Match[] = Array.from({ length: n }, () => {
				const start = Math.floor(next() * length);
				return { start, end: start + 1 + Math.floor(next() * 40), term: Math.floor(next() * 4) };
			}).sort((a, b) => a.start - b.start || a.end - b.end);
			const startOf = (m: Match) => Math.max(0, Math.min(m.start - Math.floor(budget / 4), length - budget));
			const got = windows(matches, startOf, budget);
			const want = matches.map((focus) => {
				const start = startOf(focus);
				const inside = matches.filter((x) => x.start >= start && x.end <= start + budget);
				return { start, score: new Set(inside.map((x) => x.term)).size, count: inside.length, focus };
			});
			expect(got, `case ${c}`).toEqual(want);
		}
	});
});
