/** How the views write counts and sizes. Its own module: the hand-drawn first frame needs a count, not the event views. */
import { grouped } from "../../src/present/numbers.js";
import type { HitCount } from "../../src/shared/types.js";

/** 12,345 */
export function num(n: number): string {
	return grouped(n);
}

/** 1.2 KB, 3.4 MB */
export function bytes(n: number): string {
	if (n < 1024) return `${n} B`;
	if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
	return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * How many hits there are, as the title and the status bar say it: the loaded rows when there are no more pages,
 * else the core's count of all matches ("1,234", "10,000+" at its cap), else the loaded rows and a "+".
 */
export function hitTotal(loaded: number, exhausted: boolean, total: HitCount | null): string {
	if (exhausted) return num(loaded);
	// A count equal to the loaded rows is exact too: the last page was full, but nothing comes after it.
	if (total && (total.count > loaded || (total.count === loaded && !total.atLeast))) return `${num(total.count)}${total.atLeast ? "+" : ""}`;
	return `${num(loaded)}+`;
}
