/** Draws one styled line: one text node that never wraps, its segments styled with SGR escapes. */
import { Text } from "ink";
import { memo } from "react";
import type { StyledLine } from "../core/styled.js";
import { lineAnsi } from "../core/theme.js";

/** Props of <Line/>. */
export interface LineProps {
	line: StyledLine;
	color: boolean;
}

/**
 * One screen line (already fitted to its width by the caller). One string with escapes instead of a nested
 * <Text> per segment: Ink lays out and squashes every node on every frame, and the screen redraws per keystroke.
 * Ink measures and cuts the styled text itself (public API only: no private node attributes).
 */
export const Line = memo(function Line({ line, color }: LineProps) {
	if (line.length === 0) return <Text> </Text>;
	return <Text wrap="truncate-end">{lineAnsi(line, color)}</Text>;
}, sameLine);

/** Lines are rebuilt on every render: compare what they say, so an unchanged line is not drawn again by React. */
function sameLine(a: LineProps, b: LineProps): boolean {
	if (a.color !== b.color || a.line.length !== b.line.length) return false;
	for (let i = 0; i < a.line.length; i++) {
		const x = a.line[i];
		const y = b.line[i];
		if (x?.text !== y?.text || x?.tone !== y?.tone || (x?.inverse === true) !== (y?.inverse === true)) return false;
	}
	return true;
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
