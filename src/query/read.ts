/** event_read: the exact source event, windows of its fragments, what was left out, and its neighbors (I10–I13). */

import { Catalog, type EventRow, eventBrief, type SessionRow, sessionSummary } from "../index/catalog.js";
import type { IndexStore } from "../index/store.js";
import { describeEntry, projectEntry } from "../project/entry.js";
import { textWindow } from "../project/long-text.js";
import { branchNeighbors } from "../project/tree.js";
import { clamp, READ_LIMITS } from "../shared/bounds.js";
import { ArgumentError, NotFoundError, SourceChangedError } from "../shared/errors.js";
import type { Classification, EventBrief, FragmentWindow, Neighbors, OmittedPart, ReadRequest, ReadResult } from "../shared/types.js";
import { readEntryAt } from "../source/locate.js";
import { SessionView } from "./session-view.js";
import { Visibility } from "./visibility.js";

/** Fork candidates listed by a read; a node with 100,000 children must not make an unbounded answer. */
export const FORK_CANDIDATE_LIMIT = 50;

/** Looks up a visible session and event, failing identically for unknown and unauthorized ones (I16). */
export function visibleEvent(catalog: Catalog, visibility: Visibility, sessionId: string, entryId: string): { session: SessionRow; event: EventRow } {
	const session = catalog.sessionByPublicId(sessionId);
	if (!session || !visibility.allowsSession(session))
		throw new NotFoundError(sessionId, entryId, session && visibility.hidesAsOwn(session) ? visibility.notes[0] : undefined);
	const event = catalog.eventByEntry(session.id, entryId);
	if (!event || !visibility.allowsEvent(event, session)) throw new NotFoundError(sessionId, entryId);
	return { session, event };
}

/** The classification of an event, as stored by the last refresh. */
export function classificationOf(event: EventRow, session: SessionRow, visibility?: Visibility): Classification {
	// In the caller's own session the materialized leaf is the invoking message or later: never name it (I17).
	const ownSession = visibility !== undefined && !visibility.trusted && session.id === visibility.currentSession;
	return {
		branchState: event.branch_state,
		contextRole: event.context_role,
		selectionState: event.selection_state,
		...(event.summarized_by
			? {
					summarizedBy: {
						sessionId: session.public_id,
						entryId: event.summarized_by,
						provenance: event.summarized_prov === "derived" ? "derived" : "recorded",
					},
				}
			: {}),
		...(event.edit_state && event.edit_by ? { contextEdit: { state: event.edit_state, by: event.edit_by } } : {}),
		onMaterializedLeafPath: event.branch_state === "selected",
		materializedLeafId: ownSession ? null : session.leaf_entry,
	};
}

/** Neighbors of an event in branch or append order, hiding what the caller may not see. */
export function neighborsOf(
	catalog: Catalog,
	visibility: Visibility,
	event: EventRow,
	session: SessionRow,
	order: "branch" | "append",
	before: number,
	after: number,
): Neighbors {
	const view = new SessionView(catalog, visibility, session);
	const brief = (e: EventRow): EventBrief => eventBrief(e, session);
	if (order === "append") {
		return {
			order,
			before: view.appendOrder(event, "before", before).map(brief),
			after: view.appendOrder(event, "after", after).map(brief),
			forkCandidates: [],
			note: "append order is file order: it may interleave entries of different branches",
		};
	}
	const walk = branchNeighbors(event.entry_id, view.parents, view.childIds, (id) => view.event(id)?.branch_state === "selected", before, after);
	const pick = (ids: string[]) =>
		ids
			.map((id) => view.event(id))
			.filter((e): e is EventRow => e !== undefined)
			.map(brief);
	const candidates = walk.forkCandidates.slice(0, FORK_CANDIDATE_LIMIT);
	const more = walk.forkCandidates.length - candidates.length;
	const note = walk.stoppedAtFork
		? "stopped at a fork: every candidate child is listed in forkCandidates"
		: walk.forkCandidates.length
			? "followed the materialized-leaf path; the other children at the fork are in forkCandidates"
			: undefined;
	const fullNote = more > 0 ? `${note ?? ""}${note ? "; " : ""}${more} more fork candidates not listed (trace shows children too)` : note;
	return { order, before: pick(walk.before), after: pick(walk.after), forkCandidates: pick(candidates), ...(fullNote ? { note: fullNote } : {}) };
}

/** Reads one event exactly from its source file (DESIGN §5 `event_read`). */
export function readEvent(store: IndexStore, request: ReadRequest): ReadResult {
	if (!request.sessionId || !request.entryId) throw new ArgumentError("sessionId and entryId are required");
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, request.caller);
	const { session, event } = visibleEvent(catalog, visibility, request.sessionId, request.entryId);
	const located = readEntryAt(catalog.locator(event, session));
	if (!located.ok) throw new SourceChangedError(`${request.sessionId}/${request.entryId}: ${located.detail}`);
	const entry = located.entry;
	const projected = projectEntry(entry, session.cwd);
	const { metadata, omitted } = describeEntry(entry);
	const maxChars = clamp(request.maxChars, READ_LIMITS.maxChars);
	const offset = Math.max(0, Math.trunc(request.offset ?? 0));
	let fragments = projected.fragments;
	if (request.fragmentId !== undefined) {
		fragments = fragments.filter((f) => f.id === request.fragmentId);
		if (fragments.length === 0) {
			const known = projected.fragments.map((f) => f.id).join(", ") || "none";
			throw new ArgumentError(`event ${request.sessionId}/${request.entryId} has no fragment "${request.fragmentId}" (fragments: ${known})`);
		}
	}
	const windows: FragmentWindow[] = [];
	const parts: OmittedPart[] = [...omitted];
	for (const f of fragments) {
		const start = request.fragmentId !== undefined ? offset : 0;
		// A long text's window is streamed from the file; only the window is kept (I20).
		const w = textWindow(f.text, start, maxChars, session.file);
		const truncated = w.range[0] > 0 || w.range[1] < f.text.length;
		windows.push({ id: f.id, kind: f.kind, text: w.text, range: w.range, totalChars: f.text.length, truncated });
		if (truncated) {
			parts.push({
				path: f.path,
				reason: `truncated payload: characters ${w.range[0]}–${w.range[1]} of ${f.text.length} shown; read on with fragmentId and offset`,
				chars: f.text.length,
			});
		}
	}
	const notes: string[] = [];
	const duplicated = /(\d+) duplicate id\(s\) with different content/.exec(catalog.fileNote(session.id) ?? "");
	if (duplicated)
		notes.push(`this session's file repeats ${duplicated[1]} entry id(s) with different content: like pi, the last copy of each is the one indexed and shown`);
	if (located.relocated) notes.push("the source file was rewritten since indexing; the entry was found again by its id (refresh the index)");
	const order = request.order === "append" ? "append" : "branch";
	const before = clamp(request.before, READ_LIMITS.neighbors);
	const after = clamp(request.after, READ_LIMITS.neighbors);
	return {
		event: {
			sessionId: session.public_id,
			entryId: event.entry_id,
			parentId: event.parent_id,
			...(event.synthetic ? { syntheticId: true } : {}),
			...metadata,
			type: entry.type,
		},
		fragments: windows,
		omitted: parts,
		source: { file: session.file, line: entry.lineNo, byteOffset: entry.offset, byteLength: entry.length },
		neighbors: neighborsOf(catalog, visibility, event, session, order, before, after),
		classification: classificationOf(event, session, visibility),
		session: sessionSummary(session),
		notes,
	};
}
