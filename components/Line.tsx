/** Draws one styled line: a <Text> that never wraps, with one nested <Text> per segment. */
import { Text } from "ink";
import type { StyledLine } from "./styled.js";
import { toneProps } from "./theme.js";

/** Props of <Line/>. */
export interface LineProps {
	line: StyledLine;
	color: boolean;
}

/** One screen line (already fitted to its width by the caller). */
export function Line({ line, color }: LineProps) {
	if (line.length === 0) return <Text> </Text>;
	return (
		<Text wrap="truncate-end">
			{line.map((s, i) => (
				// Segments of a line never reorder, so the index is a stable key.
				// biome-ignore lint/suspicious/noArrayIndexKey: see above
				<Text key={i} {...toneProps(s.tone, color)} inverse={s.inverse === true}>
					{s.text}
				</Text>
			))}
		</Text>
	);
}

/** Props of <Lines/>. */
export interface LinesProps {
	lines: StyledLine[];
	color: boolean;
	/** Pads with empty lines up to this many, so a pane keeps its height. */
	height?: number;
}

/** A column of lines, padded to `height`. */
export function Lines({ lines, color, height }: LinesProps) {
	const rows = height === undefined ? lines : [...lines.slice(0, height), ...Array.from({ length: Math.max(0, height - lines.length) }, () => [] as StyledLine)];
	return (
		<>
			{rows.map((l, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions on screen
				<Line key={i} line={l} color={color} />
			))}
		</>
	);
}
