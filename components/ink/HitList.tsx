/** The windowed hit list: one or two lines per hit, the selected one marked, an empty state when there are none. */
import { Box } from "ink";
import { memo } from "react";
import { copyRoles } from "../search/hits-state.js";
import { type HitListInput, hitListLines } from "../search/search-view.js";
import { Lines } from "./Line.js";

/** Props of <HitList/>. */
export interface HitListProps extends HitListInput {
	color: boolean;
}

/** The hit list pane (memoized: a keystroke that only changes the query line does not rebuild its rows). */
export const HitList = memo(function HitList({ hits, selected, top, width, height, hitLines, now, color, empty, copies = {}, groups = {} }: HitListProps) {
	// Copies of one entry shown as rows of their own (→) say which is the original.
	const lines = hitListLines({ hits, selected, top, width, height, hitLines, now, empty, copies, groups, roles: copyRoles(hits) });
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Lines lines={lines} color={color} height={height} />
		</Box>
	);
});
