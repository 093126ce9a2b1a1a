/** Reads sessions and events from the index by identity; the query layer's only way to rows. */

import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import type { BranchState, ContextRole, EventBrief, SelectionState, SemanticKind, SessionSummary } from "../shared/types.js";
import type { Locator } from "../source/locate.js";
import { cwdCounts } from "./session-cwds.js";
import type { IndexStore } from "./store.js";
import { contentfulSql, pendingSummary, summaryOverlay } from "./summary-runs.js";

/** An events row. */
export interface EventRow {
	id: number;
	session_id: number;
	entry_id: string;
	parent_id: string | null;
	seq: number;
	line: number;
	byte_offset: number;
	byte_length: number;
	line_hash: string;
	synthetic: number;
	type: string;
	role: string | null;
	ts: string;
	ts_ms: number | null;
	tool_name: string | null;
	tool_call_id: string | null;
	is_error: number | null;
	exit_code: number | null;
	model: string | null;
	provider: string | null;
	stop_reason: string | null;
	custom_type: string | null;
	ref_id: string | null;
	label: string | null;
	msg_producing: number;
	ctx_flags: number;
	context_role: ContextRole;
	branch_state: BranchState;
	selection_state: SelectionState;
	summarized_by: string | null;
	summarized_prov: string | null;
	edit_state: "replaced" | "omitted" | null;
	edit_by: string | null;
	cur_label: string | null;
	preview: string;
	frags: string;
	nfrags: number;
	kinds: number;
	sys_texts: string | null;
}

/** A sessions row joined with its file. */
export interface SessionRow {
	id: number;
	public_id: string;
	header_id: string;
	version: number;
	cwd: string;
	created: string;
	parent_path: string | null;
	parent_session: number | null;
	name: string | null;
	leaf_entry: string | null;
	entries: number;
	first_ms: number | null;
	last_ms: number | null;
	file: string;
}

/** One fragment of an event as the index knows it: its id, kind and the range left out of the index (I20). */
export interface FragmentRow {
	/** FTS rowid: event id * FRAGMENT_SLOTS + position. */
	id: number;
	frag: string;
	kind: SemanticKind;
	omit_start: number | null;
	omit_end: number | null;
}

/** The fragment ids of a `frags` column, without the huge-line locator hint (`~…`, last) that may follow them. */
function fragmentSpecs(frags: string): string[] {
	const specs = frags.split(" ");
	return specs.at(-1)?.startsWith("~") ? specs.slice(0, -1) : specs;
}

/** The locator hint of a huge line's event (src/source/huge-line.ts), if its `frags` column carries one. */
function locatorHint(frags: string): string | undefined {
	const at = frags.lastIndexOf("~");
	return at !== -1 && (at === 0 || frags[at - 1] === " ") ? frags.slice(at) : undefined;
}

/** Decodes an events row's `frags` column (space-separated ids, `@start-end` when the middle was not indexed). */
export function decodeFragments(eventId: number, frags: string): FragmentRow[] {
	if (!frags) return [];
	return fragmentSpecs(frags).map((spec, position) => {
		const [frag, omit] = spec.split("@") as [string, string | undefined];
		const [a, b] = omit ? omit.split("-").map(Number) : [null, null];
		return {
			id: eventId * FRAGMENT_SLOTS + position,
			frag,
			kind: frag.slice(0, frag.lastIndexOf(":")) as SemanticKind,
			omit_start: a ?? null,
			omit_end: b ?? null,
		};
	});
}

const SESSION_SELECT = "SELECT s.*, f.path AS file FROM sessions s JOIN files f ON f.id = s.file_id";

/** Typed lookups over one store, for one request (pending summary runs are read once: nothing writes meanwhile). */
export class Catalog {
	constructor(readonly store: IndexStore) {}

	private applyRuns: (<T extends EventRow>(row: T) => T) | undefined;

	/** Rows as readers see them: with the compactions' pending summary runs made (summary-runs.ts). */
	private overlay(): <T extends EventRow>(row: T) => T {
		this.applyRuns ??= summaryOverlay(this.store);
		return this.applyRuns;
	}

	/** A session by row id. */
	session(id: number): SessionRow | undefined {
		return this.store.prepare<[number], SessionRow>(`${SESSION_SELECT} WHERE s.id = ?`).get(id);
	}

	/** The indexing note of a session's file (skipped lines, duplicate ids), if any. */
	fileNote(session: number): string | null {
		return (
			this.store.prepare<[number], { note: string | null }>("SELECT f.note FROM sessions s JOIN files f ON f.id = s.file_id WHERE s.id = ?").get(session)
				?.note ?? null
		);
	}

