/** Panels drawn in place of a screen's body: help and the fork candidates (the filter picker: FilterPicker.tsx). */
import { Box } from "ink";
import { clampScroll } from "../core/list-window.js";
import { fitLine, type StyledLine, seg } from "../core/styled.js";
import type { Candidate } from "../event/trace-rows.js";
import { candidateLine } from "../event/trace-view.js";
import { helpLines, type ReasonOf } from "../root/help.js";
import { Lines } from "./Line.js";

/** Props shared by the overlays. */
interface OverlayFrame {
	width: number;
	height: number;
	color: boolean;
}

function Frame({ width, height, color, lines }: OverlayFrame & { lines: StyledLine[] }) {
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Lines lines={lines.map((l) => fitLine(l, width))} color={color} height={height} />
		</Box>
	);
}

/** Props of <HelpOverlay/>. */
export interface HelpOverlayProps extends OverlayFrame {
	scroll: number;
	/** Why a key cannot act now (shown under it). */
	reasonOf?: ReasonOf;
}

/** The `?` help overlay (the reducer keeps `scroll` within the text; clamping here too keeps a resize safe). */
export function HelpOverlay({ width, height, color, scroll, reasonOf }: HelpOverlayProps) {
	const all = helpLines(width, reasonOf);
	const top = clampScroll(scroll, height, all.length);
	const lines = all.slice(top, top + height);
	if (all.length > height && top + height < all.length && lines.length > 0)
		lines[lines.length - 1] = [seg(`  ↓ ${all.length - top - height} more lines (↓/PgDn)`, "dim")];
	return <Frame width={width} height={height} color={color} lines={lines} />;
}

/** Props of <ForkPicker/>. */
export interface ForkPickerProps extends OverlayFrame {
	title: string;
	candidates: Candidate[];
	cursor: number;
}

/** Fork candidates: every child (and forked session) with a one-line preview, to pick from (keys: status bar). */
export function ForkPicker({ width, height, color, title, candidates, cursor }: ForkPickerProps) {
	const lines: StyledLine[] = [[seg("⑂ ", "warn"), seg(title, "title")], [seg("[leaf path] is the branch pi would load", "dim")], []];
	const room = Math.max(1, height - lines.length);
	const top = Math.max(0, Math.min(cursor - Math.floor(room / 2), candidates.length - room));
	candidates.slice(top, top + room).forEach((c, j) => {
		const i = top + j;
		const line = candidateLine(c, i);
		const selected = i === cursor;
		lines.push(fitLine([seg(selected ? "▌" : " ", "accent"), ...(selected ? line.map((s) => ({ ...s, inverse: true })) : line)], width, selected, selected));
	});
	return <Frame width={width} height={height} color={color} lines={lines} />;
}
