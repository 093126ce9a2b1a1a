/**
 * The explorer in Ink, a composition: one reducer (root/state.ts), one input hook (use-keys), the loads that ask the
 * service for what the state says is missing (use-hit-loads, use-event-loads, use-screen-loads, each keyed on what the
 * reducer bumps), the host's callbacks for what it asks of the world outside (use-requests), and the screens.
 * Everything comes in as props: the service, the terminal size, the indexing state, the clock, the callbacks.
 */
import { Box } from "ink";
import { type ReactNode, useEffect, useMemo, useReducer, useRef } from "react";
import type { EventRef, IndexStatus } from "../../src/shared/types.js";
import { type ExplorerService, IDLE_INDEXING, type IndexingState, type Size } from "../core/explorer-service.js";
import type { Filters, Scope } from "../core/filters.js";
import { eventLayout, frameHeight, overlayLines, searchLayout, tooSmall } from "../core/layout.js";
import { warmClusterWidths } from "../core/text-width.js";
import { hintsFor, MODE_NAMES } from "../root/help.js";
import { disabledReason } from "../root/keymap.js";
import { type Action, initialState, reduce, type State, topLoc } from "../root/state.js";
import { listPosition } from "../search/hits-state.js";
import { indexText } from "../search/search-view.js";
import { topTree } from "../tree/tree-state.js";
import { EventBody, EventHeader, scrollText } from "./EventView.js";
import { FilterPicker } from "./FilterPicker.js";
import { FindPrompt } from "./FindPrompt.js";
import { GotoPrompt } from "./GotoPrompt.js";
import { Line } from "./Line.js";
import { ForkPicker, HelpOverlay } from "./Overlays.js";
import { SearchBody, SearchHeader, tooSmallLine } from "./SearchScreen.js";
import { SessionBrowser } from "./SessionBrowser.js";
import { StatusBar } from "./StatusBar.js";
import { TreeBody, TreeHeader, treePosition } from "./TreeView.js";
import { useEventLoads } from "./use-event-loads.js";
import { useHitLoads } from "./use-hit-loads.js";
import { useKeys } from "./use-keys.js";
import { type Requests, useRequests } from "./use-requests.js";
import { useScreenLoads } from "./use-screen-loads.js";

export type { TaskOutcome } from "./use-requests.js";

/** Props of <App/>. */
export interface AppProps extends Requests {
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
	initialFilters?: Filters;
	/** An event to start on (`pi-history open <sessionId> <entryId>`). */
	initialEvent?: EventRef & { fragmentId?: string };
	/** Applied to the first state before the first frame: the launcher's answer to the first search, keys typed before React loaded. */
	initialActions?: readonly Action[];
	/** A fixed clock (tests); otherwise the time of each render. */
	now?: number;
	/** Wait after a keystroke before searching (default 0: the newest query wins anyway). */
	searchDelayMs?: number;
	/** Wait after a selection move before reading the preview, so holding ↓ stays smooth. */
	previewDelayMs?: number;
	/** Earlier queries, newest first (↑ and Ctrl+R recall them). */
	queryHistory?: readonly string[];
}

/** The index's status as of an indexing generation (the argument is what makes a new generation read it again). */
function readStatus(service: ExplorerService, _generation: number): IndexStatus | null {
	try {
		return service.status();
	} catch {
		return null;
	}
}

