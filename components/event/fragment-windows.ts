/**
 * A large fragment as the event view holds it: the windows of its text loaded so far (the head the read returned,
 * the tail, and chunks loaded as the view scrolls or finds), merged into contiguous runs with the gaps between
 * them. Scrolling near a gap asks for the chunk that fills it from the side the view comes from, so the text reads
 * on continuously, window after window. Pure: the event stack's reducer and the document builder share it.
 */
import type { FragmentWindow } from "../../src/shared/types.js";

/** Characters per chunk loaded while scrolling or finding. */
export const CHUNK_CHARS = 4000;

/** A contiguous run of loaded text: characters [from, to) of the fragment. */
export interface TextRun {
	from: number;
	to: number;
	text: string;
}

/** The loaded runs of a fragment in order and the gaps between them (and after the last). */
export interface FragmentLayout {
	runs: TextRun[];
	gaps: Array<[number, number]>;
}

/** Merges the loaded windows of one fragment (any order, overlapping or not) into runs and gaps. */
export function fragmentLayout(windows: readonly FragmentWindow[], totalChars: number): FragmentLayout {
	const sorted = [...windows].sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
	const runs: TextRun[] = [];
	const gaps: Array<[number, number]> = [];
	let cur: TextRun | null = null;
	for (const w of sorted) {
		const [from, to] = w.range;
		if (cur && from <= cur.to) {
			// Overlapping or touching: keep only what this window adds past the run's end.
			if (to > cur.to) {
				cur.text += w.text.slice(cur.to - from);
				cur.to = to;
			}
			continue;
		}
		if (cur) {
			runs.push(cur);
			gaps.push([cur.to, from]);
		} else if (from > 0) gaps.push([0, from]);
		cur = { from, to, text: w.text };
	}
	if (cur) runs.push(cur);
	const end = cur?.to ?? 0;
	if (end < totalChars) gaps.push([end, totalChars]);
	return { runs, gaps };
}

/** Whether characters [at, at + length) are all loaded. */
export function covers(layout: FragmentLayout, at: number, length: number): boolean {
	return layout.runs.some((r) => r.from <= at && at + Math.max(1, length) <= r.to);
}

/** The chunk that fills a gap from its start (scrolling down) or from its end (scrolling up). */
export function chunkFor(gap: [number, number], from: "start" | "end"): number {
	return from === "start" ? gap[0] : Math.max(gap[0], gap[1] - CHUNK_CHARS);
}

/** The chunk to load so that a match at `at` is shown with some text before it. */
export function chunkAround(at: number): number {
	return Math.max(0, at - 300);
}
