/**
 * Pure formatting of search, read and trace results for the model (the Pi tools' `content`): compact plain text
 * with refs it can pass on, bounded to pi's tool-output limits, saying where and how it was cut.
 */
import { type EventBrief, type Hit, type ReadResult, refKey, type SearchResult, type TraceResult, type TraceTarget } from "../shared/types.js";
import { neutralize } from "./terminal-safe.js";
import { briefKind, markSegments } from "./text.js";

/** Pi's limits for tool output (DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES); extension tools must enforce them themselves. */
export const MODEL_OUTPUT_LIMITS = { maxBytes: 50 * 1024, maxLines: 2000 } as const;

/** Output limits of one formatted result. */
export interface OutputLimits {
	maxBytes: number;
	maxLines: number;
}

/** Text for the model and whether anything was left out to stay within the limits. */
export interface ModelText {
	text: string;
	truncated: boolean;
}

/** Who asked and what was searched, for the header of a search result. */
export interface SearchView {
	query: string;
	/** Authorization root: only sessions whose cwd lies under it were searched. */
	root: string;
	/** The caller's own session, when it has one. */
	currentSessionId?: string;
	/** True when the caller targeted its own session by id. */
	includesCurrent: boolean;
}

/** Room kept free for the closing notice, so a cut result can always say that it was cut. */
const NOTICE_RESERVE = { bytes: 512, lines: 4 };
const META_VALUE_CHARS = 80;
const META_PAIRS = 12;
const MAX_NOTES = 12;

function byteLength(s: string): number {
	return Buffer.byteLength(s, "utf8");
}

function lineCount(s: string): number {
	let n = 1;
	for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
	return n;
}

/** Accumulates lines within a byte and line budget (newlines between lines included). */
class Budget {
	private readonly parts: string[] = [];
	private bytes = 0;
	private lines = 0;
	truncated = false;

	constructor(private readonly limits: OutputLimits) {}

	private get maxBytes(): number {
		return this.limits.maxBytes - NOTICE_RESERVE.bytes;
	}

	private get maxLines(): number {
		return this.limits.maxLines - NOTICE_RESERVE.lines;
	}

	private cost(text: string): { bytes: number; lines: number } {
		return { bytes: byteLength(text) + (this.parts.length > 0 ? 1 : 0), lines: lineCount(text) };
	}

	/** Adds all lines or none; false (and truncated) when they do not fit. */
	add(...lines: string[]): boolean {
		// Pi shows tool text in its terminal: controls become visible symbols (I21), one UTF-16 unit each.
		const block = neutralize(lines.join("\n"));
		const c = this.cost(block);
		if (this.bytes + c.bytes > this.maxBytes || this.lines + c.lines > this.maxLines) {
			this.truncated = true;
			return false;
		}
		this.parts.push(block);
		this.bytes += c.bytes;
		this.lines += c.lines;
		return true;
	}

	/** Adds the longest prefix of `text` that fits (never splitting a surrogate pair); returns its length in UTF-16 units. */
	addPrefix(raw: string): number {
		const text = neutralize(raw);
		let bytes = this.bytes + (this.parts.length > 0 ? 1 : 0);
		let lines = this.lines + 1;
		let end = 0;
		while (end < text.length) {
			const code = text.charCodeAt(end);
			const pair = code >= 0xd800 && code <= 0xdbff && end + 1 < text.length;
			const width = pair ? 2 : 1;
			const b = pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
			if (bytes + b > this.maxBytes) break;
			if (code === 10 && lines + 1 > this.maxLines) break;
			bytes += b;
			if (code === 10) lines++;
			end += width;
		}
		if (end < text.length) this.truncated = true;
		if (end > 0) {
			this.parts.push(text.slice(0, end));
			this.bytes = bytes;
			this.lines = lines;
		}
		return end;
	}

	/** The text with a closing notice, which always fits into the reserve. */
	finish(notice?: string): ModelText {
		const parts = [...this.parts];
		if (notice) parts.push(neutralize(notice.length > 400 ? `${notice.slice(0, 399)}…` : notice));
		return { text: parts.join("\n"), truncated: this.truncated };
	}
}

