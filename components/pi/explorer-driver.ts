/**
 * The explorer's state without React: the same reducer (root/state.ts) and the same loads the Ink App runs
 * (root/explorer-loads.ts: the first page of hits, the next pages, the count, the selected hit's preview, the event
 * view's event and chunks, the tree), each keyed on what the reducer bumps, so a host that only draws lines (pi's
 * TUI) shows exactly what pi-history shows. A newer key drops a late answer; keys are reduced one by one in the
 * order they arrive, whatever the service is still answering.
 */
import { errorText } from "../../src/present/text.js";
import type { ExplorerService } from "../core/explorer-service.js";
import type { Action } from "../root/actions.js";
import {
	chunkLoad,
	countLoad,
	eventLoad,
	firstPageLoad,
	groupCountsLoad,
	LoadCache,
	type LoadSpec,
	nextPageLoad,
	previewLoad,
	treeLoad,
} from "../root/explorer-loads.js";
import type { KeyInfo } from "../root/keymap.js";
import { type InitOptions, initialState, reduce, type State } from "../root/state.js";

interface Running {
	key: string;
	live: boolean;
	timer: ReturnType<typeof setTimeout>;
}

/** Wait after a selection move before reading the preview, so holding ↓ stays smooth (as in the Ink App). */
const PREVIEW_DELAY_MS = 30;
/** Wait before counting every hit, so keys typed meanwhile cancel it (as in the Ink App). */
const COUNT_DELAY_MS = 300;

/** Options of the driver. */
export interface DriverOptions {
	/** Count every hit ("hit 1 of 812"); off when searches run on the host's own thread. */
	count?: boolean;
}

/** Holds the explorer's state and runs the loads it asks for; `onChange` is called after every state change. */
export class ExplorerDriver {
	state: State;
	private readonly running = new Map<string, Running>();
	private readonly cache = new LoadCache();
	private closed = false;

	constructor(
		private readonly service: ExplorerService,
		init: InitOptions,
		private readonly onChange: () => void,
		private readonly options: DriverOptions = {},
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

	private want(name: string, spec: LoadSpec, delayMs = 0): void {
		const { key, load, fail } = spec;
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
		this.want("search", firstPageLoad(this.service, s, this.cache));
		this.want("more", nextPageLoad(this.service, s));
		if (this.options.count !== false) {
			this.want("count", countLoad(this.service, s), COUNT_DELAY_MS);
			this.want("groups", groupCountsLoad(this.service, s), COUNT_DELAY_MS);
		}
		this.want("preview", previewLoad(this.service, s), PREVIEW_DELAY_MS);
		this.want("event", eventLoad(this.service, s, this.cache));
		this.want("chunks", chunkLoad(this.service, s));
		this.want("tree", treeLoad(this.service, s));
	}
}
