/**
 * The explorer: one reducer (root/state.ts, over the slices of root/state-core.ts), one useInput (keys → keymap → actions), loads
 * (useServiceLoad; the hit list's in use-hit-loads) that ask the service for what the state says is missing (an
 * event, chunks of a large fragment, a find, a tree, a walk, the session list, a task), and the
 * screens. The render also measures the event document on screen for the reducer (`measured`), which never builds one.
 * Everything comes in as props: the service, the terminal size, the indexing state, the clock.
 */
import { Box, useApp } from "ink";
import { type ReactNode, useEffect, useMemo, useReducer, useRef } from "react";
import { resolveSessionId } from "../../src/present/ref-parse.js";
import { errorText } from "../../src/present/text.js";
import type { EventRef, IndexStatus } from "../../src/shared/types.js";
import { type ExplorerService, IDLE_INDEXING, type IndexingState, type Size } from "../core/explorer-service.js";
import type { Filters, Scope } from "../core/filters.js";
import { eventLayout, frameHeight, overlayLines, searchLayout, tooSmall } from "../core/layout.js";
import { hitTotal } from "../core/numbers.js";
import { measureTop } from "../event/event-doc.js";
import { findForkAbove, findInEvent, fragmentText } from "../event/loaders.js";
import { blockIndex } from "../event/read-view.js";
import { type TaskRequest, taskRequest } from "../prompts/task-loads.js";
import { chunkLoad, eventLoad, LoadCache, treeLoad } from "../root/explorer-loads.js";
import { hintsFor, MODE_NAMES } from "../root/help.js";
import { type Action, initialState, modeOf, reduce, type State, topLoc } from "../root/state.js";
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
import { useHitLoads } from "./use-hit-loads.js";
import { useKeys } from "./use-keys.js";
import { useServiceLoad } from "./use-service-load.js";

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
	initialFilters?: Filters;
	/** An event to start on (`pi-history open <sessionId> <entryId>`). */
	initialEvent?: EventRef & { fragmentId?: string };
	/** A fixed clock (tests); otherwise the time of each render. */
	now?: number;
	/** Wait after a keystroke before searching (default 0: the newest query wins anyway). */
	searchDelayMs?: number;
	/** Wait after a selection move before reading the preview, so holding ↓ stays smooth. */
	previewDelayMs?: number;
	/** Copies a ref; what it returns (if anything) replaces the status line, so it can say what really happened. */
	onCopy?: (text: string) => { text: string; copied: boolean } | undefined;
	onExit?: (code: number) => void;
	/** Reads new session lines now (the refresh key). */
	onRefresh?: () => void;
	/**
	 * Runs a task outside the explorer (continue in pi, copy Markdown, pager, editor, export) with what App read for
	 * it; its answer is the status line. Without one (tests, no launcher) the status says the task is not available.
	 */
	onTask?: (request: TaskRequest) => TaskOutcome | Promise<TaskOutcome>;
}

/** What a task did, for the status bar. */
export interface TaskOutcome {
	text: string;
	tone: "info" | "warn" | "error";
}

