/** The explorer's modes (where keys go) and the groups of them the key bindings name. */

/** Where keys go: the query line, the hit list, an event's text or trace panel, an overlay or a prompt. */
export type Mode = "query" | "list" | "event" | "trace" | "help" | "filters" | "filter-edit" | "find" | "fork" | "tree" | "sessions" | "goto";

export const EVENT: Mode[] = ["event", "trace"];
// The search screen: the query line and the hit list. Every printable key there is text (typed in the list, it goes
// to the query); its commands are Ctrl and function keys.
export const SEARCH: Mode[] = ["query", "list"];
export const ALL: Mode[] = ["query", "list", "event", "trace", "help", "filters", "filter-edit", "find", "fork", "tree", "sessions", "goto"];
// Where F2 (sessions) and F3 (go to a ref) open their screens: every screen but those two and the typing prompts.
export const SCREENS: Mode[] = ["query", "list", "event", "trace", "help", "filters", "fork", "tree"];
