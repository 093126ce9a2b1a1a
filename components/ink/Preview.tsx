/** The preview pane: the selected hit's exact text around the match, read from the source file. */
import { Box } from "ink";
import { memo, useMemo } from "react";
import type { Hit } from "../../src/shared/types.js";
import { fitLine, type StyledLine, seg } from "../core/styled.js";
import { hitHighlights } from "../event/matches.js";
import { previewBody, previewTitle } from "../event/read-view.js";
import type { PreviewState } from "../search/hits-state.js";
import { paneTitle } from "../search/search-view.js";
import { Lines } from "./Line.js";

/** Props of <Preview/>. */
export interface PreviewProps {
	hit: Hit | null;
	preview: PreviewState | null;
	/** The preview matches the selected hit (else it is still loading). */
	current: boolean;
	width: number;
	/** Text lines below the title line. */
	height: number;
	now: number;
	color: boolean;
	/** Draw the title as a rule across the width (stacked layout). */
	rule: boolean;
}

/** The preview pane with its title line (memoized like the hit list). */
export const Preview = memo(function Preview({ hit, preview, current, width, height, now, color, rule }: PreviewProps) {
	const read = hit && current && preview && !preview.error ? preview.read : null;
	// The text around the match is the costly part and does not depend on the clock, which changes every render.
	const body = useMemo(() => {
		if (!hit || !read) return null;
		const b = previewBody(read, hitHighlights(hit), width, height);
		return { at: b.at, lines: b.lines.map((l) => fitLine(l, width)) };
	}, [hit, read, width, height]);
	let title: StyledLine = [seg("preview", "dim")];
	let lines: StyledLine[] = [];
	if (!hit) {
		lines = [];
	} else if (!current || !preview) {
		title = [seg("preview", "dim"), seg(" · reading…", "dim")];
	} else if (!read || !body) {
		lines = [[seg(`cannot read this event: ${preview.error ?? "unknown error"}`, "error")]];
	} else {
		title = [...previewTitle(read, body.at, now), seg(" · Enter opens", "dim")];
		lines = body.lines;
	}
	return (
		<Box flexDirection="column" width={width} height={height + 1}>
			<Lines lines={[paneTitle(title, width, rule), ...lines]} color={color} height={height + 1} />
		</Box>
	);
});
