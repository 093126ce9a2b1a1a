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
}

/** A session whose header names another as its parent (pi's /fork, /clone, --fork), attached at its fork point. */
export interface TreeFork {
	session: SessionSummary;
	/** The parent session's entry its own entries continue from (null: it could not be derived). */
	forkPoint: string | null;
	/** Entries it holds as byte-identical copies of the parent's (not listed again). */
	copied: number;
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
