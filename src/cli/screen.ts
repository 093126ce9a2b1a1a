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
export const ENTER_ALT = ansiEscapes.enterAlternativeScreen + AUTOWRAP_OFF + PASTE_ON + ansiEscapes.cursorTo(0, 0);
export const LEAVE_ALT = PASTE_OFF + AUTOWRAP_ON + ansiEscapes.cursorShow + ansiEscapes.exitAlternativeScreen;
export const CLEAR = ansiEscapes.eraseScreen + ansiEscapes.cursorTo(0, 0);
