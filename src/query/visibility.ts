/** What one caller may see: sessions under its authorization root, and its own session only up to the cutoff (I16, I17). */

import { realpathSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
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
	/** Sessions hidden whole because the caller's own file could not be told apart from them (fail closed, I17). */
	private readonly unidentified: ReadonlySet<number>;
	/** What the caller should know about its own session's exclusion. */
	readonly notes: readonly string[];

	constructor(
		catalog: Catalog,
		readonly caller: Caller | undefined,
	) {
		this.authorizer = caller ? new Authorizer(caller.root) : null;
		let current: SessionRow | undefined;
		let unidentified: SessionRow[] = [];
		// By file first: a session id alone is not unique (imports, exports and copies share ids).
		if (caller?.currentSessionFile) {
			current = sessionOfFile(catalog, caller.currentSessionFile);
			// Fail closed: whichever of them is the caller's stays out entirely, and the caller is told.
			if (!current && caller.currentSessionId) unidentified = catalog.sessionsByHeaderId(caller.currentSessionId);
		}
		if (!current && caller?.currentSessionId && !caller.currentSessionFile) current = catalog.sessionByPublicId(caller.currentSessionId);
		this.unidentified = new Set(unidentified.map((s) => s.id));
		this.notes = unidentified.length
			? [
					`your current session's file was not found in the index, so every indexed session with its id ${caller?.currentSessionId} (${unidentified.length}) is excluded, even when asked for by id`,
				]
			: [];
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

	/** True when no session is hidden as possibly the caller's own: then a session's cwd alone decides (allowsCwd). */
	get hidesNoneAsOwn(): boolean {
		return this.unidentified.size === 0;
	}

	/** True when sessions run in `cwd` exist for this caller (unless hidden as its own, see hidesNoneAsOwn). */
	allowsCwd(cwd: string): boolean {
		return this.authorizer === null || this.authorizer.allows(cwd);
	}

	/** True when the session exists for this caller. */
	allowsSession(session: SessionRow): boolean {
		if (this.unidentified.has(session.id)) return false;
		return this.authorizer === null || this.authorizer.allows(session.cwd);
	}

	/** True when the session is hidden because it may be the caller's own, unidentified one (an unauthorized one never is). */
	hidesAsOwn(session: SessionRow): boolean {
		return this.unidentified.has(session.id) && (this.authorizer === null || this.authorizer.allows(session.cwd));
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

/**
 * The indexed session of the caller's file, found the way pi reaches it: pi may report a path relative to its own
 * working directory (a relative `sessionDir` or PI_CODING_AGENT_SESSION_DIR), and the index may hold the same file
 * under another path (a symlinked directory, another root); the same inode at the same real path is the same file.
 */
export function sessionOfFile(catalog: Catalog, file: string): SessionRow | undefined {
	const absolute = isAbsolute(file) ? file : resolve(file);
	const exact = catalog.sessionByFile(absolute);
	if (exact) return exact;
	let real: string;
	let ino: number;
	try {
		real = realpathSync(absolute);
		ino = statSync(real).ino;
	} catch {
		return undefined;
	}
	const byReal = catalog.sessionByFile(real);
	if (byReal) return byReal;
	return catalog.sessionsByIno(ino).find((s) => {
		try {
			return realpathSync(s.file) === real;
		} catch {
			return false;
		}
	});
}
