/** Pure formatting shared by the faces: relative times, short paths, highlighted snippets, and text for people and models. */

import {
	type EventBrief,
	type Hit,
	type IndexStatus,
	PARTIAL_NOTE,
	type ReadResult,
	type RefreshProgress,
	type RefreshSummary,
	refKey,
	type SearchResult,
	type SessionSummary,
	type TraceResult,
	type TraceTarget,
} from "../shared/types.js";
import { grouped } from "./numbers.js";
import { neutralizeDeep } from "./terminal-safe.js";

export { neutralize, neutralizeDeep, neutralizeLine, safeJson } from "./terminal-safe.js";

/** Terminal styles; identity functions when color is off. */
export interface Style {
	bold(s: string): string;
	dim(s: string): string;
	match(s: string): string;
	error(s: string): string;
	accent(s: string): string;
	warn(s: string): string;
}

const wrap = (open: string, close: string) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

/** ANSI styles, or none when `color` is false (NO_COLOR, --no-color, not a TTY). */
export function makeStyle(color: boolean): Style {
	if (!color) {
		const id = (s: string) => s;
		return { bold: id, dim: id, match: id, error: id, accent: id, warn: id };
	}
	return {
		bold: wrap("1", "22"),
		dim: wrap("2", "22"),
		match: wrap("1;33", "22;39"),
		error: wrap("31", "39"),
		accent: wrap("36", "39"),
		warn: wrap("33", "39"),
	};
}

/** "3m ago", "2h ago", "5d ago", or the date for anything older than a month. */
export function relativeTime(iso: string, now: number = Date.now()): string {
	const t = Date.parse(iso);
	if (!Number.isFinite(t)) return "?";
	const s = Math.round((now - t) / 1000);
	if (s < 0) return iso.slice(0, 10);
	if (s < 60) return `${s}s ago`;
	if (s < 3600) return `${Math.floor(s / 60)}m ago`;
	if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
	if (s < 86400 * 31) return `${Math.floor(s / 86400)}d ago`;
	return iso.slice(0, 10);
}

/** The last `parts` components of a path, `…/`-prefixed when shortened. */
export function shortPath(p: string, parts = 2): string {
	if (!p) return "(no cwd)";
	const sep = p.includes("\\") && !p.includes("/") ? "\\" : "/";
	const segs = p.split(/[\\/]/).filter(Boolean);
	return segs.length <= parts ? p : `…${sep}${segs.slice(-parts).join(sep)}`;
}

/** Splits a snippet into plain and matched segments by its marks. */
export function markSegments(snippet: string, marks: Array<[number, number]>): Array<{ text: string; match: boolean }> {
	const out: Array<{ text: string; match: boolean }> = [];
	let at = 0;
	for (const [a, b] of [...marks].sort((x, y) => x[0] - y[0])) {
		if (a < at || b > snippet.length) continue;
		if (a > at) out.push({ text: snippet.slice(at, a), match: false });
		out.push({ text: snippet.slice(a, b), match: true });
		at = b;
	}
	if (at < snippet.length) out.push({ text: snippet.slice(at), match: false });
	return out;
}

/** A snippet with its matches styled. */
export function highlight(snippet: string, marks: Array<[number, number]>, style: (s: string) => string): string {
	return markSegments(snippet, marks)
		.map((s) => (s.match ? style(s.text) : s.text))
		.join("");
}

/** The `sessionId entryId` pair a person or model passes to read and trace. */
export function refOf(h: { sessionId: string; entryId: string }): string {
	return `${h.sessionId} ${h.entryId}`;
}

/** A one-line label of what kind of event a hit is: kind and tool. */
export function hitKind(h: Hit): string {
	const kind = h.kind ?? h.entryType;
	return h.toolName ? `${kind} ${h.toolName}` : kind;
}

/** What kind of event a brief (or a hit) is: its semantic kind, else its entry type with the role when it has one. */
export function briefKind(b: Pick<EventBrief, "kind" | "role" | "entryType">): string {
	return b.kind ?? (b.role ? `${b.entryType}/${b.role}` : b.entryType);
}

/** Where a session is: its name and short cwd, or the short cwd alone. */
export function sessionWhere(session: Pick<SessionSummary, "name" | "cwd">): string {
	return session.name ? `${session.name} · ${shortPath(session.cwd)}` : shortPath(session.cwd);
}

/** The message of a thrown value (anything can be thrown, null included); `withStack` prefers its stack trace. */
export function errorText(error: unknown, withStack = false): string {
	const e = error as { message?: unknown; stack?: unknown } | null | undefined;
	if (withStack && typeof e?.stack === "string") return e.stack;
	return typeof e?.message === "string" ? e.message : String(error);
}

