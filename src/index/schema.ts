/** The index schema: tables, FTS5 layout and the schema version kept in `user_version`. */
import type { SemanticKind } from "../shared/types.js";

/** Bump on any incompatible change: an index of another version is moved aside and rebuilt. */
// 5: FTS rowids are event id * 1021 + position (was * 1024), and event ids follow recency (session-writer.ts);
// events.abandoned_by and the (session_id, parent_id) index (incremental appends); sessions.fork_points.
// 6: the (session_id, summarized_by) index (a compaction's trace and incremental compactions read it).
// 7: failed replies are omitted, empty branch summaries produce nothing, customType is searchable (projections changed).
// 8: codemode's nestedCalls: their paths are file evidence, a script result quoting our tools is not indexed.
// 9: tree_shape (a session's tree as numbers, kept at ingest for the tree view) and the events_edit index.
// 10: tree_layout (a big session's tree view laid out per filter mode, read a window at a time).
export const SCHEMA_VERSION = 10;

/** Marks our files in `application_id` so a foreign SQLite file is never mistaken for an index. */
export const APPLICATION_ID = 0x70657331; // "pes1"

/**
 * One FTS5 column per semantic kind, so bm25() can weight kinds (each fragment fills exactly one column).
 * Weights, with why:
 */
export const KIND_COLUMNS: ReadonlyArray<{ kind: SemanticKind; column: string; weight: number }> = [
	// What the person asked is the strongest statement of what a turn was about.
	{ kind: "user.text", column: "user_text", weight: 3.0 },
	// The model's visible conclusions: what was found or decided.
	{ kind: "assistant.text", column: "assistant_text", weight: 2.0 },
	// A failed reply's error is exactly what people come back looking for.
	{ kind: "assistant.error", column: "assistant_error", weight: 2.0 },
	// The command or path the agent ran is precise evidence but terse and repetitive.
	{ kind: "tool.call", column: "tool_call", weight: 1.5 },
	// Voluminous output: a match there is often incidental.
	{ kind: "tool.result", column: "tool_result", weight: 1.0 },
	// A command the person typed with `!` is deliberate.
	{ kind: "bash.command", column: "bash_command", weight: 2.5 },
	// Shell output is as noisy as tool output.
	{ kind: "bash.output", column: "bash_output", weight: 1.0 },
	// Summaries are condensed but second-hand; they point at the turns that matter.
	{ kind: "summary.compaction", column: "summary_compaction", weight: 1.5 },
	{ kind: "summary.branch", column: "summary_branch", weight: 1.5 },
	// Extension messages are mostly automated notices.
	{ kind: "custom.message", column: "custom_message", weight: 1.0 },
	// A name the person gave the whole session.
	{ kind: "session.name", column: "session_name", weight: 4.0 },
	// A context edit's replacement is what the model saw instead of the original: as telling as the reply itself.
	{ kind: "context.replacement", column: "context_replacement", weight: 2.0 },
	// System prompts repeat in every session: searched only when asked for by kind.
	{ kind: "system.prompt", column: "system_prompt", weight: 0.5 },
];

/** Column index of a kind in the FTS table. */
export const KIND_COLUMN_INDEX: ReadonlyMap<SemanticKind, number> = new Map(KIND_COLUMNS.map((c, i) => [c.kind, i]));

const ftsColumns = KIND_COLUMNS.map((c) => c.column).join(", ");

/**
 * Indexes that answers never depend on, only their speed: added without a version bump, so an index built before
 * them gets them at its next writable open (openStore) instead of a rebuild.
 */
// Every search reports the index's session and event counts, and a cwd-scoped one reads its sessions by cwd: from
// the sessions' rows that touched every page of the table in a fresh process, from this index a few. A freshness
// check of more files than it stats takes the most recently written (quick-check.ts): by their time, not by sorting
// every file's row (wide: its parser state), which every command paid in a fresh process on a 25,000-file history.
export const ADDED_INDEXES_SQL = `CREATE INDEX IF NOT EXISTS sessions_cwd ON sessions(cwd, entries);
CREATE INDEX IF NOT EXISTS files_mtime ON files(mtime_ms);`;
/**
 * The columns a filtered search tests for each match (candidates.ts), in a few bytes per event: joined through it, a
 * search reads a page of it for hundreds of matches where the events' own rows (with their previews) take a page
 * each. A branch filter goes through events_branch instead, where each state's events lie together: the matches of
 * one state touch that state's pages only, not a page of the filter index per few matches (most of its pages, which
 * a fresh process faults in one by one). Added to an older index only by an open that may take seconds over it
 * (OpenOptions.addFilterIndex), never inside pi; a search without them joins the rows. No answer depends on them.
 */
