/**
 * The rows laid out from a tree's display positions (tree-window.ts layRows), and what follows from where each row
 * starts: which positions it holds, so its count and a position's row are not kept per position.
 */

/** The rows laid out from a shape (tree-window.ts layRows). */
export interface LaidRows {
	start: Int32Array;
	type: Uint8Array;
	total: number;
}

/** How many display positions row `r` holds (a fold's entries; 1 for any other row): up to the next row's start. */
export function rowCount(rows: Pick<LaidRows, "start" | "total">, r: number, shown: number): number {
	return (r + 1 < rows.total ? (rows.start[r + 1] as number) : shown) - (rows.start[r] as number);
}

/** The row of display position `f`: the last row starting at or before it (rows start in display order). */
export function rowAt(start: Int32Array, f: number): number {
	let lo = 0;
	let hi = start.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if ((start[mid] as number) <= f) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}
