/** What the explorer needs from the core, as props: the questions it asks, and the indexing state it shows. */
import type {
	EventRef,
	ForkAbove,
	HitCount,
	IndexStatus,
	ReadRequest,
	ReadResult,
	RefreshProgress,
	SearchRequest,
	SearchResult,
	SessionListRequest,
	SessionListResult,
	TraceResult,
	TreeRequest,
	TreeResult,
} from "../../src/shared/types.js";

/**
 * The slice of HistoryService the TUI uses. Answers may come later (the launcher passes a query thread that answers
 * off the input loop) or at once (tests pass the real service or a small fake with the same shape).
 */
export interface ExplorerService {
	search(request: SearchRequest): SearchResult | Promise<SearchResult>;
	read(request: ReadRequest): ReadResult | Promise<ReadResult>;
	trace(request: EventRef): TraceResult | Promise<TraceResult>;
	/** The whole tree of a session's fork family (the tree view); optional so older fakes keep their shape. */
	tree?(request: TreeRequest): TreeResult | Promise<TreeResult>;
	/** The nearest fork above an event, walked by the core (one query per file crossed, not a trace per step). */
	forkAbove(request: EventRef): ForkAbove | null | Promise<ForkAbove | null>;
	status(): IndexStatus;
	/** How many events match a search, up to the core's cap (optional: without it the title says "50+ hits"). */
	count?(request: SearchRequest): HitCount | Promise<HitCount>;
	/** The session browser's listing (optional: without it the browser says the list is not available). */
	sessions?(request: SessionListRequest): SessionListResult | Promise<SessionListResult>;
}

/** Terminal size in cells. */
export interface Size {
	columns: number;
	rows: number;
}

/** Background indexing as the status bar shows it; `generation` grows whenever the index gained data. */
export interface IndexingState {
	phase: "idle" | "indexing" | "done" | "failed";
	progress: RefreshProgress | null;
	/** One line about the last finished run, e.g. "indexed 32 files in 0.4s". */
	summary: string | null;
	error: string | null;
	generation: number;
}

/** Indexing state before anything ran. */
export const IDLE_INDEXING: IndexingState = { phase: "idle", progress: null, summary: null, error: null, generation: 0 };
