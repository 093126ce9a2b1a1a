/** The groups of modes the bindings name (kept apart so both binding tables can use them without an import cycle). */
import type { Mode } from "../root/state.js";

export const EVENT: Mode[] = ["event", "trace"];
// The search screen: the query line and the hit list. Every printable key there is text (typed in the list, it goes
// to the query); its commands are Ctrl and function keys.
export const SEARCH: Mode[] = ["query", "list"];
export const ALL: Mode[] = ["query", "list", "event", "trace", "help", "filters", "filter-edit", "find", "fork", "tree", "sessions", "goto"];
// Where F2 (sessions) and F3 (go to a ref) open their screens: every screen but those two and the typing prompts.
export const SCREENS: Mode[] = ["query", "list", "event", "trace", "help", "filters", "fork", "tree"];
