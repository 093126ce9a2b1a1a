/** What the explorer needs from the core, as props: the questions it asks, and the indexing state it shows. */
import type { HistoryQueries, MaybeAnswered } from "../../src/shared/queries.js";
import type { IndexStatus, RefreshProgress } from "../../src/shared/types.js";

/** Questions a fake service in a test may leave out: the explorer says the answer is not available instead. */
type OptionalQuestions = "tree" | "treeWindow" | "count" | "sessions";

/**
 * The service the TUI asks: HistoryService's questions (HistoryQueries), answered at once or later (the launcher
 * passes the query thread, which answers off the input loop; tests pass the real service or a small fake), plus
 * the index status the status line reads on this thread.
 */
export type ExplorerService = MaybeAnswered<Omit<HistoryQueries, OptionalQuestions>> &
	Partial<MaybeAnswered<Pick<HistoryQueries, OptionalQuestions>>> & {
		status(): IndexStatus;
	};

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
