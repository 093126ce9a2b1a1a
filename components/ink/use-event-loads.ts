/**
 * The event view's loads, off the render: the event on top of the back stack (read once per ref: a cache serves it
 * again until the index changes), the chunks of its large fragments the reducer asked for, a find step over every
 * fragment's whole text, and a walk up to the nearest fork. Each is keyed on what the reducer bumps when it wants it.
 */
import { type Dispatch, useCallback, useRef } from "react";
import { errorText } from "../../src/present/text.js";
import type { ExplorerService } from "../core/explorer-service.js";
import type { EventData } from "../event/event-data.js";
import { findForkAbove, findInEvent, fragmentText, loadChunk, loadEvent } from "../event/loaders.js";
import { blockIndex } from "../event/read-view.js";
import { type Action, type State, topLoc } from "../root/state.js";
import { useServiceLoad } from "./use-service-load.js";

const EVENT_CACHE = 32;

/** Runs the event view's loads for `state`; `forget` drops the cached event reads (new index data). */
export function useEventLoads(service: ExplorerService, state: State, dispatch: Dispatch<Action>): { forget: () => void } {
	// The event on top of the back stack (read once per ref: the cache serves it again), and pages of its large fragments.
	const cache = useRef(new Map<string, EventData>());
	const top = topLoc(state);
	const topKey = top?.key ?? "";
	useServiceLoad(
		top !== null && top.data === null && top.error === null ? `${topKey}@${state.events.stack.length}` : null,
		async (): Promise<Action> => {
			let data = cache.current.get(topKey);
			if (!data && top) {
				data = await loadEvent(service, top.ref);
				cache.current.set(topKey, data);
				if (cache.current.size > EVENT_CACHE) cache.current.delete(cache.current.keys().next().value as string);
			}
			return { type: "event-done", key: topKey, data: data ?? null, error: data ? null : "no event" };
		},
		(error) => ({ type: "event-done", key: topKey, data: null, error }),
		dispatch,
	);
	// Chunks of large fragments the view asked for (scrolling near text not loaded yet, a find's match).
	const wanted = top ? top.wanted : [];
	useServiceLoad(
		top && wanted.length > 0 ? `${topKey}|${wanted.map((w) => `${w.fid}@${w.offset}`).join(",")}` : null,
		() =>
			Promise.all(
				wanted.map(async ({ fid: fragmentId, offset }): Promise<Action> => {
					try {
						return {
							type: "page-done",
							key: topKey,
							fragmentId,
							offset,
							window: top ? await loadChunk(service, top.ref, fragmentId, offset) : null,
							error: null,
						};
					} catch (error) {
						return { type: "page-done", key: topKey, fragmentId, offset, window: null, error: errorText(error) };
					}
				}),
			),
		(error) => ({ type: "page-done", key: topKey, fragmentId: "", offset: -1, window: null, error }),
		dispatch,
	);

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

	const forget = useCallback(() => cache.current.clear(), []);
	return { forget };
}