/** Collapses whitespace to single spaces (snippets and previews are one line each). */
function oneLine(s: string): string {
	return s.replace(/\s+/g, " ").trim();
}

/** A snippet with its matches wrapped in «»; whitespace flattened, nothing else changed. */
export function markMatches(snippet: string, marks: Array<[number, number]>): string {
	// Empty marks would read as «» to the model.
	const segs = markSegments(
		snippet,
		marks.filter(([a, b]) => b > a),
	);
	return oneLine(segs.map((s) => (s.match ? `«${s.text}»` : s.text)).join(""));
}

/** An ISO timestamp without milliseconds (still valid for the after/before filters). */
export function shortTime(iso: string): string {
	return iso.replace(/\.\d+(?=Z$|[+-]\d\d:\d\d$)/, "");
}

function quoted(s: string): string {
	return JSON.stringify(s);
}

function stateOf(x: { branchState: string; selectionState: string; contextEdit?: { state: string; by: string } }): string {
	const edit = x.contextEdit ? ` contextEdit=${x.contextEdit.state} by=${x.contextEdit.by}` : "";
	return `branchState=${x.branchState} selectionState=${x.selectionState}${edit}`;
}

function kindOf(h: Hit): string {
	const what = briefKind(h);
	const extras = [h.toolName, h.isError ? "error" : undefined].filter((x): x is string => !!x);
	return extras.length ? `${what} (${extras.join(", ")})` : what;
}

function sessionText(s: { cwd: string; name?: string }): string {
	return s.name ? `session ${quoted(s.name)} cwd ${s.cwd}` : `cwd ${s.cwd}`;
}

function notesBlock(notes: string[]): string[] {
	const unique = [...new Set(notes)];
	const shown = unique.slice(0, MAX_NOTES).map((n) => `- ${oneLine(n)}`);
	if (unique.length > MAX_NOTES) shown.push(`- (${unique.length - MAX_NOTES} more notes)`);
	return shown.length ? ["notes:", ...shown] : [];
}

function indexLine(index: SearchResult["index"]): string {
	const pending = index.pending > 0 ? `; ${index.pending} session file(s) not indexed yet` : "";
	return `index: ${index.sessions} sessions, ${index.events} events, fresh at ${index.freshAt ?? "never"}${pending}`;
}

/** Bounded model text for an event_search result: header, notes, hits with refs, and a cut notice when needed. */
export function formatSearchForModel(result: SearchResult, view: SearchView, limits: OutputLimits = MODEL_OUTPUT_LIMITS): ModelText {
	const budget = new Budget(limits);
	const n = result.hits.length;
	const scope = [`sessions under ${view.root}`];
	if (view.currentSessionId) {
		scope.push(
			view.includesCurrent
				? `including your current session ${view.currentSessionId} up to the message that called this tool`
				: `your current session ${view.currentSessionId} is excluded (pass sessionId=${view.currentSessionId} to search it)`,
		);
	}
	const what = view.query.trim() ? `for ${quoted(oneLine(view.query).slice(0, 200))}` : "for the filters";
	const hits = `${n}${result.match === "partial" ? " partial" : ""} hit${n === 1 ? "" : "s"}`;
	budget.add(`${n === 0 ? "No hits" : hits} ${what} in ${scope.join("; ")}.`);
	const notes = notesBlock(result.notes);
	if (notes.length) budget.add(...notes);
	let shown = 0;
	for (const [i, h] of result.hits.entries()) {
		const head = `${i + 1}. ${kindOf(h)} · ${shortTime(h.timestamp)} · ${stateOf(h)}${h.targetId ? ` · edits entryId=${h.targetId}` : ""}${h.label ? ` · label ${quoted(h.label)}` : ""} · ${sessionText(h.session)}`;
		const ref = `   sessionId=${h.sessionId} entryId=${h.entryId}${h.fragmentId ? ` fragmentId=${h.fragmentId}` : ""}${h.matchedFragments > 1 ? ` (${h.matchedFragments} matching parts)` : ""}`;
		const lines = [head, ref];
		if (h.snippet) lines.push(`   ${markMatches(h.snippet, h.marks)}`);
		if (!budget.add(...lines)) break;
		shown++;
	}
	if (n > 0)
		budget.add(
			indexLine(result.index),
			"Next: event_read {sessionId, entryId, fragmentId} for the exact text; event_trace {sessionId, entryId} for its relations.",
		);
	else budget.add(indexLine(result.index));
	const notice =
		shown < n
			? `[output cut at ${shown} of ${n} hits to stay within ${limits.maxBytes / 1024} KB / ${limits.maxLines} lines; lower limit or snippetChars, or add filters]`
			: undefined;
	return budget.finish(notice);
}

