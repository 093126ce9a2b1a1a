/** The questions the index answers, as one contract for every boundary (the query worker, the explorer). */
import type { SessionListRequest, SessionListResult } from "./session-types.js";
import type { TreeRequest, TreeResult, TreeWindow, TreeWindowRequest } from "./tree-types.js";
import type { Caller, EventRef, ForkAbove, ForkAboveRequest, HitCount, ReadRequest, ReadResult, SearchRequest, SearchResult, TraceResult } from "./types.js";

/**
 * The questions a face asks the index. HistoryService answers them at once; the query worker's client and the
 * explorer's service are derived from this one list (`Answered`), so a new question is written here and in the
 * service, not restated per boundary.
 */
export interface HistoryQueries {
	search(request: SearchRequest): SearchResult;
	count(request: SearchRequest): HitCount;
	read(request: ReadRequest): ReadResult;
	trace(request: EventRef & { caller?: Caller }): TraceResult;
	tree(request: TreeRequest & { caller?: Caller }): TreeResult;
	treeWindow(request: TreeWindowRequest & { caller?: Caller }): TreeWindow;
	sessions(request: SessionListRequest): SessionListResult;
	forkAbove(request: ForkAboveRequest): ForkAbove | null;
}

/** The name of one question. */
export type QueryName = keyof HistoryQueries;

/** The questions as they come across a boundary: each answer a promise. */
export type Answered<Q> = {
	[K in keyof Q]: Q[K] extends (request: infer R) => infer A ? (request: R) => Promise<A> : never;
};

/** The questions answered either at once or later (the explorer takes both: the service in tests, the worker live). */
export type MaybeAnswered<Q> = {
	[K in keyof Q]: Q[K] extends (request: infer R) => infer A ? (request: R) => A | Promise<A> : never;
};

/** Every question's name, for the worker's dispatch; the check below fails to compile when one is missing. */
export const QUERY_NAMES = ["search", "count", "read", "trace", "tree", "treeWindow", "sessions", "forkAbove"] as const satisfies readonly QueryName[];
const everyQueryNamed: Exclude<QueryName, (typeof QUERY_NAMES)[number]> extends never ? true : never = true;
void everyQueryNamed;

/** Whether a name sent across the worker boundary is one of the questions (never another method of the service). */
export function isQueryName(name: string): name is QueryName {
	return (QUERY_NAMES as readonly string[]).includes(name);
}
