/** The contract of a session's whole tree (the explorer's tree view): every entry, and the fork family attached to it. */
import type { BranchState, ContextEdit, SelectionState, SemanticKind, SessionSummary } from "./types.js";

/** A session tree request: the session (any member of a fork family), the event to centre on, a query to mark hits of. */
export interface TreeRequest {
	sessionId: string;
	entryId?: string;
	/** Plain words and "quoted phrases" (the search language, last word a prefix): entries that match are `hit`. */
	query?: string;
}

/** One entry of a tree, with what its row shows. */
export interface TreeEntry {
	entryId: string;
	parentId: string | null;
	entryType: string;
	role?: string;
	/** Kind of its first fragment (null: an entry without text, such as a model change or a label). */
	kind: SemanticKind | null;
	toolName?: string;
	/** Up to 160 characters, whitespace collapsed (raw session text: the face makes it terminal-safe). */
	preview: string;
	timestamp: string;
	/** `selected`: on its file's root → materialized-leaf path. */
	branchState: BranchState;
	selectionState: SelectionState;
	contextEdit?: ContextEdit;
	isError?: boolean;
	/** The entry's current label. */
	label?: string;
	/** A `compaction` or `branch_summary` entry (what the row marks). */
	summary?: "compaction" | "branch";
	/** Matches the request's query. */
	hit?: boolean;
	/** A tool result's call, as the calling entry's preview shows it (the call that produced this result). */
	call?: string;
}

/** A session whose header names another as its parent (pi's /fork, /clone, --fork), attached at its fork point. */
export interface TreeFork {
	session: SessionSummary;
	/** The parent session's entry its own entries continue from (null: it could not be derived). */
	forkPoint: string | null;
	/** Entries it holds as byte-identical copies of the parent's (not listed again). */
	copied: number;
	/** It copied nothing: a new session that names the parent (`newSession({parentSession})`), attached after its leaf. */
	newSession?: boolean;
	/** True when it copied every entry of the parent, abandoned branches too (pi --fork); false: one path (/fork, /clone). */
	copiedAll: boolean;
	/** Its own entries in file order: parentIds point into these or at the parent session's entries. */
	entries: TreeEntry[];
	/** Sessions forked from this one, attached the same way. */
	forks: TreeFork[];
}

/** The tree of a fork family: its root session's entries in file order, with forks attached recursively. */
export interface TreeResult {
	/** The family's root session (the asked session when it has no visible parent session). */
	session: SessionSummary;
	/** The root session's materialized leaf. */
	leafId: string | null;
	entries: TreeEntry[];
	forks: TreeFork[];
	/** The row to centre on: the asked event, or the row that shows it (a copied entry shows as the original). */
	focus: { sessionId: string; entryId: string } | null;
	/** Entries that match the query, over the whole family. */
	hits: number;
	notes: string[];
}

/** pi's `/tree` filter modes: `default` hides bookkeeping rows (model and thinking changes, labels, custom entries,
 * context edits, session names) and assistant replies that only call tools; `all` shows every entry. */
export type TreeFilterMode = "default" | "no-tools" | "user-only" | "labeled-only" | "all";

/** The tree filter modes in pi's cycle order. */
export const TREE_FILTER_MODES: readonly TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

/** A window of the tree view's rows: the tree laid out where the index is, only the asked rows sent. */
export interface TreeWindowRequest extends TreeRequest {
	/** First-row keys of the stretches the user unfolded. */
	unfolded?: string[];
	filter?: TreeFilterMode;
	/** Typed filter words: only entries whose row text holds every word (case-insensitive) are shown. */
	text?: string;
	/** The row to find (the cursor); absent: the focus, else the root session's leaf. */
	cursor?: string | null;
	/** First row wanted; absent: a window centred on the cursor's row. */
	top?: number | null;
	/** Rows wanted. */
	count: number;
}

/** A fork's head row: the forked session, where it attaches, and what it copied. */
export interface TreeForkHead {
	session: SessionSummary;
	forkPoint: string | null;
	copied: number;
	copiedAll: boolean;
	/** It copied nothing (`newSession({parentSession})`): "new session after", not a fork. */
	newSession: boolean;
	/** Entries it wrote itself. */
	own: number;
	/** Its first own entry (null: none yet). */
	firstOwn: string | null;
}

/** Where a deep window of the tree view left out its rows' first columns: the first character of each row's prefix. */
export const TREE_CLIP_MARK = "⋯";

/** One row of the tree view. */
export type TreeViewRow =
	| { type: "entry"; key: string; prefix: string; sessionId: string; entry: TreeEntry; depth: number; stretch: string | null }
	| { type: "fork"; key: string; prefix: string; sessionId: string; fork: TreeForkHead; depth: number; stretch: null }
	| { type: "fold"; key: string; prefix: string; sessionId: string; count: number; crumb: TreeEntry | null; depth: number; stretch: string };

/** The rows `start .. start + rows.length` of a tree laid out with the request's folds and filter. */
export interface TreeWindow {
	session: SessionSummary;
	leafId: string | null;
	focus: { sessionId: string; entryId: string } | null;
	/** Entries of the root session. */
	entries: number;
	/** Sessions attached (forks of forks included). */
	forks: number;
	/** Entries that match the query, over the whole family (whatever the filter shows). */
	hits: number;
	/** Entries the filter hides. */
	hidden: number;
	/** Rows of the whole laid-out tree. */
	total: number;
	start: number;
	rows: TreeViewRow[];
	/** The row of the asked cursor (or of its nearest shown ancestor), -1 when there is none. */
	cursor: number;
	/** Rows that are query hits, in display order. */
	hitRows: number[];
	notes: string[];
}
