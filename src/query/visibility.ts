/** What one caller may see: sessions under its authorization root, and its own session only up to the cutoff (I16, I17). */

import type { Catalog, EventRow, SessionRow } from "../index/catalog.js";
import type { Caller } from "../shared/types.js";
import { Authorizer } from "./authorize.js";

/** Visibility rules of one request; trusted callers (the human CLI and TUI) see everything. */
export class Visibility {
	private readonly authorizer: Authorizer | null;
	/** Row id of the caller's session, when it is indexed. */
	readonly currentSession: number | null;
	/** Events of the current session with a row id at or above this are invisible (the invoking message and later). */
	readonly cutoff: number | null;
	private readonly currentPublic: string | null;

	constructor(
		catalog: Catalog,
		readonly caller: Caller | undefined,
	) {
		this.authorizer = caller ? new Authorizer(caller.root) : null;
		let current: SessionRow | undefined;
		// By file first: a session id alone is not unique (imports, exports and copies share ids).
		if (caller?.currentSessionFile) current = catalog.sessionByFile(caller.currentSessionFile);
		if (!current && caller?.currentSessionId && !caller.currentSessionFile) current = catalog.sessionByPublicId(caller.currentSessionId);
		this.currentSession = current?.id ?? null;
		this.currentPublic = current?.public_id ?? null;
		let cutoff: number | null = null;
		if (current && caller?.cutoffEntryId) {
			const invoking = catalog.eventByEntry(current.id, caller.cutoffEntryId);
			// Not indexed yet means nothing at or after it is indexed either.
			cutoff = invoking ? invoking.id : null;
		}
		this.cutoff = cutoff;
	}

	/** The public id of the caller's own session, when it is indexed. */
	get currentPublicId(): string | null {
		return this.currentPublic;
	}

	/** True when the caller is the trusted human face. */
	get trusted(): boolean {
		return this.authorizer === null;
	}

	/** True when the session exists for this caller. */
	allowsSession(session: SessionRow): boolean {
		return this.authorizer === null || this.authorizer.allows(session.cwd);
	}

	/** True when the event exists for this caller. */
	allowsEvent(event: EventRow, session: SessionRow): boolean {
		return this.allowsEventId(event.id, session);
	}

	/** allowsEvent for a row known by its id only (the tree view's compact rows). */
	allowsEventId(eventId: number, session: SessionRow): boolean {
		if (!this.allowsSession(session)) return false;
		if (session.id === this.currentSession && this.cutoff !== null && eventId >= this.cutoff) return false;
		return true;
	}
}
