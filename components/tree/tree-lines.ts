/**
 * The tree view's rows as styled lines: cursor, gutters, the leaf-path dot, labels, summary and error marks, the
 * query's words highlighted in place. Only the rows of the visible window are drawn, so a 1,000-entry session costs
 * a screen of lines per frame, not a thousand.
 */
import { sessionWhere } from "../../src/present/text.js";
import { TREE_CLIP_MARK, type TreeEntry, type TreeFilterMode, type TreeForkHead } from "../../src/shared/types.js";
import { idTail } from "../core/session-label.js";
import { findRanges, fitLine, markRanges, type StyledLine, seg, type Tone } from "../core/styled.js";
import type { TreeRow } from "./tree-layout.js";

/** What a window of the tree needs to be drawn. */
export interface TreeFrame {
	/** The rows read, the first of them row number `offset`. */
	rows: readonly TreeRow[];
	offset?: number;
	cursor: number;
	top: number;
	height: number;
	width: number;
	/** Words of the query, highlighted in hit rows. */
	terms: readonly string[];
	/** The family's root session: its leaf path is the one the dots mark. */
	rootSession: string;
	/** Rows of the whole tree (default: offset + rows read). */
	total?: number;
}

/** The words of a query to highlight: quotes dropped, one-letter words left out (they would light up everything). */
export function queryTerms(query: string): string[] {
	return query
		.replace(/"/g, " ")
		.split(/\s+/)
		.filter((w) => w.length >= 2);
}

/** What an entry is, in a word or two, with the tone it is drawn in. */
export function entryWhat(e: TreeEntry): { text: string; tone: Tone } {
	if (e.summary === "compaction") return { text: "◆ compaction", tone: "accent" };
	if (e.summary === "branch") return { text: "◇ branch summary", tone: "accent" };
	if (e.entryType === "message") {
		if (e.role === "user") return { text: "user", tone: "title" };
		if (e.role === "assistant") return { text: e.kind === "assistant.error" ? "assistant error" : "assistant", tone: "plain" };
		// A result shows the call that produced it (pi's /tree does the same), else the tool's name.
		if (e.role === "toolResult") return { text: `result${e.call ? ` of ${e.call}` : e.toolName ? ` ${e.toolName}` : ""}`, tone: "dim" };
		if (e.role === "bashExecution") return { text: "bash", tone: "plain" };
		return { text: e.role ?? "message", tone: "plain" };
	}
	return { text: e.entryType.replace(/_/g, " "), tone: "dim" };
}

function entryBody(e: TreeEntry, terms: readonly string[]): StyledLine {
	const out: StyledLine = [];
	if (e.label) out.push(seg(`[${e.label}] `, "warn"));
	const what = entryWhat(e);
	out.push(seg(`${what.text}: `, what.tone));
	if (e.hit) {
		const ranges = findRanges(e.preview, terms);
		// The match may lie past the stored preview (it holds 160 characters): then the whole preview carries the mark.
		out.push(...(ranges.length > 0 ? markRanges(e.preview, ranges) : [seg(e.preview, "match")]));
	} else out.push(seg(e.preview, what.tone === "dim" ? "dim" : "plain"));
	if (e.isError) out.push(seg(" ✗ error", "error"));
	if (e.contextEdit?.state === "omitted" || (!e.contextEdit && e.selectionState === "omitted")) out.push(seg(" ⊘ omitted", "warn"));
	if (e.contextEdit?.state === "replaced") out.push(seg(" ⇄ replaced", "warn"));
	return out;
}

function forkBody(f: TreeForkHead): StyledLine {
	// A child that copied nothing continues the conversation in a new file: not a fork (the browser says the same).
	if (f.newSession)
		return [seg("↳ new session after ", "accent"), seg(`#${idTail(f.session.id)}`, "key"), seg(` · ${sessionWhere(f.session)} · ${f.own} entries`, "dim")];
	const copied = f.copiedAll ? `copied every entry (${f.copied})` : `copied one path (${f.copied})`;
	return [seg("⑂ fork ", "accent"), seg(`#${idTail(f.session.id)}`, "key"), seg(` · ${sessionWhere(f.session)} · ${copied} · ${f.own} own`, "dim")];
}

/**
 * The columns every row on screen shares after the mark of a deep window (TREE_CLIP_MARK; a row's own connector is
 * not one): left out as well, so the rows start near the left edge. 0 when a row was not clipped.
 */
export function sharedColumns(prefixes: readonly string[]): number {
	const first = prefixes[0];
	if (first === undefined || !prefixes.every((p) => p.startsWith(TREE_CLIP_MARK))) return 0;
	let shared = first.length;
	for (const p of prefixes) {
		const columnsEnd = /[├└]─ $/.test(p) ? p.length - 3 : p.length;
		let k = TREE_CLIP_MARK.length;
		while (k < columnsEnd && k < shared && p[k] === first[k]) k++;
		shared = k;
	}
	return Math.floor((shared - TREE_CLIP_MARK.length) / 3);
}

/**
 * One row as a line of `width` cells; `selected` draws the cursor; `•` marks the root session's leaf path; `strip`
 * columns after a deep window's mark are left out (sharedColumns).
 */
export function treeLine(row: TreeRow, selected: boolean, width: number, terms: readonly string[], rootSession: string, strip = 0): StyledLine {
	const line: StyledLine = [selected ? seg("❯ ", "accent") : seg("  ")];
	line.push(seg(strip > 0 ? TREE_CLIP_MARK + row.prefix.slice(TREE_CLIP_MARK.length + 3 * strip) : row.prefix, "dim"));
	if (row.type === "entry") {
		if (row.entry.branchState === "selected" && row.sessionId === rootSession) line.push(seg("• ", "accent"));
		line.push(...entryBody(row.entry, terms));
	} else if (row.type === "fork") line.push(...forkBody(row.fork));
	else {
		const crumb = row.crumb ? ` · ${entryWhat(row.crumb).text}: ${row.crumb.preview}` : "";
		line.push(seg(`… ${row.count} entries${crumb} …`, "dim"));
	}
	const fitted = fitLine(line, width, selected);
	return selected ? fitted.map((s) => ({ ...s, inverse: true })) : fitted;
}

/** The visible rows of the tree as lines (never more than `height`). */
export function treeLines(w: TreeFrame): StyledLine[] {
	const out: StyledLine[] = [];
	const offset = w.offset ?? 0;
	const end = Math.min(w.total ?? offset + w.rows.length, w.top + w.height);
	const shown: string[] = [];
	for (let i = Math.max(0, w.top); i < end; i++) {
		const row = w.rows[i - offset];
		if (row) shown.push(row.prefix);
	}
	const strip = sharedColumns(shown);
	for (let i = Math.max(0, w.top); i < end; i++) {
		const row = w.rows[i - offset];
		// A row whose window is still being read: a placeholder line, replaced when it comes.
		if (row) out.push(treeLine(row, i === w.cursor, w.width, w.terms, w.rootSession, strip));
		else out.push(fitLine([seg(i === w.cursor ? "❯ " : "  "), seg("…", "dim")], w.width, i === w.cursor));
	}
	return out;
}

/** What the filter shows: pi's mode (when not the default), the typed words (a cursor while typing), rows hidden. */
export function filterSegs(f: { filter: TreeFilterMode; text: string; typing: boolean; hidden: number }): StyledLine {
	if (f.typing) return [seg("filter ❯ ", "accent"), seg(f.text, "match"), seg("▏", "accent"), seg("  Enter keeps · Esc clears", "dim")];
	const out: StyledLine = [];
	if (f.filter !== "default") out.push(seg(`[${f.filter}] `, "warn"));
	if (f.text.trim()) out.push(seg("rows holding ", "dim"), seg(f.text.trim(), "match"), seg(" ", "dim"));
	if (f.hidden > 0) out.push(seg(`${f.hidden} hidden `, "dim"));
	return out;
}
