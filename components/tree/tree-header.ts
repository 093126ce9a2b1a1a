/** The tree screen's header lines and visible rows, as both hosts draw them (Ink's TreeView, pi's explorer-lines). */
import { sessionWhere } from "../../src/present/text.js";
import { idTail } from "../core/session-label.js";
import { fitLine, type StyledLine, seg } from "../core/styled.js";
import { filterSegs, queryTerms, treeLines } from "./tree-lines.js";
import { cursorIndex, type TreeLoc } from "./tree-state.js";

/** Whose tree it is: the root session's folder and id (its requested id while it is read). */
export function treeTitle(loc: TreeLoc): StyledLine {
	const d = loc.data;
	const left: StyledLine = [seg("⑂ tree ", "accent")];
	if (d) left.push(seg(sessionWhere(d.session), "title"), seg(`  #${idTail(d.session.id)}`, "dim"));
	else left.push(seg(`#${idTail(loc.request.sessionId)}`, "title"));
	return left;
}

/**
 * The line under the title: an error, the filter being typed, "reading…", or the filter, the leaf path mark and the
 * query's hits; `steps` adds the n/N hint and says why there are no hits without a query (the explorer's keys).
 */
export function treeSubtitle(loc: TreeLoc, width: number, steps: boolean): StyledLine {
	const d = loc.data;
	const q = loc.request.query ?? "";
	const filter = filterSegs({ filter: loc.filter, text: loc.text, typing: loc.typing, hidden: d?.hidden ?? 0 });
	if (loc.error) return fitLine([seg(`cannot read the tree: ${loc.error}`, "error")], width);
	if (loc.typing) return fitLine(filter, width);
	if (!d) return [seg("reading…", "dim")];
	const hits = q ? [seg(`${d.hits} hit(s) for `, "dim"), seg(q, "match"), ...(steps ? [seg("  n/N step", "dim")] : [])] : [];
	const none = !q && steps ? [seg("no query (hits are marked when the tree is opened from a search)", "dim")] : [];
	return fitLine([...filter, seg("• ", "accent"), seg("leaf path  ", "dim"), ...hits, ...none], width);
}

/** The rows of the visible window, `height` lines at the most (only those are drawn). */
export function treeWindowLines(loc: TreeLoc, width: number, height: number): StyledLine[] {
	const d = loc.data;
	if (!d) return [];
	return treeLines({
		rows: d.rows,
		offset: d.start,
		total: d.total,
		cursor: cursorIndex(loc),
		top: loc.top,
		height,
		width,
		terms: queryTerms(loc.request.query ?? ""),
		rootSession: d.session.id,
	});
}