/** Marks for branch and selection state that a reader should notice (off the selected path, summarized, edited). */
export function stateMarks(h: { branchState: string; selectionState: string; contextEdit?: { state: string; by: string }; targetId?: string }): string[] {
	const out: string[] = [];
	if (h.branchState === "alternate") out.push("alternate branch");
	if (h.branchState === "unknown") out.push("branch unknown");
	if (h.selectionState === "summarized") out.push("summarized");
	if (h.contextEdit?.state === "omitted") out.push(`omitted from the model context by edit ${h.contextEdit.by}`);
	else if (h.selectionState === "omitted") out.push("never sent to the model");
	if (h.contextEdit?.state === "replaced") out.push(`model saw a replacement (edit ${h.contextEdit.by})`);
	if (h.targetId) out.push(`context edit of ${h.targetId}`);
	return out;
}

/**
 * The one line above a partial answer's hits (issue 28), from its notes: that it is partial and which words matched
 * nothing; null for a full match.
 */
export function partialLine(notes: readonly string[]): string | null {
	if (notes[0] !== PARTIAL_NOTE) return null;
	const unmatched = notes.filter((n) => n.startsWith("no event holds `")).map((n) => n.slice("no event holds ".length).split(";")[0]);
	return `partial match: no event holds every word${unmatched.length ? `; none holds ${unmatched.join(", ")}` : ""}`;
}

/** Human text for a search result (session text neutralized, I21). */
export function formatSearch(raw: SearchResult, style: Style, now = Date.now()): string {
	const result = neutralizeDeep(raw);
	const lines: string[] = [];
	const partial = partialLine(result.notes);
	if (partial && result.hits.length > 0) lines.push(style.warn(partial));
	result.hits.forEach((h, i) => {
		const where = sessionWhere(h.session);
		const flags = [...(h.isError ? [style.error("error")] : []), ...stateMarks(h).map((m) => style.warn(m))];
		lines.push(`${style.dim(`${i + 1}.`)} ${style.bold(hitKind(h))}  ${relativeTime(h.timestamp, now)}  ${where}${flags.length ? `  ${flags.join(" ")}` : ""}`);
		if (h.snippet) lines.push(`   ${highlight(h.snippet, h.marks, style.match).replace(/\n/g, " ")}`);
		lines.push(`   ${style.dim(`ref ${refOf(h)}${h.matchedFragments > 1 ? ` · ${h.matchedFragments} matching parts` : ""}`)}`);
	});
	if (result.hits.length === 0) lines.push("No hits.");
	const total = result.total;
	if (total && total.count > result.hits.length)
		lines.push(style.dim(`${result.hits.length} of ${grouped(total.count)}${total.atLeast ? "+" : ""} hits shown; --limit shows more (up to 50)`));
	return lines.join("\n");
}

function briefLine(b: EventBrief, style: Style): string {
	const what = briefKind(b);
	const mark = b.branchState === "alternate" ? style.warn(" (alternate)") : "";
	return `${style.dim(b.entryId)} ${what}${mark}  ${b.preview}`;
}

/** Human text for an exact read. */
export function formatRead(raw: ReadResult, style: Style): string {
	const read = neutralizeDeep(raw);
	const e = read.event;
	const meta: string[] = [
		`${e.type}${typeof (e.message as { role?: string } | undefined)?.role === "string" ? `/${(e.message as { role: string }).role}` : ""}`,
	];
	if (typeof e.timestamp === "string") meta.push(e.timestamp);
	const c = read.classification;
	meta.push(`${c.branchState} · ${c.selectionState} · ${c.contextRole}`);
	if (c.contextEdit) meta.push(c.contextEdit.state === "omitted" ? `omitted by edit ${c.contextEdit.by}` : `replaced by edit ${c.contextEdit.by}`);
	const lines = [style.bold(`${read.session.id} ${e.entryId}`), style.dim(meta.join("  ")), style.dim(`${read.source.file}:${read.source.line}`)];
	for (const n of read.notes) lines.push(style.warn(`note: ${n}`));
	for (const f of read.fragments) {
		lines.push("", style.accent(`── ${f.id} (${f.kind}) chars ${f.range[0]}–${f.range[1]} of ${f.totalChars}${f.truncated ? ", truncated" : ""}`));
		lines.push(f.text);
	}
	if (read.omitted.length) {
		lines.push("", style.dim("omitted:"));
		for (const o of read.omitted)
			lines.push(style.dim(`  ${o.path}: ${o.reason}${o.mimeType ? ` ${o.mimeType}` : ""}${o.bytes !== undefined ? ` (${o.bytes} bytes)` : ""}`));
	}
	const n = read.neighbors;
	if (n.before.length || n.after.length || n.forkCandidates.length) {
		lines.push("", style.dim(`neighbors (${n.order} order)${n.note ? `: ${n.note}` : ""}`));
		for (const b of n.before) lines.push(`  ↑ ${briefLine(b, style)}`);
		for (const b of n.after) lines.push(`  ↓ ${briefLine(b, style)}`);
		for (const b of n.forkCandidates) lines.push(`  ⑂ ${briefLine(b, style)}`);
	}
	return lines.join("\n");
}

