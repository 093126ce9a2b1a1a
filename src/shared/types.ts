/** Shared public types: the vocabulary of DESIGN §2 and the JSON contracts of DESIGN §5. Imports nothing. */

/** Searchable semantic kinds (seed table; `assistant.error` carries an assistant reply's errorMessage). */
export const SEMANTIC_KINDS = [
	"user.text",
	"assistant.text",
	"assistant.error",
	"tool.call",
	"tool.result",
	"bash.command",
	"bash.output",
	"summary.compaction",
	"summary.branch",
	"custom.message",
	"session.name",
	"context.replacement",
	"system.prompt",
] as const;
/** Kinds searched only when a filter asks for them by kind: they would flood ordinary results (DESIGN §5). */
export const ON_REQUEST_KINDS: readonly SemanticKind[] = ["system.prompt"];
/** One searchable semantic part of an event. */
export type SemanticKind = (typeof SEMANTIC_KINDS)[number];

/** Entry types pi 0.73.1 writes; anything else is kept as an opaque typed event. */
export const ENTRY_TYPES = [
	"message",
	"model_change",
	"thinking_level_change",
	"compaction",
	"branch_summary",
	"custom",
	"custom_message",
	"label",
	"session_info",
	"context_edit",
	"usage",
] as const;

export const BRANCH_STATES = ["selected", "alternate", "unknown"] as const;
/** Whether an entry lies on the root → materialized-leaf path. */
export type BranchState = (typeof BRANCH_STATES)[number];

export const CONTEXT_ROLES = ["conversation", "summary", "control", "metadata"] as const;
/** What an entry is for: a turn of the conversation, a summary, a setting change, or metadata. */
export type ContextRole = (typeof CONTEXT_ROLES)[number];

export const SELECTION_STATES = ["direct", "summarized", "omitted", "not-selected", "not-applicable", "unknown"] as const;
/** How an entry reaches the selected, compaction-aware model context (pi 1.6's buildSessionProjection, I14). */
export type SelectionState = (typeof SELECTION_STATES)[number];

/** A context edit in effect on an event: the model saw the edit's replacement, or nothing (I14). */
export interface ContextEdit {
	state: "replaced" | "omitted";
	/** Entry id of the `context_edit` entry. */
	by: string;
}

/** Where a relationship comes from: read from the file, computed from recorded facts, or a heuristic. */
export type Provenance = "recorded" | "derived" | "inferred";

export const EDGE_RELS = [
	"parent",
	"child",
	"sibling",
	"toward-leaf",
	"tool-result-for",
	"compacts",
	"branch-summary-from",
	"labels",
	"edits",
	"session-parent",
	"fork-of",
	"file-read",
	"file-changed",
] as const;
/** Relationship names of a trace. */
export type EdgeRel = (typeof EDGE_RELS)[number];

/** The public identity of an event (I1). */
export interface EventRef {
	sessionId: string;
	entryId: string;
}

/** Session facts shown with every hit. */
export interface SessionSummary {
	id: string;
	cwd: string;
	name?: string;
	file: string;
}

/** One coalesced search result: an event with its strongest matching fragment as evidence. */
export interface Hit {
	sessionId: string;
	entryId: string;
	fragmentId: string | null;
	entryType: string;
	kind: SemanticKind | null;
	role?: string;
	toolName?: string;
	timestamp: string;
	isError?: boolean;
	branchState: BranchState;
	contextRole: ContextRole;
	selectionState: SelectionState;
	contextEdit?: ContextEdit;
	/** A `context_edit` hit: the entry whose content it replaced or omitted. */
	targetId?: string;
	score: number;
	matchedFragments: number;
	snippet: string;
	marks: Array<[number, number]>;
	label?: string;
	session: SessionSummary;
}

/** Structured constraints of a search (DESIGN §5); every field narrows the result. */
export interface SearchFilters {
	sessionIds?: string[];
	/** Sessions named by a person: an exact id, the start of an id, or part of the session's name (any case). */
	sessions?: string[];
	cwds?: string[];
	cwdSubtree?: boolean;
	kinds?: SemanticKind[];
	types?: string[];
	roles?: string[];
	tools?: string[];
	after?: string;
	before?: string;
	isError?: boolean;
	branchStates?: BranchState[];
	selectionStates?: SelectionState[];
	files?: string[];
	labels?: string[];
	/** Only sessions whose header timestamp (start time) is at or after this ISO date. */
	startedAfter?: string;
	/** Only sessions whose header timestamp (start time) is at or before this ISO date. */
	startedBefore?: string;
}

/** Who asks, for the model-facing tools: authorization root and current-session cutoff (I16, I17). */
export interface Caller {
	/** Absolute, canonical authorization root; sessions outside it do not exist for this caller. */
	root: string;
	/** The caller's own session, excluded unless targeted explicitly. */
	currentSessionId?: string;
	/** The caller's own session file (pi's getSessionFile()): identifies it exactly when ids repeat across files (I17). */
	currentSessionFile?: string;
	/** The invoking assistant message; it and everything appended after it stay invisible. */
	cutoffEntryId?: string;
}

