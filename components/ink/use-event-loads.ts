/**
 * The event view's loads, off the render: the event on top of the back stack (read once per ref: a cache serves it
 * again until the index changes), the chunks of its large fragments the reducer asked for, a find step over every
 * fragment's whole text, and a walk up to the nearest fork. Each is keyed on what the reducer bumps when it wants it.
 */
import { type Dispatch, useCallback, useRef } from "react";
import type { ExplorerService } from "../core/explorer-service.js";
import { findForkAbove, findInEvent, fragmentText } from "../event/loaders.js";
import { blockIndex } from "../event/read-view.js";
import { chunkLoad, eventLoad, LoadCache } from "../root/explorer-loads.js";
import { type Action, type State, topLoc } from "../root/state.js";
import { useServiceLoad } from "./use-service-load.js";

/** Runs the event view's loads for `state`; `forget` drops the cached event reads (new index data). */
export function useEventLoads(service: ExplorerService, state: State, dispatch: Dispatch<Action>): { forget: () => void } {
	// The event on top of the back stack (read once per ref: the cache serves it again), and pages of its large
	// fragments: the same loads as pi's overlay (root/explorer-loads.ts).
	const cache = useRef(new LoadCache());
	const top = topLoc(state);
	const topKey = top?.key ?? "";
	const event = eventLoad(service, state, cache.current);
	useServiceLoad(event.key, event.load, event.fail, dispatch);
	const chunks = chunkLoad(service, state);
	useServiceLoad(chunks.key, chunks.load, chunks.fail, dispatch);

	// A find step, over the whole text of every fragment (read from the service, kept for the next n/N).
	const texts = useRef(new Map<string, string>());
	const findSeek = top?.findSeek ?? null;
	useServiceLoad(
		top && findSeek ? `${topKey}?${findSeek.seq}` : null,
		async (): Promise<Action> => {
			const ids = (top?.data?.read.fragments ?? []).map((f) => f.id).sort((a, b) => (blockIndex(a) ?? 0) - (blockIndex(b) ?? 0));
			const read = async (fid: string) => {
				const k = `${topKey}#${fid}`;
				let t = texts.current.get(k);
				if (t === undefined && top) {
					t = await fragmentText(service, top.ref, fid);
					texts.current.set(k, t);
					if (texts.current.size > 8) texts.current.delete(texts.current.keys().next().value as string);
				}
				return t ?? "";
			};
			const out = await findInEvent(ids, read, findSeek?.text ?? "", findSeek?.dir ?? 1, findSeek?.from ?? null);
			return { type: "find-done", seq: findSeek?.seq ?? 0, match: out.match, wrapped: out.wrapped, error: null };
		},
		(error) => ({ type: "find-done", seq: findSeek?.seq ?? 0, match: null, wrapped: false, error }),
		dispatch,
	);

	// Walks that need more than one trace (H: up to the nearest fork).
	const seek = state.events.seek;
	useServiceLoad(
		seek ? String(seek.seq) : null,
		async (): Promise<Action> => ({ type: "seek-done", seq: seek?.seq ?? 0, target: seek ? await findForkAbove(service, seek.from) : null, error: null }),
		(error) => ({ type: "seek-done", seq: seek?.seq ?? 0, target: null, error }),
		dispatch,
	);

	const forget = useCallback(() => cache.current.forget(), []);
	return { forget };
}
