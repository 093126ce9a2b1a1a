/** The session-level answers: session_search (seed 003) and the explorer's session browser listing. */
import type { Caller } from "./types.js";

/** A `session_search` request (seed 003): one query, an exact session cwd and a session start-time range. */
export interface SessionSearchRequest {
	query: string;
	limit: number;
	snippetChars: number;
	/** Exact match on the session's working directory (not its subtree). */
	cwd?: string;
	/** ISO bounds compared with the session's start time. */
	after?: string;
	before?: string;
	caller: Caller;
}

/** One `session_search` hit: the seed's field names and order, score as raw bm25 (negative, lower is better). */
export interface SessionSearchHit {
	session_id: string;
	cwd: string | null;
	started_at: string | null;
	role: string;
	timestamp: string | null;
	snippet: string;
	score: number;
}

/** The answer to a `session_search`: hits in rank order and notes about the query. */
export interface SessionSearchResult {
	hits: SessionSearchHit[];
	notes: string[];
}

/** A session listing for the explorer's session browser: every session, or those whose cwd is under `workspace`. */
export interface SessionListRequest {
	/** Only sessions whose cwd is this folder or below it (path-component boundary). */
	workspace?: string | null;
}

/** How a session came from its parent (derived from what it copied, see query/sessions): /clone, /fork or --fork, or a new session naming a parent. */
export type SessionOrigin = "fork" | "clone" | "new";

/** One session of the listing: what it is, how big, how branched, and its fork lineage. */
export interface SessionListing {
	id: string;
	name?: string;
	cwd: string;
	file: string;
	/** Header timestamp (when pi created the session). */
	created: string;
	/** Last entry timestamp, ISO (null: no timestamped entry). */
	lastAt: string | null;
	events: number;
	/** Fork points: entries with two or more children in this file. */
	branches: number;
	/** The materialized leaf (last entry in file order, I13); null for a session without entries. */
	leafId: string | null;
	/** The parent session (header parentSession) when it is indexed. */
	parent: { id: string; name?: string; origin: SessionOrigin } | null;
	/** Sessions whose header names this one as their parent. */
	forks: number;
}

/** The session listing, newest activity first, bounded (`truncated` when more sessions matched). */
export interface SessionListResult {
	sessions: SessionListing[];
	total: number;
	truncated: boolean;
}