	/** A session by its public id. */
	sessionByPublicId(publicId: string): SessionRow | undefined {
		return this.store.prepare<[string], SessionRow>(`${SESSION_SELECT} WHERE s.public_id = ?`).get(publicId);
	}

	/** A session by the path of its file. */
	sessionByFile(path: string): SessionRow | undefined {
		return this.store.prepare<[string], SessionRow>(`${SESSION_SELECT} WHERE f.path = ?`).get(path);
	}

	/** Sessions whose file has this inode number: candidates for a file reached by another path (a symlink). */
	sessionsByIno(ino: number): SessionRow[] {
		return this.store.prepare<[number], SessionRow>(`${SESSION_SELECT} WHERE f.ino = ?`).all(ino);
	}

	/** Sessions whose header carries this session id (a file, its copies and exports share it). */
	sessionsByHeaderId(headerId: string): SessionRow[] {
		return this.store.prepare<[string, string], SessionRow>(`${SESSION_SELECT} WHERE s.header_id = ? OR s.public_id = ?`).all(headerId, headerId);
	}

	/** Every session (one row per file), read again only after the index changed; the list must not be modified. */
	sessions(): readonly SessionRow[] {
		return this.store.cached("sessions", () => this.store.prepare<[], SessionRow>(SESSION_SELECT).all());
	}

	/** Sessions whose header names `parent` as their parent session. */
	childSessions(parent: number): SessionRow[] {
		return this.store.prepare<[number], SessionRow>(`${SESSION_SELECT} WHERE s.parent_session = ?`).all(parent);
	}

	/** An event by row id. */
	event(id: number): EventRow | undefined {
		const row = this.store.prepare<[number], EventRow>("SELECT * FROM events WHERE id = ?").get(id);
		return row && this.overlay()(row);
	}

	/** An event by (session row, entry id). */
	eventByEntry(session: number, entryId: string): EventRow | undefined {
		const row = this.store.prepare<[number, string], EventRow>("SELECT * FROM events WHERE session_id = ? AND entry_id = ?").get(session, entryId);
		return row && this.overlay()(row);
	}

	/** Every event of a session in append order. */
	eventsOfSession(session: number): EventRow[] {
		return this.store.prepare<[number], EventRow>("SELECT * FROM events WHERE session_id = ? ORDER BY id").all(session).map(this.overlay());
	}

	/** Children of an entry, in append order. */
	children(session: number, entryId: string): EventRow[] {
		return this.store
			.prepare<[number, string], EventRow>("SELECT * FROM events WHERE session_id = ? AND parent_id = ? ORDER BY id")
			.all(session, entryId)
			.map(this.overlay());
	}

	/**
	 * Up to `n` events of a session right before (or after) row `id` in append order, below row `below` (a
	 * visibility cutoff). By rowid, which grows in append order: costs the rows stepped over, not the session.
	 */
	appendOrder(session: number, id: number, direction: "before" | "after", n: number, below: number | null): EventRow[] {
		if (n <= 0) return [];
		const limit = below ?? Number.MAX_SAFE_INTEGER;
		if (direction === "before")
			return this.store
				.prepare<[number, number, number, number], EventRow>(
					"SELECT * FROM events NOT INDEXED WHERE session_id = ? AND id < ? AND id < ? ORDER BY id DESC LIMIT ?",
				)
				.all(session, id, limit, n)
				.reverse()
				.map(this.overlay());
		return this.store
			.prepare<[number, number, number, number], EventRow>("SELECT * FROM events NOT INDEXED WHERE session_id = ? AND id > ? AND id < ? ORDER BY id LIMIT ?")
			.all(session, id, limit, n)
			.map(this.overlay());
	}

