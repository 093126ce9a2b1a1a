/** Binary search over ascending numbers. */

/** Where `id` is in ascending `ids` (-1: absent). */
export function indexOfSorted(ids: ArrayLike<number>, id: number): number {
	let lo = 0;
	let hi = ids.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const v = ids[mid] as number;
		if (v === id) return mid;
		if (v < id) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

/** The first position of an ascending array whose value is at least `v` (its length: none). */
export function lowerBound(a: ArrayLike<number>, v: number): number {
	let lo = 0;
	let hi = a.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if ((a[mid] as number) < v) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}
