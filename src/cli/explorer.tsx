/**
 * Starts the interactive explorer (composition root): picks the history (the user's, or the bundled demo when
 * there is none), opens the index for reading, starts indexing in a worker thread, owns the terminal (alternate
 * screen, restored on quit, Ctrl+C, signals and crashes) and renders <App/> with the size and indexing state.
 */
import ansiEscapes from "ansi-escapes";
import { render } from "ink";
import { useState, useSyncExternalStore } from "react";
import { type ExplorerService, IDLE_INDEXING, type IndexingState } from "../../components/core/explorer-service.js";
import type { Filters, Scope } from "../../components/core/filters.js";
import { App, type AppProps } from "../../components/ink/App.js";
import { useTerminalSize } from "../../components/ink/use-terminal-size.js";
import type { Action } from "../../components/root/state.js";
import { errorText, neutralize } from "../present/text.js";
import { watchSessions } from "../service/folder-watch.js";
import { QueryThread } from "../service/query-thread.js";
import { type IndexMessage, type IndexRun, startIndexing } from "../service/refresh-thread.js";
import { HistoryService, workspaceRoot } from "../service/service.js";
import { resolveFolder } from "../shared/filters.js";
import type { EventRef, RefreshSummary } from "../shared/types.js";
import { copyRef } from "./clipboard.js";
import { frameTrace } from "./frame-trace.js";
import { chooseHistory, type HistoryChoice, type TuiOptions } from "./history-choice.js";
import { noTerminalText } from "./no-terminal.js";
import { loadQueryHistory, saveQueryHistory } from "./query-history.js";
import { CLEAR, ENTER_ALT, HOME, LEAVE_ALT, MOUSE_ON, mouseWanted } from "./screen.js";
import { defaultExportDir, runTask } from "./tasks.js";

export { chooseHistory, findDemoHistory, type HistoryChoice, type TuiOptions } from "./history-choice.js";

/** One line about a finished refresh for the status bar. */
export function refreshLine(s: RefreshSummary): string {
	if (s.busy) return "index busy: another process is writing it; searching what is indexed";
	const what = s.filesChanged === 0 ? "index up to date" : `indexed ${s.filesChanged} changed file(s) in ${(s.ms / 1000).toFixed(1)}s`;
	return s.errors.length ? `${what} · ${s.errors.length} file(s) with problems (pi-history status)` : what;
}

/** Indexing state fed by the worker's messages, read by React through useSyncExternalStore. */
export class IndexingStore {
	private state: IndexingState = { ...IDLE_INDEXING, phase: "indexing" };
	private readonly listeners = new Set<() => void>();
	private lastBump = Date.now();
	private lastFiles = 0;
	private doneOnce = false;

	/** Current state (a stable object between changes). */
	get = (): IndexingState => this.state;

	/** Subscribes to changes. */
	subscribe = (listener: () => void): (() => void) => {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	};

	/** Applies a worker message; while indexing, new data is announced at most every 2 s so results fill in. */
	handle = (m: IndexMessage): void => {
		const s = this.state;
		if (m.type === "progress") {
			const now = Date.now();
			let generation = s.generation;
			if (m.progress.filesDone > this.lastFiles && now - this.lastBump >= 2000) {
				generation++;
				this.lastBump = now;
				this.lastFiles = m.progress.filesDone;
			}
			this.state = { ...s, phase: "indexing", progress: m.progress, generation };
		} else if (m.type === "done") {
			// A refresh that found nothing new (the live watch's common case) must not re-run the search.
			const changed = m.summary.filesChanged > 0 || !this.doneOnce;
			this.doneOnce = true;
			this.state = { phase: "done", progress: null, summary: refreshLine(m.summary), error: null, generation: s.generation + (changed ? 1 : 0) };
		} else {
			this.state = { ...s, phase: "failed", progress: null, error: m.message, generation: s.generation + 1 };
		}
		for (const l of this.listeners) l();
	};
}

export { osc52 } from "./clipboard.js";

interface MainProps {
	service: ExplorerService;
	store: IndexingStore;
	banner: string | null;
	notice: string | null;
	workspace: string | null;
	initialScope: Scope;
	color: boolean;
	onExit: (code: number) => void;
	onRefresh: () => void;
	onTask: AppProps["onTask"];
	onSuspend: AppProps["onSuspend"];
	indexPath: string;
	query?: string;
	filters?: Filters;
	open?: EventRef & { fragmentId?: string };
	initialActions?: readonly Action[];
}

