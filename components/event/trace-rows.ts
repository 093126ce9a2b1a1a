/**
 * The tree walk as data: the trace panel's rows (path from the root, parent, children, siblings, append neighbors,
 * tool, compaction, summary, label and fork links), the fork candidates, and where each walk key leads.
 */

import { briefKind } from "../../src/present/text.js";
import { type EventBrief, type EventRef, refKey, type TraceEdge } from "../../src/shared/types.js";
import { idTail } from "../core/session-label.js";
import type { Tone } from "../core/styled.js";
import { oneLine } from "../core/text-width.js";
import { type EventData, PATH_DEPTH } from "./loaders.js";

/** Something the walk can go to: an event, or a whole session (opens the search scoped to it). */
export type WalkTarget = { kind: "event"; ref: EventRef; brief: EventBrief | null } | { kind: "session"; sessionId: string };

/** One row of the trace panel. */
export interface TraceRow {
	icon: string;
	rel: string;
	/** Short id column: entry id, or the session for cross-file targets. */
	id: string;
	text: string;
	tone: Tone;
	/** Short marks shown before the text: "leaf path", "alternate", "session 019bfb95". */
	marks: string[];
	/** Why the link holds (the trace's note), shown after the text. */
	note?: string;
	target: WalkTarget | null;
}

/** A child the walk can continue to, with its one-line preview. */
export interface Candidate {
	ref: EventRef;
	brief: EventBrief | null;
	/** Why it is a candidate: a child in this file, or the continuation of a forked session. */
	via: "child" | "forked session";
	towardLeaf: boolean;
}

function eventTarget(to: TraceEdge["to"]): EventRef | null {
	if ("hidden" in to || "file" in to || to.entryId === null) return null;
	return { sessionId: to.sessionId, entryId: to.entryId };
}

function briefOf(data: EventData, ref: EventRef): EventBrief | null {
	return data.trace.nodes[refKey(ref)] ?? null;
}

function edges(data: EventData, rel: TraceEdge["rel"], direction?: "in" | "out"): TraceEdge[] {
	return data.trace.edges.filter((e) => e.rel === rel && (direction === undefined || (e.direction ?? "out") === direction));
}

function sameRef(a: EventRef, b: EventRef): boolean {
	return a.sessionId === b.sessionId && a.entryId === b.entryId;
}

/** The event the walk stands on. */
export function currentRef(data: EventData): EventRef {
	return { sessionId: data.trace.node.sessionId, entryId: data.trace.node.entryId };
}

/** The child on the root → materialized-leaf path, when this event is on it. */
function towardLeafChild(data: EventData): EventRef | null {
	const me = currentRef(data);
	const children = edges(data, "child")
		.map((e) => eventTarget(e.to))
		.filter((r): r is EventRef => r !== null);
	for (const e of edges(data, "toward-leaf")) {
		const to = eventTarget(e.to);
		if (to && !sameRef(to, me) && children.some((c) => sameRef(c, to))) return to;
	}
	return null;
}

/** Every child the walk could continue to: children in this file, then forked sessions that continue from here. */
export function forkCandidates(data: EventData): Candidate[] {
	const toward = towardLeafChild(data);
	const out: Candidate[] = [];
	for (const e of edges(data, "child")) {
		const ref = eventTarget(e.to);
		if (ref) out.push({ ref, brief: briefOf(data, ref), via: "child", towardLeaf: toward !== null && sameRef(ref, toward) });
	}
	for (const e of edges(data, "fork-of", "in")) {
		const ref = eventTarget(e.to);
		if (ref) out.push({ ref, brief: briefOf(data, ref), via: "forked session", towardLeaf: false });
	}
	return out;
}

/** The outcome of a walk key: go somewhere, choose among candidates, or a message saying why not. */
export type WalkOutcome = { go: WalkTarget; note?: string } | { choose: Candidate[]; title: string } | { message: string };

/** The parent: recorded in this file, or derived in the parent session when the recorded one is missing here. */
export function walkParent(data: EventData): WalkOutcome {
	const edge = edges(data, "parent")[0];
	if (!edge) {
		const copy = edges(data, "fork-of", "out")[0];
		if (copy) return { message: "root of this session: it was copied from a parent session (the fork-of row in the trace panel goes there)" };
		return { message: "this is the root of the session: there is no parent" };
	}
	const ref = eventTarget(edge.to);
	const brief = ref ? briefOf(data, ref) : null;
	if (!ref || !brief) return { message: `the parent ${ref?.entryId ?? ""} is not in the index (${edge.note ?? "dangling parentId"})`.trim() };
	const note = ref.sessionId !== data.trace.node.sessionId ? "crossed into the parent session (the parent entry is missing from this file)" : undefined;
	return { go: { kind: "event", ref, brief }, ...(note ? { note } : {}) };
}

