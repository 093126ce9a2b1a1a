/** The windowed hit list: one or two lines per hit, the selected one marked, an empty state when there are none. */
import { Box } from "ink";
import { memo } from "react";
import { type Hit, refKey } from "../../src/shared/types.js";
import { visibleRange } from "../core/list-window.js";
import { shortIds } from "../core/session-label.js";
import { fitLine, type StyledLine, seg, type Tone } from "../core/styled.js";
import { wrapLine } from "../core/text-width.js";
import { copyRoles } from "../search/hits-state.js";
import { hitRows } from "../search/search-view.js";
import { Lines } from "./Line.js";

/** Props of <HitList/>. */
export interface HitListProps {
	hits: Hit[];
	selected: number;
	top: number;
	width: number;
	height: number;
	hitLines: 1 | 2;
	now: number;
	color: boolean;
	/** Shown instead of hits when there are none. */
	empty: Array<{ text: string; tone: Tone }>;
	/** Ref key → other sessions holding a copy of the same entry (a fork family): shown as one row. */
	copies?: Record<string, Hit[]>;
	/** Grouped by session: session id → how many hits its row stands for, as written ("13", "2+"; groupCount). */
	groups?: Record<string, string>;
}

/** The hit list pane (memoized: a keystroke that only changes the query line does not rebuild its rows). */
export const HitList = memo(function HitList({ hits, selected, top, width, height, hitLines, now, color, empty, copies = {}, groups = {} }: HitListProps) {
	const lines: StyledLine[] = [];
	if (hits.length === 0) {
		lines.push([]);
		// The list pane is narrower than the screen (55% side by side): wrap, so no explanation is cut off.
		for (const e of empty) for (const part of wrapLine(e.text, Math.max(1, width - 3))) lines.push(fitLine([seg("  "), seg(part, e.tone)], width));
	} else {
		const { from, to } = visibleRange(top, Math.floor(height / hitLines), hits.length);
		// Copies of one entry shown as rows of their own (→) say which is the original.
		const roles = copyRoles(hits);
		const shown = hits.slice(from, to);
		// The id part that tells apart the sessions on screen (and the copies' sessions, named in the preview).
		const short = shortIds(shown.flatMap((h) => [h.sessionId, ...(copies[refKey(h)] ?? []).map((c) => c.sessionId)]));
		for (let i = from; i < to; i++) {
			const h = hits[i] as Hit;
			lines.push(
				...hitRows(
					h,
					width,
					now,
					i === selected,
					hitLines,
					short.get(h.sessionId),
					copies[refKey(h)]?.length ?? 0,
					groups[h.sessionId] ?? "",
					roles.get(refKey(h)),
				),
			);
		}
	}
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Lines lines={lines} color={color} height={height} />
		</Box>
	);
});
