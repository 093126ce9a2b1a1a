/** The frame memo stand-ins' one kind of cache: answers by line, dropped whole when full. */

/** Answers a map keeps; a screen holds well under a hundred lines, so a full map is dropped whole. */
const LIMIT = 4000;

/** `compute(key)`, remembered in `map` (emptied once it holds LIMIT answers). */
export function rememberIn<V>(map: Map<string, V>, key: string, compute: (key: string) => V): V {
	let value = map.get(key);
	if (value === undefined) {
		if (map.size >= LIMIT) map.clear();
		value = compute(key);
		map.set(key, value);
	}
	return value;
}
