/**
 * The go-to-ref prompt (F3): one ink-text-input line for the ref, what it accepts, and why the last one failed.
 * The text lives in the reducer (goto-state): ink-text-input edits it through onChange, and Enter is the keymap's
 * (the reducer submits the text it holds, so a fast Enter never submits a stale value).
 */
import { Box, Text } from "ink";
import TextInput from "ink-text-input";
import type { Dispatch } from "react";
import { fitLine, type StyledLine, seg } from "../core/styled.js";
import type { GotoState } from "../prompts/goto-state.js";
import type { Action } from "../root/actions.js";
import { Lines } from "./Line.js";

/** Props of <GotoPrompt/>. */
export interface GotoPromptProps {
	goto: GotoState;
	width: number;
	height: number;
	color: boolean;
	dispatch: Dispatch<Action>;
}

const FORMS = [
	"what y copies:            019c…e3a1 a1b2c3d4",
	"the Pi tools' refs:       sessionId=… entryId=… fragmentId=…",
	"a command line:           pi-history read <sessionId> <entryId> [--fragment ID]",
	"a short session id:       #e934 a1b2c3d4 (the #tail the explorer shows, or a prefix)",
];

/** The prompt panel. */
export function GotoPrompt({ goto, width, height, color, dispatch }: GotoPromptProps) {
	const status: StyledLine = goto.checking
		? [seg("  looking it up…", "dim")]
		: goto.error
			? [seg(`  ✗ ${goto.error}`, "error")]
			: [seg("  Enter goes there · Esc closes", "dim")];
	const below: StyledLine[] = [status, [], [seg("  Accepts", "accent")], ...FORMS.map((f) => [seg(`    ${f}`, "dim")])];
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Lines lines={[fitLine([seg("Go to a reference", "title")], width), []]} color={color} />
			<Box width={width} height={1} overflow="hidden">
				<Text color={color ? "cyan" : undefined}>{"ref ❯ "}</Text>
				<TextInput key={goto.inputKey} value={goto.value} onChange={(value) => dispatch({ type: "goto-edit", value })} showCursor />
			</Box>
			<Lines lines={below.map((l) => fitLine(l, width))} color={color} height={Math.max(0, height - 3)} />
		</Box>
	);
}