const TASK_DELAY_MS = 60;
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
			initialState({
				size: p.size,
				workspace: p.workspace ?? null,
				...(p.initialScope ? { scope: p.initialScope } : {}),
				...(p.initialQuery ? { query: p.initialQuery } : {}),
				...(p.initialFilters && Object.keys(p.initialFilters).length > 0 ? { filters: p.initialFilters } : {}),
				...(p.initialMessage ? { message: p.initialMessage } : {}),
				...(p.initialEvent ? { open: p.initialEvent } : {}),
			}),
	);
	const { exit } = useApp();
	// Whole seconds: the views show ages no finer, and a clock that changes every render would redraw memoized panes.
	const now = props.now ?? Math.floor(Date.now() / 1000) * 1000;
	// No wait by default: a search takes tens of milliseconds and keys typed meanwhile queue up, so the newest
	// query still wins; a fixed debounce only added its own delay to every keystroke.
	const searchDelay = props.searchDelayMs ?? 0;
	const previewDelay = props.previewDelayMs ?? 30;

	// The terminal size is a prop; the reducer needs it for page sizes, so it is synced during render (no stale frame).
	if (state.size.columns !== props.size.columns || state.size.rows !== props.size.rows) dispatch({ type: "resize", size: props.size });
	else {
		// The event stack's reducer scrolls, places and pages with the numbers of the document on screen; the view
		// builds and measures it (the reducer never does), synced during render like the size, so no frame is stale.
		const measured = measureTop(topLoc(state), state.size, state.events.wrap);
		if (measured) dispatch(measured);
	}

	// The one input handler: the reducer maps the key through the keymap against its current state.
	// Keys come split one by one (use-keys), so a burst read in one chunk acts like the same keys typed slowly.
	useKeys((k) => dispatch({ type: "key", input: k.input, key: k.key, ...(k.paste ? { paste: true } : {}) }));

	// Every load below is keyed on the sequence number or key the reducer bumps when it wants that load (useServiceLoad
	// runs it off the render and drops answers to older keys).

	// The hit list: the first page, the next pages, the total count and the selected hit's preview.
	const { forget: forgetHits } = useHitLoads(service, state, dispatch, searchDelay, previewDelay);

	// The event on top of the back stack (read once per ref), pages of its large fragments, and the top tree view's
	// tree: the same loads as pi's overlay (root/explorer-loads.ts).
	const cache = useRef(new LoadCache());
	const top = topLoc(state);
	const topKey = top?.key ?? "";
	const eventSpec = eventLoad(service, state, cache.current);
	useServiceLoad(eventSpec.key, eventSpec.load, eventSpec.fail, dispatch);
	const chunks = chunkLoad(service, state);
	useServiceLoad(chunks.key, chunks.load, chunks.fail, dispatch);
	const treeSpec = treeLoad(service, state);
	useServiceLoad(treeSpec.key, treeSpec.load, treeSpec.fail, dispatch);
	const treeLoc = topTree(state.tree);

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

	// The session browser's listing (one query on the query thread), and the check of a ref before the prompt lands on it.
	const browser = state.browser;
	const bSeq = browser?.seq ?? 0;
	useServiceLoad(
		browser ? String(bSeq) : null,
		async (): Promise<Action> => {
			if (!service.sessions) return { type: "sessions-failed", seq: bSeq, error: "the session list is not available here" };
			const workspace = browser?.scope === "workspace" ? browser.workspace : null;
			return { type: "sessions-done", seq: bSeq, result: await service.sessions({ workspace }) };
		},
		(error) => ({ type: "sessions-failed", seq: bSeq, error }),
		dispatch,
	);
	const checking = state.goto?.checking ?? null;
	useServiceLoad(
		checking ? String(checking.seq) : null,
		async (): Promise<Action> => {
			const seq = checking?.seq ?? 0;
			if (!checking) return { type: "goto-done", seq, error: null };
			const { sessionId, entryId } = checking.ref;
			try {
				await service.read({ sessionId, entryId, maxChars: 1 });
				return { type: "goto-done", seq, error: null };
			} catch (error) {
				// A short session id (the #tail the explorer shows, or a prefix): find the one session it names.
				const listing = service.sessions ? await service.sessions({}) : null;
				const found = listing ? resolveSessionId(sessionId, listing.sessions) : null;
				if (!found || "error" in found || found.id === sessionId)
					return { type: "goto-done", seq, error: found && "error" in found ? found.error : errorText(error) };
				await service.read({ sessionId: found.id, entryId, maxChars: 1 });
				return { type: "goto-done", seq, error: null, sessionId: found.id };
			}
		},
		(error) => ({ type: "goto-done", seq: checking?.seq ?? 0, error }),
		dispatch,
	);

	// Side effects the reducer asked for; the callbacks are read from the latest props.
	const callbacks = useRef({ onCopy: props.onCopy, onExit: props.onExit, onRefresh: props.onRefresh, onTask: props.onTask });
	callbacks.current = { onCopy: props.onCopy, onExit: props.onExit, onRefresh: props.onRefresh, onTask: props.onTask };

	// A task on an event: read what it needs (the whole text, the branch), then hand it to the launcher.
	const task = state.task;
	useServiceLoad(
		task ? String(task.seq) : null,
		async (): Promise<Action> => {
			const seq = task?.seq ?? 0;
			const run = callbacks.current.onTask;
			if (!task || !run) return { type: "task-done", seq, text: "not available here: no launcher for tasks", tone: "warn" };
			const outcome = await run(await taskRequest(service, task));
			return { type: "task-done", seq, text: outcome.text, tone: outcome.tone };
		},
		(error) => ({ type: "task-done", seq: task?.seq ?? 0, text: `failed: ${error}`, tone: "error" }),
		dispatch,
		// Longer than Ink's frame interval (30 fps): the frame saying what starts is drawn before a program takes the
		// terminal, so the frame after it (the task's answer) differs from the last one drawn and Ink draws it whole.
		TASK_DELAY_MS,
	);
	const refresh = state.refresh;
	useEffect(() => {
		if (refresh > 0) callbacks.current.onRefresh?.();
	}, [refresh]);
	const copy = state.copy;
	useEffect(() => {
		if (!copy) return;
		const outcome = callbacks.current.onCopy?.(copy.text);
		if (outcome) dispatch({ type: "copy-done", text: outcome.text, copied: outcome.copied });
	}, [copy]);
	const exitCode = state.exit;
	useEffect(() => {
		if (exitCode === null) return;
		callbacks.current.onExit?.(exitCode);
		exit();
	}, [exitCode, exit]);

	// New data in the index: search again, keeping the selected hit; forget cached event reads.
	const generation = indexing.generation;
	const firstGeneration = useRef(generation);
	useEffect(() => {
		if (generation === firstGeneration.current) return;
		cache.current.forget();
		forgetHits();
		dispatch({ type: "index-changed" });
	}, [generation, forgetHits]);
	// The index's whole status counts every event (about 60 ms on a 500 MB history, on this thread): it is read only
	// for the one screen that shows part of it, an index known to be empty, which names the folders it looked in.
	const emptyIndex = state.hits.results.index?.events === 0;
	const status = useMemo(() => (emptyIndex ? readStatus(service, generation) : null), [emptyIndex, service, generation]);

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
	const bodyHeight = overlayLines(size, top !== null);
	const sLayout = searchLayout(size);
	const eLayout = eventLayout(size);

	let body: ReactNode;
	const o = state.overlay;
	if (state.goto) body = <GotoPrompt goto={state.goto} width={size.columns} height={bodyHeight} color={color} dispatch={dispatch} />;
	else if (o?.type === "help") body = <HelpOverlay width={size.columns} height={bodyHeight} color={color} scroll={o.scroll} />;
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
						? `${MODE_NAMES[mode]} · hit ${state.hits.selected + 1} of ${hitTotal(r.hits.length, r.exhausted, state.hits.group ? null : r.total)}`
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
				<StatusBar width={size.columns} status={statusText} where={where} hints={hintsFor(mode)} color={color} />
			)}
		</Box>
	);
}
