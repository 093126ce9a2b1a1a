/**
 * What each bench child reports, in one place: the children build these objects (child.ts report) and the
 * orchestrator reads them (child.ts runChild), so the compiler checks both sides against the same types.
 */

/** floor.js: read every session file the index reads and JSON.parse every line. */
export interface FloorResult {
	ms: number;
	cpuMs: number;
	files: number;
	bytes: number;
	lines: number;
	invalid: number;
	/** Lines whose value has a `type` (keeps the parsed values alive, so the parse cannot be skipped). */
	typed: number;
}

/** cold-parts.js: the cold index's scan and its FTS5 writes, each timed apart in one process. */
export interface ColdPartsResult {
	files: number;
	events: number;
	fragments: number;
	/** Bytes of the token streams handed to FTS5. */
	streamBytes: number;
	scanMs: number;
	scanCpuMs: number;
	/** FTS5 inserts, then its one merge at the end. */
	ftsMs: number;
	ftsCpuMs: number;
	mergeMs: number;
	mergeCpuMs: number;
}

/** The counters of a RefreshSummary worth keeping. */
export type RefreshBrief = Record<string, number | boolean>;

/** measure-worker.js cold: one cold index into an empty index file. */
export interface ColdResult {
	mode: "sync" | "pipelined";
	ms: number;
	cpuMs: number;
	/** Bytes the build wrote (WAL, pages, checkpoints), Linux only. */
	writtenBytes: number | null;
	summary: RefreshBrief;
	sessions: number;
	events: number;
	fragments: number;
	files: number;
	sourceBytes: number;
	liveBytes: { main: number; wal: number };
	checkpointedBytes: { main: number; wal: number };
	heapUsedAtEnd: number;
}

/** Summary of repeated timings, in ms. */
export interface Stats {
	p50: number;
	p95: number;
	max: number;
	first: number;
	runs: number;
}

/** measure-worker.js query: the query mix and search as you type through the service. */
export interface QueryResult {
	mix: Array<{ name: string; query: string; filters: object | null; hits: number } & Stats>;
	typing: Stats & {
		text: string;
		keystrokes: number;
		reps: number;
		slowestKey: { prefix: string; p50: number; max: number } | null;
		perKey: Array<{ prefix: string; p50: number; max: number; hits: number }>;
	};
}

/** measure-worker.js refresh: no-op, appended, rewritten. */
export interface RefreshResult {
	noopFirstMs: number;
	noopFirstSummary: RefreshBrief;
	noop: Stats;
	/** Warm no-op checks as pi's extension makes them, with the session folders watched; `vouched`: of ten, those the watch answered. */
	noopWatched?: Stats & { mode: string; vouched: number };
	append1: Array<{ file: string; bytes: number; ms: number; summary: RefreshBrief; visible: boolean; searchMs: number }>;
	append100: { ms: number; summary: RefreshBrief; files: number } | null;
	rewrites: Array<{ file: string; bytes: number; ms: number; summary: RefreshBrief }>;
	noopAfterMs: number;
}

/** measure-worker.js tui: keystroke → results frame through <App/>. */
export type TuiResult = Stats & {
	text: string;
	keystrokes: number;
	stalled: number;
	reps: number;
	searchP50: number;
	renderP50: number;
	renderP95: number;
	/** Keystroke → first frame whose query line shows the new text (null when no frame did). */
	echo: Stats | null;
	/** render(<App/>) → its first frame, per rep. */
	firstFrameMs: Stats | null;
	/** Process start → the first frame of the first rep: imports of App, React, Ink and opening the service included. */
	firstFrameFromStartMs: number;
	slowestKey: { prefix: string; ms: number } | null;
	queryShown: boolean;
};

/** Recall of one index on one needle, against the ground truth (distinct events). */
export interface NeedleScore {
	found: number;
	/** Share of the truth's events found. */
	recall: number;
	/** Events found that the truth does not hold (substring matches inside other words, for the peer). */
	extra: number;
	ms: number;
}

/** trigram-worker.js: one needle, the peer's and our recall. */
export interface NeedleResult {
	label: string;
	/** Events whose indexed text holds the needle (bench/trigram-worker.ts contains()). */
	truth: number;
	/** Of those, the events in the sampled sessions, on which recall and extra matches are scored. */
	sampled: number;
	sessions: number;
	peerHow: string;
	/** ms: the first ten (by rank; LIKE: the newest ten), median of 5. */
	peer: NeedleScore;
	ours: NeedleScore;
}

/** trigram-worker.js: the FTS5 trigram peer built over the same fragments, its query mix and the needles. */
export interface TrigramResult {
	buildMs: number;
	cpuMs: number;
	buildRssBytes: number;
	files: number;
	events: number;
	fragments: number;
	bytes: number;
	contentBytes: number | null;
	/** Ranked by bm25. */
	mix: Array<{ name: string; match: string; unsupported: string | null; hits: number } & Stats>;
	/** Newest first, as hermes-style tools order their hits. */
	mixByTime: Array<{ name: string; match: string; unsupported: string | null; hits: number } & Stats>;
	needles: NeedleResult[];
}

