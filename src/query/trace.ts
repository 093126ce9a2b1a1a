/**
 * event_trace: the typed relationships of one event (I15), each recorded (read from the file), derived
 * (computed from recorded facts) or inferred (heuristic), with bounded previews of the nodes at the other end.
 */
import { Catalog, type EventRow, eventBrief, type SessionRow, sessionSummary } from "../index/catalog.js";
import { originFacts } from "../index/session-list.js";
import type { IndexStore } from "../index/store.js";
import { CTX_OMITS } from "../project/tree.js";
import { ArgumentError } from "../shared/errors.js";
import { type Caller, type EventBrief, type EventRef, refKey, type SessionLineage, type TraceEdge, type TraceResult } from "../shared/types.js";
import { classificationOf, visibleEvent } from "./read.js";
import { SessionView } from "./session-view.js";
import { lineageHow } from "./sessions.js";
import { Visibility } from "./visibility.js";

/** Edges of one relation kind listed before the rest is summarized in a note. */
export const TRACE_EDGE_LIMIT = 50;

/** Where a fork child departs from its parent session. */
interface ForkInfo {
	/** The parent entry the child's own history continues from, when it can be derived. */
	forkPoint: string | null;
	/** The first entry the child wrote itself. */
	firstOwn: string | null;
}

class Tracer {
	readonly edges: TraceEdge[] = [];
	readonly nodes: Record<string, EventBrief> = {};
	readonly notes: string[] = [];
	private readonly views = new Map<number, SessionView>();

	constructor(
		readonly catalog: Catalog,
		readonly visibility: Visibility,
	) {}

	/** The indexed view of a session (lookups per entry, never the whole session). */
	view(session: SessionRow): SessionView {
		let view = this.views.get(session.id);
		if (!view) {
			view = new SessionView(this.catalog, this.visibility, session);
			this.views.set(session.id, view);
		}
		return view;
	}

	node(e: EventRow, s: SessionRow): EventRef {
		const ref = { sessionId: s.public_id, entryId: e.entry_id };
		const key = refKey(ref);
		if (!this.nodes[key]) this.nodes[key] = eventBrief(e, s);
		return ref;
	}

	add(rel: TraceEdge["rel"], to: TraceEdge["to"], provenance: TraceEdge["provenance"], extra: { direction?: "in" | "out"; note?: string } = {}): void {
		this.edges.push({ rel, to, provenance, ...extra });
	}

	/** Adds up to TRACE_EDGE_LIMIT edges of one kind and says how many more there were. */
	addMany(
		rel: TraceEdge["rel"],
		rows: EventRow[],
		s: SessionRow,
		provenance: TraceEdge["provenance"],
		extra: { direction?: "in" | "out"; note?: string } = {},
		total = rows.length,
		atLeast = false,
	): void {
		for (const e of rows.slice(0, TRACE_EDGE_LIMIT)) this.add(rel, this.node(e, s), provenance, extra);
		if (total > TRACE_EDGE_LIMIT) this.notes.push(`${total - TRACE_EDGE_LIMIT}${atLeast ? "+" : ""} more ${rel} edge(s) not listed`);
	}

	visibleParentSession(s: SessionRow): SessionRow | null {
		if (s.parent_session === null) return null;
		const parent = this.catalog.session(s.parent_session);
		return parent && this.visibility.allowsSession(parent) ? parent : null;
	}

	/** True when `entryId` of `child` is a byte-identical copy of the parent's entry of that id. */
	copied(child: SessionRow, parent: SessionRow, entryId: string): boolean {
		const mine = this.view(child).event(entryId);
		const twin = this.view(parent).event(entryId);
		return mine !== undefined && twin !== undefined && mine.line_hash === twin.line_hash;
	}

	/** Derives where a child session branched off its parent, with one indexed pass inside SQLite. */
	forkInfo(child: SessionRow, parent: SessionRow): ForkInfo {
		const first = this.catalog.firstOwnEntry(child.id, parent.id, this.view(child).below, this.view(parent).below);
		let forkPoint = first?.parent_id ?? null;
		// A --fork copy of every entry continues from the parent's materialized leaf.
		if (forkPoint === null && parent.leaf_entry && this.copied(child, parent, parent.leaf_entry)) forkPoint = parent.leaf_entry;
		return { forkPoint, firstOwn: first?.entry_id ?? null };
	}
}

