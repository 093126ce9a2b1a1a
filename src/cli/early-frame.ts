/**
 * The explorer's screen before React and Ink are loaded: the launcher reads the recent events itself (one search on
 * a read-only connection), reduces the keys typed meanwhile with the explorer's own reducer, and draws that state's
 * search screen (session text through the line builders' escaping, I21). <App/> then starts from the same actions,
 * so its first frame is the one already on screen and every key typed before it counts, in order.
 */
import { IDLE_INDEXING } from "../../components/core/explorer-service.js";
import { searchRequest } from "../../components/core/filters.js";
import { KeySplitter } from "../../components/core/key-splitter.js";
import { frameText } from "../../components/ink/first-frame.js";
import { searchFrameLines } from "../../components/ink/state-frame.js";
import { type Action, initialState, reduce, type State, searchedText } from "../../components/root/state.js";
import { firstPageSize } from "../../components/search/hits-state.js";
import { launchWorkspace, searchOnce } from "../service/first-page.js";
import { resolveFolder } from "../shared/filters.js";
import type { HistoryChoice, TuiOptions } from "./history-choice.js";
import { HOME } from "./screen.js";

/** The early screen: the first search's answer as an action, and how to draw and hand over the keys typed so far. */
export interface EarlyFrame {
	/** The actions <App/> starts from: the first search's answer (when the index could answer it), then every key of `typed`. */
	actions(typed: string): Action[];
	/** The screen for the keys typed so far, from the top left; "" when it is not a search screen the launcher can draw. */
	text(typed: string): string;
}

/** Reads the recent events (or the given query's first page) as <App/> would ask for them, before React loads. */
export function earlyFrame(options: TuiOptions, choice: HistoryChoice, size: { columns: number; rows: number }): EarlyFrame {
	const workspace = options.workspace ? resolveFolder(options.workspace, process.cwd()) : launchWorkspace(process.cwd(), choice.config.workspaceRoot);
	const filters = options.filters && Object.keys(options.filters).length > 0 ? options.filters : undefined;
	const start: State = initialState({
		size,
		workspace,
		...(options.workspace ? { scope: "workspace" as const } : {}),
		...(options.query ? { query: options.query } : {}),
		...(filters ? { filters } : {}),
		...(choice.notice ? { message: choice.notice } : {}),
	});
	const h = start.hits;
	const limit = firstPageSize(size);
	const request = {
		...searchRequest({
			query: searchedText(start.query.text),
			scope: h.scope,
			workspace: h.workspace,
			session: h.scopeSession,
			filters: h.filters,
			offset: 0,
			now: Date.now(),
			order: h.order,
		}),
		limit,
	};
	const result = options.open ? null : searchOnce(choice.config, request);
	const seed: Action[] = result ? [{ type: "search-done", seq: h.results.seq, more: 0, result, limit }] : [];
	const actions = (typed: string): Action[] => {
		const splitter = new KeySplitter();
		const keys = splitter.push(typed);
		keys.push(...splitter.flush());
		return [...seed, ...keys.map((k): Action => ({ type: "key", input: k.input, key: k.key, ...(k.paste ? { paste: true } : {}) }))];
	};
	return {
		actions,
		text: (typed) => {
			if (!result) return "";
			const state = actions(typed).reduce(reduce, start);
			const lines = searchFrameLines(state, {
				banner: choice.banner,
				indexing: { ...IDLE_INDEXING, phase: "indexing" },
				now: Math.floor(Date.now() / 1000) * 1000,
			});
			return lines ? HOME + frameText(lines, options.color, size.columns) : "";
		},
	};
}