/** huge-worker.js: one size-independent measurement (append, read + trace, unfinished line). */
export interface HugeResult {
	task: string;
	/** append: the append's refresh; read: the read; unfinished: the first refresh over the unfinished line. */
	ms: number;
	/** Peak RSS right after HistoryService.open, before the task. */
	openRssBytes: number;
	noopMs?: number;
	summary?: Record<string, number>;
	searchMs?: number | null;
	searchHit?: boolean | null;
	readChars?: number;
	traceMs?: number;
	/** branch, compact: CPU time of the refresh and of the trace (wall times are noisy on a shared machine). */
	cpuMs?: number;
	traceCpuMs?: number;
	/** compact: the sliced refresh's longest turn of the event loop (wall and CPU time) and its number of turns. */
	turnMs?: number;
	turnCpuMs?: number;
	turns?: number;
	/** compact: from the refresh's start until a read first found the compaction (wall and CPU time). */
	visibleMs?: number;
	visibleCpuMs?: number;
	/** compact: the five slowest turns' CPU time, slowest first. */
	slowestCpuMs?: number[];
	/** compact: the trace's `compacts` edges listed (at most its edge limit). */
	traced?: number | null;
	/** read --window: a fragment window of 4,000 characters at `windowOffset`, and what came back. */
	windowMs?: number;
	windowChars?: number;
	windowOffset?: number;
	grownMs?: number;
	grownSummary?: Record<string, number>;
	/** An operation that threw (read, trace, search), with its message. */
	error?: string;
}

/** corpus-worker.js: families [from, to) written. */
export interface CorpusWorkerResult {
	families: Array<{ index: number; files: string[]; rare: boolean }>;
	overruns: number;
	ms: number;
}

/** The result of each kind of child run; report() and runChild() are keyed by it. */
/** measure-worker.js first: one query of the mix, its first run in a fresh process, then repeats. */
export interface FirstRunResult {
	name: string;
	/** Opening the service (the index file, its statements) before the query. */
	openMs: number;
	firstMs: number;
	repeats: number[];
	hits: number;
	/** "partial" when no event held every word (issue 28), else "all". */
	match: string;
}

/** typing.ts: one pass of keys at a fixed pace into a fresh `pi-history` in a pseudo-terminal. */
export interface TypingResult {
	paceMs: number;
	text: string;
	/** Every key: → the first frame whose query line shows it, → the frame after the answer it waits for. */
	keys: Array<{
		prefix: string;
		echoMs: number | null;
		resultsMs: number | null;
		searched: boolean;
		/** Key written → the explorer read it, → its search was asked; the search; its answer → the next frame drawn. */
		parts: { readMs: number | null; askedMs: number | null; searchMs: number | null; drawMs: number | null };
	}>;
	/** Process start → the first frame of the explorer listing the recent events (before the first key). */
	listedMs: number;
	queryShown: boolean;
	/** Frames Ink drew, frames read from the terminal, and searches asked, from the first key on. */
	renders: number;
	frames: number;
	searches: number;
	/** CPU the explorer used (all threads) from the first key read to the last key's frame, per key. */
	cpuMsPerKey: number;
}

/** overlay.ts: one pass of keys at a fixed pace into the explorer inside pi (pi-tui's TUI), in a fresh process. */
export interface OverlayResult {
	paceMs: number;
	workspace: string;
	/** False when the query worker could not start (searches on pi's thread). */
	threaded: boolean;
	/** `/history` → pi-tui's first frame listing events (the overlay's modules loaded and the worker started first). */
	listedMs: number;
	/** The longest turn of the event loop from `/history` until then. */
	openHoldMs: number;
	/** Every key: → its echo frame, → the frame with an answer, and the longest turn of the loop until the next key. */
	keys: Array<{ prefix: string; echoMs: number | null; resultsMs: number | null; searched: boolean; holdMs: number }>;
	/** Frames pi-tui drew from the first key on. */
	frames: number;
	/** Each of those frames: pi-tui's whole frame (doRender), and the overlay's lines within it. */
	frameMs: number[];
	linesMs: number[];
}

/** page-touch.js: a fresh process's first touch of new memory, per 4 KiB page (one page fault each). */
export interface PageTouchResult {
	pages: number;
	usPerPage: number;
	/** Minor page faults counted while touching: one per page when the kernel maps them one by one. */
	faults: number;
	/** Pages read back as touched (keeps the writes from being skipped). */
	touched: number;
}

export interface ResultOf {
	first: FirstRunResult;
	pageTouch: PageTouchResult;
	floor: FloorResult;
	coldParts: ColdPartsResult;
	cold: ColdResult;
	query: QueryResult;
	tui: TuiResult;
	overlay: OverlayResult;
	refresh: RefreshResult;
	corpus: CorpusWorkerResult;
	trigram: TrigramResult;
	huge: HugeResult;
}

export type ResultKind = keyof ResultOf;

/** rg over the raw files for one query of the mix (measured by the orchestrator itself). */
export interface RgResult {
	name: string;
	terms: string[];
	p50: number;
	runs: number;
	files: number;
}
