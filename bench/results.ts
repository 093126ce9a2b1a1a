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

/** The counters of a RefreshSummary worth keeping. */
export type RefreshBrief = Record<string, number | boolean>;

/** measure-worker.js cold: one cold index into an empty index file. */
export interface ColdResult {
	mode: "sync" | "pipelined";
	ms: number;
	cpuMs: number;
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
	slowestKey: { prefix: string; ms: number } | null;
	queryShown: boolean;
};

/** corpus-worker.js: families [from, to) written. */
export interface CorpusWorkerResult {
	families: Array<{ index: number; files: string[]; rare: boolean }>;
	overruns: number;
	ms: number;
}

/** The result of each kind of child run; report() and runChild() are keyed by it. */
export interface ResultOf {
	floor: FloorResult;
	cold: ColdResult;
	query: QueryResult;
	tui: TuiResult;
	refresh: RefreshResult;
	corpus: CorpusWorkerResult;
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
