/** The event view's find prompt, in place of the status bar's first line: `/` and the text typed, with its cursor. */
import { Box } from "ink";
import type { QueryState } from "../core/line-edit.js";
import { fitLine, lineWidth, seg } from "../core/styled.js";
import { hintLine, queryLine } from "../search/search-view.js";
import { Lines } from "./Line.js";

/** Props of <FindPrompt/>. */
export interface FindPromptProps {
	width: number;
	field: QueryState;
	hints: Array<[string, string]>;
	color: boolean;
}

/** Two lines, like the status bar: the prompt, and the keys that work while typing. */
export function FindPrompt({ width, field, hints, color }: FindPromptProps) {
	const lead = [seg("find in this event: /", "accent")];
	const input = queryLine(field.text, field.cursor, true, width - lineWidth(lead), "").slice(1);
	return (
		<Box flexDirection="column" width={width} height={2}>
			<Lines lines={[fitLine([...lead, ...input], width), hintLine(hints, width)]} color={color} height={2} />
		</Box>
	);
}
