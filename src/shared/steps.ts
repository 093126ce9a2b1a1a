/**
 * Work in steps: a generator that yields between steps lets a host hand its event loop back there (pi's extension);
 * drain runs it to its end at once.
 */

/** Runs a generator to its end, for its value. */
export function drain<T>(steps: Generator<void, T>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
	}
}
