/** The two status lines: index state or the last message, and the keys that work right now. */
import { Box } from "ink";
import { Lines } from "./Line.js";
import { hintLine } from "./search-view.js";
import { fitLine, type StyledLine, seg, spread, type Tone } from "./styled.js";

/** Props of <StatusBar/>. */
export interface StatusBarProps {
	width: number;
	/** Left: a message (when set) or the index state. */
	status: { text: string; tone: Tone };
	/** Right: where you are, e.g. "hits · hit 3 of 50+" or "lines 12–24 of 80 ↓ · event". */
	where: string;
	hints: Array<[string, string]>;
	color: boolean;
}

/** The status bar. */
export function StatusBar({ width, status, where, hints, color }: StatusBarProps) {
	const first: StyledLine = where ? spread([seg(status.text, status.tone)], [seg(where, "dim")], width) : fitLine([seg(status.text, status.tone)], width);
	return (
		<Box flexDirection="column" width={width} height={2}>
			<Lines lines={[first, hintLine(hints, width)]} color={color} height={2} />
		</Box>
	);
}
