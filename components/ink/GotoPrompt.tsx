/**
 * The go-to-ref prompt (F3): one line for the ref, what it accepts, and why the last one failed. The text and its
 * cursor live in the reducer (goto-state), edited with the query line's keys, so every key comes through one input
 * path and a fast Enter never submits a stale value.
 */
import { Box } from "ink";
import { fitLine, type StyledLine, seg } from "../core/styled.js";
import type { GotoState } from "../prompts/goto-state.js";
import { queryLine } from "../search/search-view.js";
import { Lines } from "./Line.js";

/** Props of <GotoPrompt/>. */
export interface GotoPromptProps {
	goto: GotoState;
	width: number;
	height: number;
	color: boolean;
}

const FORMS = [
	"what y copies:            019c…e3a1 a1b2c3d4",
	"the Pi tools' refs:       sessionId=… entryId=… fragmentId=…",
	"a command line:           pi-history read <sessionId> <entryId> [--fragment ID]",
	"a short session id:       #e934 a1b2c3d4 (the #tail the explorer shows, or a prefix)",
];

/** The prompt panel. */
export function GotoPrompt({ goto, width, height, color }: GotoPromptProps) {
	const status: StyledLine = goto.checking
		? [seg("  looking it up…", "dim")]
		: goto.error
			? [seg(`  ✗ ${goto.error}`, "error")]
			: [seg("  Enter goes there · Esc closes", "dim")];
	const lead = seg("ref ❯ ", "accent");
	const field: StyledLine = [lead, ...queryLine(goto.value, goto.cursor, true, width - 6, "").slice(1)];
	const below: StyledLine[] = [status, [], [seg("  Accepts", "accent")], ...FORMS.map((f) => [seg(`    ${f}`, "dim")])];
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Lines lines={[fitLine([seg("Go to a reference", "title")], width), []]} color={color} />
			<Lines lines={[fitLine(field, width)]} color={color} height={1} />
			<Lines lines={below.map((l) => fitLine(l, width))} color={color} height={Math.max(0, height - 3)} />
		</Box>
	);
}