function Main({
	service,
	store,
	banner,
	notice,
	workspace,
	initialScope,
	color,
	onExit,
	onRefresh,
	onTask,
	onSuspend,
	indexPath,
	query,
	filters,
	open,
	initialActions,
}: MainProps) {
	const size = useTerminalSize();
	const indexing = useSyncExternalStore(store.subscribe, store.get);
	// Read once: the explorer keeps the list from here on, and writes it back whole when a query is remembered.
	const [history] = useState(() => loadQueryHistory(indexPath));
	return (
		<App
			service={service}
			size={size}
			color={color}
			indexing={indexing}
			banner={banner}
			initialMessage={notice}
			workspace={workspace}
			initialScope={initialScope}
			{...(query ? { initialQuery: query } : {})}
			{...(filters ? { initialFilters: filters } : {})}
			{...(open ? { initialEvent: open } : {})}
			{...(initialActions ? { initialActions } : {})}
			onCopy={(text) => copyRef(text, (s) => process.stdout.write(s))}
			onExit={onExit}
			onRefresh={onRefresh}
			onTask={onTask}
			{...(onSuspend ? { onSuspend } : {})}
			queryHistory={history}
			onQueryHistory={(entries) => saveQueryHistory(indexPath, entries)}
		/>
	);
}

/**
 * Runs the TUI; returns the exit code (0 on q, 130 on Ctrl+C, 1 on a crash, 2 without a terminal). `started`: the
 * launcher (tui-start) already chose the history and drew the first frame on the alternate screen (`listed`: the
 * search screen of `initialActions`, which <App/> starts from; `onSignalsTaken`: called once the explorer's signal
 * handlers are on, so that the launcher's go without a moment with none).
 */
