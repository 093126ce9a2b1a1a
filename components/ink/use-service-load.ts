/**
 * The one shape every load of the explorer has: when the state asks for something (a key that changes when a new
 * request is made), ask the service off the render, then dispatch the answer, and drop it if a newer request came.
 */
import { type Dispatch, useEffect, useRef } from "react";
import { errorText } from "../../src/present/text.js";
import type { Action } from "../root/actions.js";

/** What a load produces: actions to dispatch, now or later (a worker's answer). */
export type LoadResult = Action | Action[] | Promise<Action | Action[]>;

/**
 * Runs `load` `delayMs` after `key` changes to a non-null value and dispatches its actions; a throw becomes
 * `fail(message)`. The request is the key: `load` and `fail` are read from the latest render (whose state asks for
 * the same key), so they need not be stable. A newer key cancels a pending timer and drops a late answer.
 */
export function useServiceLoad(key: string | null, load: () => LoadResult, fail: (error: string) => Action, dispatch: Dispatch<Action>, delayMs = 0): void {
	const latest = useRef({ load, fail });
	latest.current = { load, fail };
	useEffect(() => {
		if (key === null) return;
		let live = true;
		const deliver = (out: Action | Action[]) => {
			if (!live) return;
			for (const a of Array.isArray(out) ? out : [out]) dispatch(a);
		};
		const failed = (error: unknown) => {
			if (live) dispatch(latest.current.fail(errorText(error)));
		};
		const run = () => {
			try {
				const out = latest.current.load();
				if (out instanceof Promise) out.then(deliver, failed);
				else deliver(out);
			} catch (error) {
				failed(error);
			}
		};
		// Without a wait the request goes out now: a timer of 0 ms is one more turn of the loop, behind whatever else
		// waits there, before a keystroke's search reaches the query thread.
		const t = delayMs > 0 ? setTimeout(run, delayMs) : undefined;
		if (t === undefined) run();
		return () => {
			live = false;
			clearTimeout(t);
		};
	}, [key, delayMs, dispatch]);
}
