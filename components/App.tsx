/**
 * The explorer: one reducer (state.ts), one useInput (keys → keymap → actions), effects that ask the service for
 * what the state says is missing (hits, the next page, the preview, an event, a page of a fragment), and the
 * screens. Everything comes in as props: the service, the terminal size, the indexing state, the clock.
 */
import { Box, useApp, useInput } from "ink";
import { type ReactNode, useEffect, useMemo, useReducer, useRef } from "react";
import { errorText } from "../src/present/text.js";
import type { IndexStatus, SearchRequest, SearchResult } from "../src/shared/types.js";
import { EventBody, EventHeader, scrollText } from "./EventView.js";
import { type ExplorerService, IDLE_INDEXING, type IndexingState, type Size } from "./explorer-service.js";
import { type Scope, searchRequest, toolsIn } from "./filters.js";
import { hintsFor, MODE_NAMES } from "./keymap.js";
import { Line } from "./Line.js";
import { eventLayout, frameHeight, overlayLines, searchLayout, tooSmall } from "./layout.js";
import { type EventData, findForkAbove, loadEvent, loadPage, loadPreview, runSearch } from "./loaders.js";
import { FilterPicker, ForkPicker, HelpOverlay } from "./Overlays.js";
import { SearchBody, SearchHeader, tooSmallLine } from "./SearchScreen.js";
import { StatusBar } from "./StatusBar.js";
import { indexText } from "./search-view.js";
import { initialState, modeOf, previewKey, reduce, type State, selectedHit, topLoc } from "./state.js";

/** Props of <App/>. */
export interface AppProps {
	service: ExplorerService;
	size: Size;
	color?: boolean;
	indexing?: IndexingState;
	/** A line shown in the title, e.g. that this is the bundled demo history. */
	banner?: string | null;
	/** A message for the status bar at start (e.g. why the demo history is open). */
	initialMessage?: string | null;
	/** The "this workspace" scope's directory (null: the scope is skipped). */
	workspace?: string | null;
	initialScope?: Scope;
	initialQuery?: string;
	/** A fixed clock (tests); otherwise the time of each render. */
	now?: number;
	/** Wait after a keystroke before searching (default 0: the newest query wins anyway). */
	searchDelayMs?: number;
	/** Wait after a selection move before reading the preview, so holding ↓ stays smooth. */
	previewDelayMs?: number;
	onCopy?: (text: string) => void;
	onExit?: (code: number) => void;
}

const EVENT_CACHE = 32;
const RESULT_CACHE = 64;

/** The search the state asks for, from hit `offset` on (0: the first page). */
function requestOf(s: State, offset: number): SearchRequest {
	return searchRequest({ query: s.query, scope: s.scope, workspace: s.workspace, session: s.scopeSession, filters: s.filters, offset, now: Date.now() });
}

