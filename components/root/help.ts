/**
 * What the screen says about keys, generated from the keymap's one table: key names as drawn (↑, Ctrl+S, F1), the
 * status-bar hints of a mode, the help overlay's sections and lines (and so the README's key table).
 */

import type { BrowserKeys } from "../browser/browser-view.js";
import { ALL, type Mode, SCREENS, SEARCH } from "../core/modes.js";
import { type StyledLine, seg } from "../core/styled.js";
import type { EmptyKeys } from "../search/search-view.js";
import type { Action } from "./actions.js";
import type { Binding } from "./binding.js";
import { BINDINGS } from "./keymap.js";

const PRETTY: Record<string, string> = {
	up: "↑",
	down: "↓",
	left: "←",
	right: "→",
	pgup: "PgUp",
	pgdn: "PgDn",
	home: "Home",
	end: "End",
	enter: "Enter",
	esc: "Esc",
	tab: "Tab",
	f1: "F1",
	f2: "F2",
	f3: "F3",
	f4: "F4",
	f5: "F5",
	f6: "F6",
	f7: "F7",
	wheelup: "wheel↑",
	wheeldown: "wheel↓",
	"shift+tab": "Shift+Tab",
	backspace: "Backspace",
	delete: "Delete",
	space: "Space",
};

/** How a key is written on screen: ↑, PgDn, Enter, Ctrl+C, q. */
export function prettyKey(name: string): string {
	if (PRETTY[name]) return PRETTY[name] as string;
	if (name.startsWith("ctrl+")) return `Ctrl+${prettyKey(name.slice(5)).replace(/^[a-z]$/, (c) => c.toUpperCase())}`;
	if (name.startsWith("alt+")) return `Alt+${prettyKey(name.slice(4)).replace(/^[a-z]$/, (c) => c.toUpperCase())}`;
	return name;
}

/** The keys of a binding as one label, pairs joined: "↑/↓", "h/←". */
export function bindingKeys(b: Binding): string {
	if (b.action.type === "pick") return "1–9";
	return b.keys.map(prettyKey).join("/");
}

/** Where letters go in each mode: into a text line (named), or null when letters are commands. */
const TYPING_INTO: Record<Mode, string | null> = {
	query: "query",
	list: "query",
	find: "find",
	"filter-edit": "filter",
	sessions: "filter",
	goto: "ref",
	event: null,
	trace: null,
	help: null,
	filters: null,
	fork: null,
	tree: null,
};

/** The mode chip that leads the hint bar, so the user sees before typing whether letters are text or commands. */
export function modeChip(mode: Mode): [string, string] {
	const into = TYPING_INTO[mode];
	return into ? ["typing:", into] : ["keys:", "commands"];
}

/** Status-bar hints for a mode: the mode chip, then [keys, label] pairs in table order. */
export function hintsFor(mode: Mode): Array<[string, string]> {
	const out: Array<[string, string, number]> = [[...modeChip(mode), -1]];
	for (const b of BINDINGS) {
		if (!b.hint || !b.modes.includes(mode)) continue;
		const label = b.hintKeys ?? (b.action.type === "pick" ? "1–9" : b.keys.slice(0, 2).map(prettyKey).join("/"));
		out.push([label, b.hint, b.hintOrder ?? 50]);
	}
	// Sort is stable: bindings without an order keep table order after the ordered ones.
	return out.sort((a, b) => a[2] - b[2]).map(([k, l]) => [k, l]);
}

/** The key that does `type` in `mode`, as the screen writes it ("Ctrl+C"), for text that names a key. */
export function keyFor(mode: Mode, type: Action["type"]): string {
	const key = BINDINGS.find((x) => x.action.type === type && x.modes.includes(mode))?.keys[0];
	// Text naming a key the table does not bind would be wrong: fail where the tests see it.
	if (key === undefined) throw new Error(`no key does ${type} in ${mode}`);
	return prettyKey(key);
}

const sameModes = (b: Binding, modes: readonly Mode[]) => b.modes.length === modes.length && modes.every((m) => b.modes.includes(m));

/** Why a binding cannot act now (null: it can); help shows it next to the key. */
export type ReasonOf = (b: Binding) => string | null;