export async function runTui(
	options: TuiOptions,
	started?: { choice: HistoryChoice; queries?: QueryThread; initialActions?: readonly Action[]; listed?: boolean; onSignalsTaken?: () => void },
): Promise<number> {
	if (!process.stdin.isTTY || !process.stdout.isTTY) {
		process.stderr.write(noTerminalText(options));
		return 2;
	}
	const choice = started?.choice ?? chooseHistory(options);
	const service = HistoryService.open({ config: choice.config });
	// Searches, reads and traces run in a worker with its own read-only connection: the input loop never waits for
	// SQLite. The status line's counts stay on this thread's connection (one cheap query per index generation).
	const queries = started?.queries ?? QueryThread.start(choice.config);
	const trace = frameTrace(process.env.PI_HISTORY_FRAME_TRACE);
	const explorerService: ExplorerService = trace.service({ ...queries.questions, status: () => service.status() });
	const store = new IndexingStore();
	// Another writer (a second explorer, a pi session) makes a refresh give up quickly with "busy": try again a few times.
	let run: IndexRun | null = null;
	let retries = 0;
	let retryTimer: NodeJS.Timeout | undefined;
	// One refresh at a time; a change noticed meanwhile runs one more afterwards, checking the files it named first.
	let running = false;
	let again = false;
	const named = new Set<string>();
	let everyFile = false;
	const begin = (files: readonly string[] = [], more = false) => {
		for (const f of files) named.add(f);
		everyFile ||= more;
		if (running) {
			again = true;
			return;
		}
		running = true;
		const priority = [...named];
		const sweep = everyFile;
		named.clear();
		everyFile = false;
		run = startIndexing(choice.config, { priority, everyFile: sweep }, (m) => {
			store.handle(m);
			if (m.type === "progress") return;
			running = false;
			// A busy refresh checked nothing for sure: the files it was to check first are named again.
			if (m.type === "done" && m.summary.busy && retries++ < 5) retryTimer = setTimeout(() => begin(priority, sweep), 3000);
			else if (again) {
				again = false;
				begin();
			}
		});
	};
	begin();
	// Live: new lines pi writes show up without a key (the refresh key asks at once).
	const live = watchSessions(
		choice.config.roots.map((r) => r.path),
		(files, more) => begin(files, more),
	);
	const indexing = {
		stop: async () => {
			live.stop();
			clearTimeout(retryTimer);
			await run?.stop();
		},
	};
	const workspace = options.workspace ? resolveFolder(options.workspace, process.cwd()) : workspaceRoot(process.cwd(), choice.config.workspaceRoot);

	const out = process.stdout;
	const mouse = mouseWanted(options.mouse) ? MOUSE_ON : "";
	const enter = ENTER_ALT + mouse;
	let restored = false;
	const restore = () => {
		if (restored) return;
		restored = true;
		out.write(LEAVE_ALT);
	};
	// Ink draws from the cursor: from the top left, over the frame drawn by hand. A listed one is not cleared (Ink's
	// first frame comes a while later and is the same; Ink erases whole lines from its second frame on).
	out.write(started?.listed ? HOME + mouse : started ? CLEAR + mouse : enter);
	// While a program has the terminal (pi, the pager, the editor) Ctrl+C is its: the signal our process gets too is
	// ignored until the event loop has run once after the program ended (that is when a queued signal is delivered).
	let handingOff = false;
	const handOff = <T,>(run: () => T): T => {
		handingOff = true;
		out.write(LEAVE_ALT);
		process.stdin.setRawMode?.(false);
		try {
			return run();
		} finally {
			process.stdin.setRawMode?.(true);
			// Ink draws the next frame whole: it differs from the last one drawn (App's task message changes). Ink hid
			// the cursor once, at its first frame; leaving the screen showed it again.
			out.write(enter + ansiEscapes.cursorHide);
			setImmediate(() => {
				handingOff = false;
			});
		}
	};
	// Ctrl+Z in raw mode is a key, not a signal: the screen is given back as for a program, then the process stops
	// itself the way the terminal's own Ctrl+Z would; on fg (SIGCONT) it takes the screen again.
	const onSuspend = (): Promise<void> =>
		new Promise((resolve) => {
			handingOff = true;
			out.write(LEAVE_ALT);
			process.stdin.setRawMode?.(false);
			process.once("SIGCONT", () => {
				process.stdin.setRawMode?.(true);
				out.write(enter + ansiEscapes.cursorHide);
				handingOff = false;
				resolve();
			});
			process.kill(process.pid, "SIGTSTP");
		});
	const onTask: AppProps["onTask"] = (request) => runTask(request, { handOff, env: process.env, exportDir: defaultExportDir(), write: (s) => out.write(s) });
	// On resize the terminal re-wraps or cuts the old frame, and Ink erases only the lines it thinks it drew:
	// start from a clean screen (this listener runs before Ink's own, which then draws the new frame from the top).
	const onResize = () => out.write(CLEAR);
	out.on("resize", onResize);
	let code = 0;
	const instance = render(
		<Main
			service={explorerService}
			store={store}
			banner={choice.banner}
			notice={choice.notice ?? null}
			workspace={workspace}
			initialScope={options.workspace ? "workspace" : "all"}
			color={options.color}
			onExit={(c) => (code = c)}
			onRefresh={begin}
			onTask={onTask}
			onSuspend={onSuspend}
			indexPath={choice.config.indexPath}
			{...(options.query ? { query: options.query } : {})}
			{...(options.filters ? { filters: options.filters } : {})}
			{...(options.open ? { open: options.open } : {})}
			{...(started?.initialActions ? { initialActions: started.initialActions } : {})}
		/>,
		// Ink holds a frame that comes within 1000/maxFps ms of the one before until then: at its default 30 (or 60) a
		// keystroke's echo right after a results or preview frame waited 33 (17) ms, over the 16 ms an echo may take.
		// Unchanged lines cost a frame little (build/frame-memo-*), so 120 frames a second are cheap.
		{ exitOnCtrlC: false, patchConsole: false, maxFps: 120, ...trace.inkOptions },
	);
	trace.watchKeys(process.stdin);
	// Leave the alternate screen whatever ends the process: a signal, an uncaught error, or exit itself.
	const onSignal = (signal: NodeJS.Signals) => {
		if (handingOff && signal === "SIGINT") return;
		instance.unmount();
		restore();
		void indexing.stop();
		void queries.close();
		service.close();
		process.exit(signal === "SIGINT" ? 130 : signal === "SIGHUP" ? 129 : 143);
	};
	const onCrash = (error: unknown) => {
		try {
			instance.unmount();
		} catch {
			// the renderer itself may be what failed
		}
		restore();
		process.stderr.write(`pi-history: ${neutralize(errorText(error, true))}\n`);
		process.exit(1);
	};
	const signals: NodeJS.Signals[] = ["SIGTERM", "SIGHUP", "SIGINT"];
	for (const s of signals) process.on(s, onSignal);
	started?.onSignalsTaken?.();
	process.on("uncaughtException", onCrash);
	process.on("unhandledRejection", onCrash);
	process.on("exit", restore);
	try {
		await instance.waitUntilExit();
	} catch (error) {
		code = 1;
		restore();
		process.stderr.write(`pi-history: ${neutralize(errorText(error))}\n`);
	} finally {
		restore();
		out.off("resize", onResize);
		for (const s of signals) process.off(s, onSignal);
		process.off("uncaughtException", onCrash);
		process.off("unhandledRejection", onCrash);
		await indexing.stop();
		await queries.close();
		service.close();
	}
	return code;
}