/** The child toward the materialized leaf; at an unresolved fork, every candidate to choose from. */
export function walkChild(data: EventData): WalkOutcome {
	const candidates = forkCandidates(data);
	if (candidates.length === 0) {
		const c = data.trace.node.classification;
		if (c.materializedLeafId === data.trace.node.entryId) return { message: "this is the materialized leaf: the last entry pi wrote in this session" };
		return { message: "no children: this branch ends here" };
	}
	const only = candidates.length === 1 ? candidates[0] : undefined;
	if (only)
		return { go: { kind: "event", ref: only.ref, brief: only.brief }, ...(only.via === "forked session" ? { note: "crossed into the forked session" } : {}) };
	const toward = candidates.find((c) => c.towardLeaf);
	if (toward)
		return {
			go: { kind: "event", ref: toward.ref, brief: toward.brief },
			note: `fork: followed the materialized-leaf path; ${candidates.length - 1} other branch(es) here, f lists them`,
		};
	return { choose: candidates, title: `fork: ${candidates.length} branches continue from here` };
}

/** Children and forked continuations to pick from (the f key). */
export function walkForks(data: EventData): WalkOutcome {
	const candidates = forkCandidates(data);
	if (candidates.length === 0) return { message: "no children to choose from: this branch ends here" };
	return {
		choose: candidates,
		title: candidates.length > 1 ? `fork: ${candidates.length} branches continue from here` : "one child continues from here (not a fork)",
	};
}

/** Siblings in timestamp order with this event among them; index of this event. */
export function siblingOrder(data: EventData): { refs: EventRef[]; at: number } {
	const me = currentRef(data);
	const time = (iso: string | undefined) => {
		const t = Date.parse(iso ?? "");
		return Number.isFinite(t) ? t : 0;
	};
	const list: Array<{ ref: EventRef; ts: number; i: number }> = [{ ref: me, ts: time(data.trace.node.timestamp), i: -1 }];
	edges(data, "sibling").forEach((e, i) => {
		const ref = eventTarget(e.to);
		if (ref) list.push({ ref, ts: time(briefOf(data, ref)?.timestamp), i });
	});
	// Siblings come in file order; this event's own place among them is found by time (ties keep file order).
	list.sort((a, b) => a.ts - b.ts || a.i - b.i);
	return { refs: list.map((x) => x.ref), at: list.findIndex((x) => sameRef(x.ref, me)) };
}

/** The next (dir 1) or previous (dir -1) sibling. */
export function walkSibling(data: EventData, dir: 1 | -1): WalkOutcome {
	const { refs, at } = siblingOrder(data);
	if (refs.length <= 1) return { message: "no siblings: the parent has only this child" };
	const next = refs[at + dir];
	if (!next) return { message: dir === 1 ? `last of ${refs.length} siblings (k goes back)` : `first of ${refs.length} siblings (j goes on)` };
	return { go: { kind: "event", ref: next, brief: briefOf(data, next) }, note: `sibling ${at + dir + 1} of ${refs.length}` };
}

/** The append-order (file order) neighbor before or after. */
export function walkAppend(data: EventData, dir: 1 | -1): WalkOutcome {
	const b = dir === 1 ? data.appendAfter : data.appendBefore;
	if (!b) return { message: dir === 1 ? "last entry of the file" : "first entry of the file" };
	return {
		go: { kind: "event", ref: { sessionId: b.sessionId, entryId: b.entryId }, brief: b },
		note: `append order: the entry written just ${dir === 1 ? "after" : "before"} this one (may be another branch)`,
	};
}

/** Row labels per relation and direction ("out": this event points there; "in": that one points here). */
const REL_LABEL: Partial<Record<TraceEdge["rel"], { out: string; in: string }>> = {
	"tool-result-for": { out: "result of", in: "answered by" },
	compacts: { out: "compacts", in: "compacted by" },
	"branch-summary-from": { out: "summary of", in: "summarized" },
	labels: { out: "labels", in: "labeled" },
	"session-parent": { out: "forked from", in: "forked from" },
	"fork-of": { out: "fork of", in: "forked to" },
	"file-read": { out: "file read", in: "file read" },
	"file-changed": { out: "file changed", in: "file changed" },
};

function row(
	data: EventData,
	icon: string,
	rel: string,
	ref: EventRef,
	extra: string[] = [],
	tone: Tone = "plain",
	textOverride?: string,
	note?: string,
): TraceRow {
	const b = briefOf(data, ref);
	const marks = [...extra];
	if (b?.branchState === "alternate") marks.push("alternate");
	if (ref.sessionId !== data.trace.node.sessionId) marks.push(`session #${idTail(ref.sessionId)}`);
	return {
		icon,
		rel,
		id: ref.entryId,
		text: textOverride ?? `${b ? briefKind(b) : ""}  ${oneLine(b?.preview ?? "")}`.trim(),
		tone,
		marks,
		target: { kind: "event", ref, brief: b },
		...(note ? { note } : {}),
	};
}

