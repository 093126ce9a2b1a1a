/**
 * Walks of the session tree answered by the index in time proportional to the path walked (issue 14 item 7):
 * up to the nearest fork is one recursive query per session file crossed, never a trace per step.
 */
import { Catalog, type SessionRow } from "../index/catalog.js";
import type { IndexStore } from "../index/store.js";
import { ArgumentError } from "../shared/errors.js";
import type { ForkAbove, ForkAboveRequest } from "../shared/types.js";
import { visibleEvent } from "./read.js";
import { Visibility } from "./visibility.js";

/** Row id at and above which a session's events are invisible to the caller, or null. */
function belowOf(visibility: Visibility, session: SessionRow): number | null {
	return visibility.currentSession === session.id ? visibility.cutoff : null;
}

/** Entries of `session` that visible forked sessions continue from, once per forked session (trace's `fork-of` in). */
function forkPoints(catalog: Catalog, visibility: Visibility, session: SessionRow): string[] {
	const points: string[] = [];
	for (const child of catalog.childSessions(session.id)) {
		if (!visibility.allowsSession(child)) continue;
		const first = catalog.firstOwnEntry(child.id, session.id, belowOf(visibility, child), belowOf(visibility, session));
		if (first?.parent_id) points.push(first.parent_id);
	}
	return points;
}

/**
 * The nearest ancestor of an event with two or more ways on, walking parents and, where a parent is missing from
 * the file, into the parent session (as the explorer's parent step does); null at a root or a dangling parent.
 */
export function forkAbove(store: IndexStore, request: ForkAboveRequest): ForkAbove | null {
	if (!request.sessionId || !request.entryId) throw new ArgumentError("sessionId and entryId are required");
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, request.caller);
	const start = visibleEvent(catalog, visibility, request.sessionId, request.entryId);
	let session = start.session;
	let entryId = start.event.entry_id;
	let steps = 0;
	let checkStart = false;
	const crossed = new Set<number>();
	for (;;) {
		crossed.add(session.id);
		// A parent cycle cannot be longer than the session: the walk ends there.
		const top = catalog.walkUp(session.id, entryId, forkPoints(catalog, visibility, session), belowOf(visibility, session), session.entries + 1, checkStart);
		if (!top) return null;
		if (top.branches >= 2 && (checkStart || top.depth > 0)) {
			return { ref: { sessionId: session.public_id, entryId: top.entry_id }, steps: steps + top.depth, branches: top.branches };
		}
		if (top.parent_id === null) return null;
		// Stopped with the parent still in this file: a parent cycle, which has no fork above.
		if (catalog.eventByEntry(session.id, top.parent_id)) return null;
		// The topmost entry's parent is not in this file: pi's /fork and /clone leave it in the parent session.
		const parent = session.parent_session === null ? undefined : catalog.session(session.parent_session);
		if (!parent || crossed.has(parent.id) || !visibility.allowsSession(parent)) return null;
		const inParent = catalog.eventByEntry(parent.id, top.parent_id);
		if (!inParent || !visibility.allowsEvent(inParent, parent)) return null;
		steps += top.depth + 1;
		session = parent;
		entryId = inParent.entry_id;
		checkStart = true;
	}
}