function briefText(b: EventBrief, sameSession: string): string {
	const ref = b.sessionId === sameSession ? `entryId=${b.entryId}` : `sessionId=${b.sessionId} entryId=${b.entryId}`;
	const what = briefKind(b);
	const branch = b.branchState === "selected" ? "" : ` (${b.branchState} branch)`;
	return `${ref} ${what}${branch} · ${shortTime(b.timestamp)} · ${quoted(oneLine(b.preview))}`;
}

function scalarText(v: unknown): string | null {
	if (typeof v === "string") return v.length > META_VALUE_CHARS ? quoted(`${v.slice(0, META_VALUE_CHARS - 1)}…`) : /\s/.test(v) || v === "" ? quoted(v) : v;
	if (typeof v === "number" || typeof v === "boolean") return String(v);
	return null;
}

/** The entry's scalar metadata as `key=value` pairs (ids and timestamps shown elsewhere are left out). */
function metaPairs(event: ReadResult["event"]): string[] {
	const skip = new Set(["sessionId", "entryId", "id", "type", "timestamp", "parentId"]);
	const pairs: string[] = [];
	const collect = (obj: Record<string, unknown>) => {
		for (const [k, v] of Object.entries(obj)) {
			if (skip.has(k)) continue;
			const s = scalarText(v);
			if (s !== null) pairs.push(`${k}=${s}`);
		}
	};
	const message = event.message;
	if (message && typeof message === "object" && !Array.isArray(message)) collect(message as Record<string, unknown>);
	collect(event);
	return pairs.slice(0, META_PAIRS);
}

/** Bounded model text for an event_read result: exact fragment text between markers, what was left out, neighbors. */
export function formatReadForModel(read: ReadResult, limits: OutputLimits = MODEL_OUTPUT_LIMITS): ModelText {
	const budget = new Budget(limits);
	const e = read.event;
	const c = read.classification;
	const ts = typeof e.timestamp === "string" ? ` · ${shortTime(e.timestamp)}` : "";
	const parent = typeof e.parentId === "string" ? ` parentId=${e.parentId}` : "";
	budget.add(
		`event sessionId=${read.session.id} entryId=${e.entryId}${parent}`,
		`${[e.type, ...metaPairs(e)].join(" ")}${ts} · ${stateOf(c)} contextRole=${c.contextRole}`,
		`${sessionText(read.session)} · source ${read.source.file} line ${read.source.line}`,
	);
	const notes = notesBlock(read.notes);
	if (notes.length) budget.add(...notes);
	let cutAt: { id: string; offset: number } | null = null;
	const unread: string[] = [];
	for (const f of read.fragments) {
		if (cutAt) {
			unread.push(f.id);
			continue;
		}
		const more = f.range[1] < f.totalChars ? ` · more: event_read fragmentId=${f.id} offset=${f.range[1]}` : "";
		const head = `--- fragment ${f.id} (${f.kind}) chars ${f.range[0]}-${f.range[1]} of ${f.totalChars}${more} ---`;
		if (!budget.add(head)) {
			cutAt = { id: f.id, offset: f.range[0] };
			continue;
		}
		const taken = budget.addPrefix(f.text);
		if (taken < f.text.length) cutAt = { id: f.id, offset: f.range[0] + taken };
		else budget.add(`--- end ${f.id} ---`);
	}
	if (read.fragments.length === 0) budget.add("(no searchable text in this event)");
	if (!cutAt) {
		if (read.omitted.length) {
			const lines = read.omitted.map((o) => {
				const size = o.bytes !== undefined ? ` (${o.bytes} bytes)` : o.chars !== undefined ? ` (${o.chars} chars)` : "";
				return `- ${o.path}: ${oneLine(o.reason)}${o.mimeType ? ` ${o.mimeType}` : ""}${size}`;
			});
			budget.add("not shown:", ...lines);
		}
		const nb = read.neighbors;
		if (nb.before.length || nb.after.length || nb.forkCandidates.length) {
			const lines = [`neighbors in ${nb.order} order (same session)${nb.note ? `: ${nb.note}` : ""}`];
			for (const b of nb.before) lines.push(`  before: ${briefText(b, read.session.id)}`);
			for (const b of nb.after) lines.push(`  after: ${briefText(b, read.session.id)}`);
			for (const b of nb.forkCandidates) lines.push(`  fork candidate: ${briefText(b, read.session.id)}`);
			for (const line of lines) if (!budget.add(line)) break;
		}
	}
	let notice: string | undefined;
	if (cutAt) {
		const rest = unread.length ? `; not shown: fragment(s) ${unread.join(", ")} (read each with fragmentId)` : "";
		notice = `[output cut to stay within ${limits.maxBytes / 1024} KB / ${limits.maxLines} lines: continue with event_read fragmentId=${cutAt.id} offset=${cutAt.offset}${rest}]`;
	} else if (budget.truncated) {
		notice = `[output cut to stay within ${limits.maxBytes / 1024} KB / ${limits.maxLines} lines; ask for fewer neighbors (before/after)]`;
	}
	return budget.finish(notice);
}