/** A trace edge's target as text. */
export function targetText(to: TraceTarget): string {
	if ("hidden" in to) return "(not available)";
	if ("file" in to) return to.file;
	return to.entryId === null ? `session ${to.sessionId}` : `${to.sessionId} ${to.entryId}`;
}

/** Human text for a trace. */
export function formatTrace(raw: TraceResult, style: Style): string {
	const trace = neutralizeDeep(raw);
	const lines = [`${style.bold(`${trace.node.sessionId} ${trace.node.entryId}`)}  ${trace.node.entryType}  ${trace.node.preview}`];
	for (const e of trace.edges) {
		const node =
			"entryId" in e.to && e.to.entryId !== null && "sessionId" in e.to ? trace.nodes[refKey({ sessionId: e.to.sessionId, entryId: e.to.entryId })] : undefined;
		const arrow = e.direction === "in" ? "←" : "→";
		lines.push(
			`${arrow} ${style.accent(e.rel.padEnd(19))} ${targetText(e.to)} ${style.dim(`[${e.provenance}]`)}${node ? `  ${node.preview}` : ""}${e.note ? style.dim(`  (${e.note})`) : ""}`,
		);
	}
	for (const n of trace.notes) lines.push(style.dim(`note: ${n}`));
	return lines.join("\n");
}

/** Human text for status. */
export function formatStatus(raw: IndexStatus): string {
	const s = neutralizeDeep(raw);
	const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
	const lines = [
		`index       ${s.index} (${mb(s.indexBytes)}, schema ${s.schemaVersion})`,
		`sessions    ${s.sessions} in ${s.files} files (${mb(s.sourceBytes)})`,
		`events      ${s.events} (${s.fragments} searchable fragments)`,
		`fresh at    ${s.freshAt ?? "never"}`,
	];
	for (const r of s.roots)
		lines.push(
			`root        ${r.path} (${r.kind}${r.present ? "" : ", not available"}${r.leaving ? `; leaves the index at the next refresh: ${r.leaving}` : ""})`,
		);
	for (const r of s.rootsDropped?.roots ?? [])
		lines.push(`dropped     ${r.path} (${r.kind}) at ${s.rootsDropped?.at}: ${r.reason} (${r.sessions} session(s) left the index)`);
	for (const e of s.errors) lines.push(`problem     ${e.file}: ${e.error}`);
	for (const c of s.conflicts) lines.push(`conflict    session ${c.sessionId} in ${c.files.length} files: ${c.rule}`);
	return lines.join("\n");
}

/** One line of refresh progress: files, MB, rate and ETA. */
export function formatProgress(p: RefreshProgress, now = Date.now()): string {
	const secs = Math.max(0.001, (now - p.startedAt) / 1000);
	const rate = p.bytesDone / 1e6 / secs;
	// No estimate before any bytes are done: "ETA 0s" at 0 of 367 files would be a lie.
	const eta = p.bytesDone > 0 && rate > 0 ? `ETA ${Math.ceil((p.bytesTotal - p.bytesDone) / 1e6 / rate)}s` : "ETA …";
	return `indexing ${p.filesDone}/${p.filesTotal} files · ${(p.bytesDone / 1e6).toFixed(0)}/${(p.bytesTotal / 1e6).toFixed(0)} MB · ${rate.toFixed(1)} MB/s · ${eta}`;
}

/** Human text for a refresh summary. */
export function formatRefresh(raw: RefreshSummary): string {
	const r = neutralizeDeep(raw);
	const parts = [`${r.files} files`, `${r.filesChanged} changed`];
	if (r.sessionsAdded) parts.push(`${r.sessionsAdded} added`);
	if (r.sessionsAppended) parts.push(`${r.sessionsAppended} appended`);
	if (r.sessionsRebuilt) parts.push(`${r.sessionsRebuilt} rebuilt`);
	if (r.sessionsRemoved) parts.push(`${r.sessionsRemoved} removed`);
	parts.push(`${r.linesIngested} lines`, `${(r.ms / 1000).toFixed(2)}s`);
	const lines = [`indexed: ${parts.join(", ")}`];
	if (r.pending) lines.push(`${r.pending} files still pending`);
	for (const e of r.errors) lines.push(`problem: ${e.file}: ${e.error}`);
	for (const n of r.notes) lines.push(`note: ${n}`);
	return lines.join("\n");
}