/** The interactive explorer. */
export function App(props: AppProps) {
	const { service, color = true, indexing = IDLE_INDEXING, banner = null } = props;
	const [state, dispatch] = useReducer(
		reduce,
		props,
		(p: AppProps): State =>
			(p.initialActions ?? []).reduce(
				reduce,
				initialState({
					size: p.size,
					workspace: p.workspace ?? null,
					...(p.initialScope ? { scope: p.initialScope } : {}),
					...(p.initialQuery ? { query: p.initialQuery } : {}),
					...(p.initialFilters && Object.keys(p.initialFilters).length > 0 ? { filters: p.initialFilters } : {}),
					...(p.initialMessage ? { message: p.initialMessage } : {}),
					...(p.initialEvent ? { open: p.initialEvent } : {}),
					...(p.queryHistory ? { queryHistory: p.queryHistory } : {}),
				}),
			),
	);
	// Whole seconds: the views show ages no finer, and a clock that changes every render would redraw memoized panes.
	const now = props.now ?? Math.floor(Date.now() / 1000) * 1000;
	// No wait by default: a search takes tens of milliseconds and keys typed meanwhile queue up, so the newest
	// query still wins; a fixed debounce only added its own delay to every keystroke.
	const searchDelay = props.searchDelayMs ?? 0;
	const previewDelay = props.previewDelayMs ?? 30;

	// The terminal size is a prop; the reducer needs it for page sizes, so it is synced during render (no stale frame).
	if (state.size.columns !== props.size.columns || state.size.rows !== props.size.rows) dispatch({ type: "resize", size: props.size });

	// The one input handler: the reducer maps the key through the keymap against its current state.
	// Keys come split one by one (use-keys), so a burst read in one chunk acts like the same keys typed slowly.
	useKeys((k) => dispatch({ type: "key", input: k.input, key: k.key, ...(k.paste ? { paste: true } : {}) }));

	const { forget: forgetHits } = useHitLoads(service, state, dispatch, searchDelay, previewDelay);
	const { forget: forgetEvents } = useEventLoads(service, state, dispatch);
	useScreenLoads(service, state, dispatch);
	useRequests(service, state, dispatch, props);
	// New data in the index: search again, keeping the selected hit; forget cached event reads.
	const generation = indexing.generation;
	const firstGeneration = useRef(generation);
	useEffect(() => {
		if (generation === firstGeneration.current) return;
		forgetEvents();
		forgetHits();
		dispatch({ type: "index-changed" });
	}, [generation, forgetHits, forgetEvents]);
	// Each indexing report is a new object: a finished one ends the refresh key's message (a refresh that found
	// nothing new changes no generation, so it is the phase that says it is over).
	useEffect(() => {
		if (indexing.phase === "done" || indexing.phase === "failed") dispatch({ type: "refresh-done" });
	}, [indexing]);
	// The index's whole status counts every event (about 60 ms on a 500 MB history, on this thread): it is read only
	// for the one screen that shows part of it, an index known to be empty, which names the folders it looked in.
	const emptyIndex = state.hits.results.index?.events === 0;
	// Once the first answer is on screen, string-width's first-use costs run while a person reads it (text-width.ts).
	const answered = state.hits.results.status === "ready";
	useEffect(() => {
		if (answered) warmClusterWidths();
	}, [answered]);
	const status = useMemo(() => (emptyIndex ? readStatus(service, generation) : null), [emptyIndex, service, generation]);

	const size = state.size;
	const top = topLoc(state);
	const treeLoc = topTree(state.tree);
	if (tooSmall(size)) {
		return (
			<Box width={size.columns} height={Math.min(1, frameHeight(size))}>
				<Line line={tooSmallLine(size.columns)} color={color} />
			</Box>
		);
	}
	const mode = state.mode;
	const height = frameHeight(size);
	const bodyHeight = overlayLines(size, top !== null);
	const sLayout = searchLayout(size);
	const eLayout = eventLayout(size);

	let body: ReactNode;
	const o = state.overlay;
	if (state.goto) body = <GotoPrompt goto={state.goto} width={size.columns} height={bodyHeight} color={color} />;
	else if (o?.type === "help")
		body = <HelpOverlay width={size.columns} height={bodyHeight} color={color} scroll={o.scroll} reasonOf={(b) => disabledReason(b, state)} />;
	else if (o?.type === "filters")
		body = <FilterPicker width={size.columns} height={bodyHeight} color={color} draft={o.draft} row={o.row} pick={o.pick} edit={o.edit} now={now} />;
	else if (o?.type === "fork")
		body = <ForkPicker width={size.columns} height={bodyHeight} color={color} title={o.title} candidates={o.candidates} cursor={o.cursor} />;
	else if (state.browser) body = <SessionBrowser browser={state.browser} width={size.columns} height={bodyHeight} now={now} color={color} />;
	else if (mode === "tree" && treeLoc) body = <TreeBody loc={treeLoc} width={size.columns} height={bodyHeight} color={color} banner={banner} />;
	else if (top) body = <EventBody loc={top} layout={eLayout} wrap={state.events.wrap} color={color} />;
	else body = <SearchBody state={state} layout={sLayout} now={now} color={color} indexing={indexing} status={status} />;

	const r = state.hits.results;
	const where =
		state.browser || state.goto
			? MODE_NAMES[mode]
			: mode === "tree" && treeLoc
				? `${treePosition(treeLoc)} · ${MODE_NAMES[mode]}`
				: top
					? `${scrollText(top, eLayout, state.events.wrap)} · ${MODE_NAMES[mode]}`
					: r.hits.length > 0
						? `${MODE_NAMES[mode]} · ${listPosition(state.hits)}`
						: MODE_NAMES[mode];
	const statusText = state.message
		? {
				text: state.message.text,
				tone: state.message.tone === "error" ? ("error" as const) : state.message.tone === "warn" ? ("warn" as const) : ("accent" as const),
			}
		: indexText(indexing, r.index, now);

	return (
		<Box flexDirection="column" width={size.columns} height={height}>
			{treeLoc && treeLoc.depth === state.events.stack.length ? (
				<TreeHeader loc={treeLoc} width={size.columns} color={color} banner={banner} />
			) : top ? (
				<EventHeader loc={top} depth={state.events.stack.length} width={size.columns} now={now} color={color} banner={banner} />
			) : (
				<SearchHeader state={state} width={size.columns} banner={banner} color={color} now={now} />
			)}
			<Box flexDirection="column" width={size.columns} height={bodyHeight}>
				{body}
			</Box>
			{mode === "find" ? (
				<FindPrompt width={size.columns} field={state.events.finding ?? { text: "", cursor: 0 }} hints={hintsFor(mode)} color={color} />
			) : (
				<StatusBar width={size.columns} status={statusText} whole={state.message !== null} where={where} hints={hintsFor(mode)} color={color} />
			)}
		</Box>
	);
}
