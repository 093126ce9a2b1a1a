/** Two panes: side by side with a one-column rule on wide terminals, else stacked (the second below the first). */
import { Box } from "ink";
import type { ReactNode } from "react";
import { seg } from "../core/styled.js";
import { Lines } from "./Line.js";

/** Props of SplitPane: which arrangement, the sizes, and the two panes. */
export interface SplitPaneProps {
	side: boolean;
	width: number;
	/** Rows of the first pane (and of both, side by side). */
	firstLines: number;
	/** Rows of the second pane when stacked (it brings its own rule line). */
	secondLines: number;
	color: boolean;
	first: ReactNode;
	second: ReactNode;
}

/** Lays out the hit list and preview, or the event text and trace panel. */
export function SplitPane({ side, width, firstLines, secondLines, color, first, second }: SplitPaneProps) {
	if (side) {
		const bar = Array.from({ length: firstLines }, () => [seg("│", "dim")]);
		return (
			<Box flexDirection="row" width={width} height={firstLines}>
				{first}
				<Box flexDirection="column" width={1} height={firstLines}>
					<Lines lines={bar} color={color} />
				</Box>
				{second}
			</Box>
		);
	}
	return (
		<Box flexDirection="column" width={width} height={firstLines + 1 + secondLines}>
			{first}
			{second}
		</Box>
	);
}
