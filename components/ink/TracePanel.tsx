/** The compact trace panel: the path from the root as its title, then parent, children, siblings and links. */
import { Box } from "ink";
import type { EventData } from "../event/event-data.js";
import { tracePanelLines } from "../event/trace-view.js";
import { Lines } from "./Line.js";

/** Props of <TracePanel/>. */
export interface TracePanelProps {
	data: EventData | null;
	cursor: number;
	focused: boolean;
	width: number;
	/** Rows below the title line. */
	height: number;
	color: boolean;
	/** Draw the title as a rule across the width (stacked layout). */
	rule: boolean;
}

/** The trace panel. */
export function TracePanel({ data, cursor, focused, width, height, color, rule }: TracePanelProps) {
	const lines = tracePanelLines({ data, cursor, focused, width, height, rule });
	return (
		<Box flexDirection="column" width={width} height={height + 1}>
			<Lines lines={lines} color={color} height={height + 1} />
		</Box>
	);
}
