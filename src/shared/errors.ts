/** Errors the faces translate for people and models: bad arguments, unknown events, changed sources. */

/** The caller must fix an argument (exit code 2, or a thrown tool error). */
export class ArgumentError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ArgumentError";
	}
}

/** No such event for this caller; unauthorized and missing look exactly the same (I16). */
export class NotFoundError extends Error {
	constructor(sessionId: string, entryId?: string, why?: string) {
		super(`${entryId === undefined ? `no session ${sessionId} in the index` : `no event ${sessionId}/${entryId} in the index`}${why ? ` (${why})` : ""}`);
		this.name = "NotFoundError";
	}
}

/** The source file no longer holds the indexed entry (I10): never answer with other bytes. */
export class SourceChangedError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "SourceChangedError";
	}
}

/** The index cannot be opened or created at all (a runtime error: exit code 1). */
export class IndexUnavailableError extends Error {
	constructor(
		message: string,
		readonly path: string,
	) {
		super(message);
		this.name = "IndexUnavailableError";
	}
}