/** A search request as every face issues it. */
export interface SearchRequest {
	query: string;
	filters?: SearchFilters;
	limit?: number;
	/** Hits to skip before the first one returned: the TUI pages through long result lists with it. */
	offset?: number;
	snippetChars?: number;
	/** Interactive mode: the last unfinished term matches as a prefix. */
	prefix?: boolean;
	caller?: Caller;
	/**
	 * `score` is bm25() as SQLite returns it (negative, lower is better) instead of the rounded, positive relevance;
	 * every hit is then scored, a common phrase too (session_search, seed 003, promises bm25 order).
	 */
	rawScores?: boolean;
	/** Hit order: best match first (default) or newest event first; without a query, hits are always newest first. */
	order?: SearchOrder;
	/** Also count every matching event (up to a cap): the result's `total`. */
	total?: boolean;
	/** Where that count stops (default TOTAL_CAP): a command that only says "N+" counts less. */
	totalCap?: number;
	/** Every word exactly as written, or nothing: no inflected forms, partial matches or suggestions (session_search). */
	exact?: boolean;
}

/** The first note of a partial answer (issue 28): every face shows it above the hits. */
export const PARTIAL_NOTE = "partial match: no event holds every word; these hold the most of them, rarer words weighing more";

export const SEARCH_ORDERS = ["relevance", "newest"] as const;
/** How hits are ordered. */
export type SearchOrder = (typeof SEARCH_ORDERS)[number];

/** Freshness of the index as seen by a query. */
export interface IndexFreshness {
	sessions: number;
	events: number;
	freshAt: string | null;
	pending: number;
}

/** The answer to a search (DESIGN §5). */
export interface SearchResult {
	hits: Hit[];
	notes: string[];
	index: IndexFreshness;
	/** How many events match in all (only when the request asked for it with `total`). */
	total?: HitCount;
	/** "partial": no event holds every word; the hits hold some of them (absent on a full match). */
	match?: "partial";
	/** With a partial match: the words no event in scope holds. */
	unmatched?: string[];
	/** The caller's own session as this index names it (a same-id twin's public id is not its header id). */
	currentSessionId?: string;
}

/**
 * How many events match a search's query, scope and filters: forked copies of one entry count once (the explorer
 * shows them as one row). Counting stops at a cap, so it costs bounded time: `atLeast` says the cap was reached.
 */
export interface HitCount {
	count: number;
	atLeast: boolean;
}

/** A bounded slice of one fragment's text. */
export interface FragmentWindow {
	id: string;
	kind: SemanticKind;
	text: string;
	range: [number, number];
	totalChars: number;
	truncated: boolean;
}

/** A part of the entry that a read does not show, with why. */
export interface OmittedPart {
	path: string;
	reason: string;
	bytes?: number;
	mimeType?: string;
	chars?: number;
}

/** A short description of another event, used by neighbors and traces. */
export interface EventBrief {
	sessionId: string;
	entryId: string;
	entryType: string;
	role?: string;
	kind?: SemanticKind | null;
	timestamp: string;
	branchState: BranchState;
	preview: string;
}

/** Where an event's bytes are on disk. */
export interface SourceLocator {
	file: string;
	line: number;
	byteOffset: number;
	byteLength: number;
}

/** Event classification (I14). */
export interface Classification {
	branchState: BranchState;
	contextRole: ContextRole;
	selectionState: SelectionState;
	/** Why the selection state holds, e.g. which compaction or branch summary replaced the entry. */
	summarizedBy?: EventRef & { provenance: Provenance };
	/** A context edit in effect: what the model saw instead of this entry's content, or that it saw nothing. */
	contextEdit?: ContextEdit;
	onMaterializedLeafPath: boolean;
	materializedLeafId: string | null;
}

/** Neighbors of a read, in a named order (I11). */
export interface Neighbors {
	order: "branch" | "append";
	before: EventBrief[];
	after: EventBrief[];
	forkCandidates: EventBrief[];
	note?: string;
}

/** Options of an exact read. */
export interface ReadRequest extends EventRef {
	fragmentId?: string;
	offset?: number;
	maxChars?: number;
	before?: number;
	after?: number;
	order?: "branch" | "append";
	caller?: Caller;
}

/** The answer to an exact read (DESIGN §5). */
export interface ReadResult {
	event: Record<string, unknown> & { sessionId: string; entryId: string; type: string };
	fragments: FragmentWindow[];
	omitted: OmittedPart[];
	source: SourceLocator;
	neighbors: Neighbors;
	classification: Classification;
	session: SessionSummary;
	notes: string[];
}

/** The other end of a trace edge: an event, a whole session, a file, or something the caller may not see. */
export type TraceTarget = EventRef | { sessionId: string; entryId: null } | { file: string } | { hidden: true };

/** One typed relationship of a trace; `direction: "in"` means the other node points at this one. */
export interface TraceEdge {
	rel: EdgeRel;
	to: TraceTarget;
	provenance: Provenance;
	direction?: "in" | "out";
	note?: string;
}

