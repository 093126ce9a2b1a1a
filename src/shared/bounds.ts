/** Bounds of the numbers a request may carry (hits, snippet size, read window, neighbors) and clamping into them. */

/** A number's default and its allowed range. */
export interface Bounds {
	default: number;
	min: number;
	max: number;
}

/** Default and bounds of a search's limit and snippet size (DESIGN §5). */
export const LIMITS = { limit: { default: 10, min: 1, max: 50 }, snippetChars: { default: 240, min: 40, max: 2000 } } as const;

/** Default and bounds of `session_search` (seed 003): limit 5 (max 50), snippet 200 (max 2000) characters. */
export const SESSION_SEARCH_LIMITS = { limit: { default: 5, min: 1, max: 50 }, snippetChars: { default: 200, min: 40, max: 2000 } } as const;

/** Bounds of a read (DESIGN §5); faces may clamp further. */
export const READ_LIMITS = { maxChars: { default: 4000, min: 1, max: 1_000_000 }, neighbors: { default: 2, min: 0, max: 50 } } as const;

/**
 * Fragment ids are `event id * FRAGMENT_SLOTS + position`: an event keeps at most this many fragments. The project
 * layer caps fragments at it and the index packs ids with it, so it lives below both. A prime, not 1024: FTS5 finds
 * a deleted row in its tombstone hash at slot `rowid % slots` (a power of two), so with 1024 every event's first
 * fragment fell into one slot, and after a single rebuilt session every scan of a large doclist probed the whole
 * cluster for each row (a common word's count went from 0.7 ms to 36 ms on the 250 MB bench corpus).
 */
export const FRAGMENT_SLOTS = 1021;

/** Fragments up to this many characters are indexed whole; longer ones keep head and tail (I20). */
export const FRAGMENT_INDEX_LIMIT = 256 * 1024;
/** Characters of head and of tail kept from an oversized fragment (I20); the source keeps a little more of a long string. */
export const FRAGMENT_EDGE = 128 * 1024;

/** Clamps a number into [min, max] as an integer, using the default when it is missing or not a number. */
export function clamp(value: number | undefined, bounds: Bounds): number {
	if (value === undefined || !Number.isFinite(value)) return bounds.default;
	return Math.min(bounds.max, Math.max(bounds.min, Math.trunc(value)));
}