/** Help sections: a title and the bindings of each group of modes (each binding in exactly one section), each with why it cannot act now. */
export function helpSections(reasonOf: ReasonOf = () => null): Array<{ title: string; rows: Array<[string, string, string | null]> }> {
	const groups: Array<{ title: string; test: (b: Binding) => boolean }> = [
		{ title: "Query line (typing searches as you type)", test: (b) => sameModes(b, ["query"]) },
		{ title: "Hit list (letters and Backspace edit the query)", test: (b) => sameModes(b, ["list"]) },
		{ title: "Search screen: query line and hit list", test: (b) => sameModes(b, SEARCH) },
		{ title: "Event view and tree walk", test: (b) => b.modes.every((m) => m === "event" || m === "trace") },
		{ title: "Find in an event, typing", test: (b) => sameModes(b, ["find"]) },
		{ title: "Fork candidates", test: (b) => sameModes(b, ["fork"]) },
		{ title: "Filter picker", test: (b) => sameModes(b, ["filters"]) },
		{ title: "Tree view", test: (b) => sameModes(b, ["tree"]) },
		{ title: "Filter picker, typing a value", test: (b) => sameModes(b, ["filter-edit"]) },
		{ title: "This help", test: (b) => sameModes(b, ["help"]) },
		{ title: "Session browser (letters filter the list)", test: (b) => sameModes(b, ["sessions"]) },
		{ title: "Go to a reference (the prompt edits like the query line)", test: (b) => sameModes(b, ["goto"]) },
		{ title: "Every screen but the browser and the prompt", test: (b) => sameModes(b, SCREENS) },
		{ title: "Everywhere, the query line too", test: (b) => sameModes(b, ALL) },
	];
	return groups.map((g) => ({
		title: g.title,
		rows: BINDINGS.filter(g.test).map((b) => [bindingKeys(b), b.help, reasonOf(b)] as [string, string, string | null]),
	}));
}

/**
 * The help overlay's text: a short guide, then every section of the table, a key that cannot act now with its reason
 * on its own line (the reducer clamps scrolling by the length for `reasonOf` as the overlay draws it).
 */
export function helpLines(width: number, reasonOf: ReasonOf = () => null): StyledLine[] {
	const out: StyledLine[] = [
		[seg("pi-history — keys", "title")],
		[seg("Find an event: type words; ↓ or Tab goes to the hits; Enter opens the exact event.", "dim")],
		[seg("On the search screen every printable key is text: commands there are Ctrl and F keys.", "dim")],
		[
			seg(
				"The hint bar says where letters go (typing: query, or keys: commands); q and Esc step back; after a walk, Esc on an empty query asks once before it quits.",
				"dim",
			),
		],
		[seg("Walk the session tree from any event: h parent, l child, j/k siblings, f fork candidates, [ ] file order.", "dim")],
		[seg("Esc steps back through everything you opened, all the way to the hits.", "dim")],
		[
			seg(
				"From an event: F7 continues in pi there, m copies it as Markdown, Ctrl+P and Ctrl+E page or edit its text, Ctrl+X exports its branch (no letter launches a program or writes a file).",
				"dim",
			),
		],
		[seg("F2 lists every session (branches, fork lineage); F3 goes to a ref (what y copies, a pi-history read line); no letter opens either.", "dim")],
	];
	const keyWidth = Math.min(26, Math.max(12, Math.floor(width * 0.3)));
	for (const section of helpSections(reasonOf)) {
		out.push([], [seg(section.title, "accent")]);
		for (const [keys, help, reason] of section.rows) {
			out.push([seg(`  ${keys}`.padEnd(keyWidth), "key"), seg(help)]);
			if (reason) out.push([seg("".padEnd(keyWidth)), seg(`not now: ${reason}`, "warn")]);
		}
	}
	return out;
}

/** Mode names as the help and status bar show them. */
export const MODE_NAMES: Record<Mode, string> = {
	query: "query",
	list: "hits",
	event: "event",
	trace: "trace panel",
	help: "help",
	filters: "filters",
	"filter-edit": "filter value",
	find: "find",
	fork: "fork",
	tree: "tree",
	sessions: "sessions",
	goto: "go to",
};

/** The keys the empty hit list's lines name. */
export const EMPTY_LIST_KEYS: EmptyKeys = {
	clearFilters: keyFor("list", "clear-filters"),
	cycleScope: keyFor("list", "cycle-scope"),
	openFilters: keyFor("list", "open-filters"),
};

/** The keys the session browser's empty lines name. */
export const BROWSER_KEYS: BrowserKeys = { editFilter: keyFor("sessions", "delete-back"), scope: keyFor("sessions", "browser-scope") };