function targetRef(to: TraceTarget, sameSession: string): string {
	if ("hidden" in to) return "(not available)";
	if ("file" in to) return `file ${to.file}`;
	if (to.entryId === null) return `session sessionId=${to.sessionId}`;
	return to.sessionId === sameSession ? `entryId=${to.entryId}` : `sessionId=${to.sessionId} entryId=${to.entryId}`;
}

/** Bounded model text for an event_trace result: the node, then one line per typed edge with provenance and a preview. */
export function formatTraceForModel(trace: TraceResult, limits: OutputLimits = MODEL_OUTPUT_LIMITS): ModelText {
	const budget = new Budget(limits);
	const node = trace.node;
	const what = briefKind(node);
	budget.add(
		`trace of sessionId=${node.sessionId} entryId=${node.entryId}: ${what} · ${shortTime(node.timestamp)} · ${stateOf(node.classification)}`,
		`${sessionText(node.session)} · ${quoted(oneLine(node.preview))}`,
	);
	const notes = notesBlock(trace.notes);
	if (notes.length) budget.add(...notes);
	budget.add(
		trace.edges.length
			? `${trace.edges.length} edge(s) (refs are in the same session unless a sessionId is shown):`
			: "no relationships recorded or derived for this event",
	);
	let shown = 0;
	for (const edge of trace.edges) {
		const to = edge.to;
		const brief = "entryId" in to && to.entryId !== null ? trace.nodes[refKey({ sessionId: to.sessionId, entryId: to.entryId })] : undefined;
		const arrow = edge.direction === "in" ? "<-" : "->";
		const preview = brief
			? ` · ${brief.kind ?? brief.entryType}${brief.branchState === "selected" ? "" : ` (${brief.branchState} branch)`} · ${quoted(oneLine(brief.preview))}`
			: "";
		const note = edge.note ? ` (${oneLine(edge.note)})` : "";
		if (!budget.add(`- ${edge.rel} ${arrow} ${targetRef(to, node.sessionId)} [${edge.provenance}]${preview}${note}`)) break;
		shown++;
	}
	const notice =
		shown < trace.edges.length
			? `[output cut at ${shown} of ${trace.edges.length} edges to stay within ${limits.maxBytes / 1024} KB / ${limits.maxLines} lines]`
			: undefined;
	return budget.finish(notice);
}