/** A walk up to the nearest fork: from an event, along parents (across session files, like a parent step). */
export interface ForkAboveRequest extends EventRef {
	caller?: Caller;
}

/** The nearest ancestor with more than one way on (children, or forked sessions continuing from it). */
export interface ForkAbove {
	ref: EventRef;
	/** Parent steps from the start event. */
	steps: number;
	/** Ways on from it: its children, plus forked sessions that continue from it. */
	branches: number;
}

/** The answer to a trace (DESIGN §5): bounded metadata and previews, never full contents. */
export interface TraceResult {
	node: EventBrief & { classification: Classification; session: SessionSummary };
	edges: TraceEdge[];
	nodes: Record<string, EventBrief>;
	notes: string[];
	/** Where the event's session file came from, and how many sessions were forked from it. */
	lineage?: SessionLineage;
	/** Entries above the event on its path within its file (0: a root). */
	depth?: number;
	/** The path goes on above `depth` entries: the trace counts that many at most, so it costs what the entry costs. */
	depthAtLeast?: boolean;
}

/**
 * A session file's lineage: its parent session (header `parentSession`) and how it was made from it — `copy`: every
 * entry copied (`pi --fork`), `clone`: the path to the parent's leaf (`/clone`), `fork`: the path to an earlier
 * entry `at` (`/fork`), `new`: nothing copied (`newSession({parentSession})`).
 */
export interface SessionLineage {
	/** The parent session when it is indexed and visible; null otherwise (see parentFile). */
	parent: SessionSummary | null;
	how: "copy" | "clone" | "fork" | "new" | null;
	/** The parent's entry this session continues from. */
	at: string | null;
	/** The header's parentSession path (null without one, or when the caller may not see it). */
	parentFile: string | null;
	/** Visible sessions whose parent is this one. */
	children: number;
}

/** Index counts and freshness for `status`. */
export interface IndexStatus {
	index: string;
	sessions: number;
	events: number;
	fragments: number;
	files: number;
	sourceBytes: number;
	indexBytes: number;
	freshAt: string | null;
	/** `leaving`: why the next refresh takes the root out of the index (no agent dir names it any more). */
	roots: Array<{ path: string; kind: string; present: boolean; leaving?: string }>;
	/** The roots the last such refresh took out, when and why (`reason`), and how many sessions left with them. */
	rootsDropped?: { at: string; roots: Array<{ path: string; kind: string; reason: string; sessions: number }> };
	errors: Array<{ file: string; error: string }>;
	conflicts: Array<{ sessionId: string; files: string[]; rule: string }>;
	/** Files indexed whole but read with a choice worth knowing (an id written twice with different content). */
	notes?: Array<{ file: string; note: string }>;
	schemaVersion: number;
}

/** Progress of a refresh, reported while it runs. */
export interface RefreshProgress {
	phase: "discover" | "ingest" | "classify" | "done";
	filesDone: number;
	filesTotal: number;
	bytesDone: number;
	bytesTotal: number;
	startedAt: number;
}

/** What one refresh did. */
export interface RefreshSummary {
	files: number;
	filesChanged: number;
	sessionsAdded: number;
	sessionsRebuilt: number;
	sessionsAppended: number;
	sessionsRemoved: number;
	/** Appends whose session was classified again as a whole (the append fast path did not cover them); absent when none. */
	sessionsReclassified?: number;
	linesIngested: number;
	eventsIngested: number;
	bytesRead: number;
	errors: Array<{ file: string; error: string }>;
	notes: string[];
	pending: number;
	ms: number;
	busy?: boolean;
	/** The session folders were not listed: their stamps were unchanged, so only appends were looked for (quick-check.ts). */
	quick?: boolean;
	/** ... and only the files a watch of every session folder saw written were stat'ed (the service's freshness watch). */
	watched?: boolean;
}

/** A refresh that did nothing yet: the starting point every refresh (and every refresh that could not run) reports from. */
export function emptyRefreshSummary(over: Partial<RefreshSummary> = {}): RefreshSummary {
	return {
		files: 0,
		filesChanged: 0,
		sessionsAdded: 0,
		sessionsRebuilt: 0,
		sessionsAppended: 0,
		sessionsRemoved: 0,
		linesIngested: 0,
		eventsIngested: 0,
		bytesRead: 0,
		errors: [],
		notes: [],
		pending: 0,
		ms: 0,
		...over,
	};
}

/** Stable key of an event for maps: never entryId alone (I1). */
export function refKey(ref: EventRef): string {
	return `${ref.sessionId}/${ref.entryId}`;
}
export type {
	SessionListing,
	SessionListRequest,
	SessionListResult,
	SessionOrigin,
	SessionSearchHit,
	SessionSearchRequest,
	SessionSearchResult,
} from "./session-types.js";
export type { TreeEntry, TreeFilterMode, TreeFork, TreeForkHead, TreeRequest, TreeResult, TreeViewRow, TreeWindow, TreeWindowRequest } from "./tree-types.js";
export { TREE_CLIP_MARK, TREE_FILTER_MODES } from "./tree-types.js";
