/** Reads sessions and events from the index by identity; the query layer's only way to rows. */

import { FRAGMENT_SLOTS } from "../shared/bounds.js";
import type { BranchState, ContextRole, EventBrief, SelectionState, SemanticKind, SessionSummary } from "../shared/types.js";
import type { Locator } from "../source/locate.js";
import type { IndexStore } from "./store.js";

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

/** Decodes an events row's `frags` column (space-separated ids, `@start-end` when the middle was not indexed). */
export function decodeFragments(eventId: number, frags: string): FragmentRow[] {
	if (!frags) return [];
	return frags.split(" ").map((spec, position) => {
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

/** Typed lookups over one store. */
export class Catalog {
	constructor(readonly store: IndexStore) {}

	/** A session by row id. */
	session(id: number): SessionRow | undefined {
		return this.store.prepare<[number], SessionRow>(`${SESSION_SELECT} WHERE s.id = ?`).get(id);
	}

	/** A session by its public id. */
	sessionByPublicId(publicId: string): SessionRow | undefined {
		return this.store.prepare<[string], SessionRow>(`${SESSION_SELECT} WHERE s.public_id = ?`).get(publicId);
	}

	/** A session by the path of its file. */
	sessionByFile(path: string): SessionRow | undefined {
		return this.store.prepare<[string], SessionRow>(`${SESSION_SELECT} WHERE f.path = ?`).get(path);
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
		return this.store.prepare<[number], EventRow>("SELECT * FROM events WHERE id = ?").get(id);
	}

	/** An event by (session row, entry id). */
	eventByEntry(session: number, entryId: string): EventRow | undefined {
		return this.store.prepare<[number, string], EventRow>("SELECT * FROM events WHERE session_id = ? AND entry_id = ?").get(session, entryId);
	}

	/** Every event of a session in append order. */
	eventsOfSession(session: number): EventRow[] {
		return this.store.prepare<[number], EventRow>("SELECT * FROM events WHERE session_id = ? ORDER BY id").all(session);
	}

	/** Children of an entry, in append order. */
	children(session: number, entryId: string): EventRow[] {
		return this.store.prepare<[number, string], EventRow>("SELECT * FROM events WHERE session_id = ? AND parent_id = ? ORDER BY id").all(session, entryId);
	}

	/** Events of a session that point at `entryId` through ref_id (compactions, branch summaries, labels). */
	referrers(session: number, entryId: string): EventRow[] {
		return this.store.prepare<[number, string], EventRow>("SELECT * FROM events WHERE session_id = ? AND ref_id = ? ORDER BY id").all(session, entryId);
	}

	/** Tool results answering `callId` in a session. */
	resultsForCall(session: number, callId: string): EventRow[] {
		return this.store.prepare<[number, string], EventRow>("SELECT * FROM events WHERE session_id = ? AND tool_call_id = ? ORDER BY id").all(session, callId);
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
		};
	}

	/** Index-wide counts for freshness notes. */
	counts(): { sessions: number; events: number; freshAt: string | null } {
		const row = this.store.prepare<[], { n: number; e: number | null }>("SELECT count(*) AS n, sum(entries) AS e FROM sessions").get();
		return { sessions: row?.n ?? 0, events: row?.e ?? 0, freshAt: this.store.meta("freshAt") };
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