export const FILTER_INDEX = "events_filter";
export const FILTER_INDEX_SQL = `CREATE INDEX IF NOT EXISTS ${FILTER_INDEX} ON events(id, session_id, branch_state, type, role, ts_ms, is_error, kinds);
CREATE INDEX IF NOT EXISTS events_branch ON events(branch_state, id, session_id);`;

/** The full-text table and its tuning (also what the bench's cold-index parts measure FTS5 alone with). */
export const FTS_SQL = `
-- Contentless: the text stays in the session files (I5, I10); snippets and reads go back to the source line.
-- The ascii tokenizer splits our pre-folded token stream on spaces only (see tokens.ts).
CREATE VIRTUAL TABLE fts USING fts5(${ftsColumns}, content='', contentless_delete=1, tokenize='ascii', detail=full);
-- Bigger in-memory batches and lazier merging: a cold index spent a third of its time flushing and merging
-- small segments (measured on the 494 MB bench corpus); query latency stays within its target (npm run bench).
INSERT INTO fts(fts, rank) VALUES ('hashsize', 33554432);
INSERT INTO fts(fts, rank) VALUES ('automerge', 8);
`;

/** DDL of the current schema, applied to an empty database in one transaction. */
export const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) STRICT;

CREATE TABLE roots (
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL UNIQUE,
	kind TEXT NOT NULL,
	present INTEGER NOT NULL DEFAULT 0,
	observed_at INTEGER
) STRICT;

CREATE TABLE files (
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL UNIQUE,
	root_id INTEGER,
	size INTEGER NOT NULL DEFAULT -1,
	mtime_ms REAL NOT NULL DEFAULT -1,
	ctime_ms REAL NOT NULL DEFAULT -1,
	ino INTEGER NOT NULL DEFAULT -1,
	indexed_bytes INTEGER NOT NULL DEFAULT 0,
	next_line INTEGER NOT NULL DEFAULT 1,
	prefix_hash TEXT,
	parser_state TEXT,
	status TEXT NOT NULL,
	note TEXT,
	header_id TEXT,
	skipped_lines INTEGER NOT NULL DEFAULT 0,
	duplicate_entries INTEGER NOT NULL DEFAULT 0,
	indexed_at INTEGER
) STRICT;