/** The interactive explorer. */
export function App(props: AppProps) {
	const { service, color = true, indexing = IDLE_INDEXING, banner = null } = props;
	const [state, dispatch] = useReducer(
		reduce,
		props,
		(p: AppProps): State =>
			initialState({
				size: p.size,
				workspace: p.workspace ?? null,
				...(p.initialScope ? { scope: p.initialScope } : {}),
				...(p.initialQuery ? { query: p.initialQuery } : {}),
				...(p.initialMessage ? { message: p.initialMessage } : {}),
			}),
	);
	const { exit } = useApp();
	const now = props.now ?? Date.now();
	// No wait by default: a search takes tens of milliseconds and keys typed meanwhile queue up, so the newest
	// query still wins; a fixed debounce only added its own delay to every keystroke.
	const searchDelay = props.searchDelayMs ?? 0;
	const previewDelay = props.previewDelayMs ?? 30;

	// The terminal size is a prop; the reducer needs it for page sizes, so it is synced during render (no stale frame).
	if (state.size.columns !== props.size.columns || state.size.rows !== props.size.rows) dispatch({ type: "resize", size: props.size });

	// The one input handler: the reducer maps the key through the keymap against its current state.
	useInput((input, key) => dispatch({ type: "key", input, key }));

	// Each effect below is keyed on the sequence number or key the reducer bumps when it wants that load: the state
	// of that render is the request, and a newer request bumps the key again (so the deps are deliberately narrow).

	// Hits for the current query, scope and filters, after searchDelay (0 unless a caller sets one): the newest request
	// wins and older answers are dropped. First pages are cached until the index changes, so Backspace through a
	// query answers at once.
	const firstSearch = useRef(true);
	const results = useRef(new Map<string, SearchResult>());
	const seq = state.results.seq;
	useEffect(() => {
		const request = requestOf(state, 0);
		const key = JSON.stringify({ ...request, filters: { ...request.filters, after: request.filters?.after?.slice(0, 13) } });
		const cached = results.current.get(key);
		if (cached) {
			dispatch({ type: "search-done", seq, more: 0, result: cached });
			return;
		}
		const delay = firstSearch.current ? 0 : searchDelay;
		firstSearch.current = false;
		const t = setTimeout(() => {
			const out = runSearch(service, request);
			if ("result" in out) {
				results.current.set(key, out.result);
				if (results.current.size > RESULT_CACHE) results.current.delete(results.current.keys().next().value as string);
			}
			dispatch("result" in out ? { type: "search-done", seq, more: 0, result: out.result } : { type: "search-failed", seq, error: out.error });
		}, delay);
		return () => clearTimeout(t);
	}, [seq]);

	// The next page of hits, when the cursor nears the end of what is loaded.
	const moreSeq = state.results.moreSeq;
	useEffect(() => {
		if (moreSeq === 0) return;
		const request = requestOf(state, state.results.hits.length);
		const t = setTimeout(() => {
			const out = runSearch(service, request);
			dispatch("result" in out ? { type: "search-done", seq, more: moreSeq, result: out.result } : { type: "search-failed", seq, error: out.error });
		}, 0);
		return () => clearTimeout(t);
	}, [moreSeq]);

	// The preview of the selected hit.
	const pKey = previewKey(state);
	const hit = selectedHit(state);
	useEffect(() => {
		if (!pKey || !hit) return;
		const t = setTimeout(() => {
			try {
				dispatch({ type: "preview-done", key: pKey, read: loadPreview(service, hit), error: null });
			} catch (error) {
				dispatch({ type: "preview-done", key: pKey, read: null, error: errorText(error) });
			}
		}, previewDelay);
		return () => clearTimeout(t);
	}, [pKey]);

	// The event on top of the back stack, and pages of its large fragments.
	const cache = useRef(new Map<string, EventData>());
	const top = topLoc(state);
	const needsEvent = top !== null && top.data === null && top.error === null;
	const topKey = top?.key ?? null;
	useEffect(() => {
		if (!needsEvent || topKey === null || !top) return;
		const ref = top.ref;
		const t = setTimeout(() => {
			const cached = cache.current.get(topKey);
			if (cached) return dispatch({ type: "event-done", key: topKey, data: cached, error: null });
			try {
				const data = loadEvent(service, ref);
				cache.current.set(topKey, data);
				if (cache.current.size > EVENT_CACHE) cache.current.delete(cache.current.keys().next().value as string);
				dispatch({ type: "event-done", key: topKey, data, error: null });
			} catch (error) {
				dispatch({ type: "event-done", key: topKey, data: null, error: errorText(error) });
			}
		}, 0);
		return () => clearTimeout(t);
	}, [needsEvent, topKey, state.stack.length]);

	const missingPages = top ? Object.entries(top.pages).filter(([fid]) => !top.pageWindows[fid]) : [];
	const pagesKey = top ? `${top.key}|${missingPages.map(([f, o]) => `${f}@${o}`).join(",")}` : "";
	useEffect(() => {
		if (!top || missingPages.length === 0) return;
		const t = setTimeout(() => {
			for (const [fragmentId, offset] of missingPages) {
				try {
					dispatch({ type: "page-done", key: top.key, fragmentId, offset, window: loadPage(service, top.ref, fragmentId, offset), error: null });
				} catch (error) {
					dispatch({ type: "page-done", key: top.key, fragmentId, offset, window: null, error: errorText(error) });
				}
			}
		}, 0);
		return () => clearTimeout(t);
	}, [pagesKey]);

	// Walks that need more than one trace (H: up to the nearest fork).
	const seekSeq = state.seek?.seq ?? 0;
	useEffect(() => {
		const seek = state.seek;
		if (!seek) return;
		const t = setTimeout(() => {
			try {
				dispatch({ type: "seek-done", seq: seek.seq, target: findForkAbove(service, seek.from), error: null });
			} catch (error) {
				dispatch({ type: "seek-done", seq: seek.seq, target: null, error: errorText(error) });
			}
		}, 0);
		return () => clearTimeout(t);
	}, [seekSeq]);

	// Side effects the reducer asked for.
	const copySeq = state.copy?.seq ?? 0;
	useEffect(() => {
		if (state.copy) props.onCopy?.(state.copy.text);
	}, [copySeq]);
	useEffect(() => {
		if (state.exit === null) return;
		props.onExit?.(state.exit);
		exit();
	}, [state.exit]);

	// New data in the index: search again, keeping the selected hit; forget cached event reads.
	const generation = indexing.generation;
	const firstGeneration = useRef(generation);
	useEffect(() => {
		if (generation === firstGeneration.current) return;
		cache.current.clear();
		results.current.clear();
		dispatch({ type: "index-changed" });
	}, [generation]);
	const status = useMemo((): IndexStatus | null => {
		try {
			return service.status();
		} catch {
			return null;
		}
	}, [service, generation]);

	const size = state.size;
	if (tooSmall(size)) {
		return (
			<Box width={size.columns} height={Math.min(1, frameHeight(size))}>
				<Line line={tooSmallLine(size.columns)} color={color} />
			</Box>
		);
	}
	const mode = modeOf(state);
	const height = frameHeight(size);
	const bodyHeight = overlayLines(size);
	const sLayout = searchLayout(size);
	const eLayout = eventLayout(size);

	let body: ReactNode;
	const o = state.overlay;
	if (o?.type === "help") body = <HelpOverlay width={size.columns} height={bodyHeight} color={color} scroll={o.scroll} />;
	else if (o?.type === "filters")
		body = <FilterPicker width={size.columns} height={bodyHeight} color={color} draft={o.draft} row={o.row} tools={toolsIn(state.results.hits)} />;
	else if (o?.type === "fork")
		body = <ForkPicker width={size.columns} height={bodyHeight} color={color} title={o.title} candidates={o.candidates} cursor={o.cursor} />;
	else if (top) body = <EventBody loc={top} layout={eLayout} wrap={state.wrap} color={color} />;
	else body = <SearchBody state={state} layout={sLayout} now={now} color={color} indexing={indexing} status={status} />;

	const r = state.results;
	const where = top
		? `${scrollText(top, eLayout, state.wrap)} · ${MODE_NAMES[mode]}`
		: r.hits.length > 0
			? `${MODE_NAMES[mode]} · hit ${state.selected + 1} of ${r.hits.length}${r.exhausted ? "" : "+"}`
			: MODE_NAMES[mode];
	const statusText = state.message
		? {
				text: state.message.text,
				tone: state.message.tone === "error" ? ("error" as const) : state.message.tone === "warn" ? ("warn" as const) : ("accent" as const),
			}
		: indexText(indexing, r.index, now);

	return (
		<Box flexDirection="column" width={size.columns} height={height} overflow="hidden">
			{top ? (
				<EventHeader loc={top} depth={state.stack.length} width={size.columns} now={now} color={color} banner={banner} />
			) : (
				<SearchHeader state={state} width={size.columns} banner={banner} color={color} />
			)}
			<Box flexDirection="column" width={size.columns} height={bodyHeight} overflow="hidden">
				{body}
			</Box>
			<StatusBar width={size.columns} status={statusText} where={where} hints={hintsFor(mode)} color={color} />
		</Box>
	);
}
