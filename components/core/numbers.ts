/** How the views write counts and sizes. Its own module: the hand-drawn first frame needs a count, not the event views. */

/** 12,345 */
export function num(n: number): string {
	return n.toLocaleString("en-US");
}

/** 1.2 KB, 3.4 MB */
export function bytes(n: number): string {
	if (n < 1024) return `${n} B`;
	if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
	return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