	/**
	 * Up to `n` events whose content reaches the model only through summary `entryId`, and how many there are, counted
	 * up to `countUpTo` (`atLeast`: there are more): a compaction in a 1,000,000-entry session summarizes nearly all of
	 * them, and counting them all would cost the session, not the entry.
	 */
	summarizedBy(session: number, entryId: string, n: number, below: number | null, countUpTo = 10_000): { rows: EventRow[]; total: number; atLeast: boolean } {
		const params = { s: session, x: entryId, limit: below ?? Number.MAX_SAFE_INTEGER, next: 0, last: -1, below: 0 };
		let source = "SELECT * FROM events WHERE session_id = :s AND summarized_by = :x AND id < :limit";
		const pending = pendingSummary(this.store, session);
		if (pending) {
			Object.assign(params, { next: pending.next, last: pending.last, below: pending.below });
			// Rows whose run is pending: this compaction's once it is made (by rowid range, in id order for the merge),
			// no longer an older one's.
			source =
				pending.by === entryId
					? `${source} UNION ALL SELECT * FROM events NOT INDEXED WHERE id >= :next AND id <= :last AND id < :limit AND session_id = :s
						AND branch_state = 'selected' AND ((selection_state = 'summarized' AND summarized_by IS NOT :x)
						OR (id < :below AND selection_state IS NOT 'summarized' AND ${contentfulSql()}))`
					: `${source} AND NOT (id >= :next AND id <= :last AND branch_state = 'selected')`;
		}
		const rows = this.store
			.prepare<Record<string, unknown>, EventRow>(`${source} ORDER BY id LIMIT :n`)
			.all({ ...params, n })
			.map(this.overlay());
		if (rows.length < n) return { rows, total: rows.length, atLeast: false };
		const total =
			this.store.prepare<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM (${source} LIMIT :cap)`).get({ ...params, cap: countUpTo + 1 })
				?.n ?? rows.length;
		return { rows, total: Math.min(total, countUpTo), atLeast: total > countUpTo };
	}

	/**
	 * The first entry of `child` (append order, below `childBelow`) that is not a byte-identical copy of an entry of
	 * `parent` and whose parent entry is in `parent` (below `parentBelow`): where a forked session's own history
	 * starts. One pass inside SQLite, no rows held.
	 */
	firstOwnEntry(child: number, parent: number, childBelow: number | null, parentBelow: number | null): EventRow | undefined {
		const row = this.store
			.prepare<[number, number, number, number, number, number], EventRow>(
				`SELECT c.* FROM events c WHERE c.session_id = ? AND c.id < ? AND c.parent_id IS NOT NULL
				AND NOT EXISTS (SELECT 1 FROM events t WHERE t.session_id = ? AND t.entry_id = c.entry_id AND t.line_hash = c.line_hash AND t.id < ?)
				AND EXISTS (SELECT 1 FROM events p WHERE p.session_id = ? AND p.entry_id = c.parent_id AND p.id < ?)
				ORDER BY c.id LIMIT 1`,
			)
			.get(child, childBelow ?? Number.MAX_SAFE_INTEGER, parent, parentBelow ?? Number.MAX_SAFE_INTEGER, parent, parentBelow ?? Number.MAX_SAFE_INTEGER);
		return row && this.overlay()(row);
	}

	/**
	 * Walks parent ids up from `entryId` in one recursive query and returns where it stopped: the first ancestor
	 * with at least two ways on (children below `below`, plus `forkPoints` entries naming it: forked sessions that
	 * continue from it), else the topmost ancestor found in the session; `depth` parent steps from the start. The
	 * start itself counts as a fork only with `checkStart`. At most `maxDepth` steps (a parent cycle ends there).
	 */
	walkUp(
		session: number,
		entryId: string,
		forkPoints: string[],
		below: number | null,
		maxDepth: number,
		checkStart: boolean,
	): { entry_id: string; parent_id: string | null; depth: number; branches: number } | undefined {
		const ways = `(SELECT count(*) FROM events c WHERE c.session_id = :s AND c.parent_id = e.entry_id AND c.id < :below)
			+ (SELECT count(*) FROM json_each(:forks) WHERE value = e.entry_id)`;
		return this.store
			.prepare<Record<string, unknown>, { entry_id: string; parent_id: string | null; depth: number; branches: number }>(
				`WITH RECURSIVE up(entry_id, parent_id, depth, branches) AS (
					SELECT e.entry_id, e.parent_id, 0, CASE WHEN :check THEN ${ways} ELSE 0 END
					FROM events e WHERE e.session_id = :s AND e.entry_id = :entry AND e.id < :below
					UNION ALL
					SELECT e.entry_id, e.parent_id, up.depth + 1, ${ways}
					FROM up JOIN events e ON e.session_id = :s AND e.entry_id = up.parent_id
					WHERE up.branches < 2 AND up.depth < :max AND e.id < :below
				)
				SELECT entry_id, parent_id, depth, branches FROM up ORDER BY depth DESC LIMIT 1`,
			)
			.get({
				s: session,
				entry: entryId,
				forks: JSON.stringify(forkPoints),
				below: below ?? Number.MAX_SAFE_INTEGER,
				max: maxDepth,
				check: checkStart ? 1 : 0,
			});
	}

	/** Events of a session that point at `entryId` through ref_id (compactions, branch summaries, labels). */
	referrers(session: number, entryId: string): EventRow[] {
		return this.store
			.prepare<[number, string], EventRow>("SELECT * FROM events WHERE session_id = ? AND ref_id = ? ORDER BY id")
			.all(session, entryId)
			.map(this.overlay());
	}

	/** Tool results answering `callId` in a session. */
	resultsForCall(session: number, callId: string): EventRow[] {
		return this.store
			.prepare<[number, string], EventRow>("SELECT * FROM events WHERE session_id = ? AND tool_call_id = ? ORDER BY id")
			.all(session, callId)
			.map(this.overlay());
	}

	/** The event whose assistant message carries tool call `callId`. */
	callEvent(session: number, callId: string): { event: EventRow; name: string; frag: string } | undefined {
		const row = this.store
			.prepare<[number, string], { event_id: number; name: string; frag: string }>(
				"SELECT event_id, name, frag FROM tool_calls WHERE session_id = ? AND call_id = ? ORDER BY event_id LIMIT 1",
			)
			.get(session, callId);
		if (!row) return undefined;
		const event = this.event(row.event_id);
		return event ? { event, name: row.name, frag: row.frag } : undefined;
	}

	/** Tool calls made by an event. */
	callsOf(eventId: number): Array<{ call_id: string; name: string; frag: string }> {
		return this.store
			.prepare<[number], { call_id: string; name: string; frag: string }>("SELECT call_id, name, frag FROM tool_calls WHERE event_id = ?")
			.all(eventId);
	}

	/** File evidence of an event. */
	filesOf(eventId: number): Array<{ path: string; rel: "read" | "changed"; via: string }> {
		return this.store
			.prepare<[number], { path: string; rel: "read" | "changed"; via: string }>("SELECT path, rel, via FROM file_evidence WHERE event_id = ?")
			.all(eventId);
	}

	/** Fragments of an event, in projection order. */
	fragments(event: EventRow): FragmentRow[] {
		return decodeFragments(event.id, event.frags);
	}

	/** The fragment an FTS rowid points at. */
	fragment(event: EventRow, ftsRowid: number): FragmentRow | undefined {
		return decodeFragments(event.id, event.frags)[ftsRowid % FRAGMENT_SLOTS];
	}

	/** Where an event's bytes are. */
	locator(event: EventRow, session: SessionRow): Locator {
		return {
			file: session.file,
			lineNo: event.line,
			offset: event.byte_offset,
			length: event.byte_length,
			lineHash: event.line_hash,
			entryId: event.entry_id,
			synthetic: event.synthetic === 1,
			version: session.version,
			...(event.frags.includes("~") ? { hint: locatorHint(event.frags) } : {}),
		};
	}

	/** How many of a session's events are at or after one of them (the caller's own entries I17 hides). */
	eventsFrom(sessionId: number, eventId: number): number {
		const row = this.store
			.prepare<[number, number], { n: number }>("SELECT count(*) AS n FROM events WHERE session_id = ? AND id >= ?")
			.get(sessionId, eventId);
		return row?.n ?? 0;
	}

	/** Index-wide counts for freshness notes. */
	counts(): { sessions: number; events: number; freshAt: string | null } {
		// Every search reports them: summed from the counts per cwd, which a search scoped to a cwd reads anyway.
		return this.store.cached("counts", () => {
			let sessions = 0;
			let events = 0;
			for (const c of cwdCounts(this.store)) {
				sessions += c.sessions;
				events += c.entries;
			}
			return { sessions, events, freshAt: this.store.meta("freshAt") };
		});
	}
}

/** The public summary of a session. */
export function sessionSummary(s: SessionRow): SessionSummary {
	return { id: s.public_id, cwd: s.cwd, ...(s.name ? { name: s.name } : {}), file: s.file };
}

/** A short description of an event for neighbors and traces; its kind is that of its first fragment. */
export function eventBrief(e: EventRow, s: SessionRow): EventBrief {
	return {
		sessionId: s.public_id,
		entryId: e.entry_id,
		entryType: e.type,
		...(e.role ? { role: e.role } : {}),
		kind: decodeFragments(e.id, e.frags)[0]?.kind ?? null,
		timestamp: e.ts,
		branchState: e.branch_state,
		preview: e.preview,
	};
}
