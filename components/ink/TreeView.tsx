/** The tree view: a header naming the fork family and the query, and the visible window of the tree's rows. */
import { Box } from "ink";
import { type StyledLine, seg, spread } from "../core/styled.js";
import { treeSubtitle, treeTitle, treeWindowLines } from "../tree/tree-header.js";
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
	const left = treeTitle(loc);
	if (banner && width >= 120) left.push(seg("  "), seg(banner, "banner"));
	const right: StyledLine = d ? [seg(`${d.entries} entries · ${d.forks} forked session(s)`, "dim")] : [];
	const lines: StyledLine[] = [spread(left, right, width), treeSubtitle(loc, width, true)];
	return (
		<Box flexDirection="column" width={width} height={2}>
			<Lines lines={lines} color={color} height={2} />
		</Box>
	);
}

/** The rows of the visible window (only those are drawn: a 1,000-entry tree costs one screen). */
export function TreeBody({ loc, width, height, color }: TreeViewProps) {
	return <Lines lines={treeWindowLines(loc, width, height)} color={color} height={height} />;
}

/** "row 12 of 340" for the status bar. */
export function treePosition(loc: TreeLoc): string {
	const total = loc.data?.total ?? 0;
	return total === 0 ? "" : `row ${cursorIndex(loc) + 1} of ${total}`;
}