/** Whether a context edit decides what the model saw of its target: in effect, superseded, or off the selected path. */
function editStatus(edit: EventRow, target: EventRow | undefined): string {
	if (target?.edit_by === edit.entry_id) return "in effect";
	if (edit.branch_state !== "selected") return "on an abandoned branch";
	if (target?.edit_by) return `superseded by ${target.edit_by}`;
	return "not in effect (outside the model context)";
}

/** `edits` edges (recorded): a context_edit to its target, and a target from every edit of it. */
function editEdges(t: Tracer, event: EventRow, session: SessionRow, view: SessionView): void {
	if (event.type === "context_edit" && event.ref_id) {
		const target = view.event(event.ref_id);
		const what = event.ctx_flags & CTX_OMITS ? "omits" : "replaces";
		const note = `${what} the target's content in the model context; ${editStatus(event, target)}`;
		if (target) t.add("edits", t.node(target, session), "recorded", { note });
		else t.add("edits", { sessionId: session.public_id, entryId: event.ref_id }, "recorded", { note: `${note}; target not in this session` });
	}
	const edits = t.catalog.referrers(session.id, event.entry_id).filter((e) => e.type === "context_edit" && t.visibility.allowsEvent(e, session));
	for (const e of edits.slice(0, TRACE_EDGE_LIMIT)) {
		const what = e.ctx_flags & CTX_OMITS ? "omitted" : "replaced";
		t.add("edits", t.node(e, session), "recorded", { direction: "in", note: `${what} by this edit; ${editStatus(e, event)}` });
	}
	if (edits.length > TRACE_EDGE_LIMIT) t.notes.push(`${edits.length - TRACE_EDGE_LIMIT} more edits edge(s) not listed`);
}

/** Ancestors counted for a trace's depth at most (one indexed lookup each, ~13 µs: 1,000 of them ≈ 13 ms). */
const DEPTH_WALK_LIMIT = 1_000;

