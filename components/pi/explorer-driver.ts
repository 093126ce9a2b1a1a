/**
 * The explorer's state without React: the same reducer (root/state.ts) and the same loads the Ink App runs (the
 * first page of hits, the next pages, the selected hit's preview, the tree), each keyed on what the reducer bumps,
 * so a host that only draws lines (pi's TUI) shows exactly what pi-history shows. A newer key drops a late answer;
 * keys are reduced one by one in the order they arrive, whatever the service is still answering.
 */
import { errorText } from "../../src/present/text.js";
import type { SearchRequest, SearchResult } from "../../src/shared/types.js";
import type { ExplorerService } from "../core/explorer-service.js";
import { PAGE_SIZE, searchRequest } from "../core/filters.js";
import { loadPreview, runSearch } from "../event/loaders.js";
import type { Action } from "../root/actions.js";
import type { KeyInfo } from "../root/keymap.js";
import { type InitOptions, initialState, previewKey, reduce, type State, selectedHit } from "../root/state.js";
import { firstPageSize } from "../search/hits-state.js";
import { treeRead } from "../tree/tree-load.js";
import { topTree, treeBodyLines } from "../tree/tree-state.js";

type Load = () => Promise<Action | Action[]>;

interface Running {
	key: string;
	live: boolean;
	timer: ReturnType<typeof setTimeout>;
}

/** Wait after a selection move before reading the preview, so holding ↓ stays smooth (as in the Ink App). */
const PREVIEW_DELAY_MS = 30;
const RESULT_CACHE = 64;

/** The search the state asks for, from hit `offset` on, `limit` hits. */
export function requestOf(s: State, offset: number, limit: number): SearchRequest {
	const h = s.hits;
	const request = searchRequest({
		query: s.query.text,
		scope: h.scope,
		workspace: h.workspace,
		session: h.scopeSession,
		filters: h.filters,
		offset,
		now: Date.now(),
		order: h.order,
	});
	return { ...request, limit };
}

/** Holds the explorer's state and runs the loads it asks for; `onChange` is called after every state change. */
export class ExplorerDriver {
	state: State;
	private readonly running = new Map<string, Running>();
	private readonly results = new Map<string, SearchResult>();
	private closed = false;

	constructor(
		private readonly service: ExplorerService,
		init: InitOptions,
		private readonly onChange: () => void,
	) {
		this.state = initialState(init);
		this.sync();
	}

	/** Reduces one action and starts or drops the loads the new state asks for. */
	dispatch(action: Action): void {
		if (this.closed) return;
		this.state = reduce(this.state, action);
		this.sync();
		this.onChange();
	}

	/** One key, as the reducer's keymap reads it. */
	key(input: string, key: KeyInfo, paste = false): void {
		this.dispatch({ type: "key", input, key, ...(paste ? { paste: true } : {}) });
	}

	/** Stops every pending load; answers that arrive later are dropped. */
	close(): void {
		this.closed = true;
		for (const r of this.running.values()) {
			r.live = false;
			clearTimeout(r.timer);
		}
		this.running.clear();
	}

	private want(name: string, key: string | null, load: Load, fail: (error: string) => Action, delayMs = 0): void {
		const current = this.running.get(name);
		if (current && current.key === key) return;
		if (current) {
			current.live = false;
			clearTimeout(current.timer);
			this.running.delete(name);
		}
		if (key === null) return;
		const run: Running = { key, live: true, timer: setTimeout(() => undefined, 0) };
		clearTimeout(run.timer);
		const deliver = (out: Action | Action[]) => {
			if (!run.live || this.closed) return;
			for (const a of Array.isArray(out) ? out : [out]) this.dispatch(a);
		};
		run.timer = setTimeout(() => {
			load().then(deliver, (error: unknown) => {
				if (run.live && !this.closed) this.dispatch(fail(errorText(error)));
			});
		}, delayMs);
		this.running.set(name, run);
	}

	private sync(): void {
		const s = this.state;
		const h = s.hits;
		const seq = h.results.seq;
		this.want(
			"search",
			String(seq),
			async () => {
				const limit = h.results.keep ? PAGE_SIZE : firstPageSize(s.size);
				const request = requestOf(s, 0, limit);
				const key = JSON.stringify({
					...request,
					filters: { ...request.filters, after: request.filters?.after?.slice(0, 13), before: request.filters?.before?.slice(0, 13) },
				});
				const cached = this.results.get(key);
				if (cached) return { type: "search-done", seq, more: 0, result: cached, limit };
				const out = await runSearch(this.service, request);
				if (!("result" in out)) return { type: "search-failed", seq, error: out.error };
				this.results.set(key, out.result);
				if (this.results.size > RESULT_CACHE) this.results.delete(this.results.keys().next().value as string);
				return { type: "search-done", seq, more: 0, result: out.result, limit };
			},
			(error) => ({ type: "search-failed", seq, error }),
		);
		const moreSeq = h.results.moreSeq;
		const fetched = h.results.fetched;
		this.want(
			"more",
			moreSeq === 0 ? null : `${seq}+${moreSeq}`,
			async () => {
				const out = await runSearch(this.service, requestOf(s, fetched, PAGE_SIZE));
				return "result" in out
					? { type: "search-done", seq, more: moreSeq, result: out.result, limit: PAGE_SIZE }
					: { type: "search-failed", seq, error: out.error };
			},
			(error) => ({ type: "search-failed", seq, error }),
		);
		const pKey = previewKey(s);
		const hit = selectedHit(s);
		this.want(
			"preview",
			hit ? pKey : null,
			async () => ({ type: "preview-done", key: pKey ?? "", read: hit ? await loadPreview(this.service, hit) : null, error: null }),
			(error) => ({ type: "preview-done", key: pKey ?? "", read: null, error }),
			PREVIEW_DELAY_MS,
		);
		const tree = treeRead(this.service, topTree(s.tree), treeBodyLines(s.size), s.tree.stack.length);
		this.want("tree", tree.key, tree.run, tree.fail);
	}
}
