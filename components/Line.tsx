/** Draws one styled line: a single <Text> that never wraps, its segments styled with SGR escapes. */
import { Text } from "ink";
import { neutralizeLine } from "../src/present/text.js";
import type { StyledLine } from "./styled.js";
import { toneAnsi } from "./theme.js";

/** Props of <Line/>. */
export interface LineProps {
	line: StyledLine;
	color: boolean;
}

/**
 * One screen line (already fitted to its width by the caller). One string with escapes instead of a nested
 * <Text> per segment: Ink lays out and squashes every node on every frame, and the screen redraws per keystroke.
 */
export function Line({ line, color }: LineProps) {
	if (line.length === 0) return <Text> </Text>;
	let text = "";
	for (const s of line) {
		const open = toneAnsi(s.tone, color, s.inverse === true);
		// Every field drawn (session names, labels, cwds, bodies) is session text: controls become symbols here (I21).
		const safe = neutralizeLine(s.text);
		text += open ? `${open}${safe}\u001b[0m` : safe;
	}
	return <Text wrap="truncate-end">{text}</Text>;
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
	const rows =
		height === undefined ? lines : [...lines.slice(0, height), ...Array.from({ length: Math.max(0, height - lines.length) }, () => [] as StyledLine)];
	return (
		<>
			{rows.map((l, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions on screen
				<Line key={i} line={l} color={color} />
			))}
		</>
	);
}