/** Traces the relationships of one event (DESIGN §5 `event_trace`). */
export function traceEvent(store: IndexStore, request: EventRef & { caller?: Caller }): TraceResult {
	if (!request.sessionId || !request.entryId) throw new ArgumentError("sessionId and entryId are required");
	const catalog = new Catalog(store);
	const visibility = new Visibility(catalog, request.caller);
	const { session, event } = visibleEvent(catalog, visibility, request.sessionId, request.entryId);
	const t = new Tracer(catalog, visibility);
	const self = t.node(event, session);
	const view = t.view(session);
	const byId = { get: (id: string) => view.event(id), has: (id: string) => view.event(id) !== undefined };
	const childrenOf = (id: string) => view.children(id);

	// Tree: parent, children, siblings, toward the materialized leaf.
	const parentSession = t.visibleParentSession(session);
	if (event.parent_id !== null) {
		const parent = byId.get(event.parent_id);
		if (parent) t.add("parent", t.node(parent, session), "recorded");
		else {
			const inParent = parentSession ? catalog.eventByEntry(parentSession.id, event.parent_id) : undefined;
			if (inParent && parentSession && visibility.allowsEvent(inParent, parentSession)) {
				t.add("parent", t.node(inParent, parentSession), "derived", {
					note: "the recorded parentId is missing from this file (pi's /fork and /clone drop label entries); the entry exists in the parent session",
				});
			} else {
				t.add("parent", { sessionId: session.public_id, entryId: event.parent_id }, "recorded", {
					note: "dangling: no entry with this id in the session; the event is a root of its own branch",
				});
			}
		}
	}
	const children = childrenOf(event.entry_id);
	t.addMany("child", children, session, "recorded");
	if (event.parent_id !== null && byId.has(event.parent_id)) {
		t.addMany(
			"sibling",
			childrenOf(event.parent_id).filter((e) => e.id !== event.id),
			session,
			"derived",
			{ note: "shares the parent" },
		);
	}
	if (event.branch_state === "selected") {
		const next = children.find((c) => c.branch_state === "selected");
		if (next) t.add("toward-leaf", t.node(next, session), "derived", { note: "next entry on the root → materialized-leaf path" });
	} else if (event.parent_id !== null && byId.has(event.parent_id)) {
		t.add("toward-leaf", t.node(byId.get(event.parent_id) as EventRow, session), "derived", {
			note: "this branch is not on the materialized-leaf path; the way there goes up",
		});
	}

	// Tool calls and results.
	if (event.tool_call_id) {
		const call = catalog.callEvent(session.id, event.tool_call_id);
		if (call && visibility.allowsEvent(call.event, session))
			t.add("tool-result-for", t.node(call.event, session), "recorded", { note: `result of ${call.frag} (${call.name}), toolCallId ${event.tool_call_id}` });
		else t.notes.push(`toolCallId ${event.tool_call_id}: the calling entry is not in the index`);
	}
	for (const call of catalog.callsOf(event.id)) {
		const results = catalog.resultsForCall(session.id, call.call_id).filter((r) => visibility.allowsEvent(r, session));
		for (const r of results)
			t.add("tool-result-for", t.node(r, session), "recorded", { direction: "in", note: `answers ${call.frag} (${call.name}), toolCallId ${call.call_id}` });
		if (results.length === 0) t.notes.push(`${call.frag} (${call.name}) has no recorded result`);
	}

	// Compaction, branch summary and label links, from both ends.
	if (event.type === "compaction" && event.ref_id === event.entry_id) {
		// pi 1.x retain-none compaction: firstKeptEntryId is the compaction itself.
		t.notes.push("retain-none compaction: nothing before it was kept; the model sees only its summary and what follows");
	} else if (event.type === "compaction" && event.ref_id) {
		const kept = byId.get(event.ref_id);
		if (kept) t.add("compacts", t.node(kept, session), "recorded", { note: "first entry kept after the summary (firstKeptEntryId)" });
		else t.add("compacts", { sessionId: session.public_id, entryId: event.ref_id }, "recorded", { note: "firstKeptEntryId is not in this session" });
	}
	if (event.type === "branch_summary") {
		const from = event.ref_id ?? event.parent_id;
		const point = from ? byId.get(from) : undefined;
		// Since pi 0.84.3 fromId is the abandoned leaf; older files record the branch point (fromId == parentId, or
		// pi 0.73.1's "root" at a null parent).
		const what =
			from !== null && from !== event.parent_id ? "the leaf of the abandoned branch (fromId)" : "the branch point the summary was attached to (fromId)";
		if (point) t.add("branch-summary-from", t.node(point, session), "recorded", { note: what });
		else if (from === "root" && event.parent_id === null)
			t.notes.push("summary of a move to the root (fromId root, written by pi before 0.84.3): the branch it abandoned is linked below");
		else if (from)
			t.add("branch-summary-from", { sessionId: session.public_id, entryId: from }, "recorded", {
				note: from === "root" ? "summary written with no previous leaf (fromId root)" : "fromId is not in this session",
			});
	}
	editEdges(t, event, session, view);
	if (event.type === "compaction" || event.type === "branch_summary") {
		const replaced = catalog.summarizedBy(session.id, event.entry_id, TRACE_EDGE_LIMIT + 1, view.below);
		const rel = event.type === "compaction" ? "compacts" : "branch-summary-from";
		const note =
			event.type === "compaction" ? "replaced by this compaction's summary in the model context" : "part of the abandoned branch this summary describes";
		t.addMany(rel, replaced.rows, session, "derived", { note }, replaced.total, replaced.atLeast);
	}
	if (event.type === "label" && event.ref_id) {
		const target = byId.get(event.ref_id);
		const note = event.label === null ? "clears the label" : `label "${event.label}"`;
		if (target) t.add("labels", t.node(target, session), "recorded", { note });
		else t.add("labels", { sessionId: session.public_id, entryId: event.ref_id }, "recorded", { note: `${note}; target not in this session` });
	}
	for (const r of catalog.referrers(session.id, event.entry_id)) {
		if (!visibility.allowsEvent(r, session) || r.id === event.id) continue;
		if (r.type === "compaction" && r.ref_id !== r.entry_id)
			t.add("compacts", t.node(r, session), "recorded", { direction: "in", note: "this entry is the first one kept by that compaction" });
		if (r.type === "branch_summary")
			t.add("branch-summary-from", t.node(r, session), "recorded", { direction: "in", note: "a branch summary was attached here" });
		if (r.type === "label" && r.label !== null && r.label === event.cur_label)
			t.add("labels", t.node(r, session), "recorded", { direction: "in", note: `current label "${r.label}"` });
	}
	if (event.summarized_by && event.type !== "compaction") {
		const by = byId.get(event.summarized_by);
		if (by) {
			const rel = by.type === "compaction" ? "compacts" : "branch-summary-from";
			t.add(rel, t.node(by, session), "derived", { direction: "in", note: "this entry reaches the model context only through that summary" });
		}
	}

	// Depth: entries above this one on its path within this file (a cycle or a missing parent ends the walk). Bounded,
	// so a trace costs what the entry costs also a million entries deep: past the bound it is a lower bound.
	let depth = 0;
	let depthAtLeast = false;
	for (let at = event.parent_id, seen = new Set<string>(); at !== null && !seen.has(at); depth++) {
		if (depth >= DEPTH_WALK_LIMIT) {
			depthAtLeast = true;
			break;
		}
		seen.add(at);
		at = byId.get(at)?.parent_id ?? null;
	}

	// Session lineage across files.
	let lineage: SessionLineage = { parent: null, how: null, at: null, parentFile: session.parent_path, children: 0 };
	if (session.parent_path !== null) {
		if (parentSession) {
			t.add("session-parent", { sessionId: parentSession.public_id, entryId: null }, "recorded", { note: "header parentSession" });
			const fork = t.forkInfo(session, parentSession);
			const facts = originFacts(store, session.id);
			lineage = { ...lineage, parent: sessionSummary(parentSession), how: facts ? lineageHow(facts) : null, at: fork.forkPoint };
			const twin = t.copied(session, parentSession, event.entry_id) ? catalog.eventByEntry(parentSession.id, event.entry_id) : undefined;
			if (twin) t.add("fork-of", t.node(twin, parentSession), "derived", { note: "this entry is a copy of the parent session's entry" });
			else if (fork.firstOwn === event.entry_id && fork.forkPoint) {
				const point = catalog.eventByEntry(parentSession.id, fork.forkPoint);
				if (point) t.add("fork-of", t.node(point, parentSession), "derived", { note: "this session continues from here in the parent session" });
			}
		} else if (visibility.trusted) {
			t.add("session-parent", { hidden: true }, "recorded", { note: `parent session file not indexed: ${session.parent_path}` });
		} else {
			t.add("session-parent", { hidden: true }, "recorded", { note: "the parent session is not available" });
		}
	}
	for (const child of catalog.childSessions(session.id)) {
		if (!visibility.allowsSession(child)) continue;
		lineage.children++;
		const fork = t.forkInfo(child, session);
		if (fork.forkPoint === event.entry_id) {
			const first = fork.firstOwn ? catalog.eventByEntry(child.id, fork.firstOwn) : undefined;
			if (first && visibility.allowsEvent(first, child))
				t.add("fork-of", t.node(first, child), "derived", { direction: "in", note: "a forked session continues from here" });
			else t.add("fork-of", { sessionId: child.public_id, entryId: null }, "derived", { direction: "in", note: "a forked session branched here" });
		}
	}

	// File evidence (inferred from tool calls and summary details).
	for (const f of catalog.filesOf(event.id)) t.add(f.rel === "read" ? "file-read" : "file-changed", { file: f.path }, "inferred", { note: `from ${f.via}` });

	return {
		node: { ...(t.nodes[refKey(self)] as EventBrief), classification: classificationOf(event, session, visibility), session: sessionSummary(session) },
		edges: t.edges,
		nodes: t.nodes,
		notes: t.notes,
		lineage: visibility.trusted || lineage.parent ? lineage : { ...lineage, parentFile: null },
		depth,
		...(depthAtLeast ? { depthAtLeast } : {}),
	};
}