const rowsCache = new WeakMap<EventData, readonly TraceRow[]>();

/** The trace panel's rows, in the order a reader looks for them (built once per loaded event: every render and trace key asks). */
export function traceRows(data: EventData): readonly TraceRow[] {
	let rows = rowsCache.get(data);
	if (!rows) {
		rows = buildTraceRows(data);
		rowsCache.set(data, rows);
	}
	return rows;
}

function buildTraceRows(data: EventData): TraceRow[] {
	const rows: TraceRow[] = [];
	const me = currentRef(data);
	const up = data.read.neighbors.before;
	const root = up.length > 1 && up.length < PATH_DEPTH ? up[0] : undefined;
	if (root) rows.push(row(data, "⌂", "root", { sessionId: root.sessionId, entryId: root.entryId }, [], "dim", `${briefKind(root)}  ${oneLine(root.preview)}`));

	const parent = edges(data, "parent")[0];
	if (parent) {
		const ref = eventTarget(parent.to);
		if (ref && briefOf(data, ref)) rows.push(row(data, "↑", "parent", ref));
		else rows.push({ icon: "↑", rel: "parent", id: ref?.entryId ?? "?", text: parent.note ?? "dangling parentId", tone: "warn", marks: [], target: null });
	} else {
		rows.push({ icon: "⌂", rel: "root", id: "", text: "this event is the root of its session", tone: "dim", marks: [], target: null });
	}

	const toward = towardLeafChild(data);
	const children = edges(data, "child");
	for (const e of children) {
		const ref = eventTarget(e.to);
		if (ref) rows.push(row(data, "↓", "child", ref, toward && sameRef(ref, toward) ? ["leaf path"] : []));
	}
	if (children.length === 0) {
		const leaf = data.trace.node.classification.materializedLeafId === me.entryId;
		rows.push({
			icon: "↓",
			rel: "child",
			id: "",
			text: leaf ? "none: this is the materialized leaf" : "none: this branch ends here",
			tone: "dim",
			marks: [],
			target: null,
		});
	} else if (children.length > 1) {
		rows.push({ icon: "⑂", rel: "fork", id: "", text: `${children.length} branches continue here (f to choose)`, tone: "warn", marks: [], target: null });
	}

	for (const e of edges(data, "sibling")) {
		const ref = eventTarget(e.to);
		if (ref) rows.push(row(data, "⇄", "sibling", ref));
	}
	if (data.appendBefore)
		rows.push(
			row(
				data,
				"[",
				"append ↑",
				{ sessionId: data.appendBefore.sessionId, entryId: data.appendBefore.entryId },
				[],
				"dim",
				`${briefKind(data.appendBefore)}  ${oneLine(data.appendBefore.preview)}`,
			),
		);
	if (data.appendAfter)
		rows.push(
			row(
				data,
				"]",
				"append ↓",
				{ sessionId: data.appendAfter.sessionId, entryId: data.appendAfter.entryId },
				[],
				"dim",
				`${briefKind(data.appendAfter)}  ${oneLine(data.appendAfter.preview)}`,
			),
		);

	for (const e of data.trace.edges) {
		if (e.rel === "parent" || e.rel === "child" || e.rel === "sibling" || e.rel === "toward-leaf") continue;
		const ref = eventTarget(e.to);
		const inbound = (e.direction ?? "out") === "in";
		const label = REL_LABEL[e.rel]?.[inbound ? "in" : "out"] ?? e.rel;
		if (ref) {
			rows.push(row(data, inbound ? "←" : "→", label, ref, [], e.rel === "fork-of" || e.rel === "session-parent" ? "accent" : "plain", undefined, e.note));
			continue;
		}
		if ("file" in e.to) {
			rows.push({ icon: "·", rel: label, id: "", text: e.to.file, tone: "dim", marks: [], target: null, ...(e.note ? { note: e.note } : {}) });
		} else if ("hidden" in e.to) {
			rows.push({ icon: "⑂", rel: label, id: "", text: e.note ?? "not available", tone: "dim", marks: [], target: null });
		} else {
			const sessionId = e.to.sessionId;
			rows.push({
				icon: inbound ? "←" : "→",
				rel: label,
				id: `#${idTail(sessionId)}`,
				text: `session ${sessionId}${e.note ? ` (${e.note})` : ""}`,
				tone: "accent",
				marks: [],
				target: { kind: "session", sessionId },
			});
		}
	}
	for (const n of data.trace.notes) rows.push({ icon: "·", rel: "note", id: "", text: n, tone: "dim", marks: [], target: null });
	return rows;
}
