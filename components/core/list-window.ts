/** Window math for scrolling lists: which rows are visible, moving the window only when the cursor leaves it. */

/** Clamps an index into [0, count - 1] (0 for an empty list). */
export function clampIndex(index: number, count: number): number {
	if (count <= 0) return 0;
	return Math.min(count - 1, Math.max(0, index));
}

/**
 * The first visible row for a window of `height` rows over `count` rows with the cursor at `cursor`:
 * keeps `top` when the cursor is still inside (so the list does not jump), and never shows empty space
 * after the last row when there are enough rows to fill the window.
 */
export function windowTop(cursor: number, top: number, height: number, count: number): number {
	if (height <= 0 || count <= 0) return 0;
	let t = top;
	if (cursor < t) t = cursor;
	if (cursor >= t + height) t = cursor - height + 1;
	t = Math.min(t, Math.max(0, count - height));
	return Math.max(0, t);
}

/** The visible slice [from, to) of a window. */
export function visibleRange(top: number, height: number, count: number): { from: number; to: number } {
	const from = Math.max(0, Math.min(top, count));
	return { from, to: Math.min(count, from + Math.max(0, height)) };
}

/** A scroll offset clamped so the window stays within `count` lines. */
export function clampScroll(scroll: number, height: number, count: number): number {
	return Math.max(0, Math.min(scroll, Math.max(0, count - height)));
}

/** "12–20 of 143" style position text for a window, or "" when everything is visible. */
export function positionText(top: number, height: number, count: number, more = false): string {
	if (count <= height && !more) return "";
	const { from, to } = visibleRange(top, height, count);
	return `${from + 1}–${to} of ${count}${more ? "+" : ""}`;
}
