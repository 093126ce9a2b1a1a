/**
 * V8's full garbage collection, for the tree view's big layouts: a family's columns are tens of bytes a node and
 * garbage once a layout is written or replaced, but V8 frees typed arrays only when it collects, and left to itself
 * it let two or three layouts' worth pile up (a third of the indexer's peak RSS on a million-entry session).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Families from this many nodes have what their last layout left collected before the next one is made. */
export const COLLECT_FROM = 250_000;

let collectorFn: (() => void) | null | undefined;

/** The full collection, as jest's leak detector reaches it; null where the flag cannot be set. */
export function fullCollection(): (() => void) | null {
	if (collectorFn === undefined) {
		try {
			setFlagsFromString("--expose-gc");
			collectorFn = runInNewContext("gc") as () => void;
		} catch {
			collectorFn = null;
		}
	}
	return collectorFn;
}
