/** The preview pane: the selected hit's exact text around the match, read from the source file. */
import { Box } from "ink";
import type { Hit } from "../src/model.js";
import { Lines } from "./Line.js";
import { buildPreview, hitHighlights } from "./read-view.js";
import type { PreviewState } from "./state.js";
import { fitLine, seg, type StyledLine } from "./styled.js";

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

function titleRule(title: StyledLine, width: number, rule: boolean): StyledLine {
	const t: StyledLine = rule ? [seg("── ", "dim"), ...title, seg(" ", "dim")] : title;
	return rule ? fitLine([...t, seg("─".repeat(Math.max(0, width)), "dim")], width) : fitLine(t, width);
}

/** The preview pane with its title line. */
export function Preview({ hit, preview, current, width, height, now, color, rule }: PreviewProps) {
	let title: StyledLine = [seg("preview", "dim")];
	let lines: StyledLine[] = [];
	if (!hit) {
		lines = [];
	} else if (!current || !preview) {
		title = [seg("preview", "dim"), seg(" · reading…", "dim")];
	} else if (preview.error || !preview.read) {
		title = [seg("preview", "dim")];
		lines = [[seg(`cannot read this event: ${preview.error ?? "unknown error"}`, "error")]];
	} else {
		const built = buildPreview(preview.read, hitHighlights(hit), width, height, now);
		title = [...built.title, seg(" · Enter opens", "dim")];
		lines = built.lines.map((l) => fitLine(l, width));
	}
	return (
		<Box flexDirection="column" width={width} height={height + 1} overflow="hidden">
			<Lines lines={[titleRule(title, width, rule), ...lines]} color={color} height={height + 1} />
		</Box>
	);
}