CREATE TABLE sessions (
	id INTEGER PRIMARY KEY,
	file_id INTEGER NOT NULL UNIQUE,
	public_id TEXT NOT NULL UNIQUE,
	header_id TEXT NOT NULL,
	version INTEGER NOT NULL,
	cwd TEXT NOT NULL,
	created TEXT NOT NULL,
	parent_path TEXT,
	parent_session INTEGER,
	name TEXT,
	leaf_entry TEXT,
	entries INTEGER NOT NULL DEFAULT 0,
	first_ms INTEGER,
	last_ms INTEGER,
	-- Entries with two or more children (session-writer commit): the session browser's "branches".
	fork_points INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX sessions_header ON sessions(header_id);
${ADDED_INDEXES_SQL}

CREATE TABLE events (
	id INTEGER PRIMARY KEY,
	session_id INTEGER NOT NULL,
	entry_id TEXT NOT NULL,
	parent_id TEXT,
	seq INTEGER NOT NULL,
	line INTEGER NOT NULL,
	byte_offset INTEGER NOT NULL,
	byte_length INTEGER NOT NULL,
	line_hash TEXT NOT NULL,
	synthetic INTEGER NOT NULL DEFAULT 0,
	type TEXT NOT NULL,
	role TEXT,
	ts TEXT NOT NULL,
	ts_ms INTEGER,
	tool_name TEXT,
	tool_call_id TEXT,
	is_error INTEGER,
	exit_code INTEGER,
	model TEXT,
	provider TEXT,
	stop_reason TEXT,
	custom_type TEXT,
	ref_id TEXT,
	label TEXT,
	msg_producing INTEGER NOT NULL DEFAULT 0,
	-- tree.ts CTX_EXCLUDED / CTX_OMITS: inputs of the classification that are not in other columns.
	ctx_flags INTEGER NOT NULL DEFAULT 0,
	context_role TEXT NOT NULL,
	branch_state TEXT NOT NULL DEFAULT 'unknown',
	selection_state TEXT NOT NULL DEFAULT 'unknown',
	summarized_by TEXT,
	summarized_prov TEXT,
	-- The branch summary whose abandoned branch holds this entry (tree.ts abandonedBranches), also while the entry is on
	-- the selected path: an append that moves the leaf off it then knows its state without the other summaries.
	abandoned_by TEXT,
	-- The context edit in effect on this entry (I14): 'replaced' | 'omitted', and the edit's entry id.
	edit_state TEXT,
	edit_by TEXT,
	cur_label TEXT,
	preview TEXT NOT NULL,
	-- The event's fragments in projection order, space-separated ids (\`tool.call:2\`), \`@start-end\` after an id
	-- whose middle was left out of the index (I20). FTS rowid = event id * FRAGMENT_SLOTS + position.
	frags TEXT NOT NULL DEFAULT '',
	nfrags INTEGER NOT NULL DEFAULT 0,
	-- Bit i set: the event has a fragment of KIND_COLUMNS[i] (kind filters without a query).
	kinds INTEGER NOT NULL DEFAULT 0,
	-- System prompt sections (system-texts.ts): system_texts ids in fragment position order, comma-separated.
	sys_texts TEXT,
	UNIQUE (session_id, entry_id)
) STRICT;
-- Rowids grow in append order within a session, so (session_id, id) order is file order; few indexes keep ingest fast.
CREATE INDEX events_ts ON events(ts_ms);
-- Children by parent: an append, a read's neighbors, a trace and a walk look up one entry's children, never the session's.
CREATE INDEX events_parent ON events(session_id, parent_id);
CREATE INDEX events_tool_call ON events(session_id, tool_call_id) WHERE tool_call_id IS NOT NULL;
CREATE INDEX events_ref ON events(session_id, ref_id) WHERE ref_id IS NOT NULL;
CREATE INDEX events_label ON events(cur_label) WHERE cur_label IS NOT NULL;
-- What a summary stands for: a compaction's trace lists them without reading the session's other rows.
CREATE INDEX events_summarized ON events(session_id, summarized_by) WHERE summarized_by IS NOT NULL;

-- Context edits in effect, by session: the tree view reads them without the session's other rows.
CREATE INDEX events_edit ON events(session_id) WHERE edit_by IS NOT NULL;

-- A session's tree as numbers, written with its events (session-writer.ts) and read whole by the tree view
-- (tree-rows.ts sessionShape), CHUNK entries per row: row ids, parent links (tree-rows.ts SHAPE_PARENT) and the flags
-- that never change after insert. Row ids and parent links run-encoded (shape-codec.ts; doubles in chunks written
-- before it), flags a native-endian Uint16 array.
CREATE TABLE tree_shape (
	session_id INTEGER NOT NULL,
	chunk INTEGER NOT NULL,
	n INTEGER NOT NULL,
	ids BLOB NOT NULL,
	pars BLOB NOT NULL,
	flags BLOB NOT NULL,
	last_entry TEXT NOT NULL,
	PRIMARY KEY (session_id, chunk)
) STRICT;

-- A big session's tree view laid out per filter mode (tree-layout-store.ts), in chunks: a window reads a few of them.
-- A cache of what the rows say, written by the indexer after a refresh (tree-layout-keep.ts), dropped with its rows.
CREATE TABLE tree_layout (
	session_id INTEGER NOT NULL,
	filter TEXT NOT NULL,
	part TEXT NOT NULL,
	chunk INTEGER NOT NULL,
	data BLOB NOT NULL,
	PRIMARY KEY (session_id, filter, part, chunk)
) STRICT;

CREATE TABLE tool_calls (
	event_id INTEGER NOT NULL,
	session_id INTEGER NOT NULL,
	call_id TEXT NOT NULL,
	name TEXT NOT NULL,
	frag TEXT NOT NULL
) STRICT;
CREATE INDEX tool_calls_lookup ON tool_calls(session_id, call_id);
CREATE INDEX tool_calls_event ON tool_calls(event_id);

CREATE TABLE file_evidence (
	event_id INTEGER NOT NULL,
	session_id INTEGER NOT NULL,
	path TEXT NOT NULL,
	rel TEXT NOT NULL,
	via TEXT NOT NULL
) STRICT;
CREATE INDEX file_evidence_event ON file_evidence(event_id);
CREATE INDEX file_evidence_path ON file_evidence(path);

-- pi 1.x system prompt sections: each distinct text once (system-texts.ts), whatever number of sessions repeat it.
-- An event lists its sections' text ids in events.sys_texts, so a session adds a few bytes, not the text.
CREATE TABLE system_texts (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE) STRICT;
CREATE INDEX events_system ON events(id) WHERE sys_texts IS NOT NULL;
${FILTER_INDEX_SQL}
CREATE VIRTUAL TABLE system_fts USING fts5(text, content='', contentless_delete=1, tokenize='ascii', detail=full);

-- Child rows are deleted explicitly (session-removal.ts, in chunks): no foreign-key checks on the hot insert path.
${FTS_SQL}`;
