/** The terminal sequences the explorer owns the screen with (shared by the first frame and the explorer). */
import ansiEscapes from "ansi-escapes";

// Alternate screen, with autowrap off while we own it: a frame drawn for the old width just after a resize is then
// cut at the edge by the terminal instead of wrapping into rows that no later frame erases.
// ansi-escapes has no DECAWM (autowrap) or bracketed-paste sequences, so those stay written out. Bracketed paste
// marks a paste so the key splitter inserts it as text instead of reading its letters as commands.
const AUTOWRAP_OFF = "\u001b[?7l";
const AUTOWRAP_ON = "\u001b[?7h";
const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";
// Mouse reporting for the wheel: 1000 reports presses (the wheel is buttons 64/65), 1006 writes them as SGR
// sequences (no raw bytes the key splitter could mistake for text). Off again whenever the explorer leaves the screen.
export const MOUSE_ON = "\u001b[?1000h\u001b[?1006h";
const MOUSE_OFF = "\u001b[?1006l\u001b[?1000l";
export const ENTER_ALT = ansiEscapes.enterAlternativeScreen + AUTOWRAP_OFF + PASTE_ON + ansiEscapes.cursorTo(0, 0);
export const LEAVE_ALT = MOUSE_OFF + PASTE_OFF + AUTOWRAP_ON + ansiEscapes.cursorShow + ansiEscapes.exitAlternativeScreen;
export const CLEAR = ansiEscapes.eraseScreen + ansiEscapes.cursorTo(0, 0);

/** Whether to turn mouse reporting on: asked for (not --no-mouse), on a terminal that has a mouse protocol. */
export function mouseWanted(option: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
	if (option === false) return false;
	const term = env.TERM ?? "";
	// A dumb terminal (or none named) has no mouse protocol, and the Linux console's is only for gpm.
	return term !== "" && term !== "dumb" && term !== "linux";
}
