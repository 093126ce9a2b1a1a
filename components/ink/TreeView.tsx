/** The tree view: a header naming the fork family and the query, and the visible window of the tree's rows. */
import { Box } from "ink";
import { sessionWhere } from "../../src/present/text.js";
import { idTail } from "../core/session-label.js";
import { fitLine, type StyledLine, seg, spread } from "../core/styled.js";
import { filterSegs, queryTerms, treeLines } from "../tree/tree-lines.js";
import { cursorIndex, type TreeLoc } from "../tree/tree-state.js";
import { Lines } from "./Line.js";

/** Props of <TreeHeader/> and <TreeBody/>. */
export interface TreeViewProps {
	loc: TreeLoc;
	width: number;
	height: number;
	color: boolean;
	banner: string | null;
}

/** Two header lines: whose tree it is (root session, forks) and what the query marks. */
export function TreeHeader({ loc, width, color, banner }: Omit<TreeViewProps, "height">) {
	const d = loc.data;
	const left: StyledLine = [seg("⑂ tree ", "accent")];
	if (d) left.push(seg(sessionWhere(d.session), "title"), seg(`  #${idTail(d.session.id)}`, "dim"));
	else left.push(seg(`#${idTail(loc.request.sessionId)}`, "title"));
	if (banner && width >= 120) left.push(seg("  "), seg(banner, "banner"));
	const right: StyledLine = d ? [seg(`${d.entries} entries · ${d.forks} forked session(s)`, "dim")] : [];
	const lines: StyledLine[] = [spread(left, right, width)];
	const q = loc.request.query ?? "";
	const filter = filterSegs({ filter: loc.filter, text: loc.text, typing: loc.typing, hidden: d?.hidden ?? 0 });
	if (loc.error) lines.push(fitLine([seg(`cannot read the tree: ${loc.error}`, "error")], width));
	else if (loc.typing) lines.push(fitLine(filter, width));
	else if (!d) lines.push([seg("reading…", "dim")]);
	else
		lines.push(
			fitLine(
				[
					...filter,
					seg("• ", "accent"),
					seg("leaf path  ", "dim"),
					...(q
						? [seg(`${d.hits} hit(s) for `, "dim"), seg(q, "match"), seg("  n/N step", "dim")]
						: [seg("no query (hits are marked when the tree is opened from a search)", "dim")]),
				],
				width,
			),
		);
	return (
		<Box flexDirection="column" width={width} height={2}>
			<Lines lines={lines} color={color} height={2} />
		</Box>
	);
}

/** The rows of the visible window (only those are drawn: a 1,000-entry tree costs one screen). */
export function TreeBody({ loc, width, height, color }: TreeViewProps) {
	const d = loc.data;
	const lines = d
		? treeLines({
				rows: d.rows,
				offset: d.start,
				total: d.total,
				cursor: cursorIndex(loc),
				top: loc.top,
				height,
				width,
				terms: queryTerms(loc.request.query ?? ""),
				rootSession: d.session.id,
			})
		: [];
	return <Lines lines={lines} color={color} height={height} />;
}

/** "row 12 of 340" for the status bar. */
export function treePosition(loc: TreeLoc): string {
	const total = loc.data?.total ?? 0;
	return total === 0 ? "" : `row ${cursorIndex(loc) + 1} of ${total}`;
}
