/**
 * The terminal sequences the explorer owns the screen with (shared by the first frame and the explorer). Written
 * out, not taken from ansi-escapes: loading it (and the node:process facade it imports) cost the hand-drawn first
 * frame several milliseconds for five constants.
 */

// DEC private modes 1049 (alternate screen, saving the cursor) and 25 (cursor shown), CSI 2J (erase the screen)
// and CSI H (cursor home): what ansi-escapes writes for enterAlternativeScreen, exitAlternativeScreen,
// cursorShow, eraseScreen and cursorTo(0, 0).
const ALT_SCREEN_ON = "\u001b[?1049h";
const ALT_SCREEN_OFF = "\u001b[?1049l";
const CURSOR_SHOW = "\u001b[?25h";
const ERASE_SCREEN = "\u001b[2J";
const CURSOR_HOME = "\u001b[1;1H";
// Alternate screen, with autowrap off while we own it: a frame drawn for the old width just after a resize is then
// cut at the edge by the terminal instead of wrapping into rows that no later frame erases. Bracketed paste marks a
// paste so the key splitter inserts it as text instead of reading its letters as commands.
const AUTOWRAP_OFF = "\u001b[?7l";
const AUTOWRAP_ON = "\u001b[?7h";
const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";
// Mouse reporting for the wheel: 1000 reports presses (the wheel is buttons 64/65), 1006 writes them as SGR
// sequences (no raw bytes the key splitter could mistake for text). Off again whenever the explorer leaves the screen.
export const MOUSE_ON = "\u001b[?1000h\u001b[?1006h";
const MOUSE_OFF = "\u001b[?1006l\u001b[?1000l";
export const ENTER_ALT = ALT_SCREEN_ON + AUTOWRAP_OFF + PASTE_ON + CURSOR_HOME;
export const LEAVE_ALT = MOUSE_OFF + PASTE_OFF + AUTOWRAP_ON + CURSOR_SHOW + ALT_SCREEN_OFF;
export const CLEAR = ERASE_SCREEN + CURSOR_HOME;
export const HOME = CURSOR_HOME;

/** Whether to turn mouse reporting on: asked for (not --no-mouse), on a terminal that has a mouse protocol. */
export function mouseWanted(option: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
	if (option === false) return false;
	const term = env.TERM ?? "";
	// A dumb terminal (or none named) has no mouse protocol, and the Linux console's is only for gpm.
	return term !== "" && term !== "dumb" && term !== "linux";
}
