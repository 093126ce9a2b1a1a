/**
 * Draws one styled line: one text node that never wraps, its segments styled with SGR escapes, and measured by Ink
 * as a plain stand-in of the same width.
 */
import { Text, useIsScreenReaderEnabled } from "ink";
import { createElement, memo } from "react";
import stringWidth from "string-width";
import { neutralizeLine } from "../../src/present/terminal-safe.js";
import { fitLine, type StyledLine } from "../core/styled.js";
import { lineAnsi } from "../core/theme.js";

/** Props of <Line/>. */
export interface LineProps {
	line: StyledLine;
	color: boolean;
}

/**
 * One screen line (already fitted to its width by the caller). One string with escapes instead of a nested
 * <Text> per segment: Ink lays out and squashes every node on every frame, and the screen redraws per keystroke.
 * Ink also measures every line on every frame (string-width over the styled text, the costliest step of a frame
 * once lines are cached): it gets spaces of the line's width to measure, and the styled text takes their place as
 * the frame is written (a transform, as Ink's own <Transform> does), so a line is measured once, when it changes.
 */
export const Line = memo(function Line({ line, color }: LineProps) {
	// A screen reader's output is the text nodes' own text, without transforms: it gets the text itself.
	const reader = useIsScreenReaderEnabled();
	if (line.length === 0) return <Text> </Text>;
	const text = lineAnsi(line, color);
	if (reader) return <Text wrap="truncate-end">{text}</Text>;
	const width = stringWidth(text);
	// Cut to fewer cells (a box narrower than the line, or one that clips): the line as drawn (control characters
	// shown as symbols) fitted to what is left.
	const transform = (shown: string) => (shown.length >= width ? text : lineAnsi(fitLine(drawn(line), shown.length), color));
	return createElement(
		"ink-text",
		{ style: { flexGrow: 0, flexShrink: 1, flexDirection: "row", textWrap: "truncate-end" }, internal_transform: transform },
		" ".repeat(width),
	);
}, sameLine);

/** The line's segments as they are drawn: control characters as their visible symbols (what Ink measures). */
function drawn(line: StyledLine): StyledLine {
	return line.map((s) => ({ ...s, text: neutralizeLine(s.text) }));
}

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
