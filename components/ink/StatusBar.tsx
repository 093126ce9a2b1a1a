/** The two status lines: index state or the last message, and the keys that work right now. */
import { Box } from "ink";
import { memo } from "react";
import type { Tone } from "../core/styled.js";
import { hintLine } from "../search/search-view.js";
import { statusLines } from "../search/status-lines.js";
import { Lines } from "./Line.js";

/** Props of <StatusBar/>. */
export interface StatusBarProps {
	width: number;
	/** Left: a message (when set) or the index state. */
	status: { text: string; tone: Tone };
	/** The status is a message the user must read (never cut); otherwise the index state, which gives way to `where`. */
	whole?: boolean;
	/** Right: where you are, e.g. "hits · hit 3 of 50+" or "lines 12–24 of 80 ↓ · event". */
	where: string;
	hints: Array<[string, string]>;
	color: boolean;
}

/** Same bar: its props are rebuilt on every render, so compare what they say. */
function sameBar(a: StatusBarProps, b: StatusBarProps): boolean {
	return (
		a.width === b.width &&
		a.color === b.color &&
		a.where === b.where &&
		a.whole === b.whole &&
		a.status.text === b.status.text &&
		a.status.tone === b.status.tone &&
		a.hints.length === b.hints.length &&
		a.hints.every(([k, l], i) => b.hints[i]?.[0] === k && b.hints[i]?.[1] === l)
	);
}

/** The status bar (memoized: most keystrokes change neither line). */
export const StatusBar = memo(function StatusBar({ width, status, whole = true, where, hints, color }: StatusBarProps) {
	// A message too long for its line takes the bar's second line too, never cut at its end (status-lines.ts).
	const lines = statusLines(status, where, hintLine(hints, width), width, whole);
	return (
		<Box flexDirection="column" width={width} height={2}>
			<Lines lines={lines} color={color} height={2} />
		</Box>
	);
}, sameBar);
