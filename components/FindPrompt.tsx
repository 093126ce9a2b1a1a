/** The event view's find prompt, in place of the status bar's first line: `/` and the text typed (ink-text-input). */
import { Box } from "ink";
import TextInput from "ink-text-input";
import { Line } from "./Line.js";
import { hintLine } from "./search-view.js";
import { seg } from "./styled.js";

/** Props of <FindPrompt/>. */
export interface FindPromptProps {
	width: number;
	text: string;
	hints: Array<[string, string]>;
	color: boolean;
	onChange: (text: string) => void;
}

/** Two lines, like the status bar: the prompt, and the keys that work while typing. */
export function FindPrompt({ width, text, hints, color, onChange }: FindPromptProps) {
	return (
		<Box flexDirection="column" width={width} height={2}>
			<Box width={width}>
				<Line line={[seg("find in this event: /", "accent")]} color={color} />
				<TextInput value={text} onChange={onChange} focus={true} />
			</Box>
			<Line line={hintLine(hints, width)} color={color} />
		</Box>
	);
}
