/** The keymap as a table: key press × mode → action; the help and hints come from the same table. */
import { describe, expect, it } from "vitest";
import { helpSections, hintsFor, keyFor, prettyKey } from "../components/root/help.js";
import { BINDINGS, type KeyInfo, keyName, keyToAction } from "../components/root/keymap.js";
import type { Action, Mode } from "../components/root/state.js";

const K = (k: KeyInfo): KeyInfo => k;

describe("keyName", () => {
	it.each<[string, KeyInfo, string | null]>([
		["", K({ upArrow: true }), "up"],
		["", K({ downArrow: true }), "down"],
		["", K({ pageDown: true }), "pgdn"],
		["", K({ home: true }), "home"],
		["", K({ return: true }), "enter"],
		["", K({ escape: true, meta: true }), "esc"],
		["", K({ tab: true }), "tab"],
		["", K({ tab: true, shift: true }), "shift+tab"],
		// The key splitter reports DEL (what Backspace sends) as backspace and ESC [3~ as delete (the forward key).
		["", K({ delete: true }), "delete"],
		["", K({ backspace: true }), "backspace"],
		["c", K({ ctrl: true }), "ctrl+c"],
		["u", K({ ctrl: true }), "ctrl+u"],
		["x", K({ meta: true }), "alt+x"],
		["", K({ backspace: true, meta: true }), "alt+backspace"],
		["", K({ leftArrow: true, ctrl: true }), "ctrl+left"],
		[" ", K({}), "space"],
		["G", K({ shift: true }), "G"],
		["[", K({}), "["],
		["ab", K({}), null],
	])("%j %j → %s", (input, key, name) => {
		expect(keyName(input, key)).toBe(name);
	});
});

describe("keyToAction", () => {
	it.each<[Mode, string, KeyInfo, Action | null]>([
		// The query line: letters are text, even the ones that are commands elsewhere.
		["query", "q", K({}), { type: "insert", text: "q" }],
		["query", "h", K({}), { type: "insert", text: "h" }],
		// The tree view: Ctrl+T on the search screen, t in an event; inside, n/N hits and →/← unfold and fold.
		["query", "t", K({}), { type: "insert", text: "t" }],
		["list", "t", K({ ctrl: true }), { type: "open-tree" }],
		["event", "t", K({}), { type: "open-tree" }],
		["trace", "t", K({}), { type: "open-tree" }],
		["tree", "n", K({}), { type: "tree-hit", dir: 1 }],
		["tree", "N", K({}), { type: "tree-hit", dir: -1 }],
		["tree", "", K({ rightArrow: true }), { type: "tree-fold", unfold: true }],
		["tree", "", K({ leftArrow: true }), { type: "tree-fold", unfold: false }],
		["tree", "", K({ escape: true }), { type: "back" }],
		["tree", "t", K({}), null],
		["query", "?", K({}), { type: "insert", text: "?" }],
		["query", "青铜", K({}), { type: "insert", text: "青铜" }],
		["query", "", K({ leftArrow: true }), { type: "cursor", to: "left" }],
		["query", "", K({ home: true }), { type: "cursor", to: "home" }],
		["query", "", K({ end: true }), { type: "cursor", to: "end" }],
		["query", "", K({ backspace: true }), { type: "delete-back" }],
		["query", "", K({ delete: true }), { type: "delete-forward" }],
		["query", "u", K({ ctrl: true }), { type: "kill-to-start" }],
		["query", "k", K({ ctrl: true }), { type: "kill-to-end" }],
		["query", "b", K({ meta: true }), { type: "cursor", to: "word-left" }],
		["query", "f", K({ meta: true }), { type: "cursor", to: "word-right" }],
		["query", "", K({ backspace: true, meta: true }), { type: "delete-word-back" }],
		["query", "w", K({ ctrl: true }), { type: "delete-word" }],
		["query", "x", K({ ctrl: true }), { type: "toggle-errors" }],
		["query", "v", K({ ctrl: true }), null],
		["query", "", K({ downArrow: true }), { type: "focus", to: "list" }],
		["query", "", K({ tab: true }), { type: "focus", to: "list" }],
		["query", "", K({ return: true }), { type: "open" }],
		["query", "", K({ escape: true, meta: true }), { type: "back" }],
		["query", "c", K({ ctrl: true }), { type: "quit", code: 130 }],
		// The hit list.
		["list", "", K({ downArrow: true }), { type: "move", by: 1 }],
		["list", "", K({ upArrow: true }), { type: "move", by: -1 }],
		["list", "", K({ pageDown: true }), { type: "page", dir: 1 }],
		["list", "", K({ pageUp: true }), { type: "page", dir: -1 }],
		["list", "", K({ home: true }), { type: "jump", to: "first" }],
		["list", "", K({ end: true }), { type: "jump", to: "last" }],
		["list", "", K({ return: true }), { type: "open" }],
		// Printable keys in the hit list are text for the query: `seq` typed there never changes scope or quits.
		["list", "", K({ backspace: true }), { type: "delete-back" }],
		["list", "s", K({}), { type: "insert", text: "s" }],
		["list", "e", K({}), { type: "insert", text: "e" }],
		["list", "q", K({}), { type: "insert", text: "q" }],
		["list", "?", K({}), { type: "insert", text: "?" }],
		["list", "", K({ tab: true }), { type: "focus", to: "query" }],
		["list", "s", K({ ctrl: true }), { type: "cycle-scope" }],
		["query", "s", K({ ctrl: true }), { type: "cycle-scope" }],
		["list", "o", K({ ctrl: true }), { type: "open-filters" }],
		["list", "x", K({ ctrl: true }), { type: "toggle-errors" }],
		["list", "r", K({ ctrl: true }), { type: "recall-query", search: true }],
		["list", "r", K({ meta: true }), { type: "clear-filters" }],
		["query", "", K({ upArrow: true }), { type: "recall-query", search: false }],
		["list", "w", K({ ctrl: true }), { type: "delete-word" }],
		["list", "u", K({ ctrl: true }), { type: "kill-to-start" }],
		["list", "y", K({ ctrl: true }), { type: "copy-ref" }],
		["list", "", K({ f1: true }), { type: "help" }],
		["query", "g", K({ ctrl: true }), { type: "help" }],
		// The event view and the walk.
		["event", "h", K({}), { type: "walk", to: "parent" }],
		["event", "", K({ leftArrow: true }), { type: "walk", to: "parent" }],
		["event", "l", K({}), { type: "walk", to: "child" }],
		["event", "j", K({}), { type: "walk", to: "next-sibling" }],
		["event", "k", K({}), { type: "walk", to: "prev-sibling" }],
		["event", "f", K({}), { type: "walk", to: "forks" }],
		["event", "H", K({ shift: true }), { type: "walk", to: "fork-up" }],
		["event", "[", K({}), { type: "walk", to: "append-prev" }],
		["event", "]", K({}), { type: "walk", to: "append-next" }],
		["event", "n", K({}), { type: "find-step", dir: 1 }],
		["event", "N", K({ shift: true }), { type: "find-step", dir: -1 }],
		["event", "/", K({}), { type: "find-open" }],
		["find", "q", K({}), { type: "insert", text: "q" }],
		["filter-edit", "x", K({}), { type: "insert", text: "x" }],
		["filter-edit", "", K({ backspace: true }), { type: "delete-back" }],
		["find", "", K({ downArrow: true }), null],
		["find", "", K({ return: true }), { type: "find-submit" }],
		["find", "", K({ escape: true }), { type: "find-cancel" }],
		["event", " ", K({}), { type: "page", dir: 1 }],
		["event", "", K({ tab: true }), { type: "toggle-panel" }],
		["event", "", K({ escape: true, meta: true }), { type: "back" }],
		["event", "", K({ backspace: true }), { type: "back" }],
		["event", "", K({ downArrow: true }), { type: "move", by: 1 }],
		["trace", "", K({ downArrow: true }), { type: "move", by: 1 }],
		["trace", "", K({ return: true }), { type: "open" }],
		["trace", "h", K({}), { type: "walk", to: "parent" }],
		["trace", "y", K({}), { type: "copy-ref" }],
		["event", "q", K({}), { type: "back" }],
		["trace", "q", K({}), { type: "back" }],
		["event", "?", K({}), { type: "help" }],
		// Overlays.
		["fork", "2", K({}), { type: "pick", index: 1 }],
		["fork", "", K({ return: true }), { type: "open" }],
		["fork", "f", K({}), { type: "back" }],
		["fork", "q", K({}), null],
		["filters", "", K({ rightArrow: true }), { type: "filter-cycle", dir: 1 }],
		["filters", "", K({ leftArrow: true }), { type: "filter-cycle", dir: -1 }],
		["filters", "x", K({}), { type: "filter-reset" }],
		["filters", "", K({ return: true }), { type: "open" }],
		["help", "?", K({}), { type: "back" }],
		["help", "q", K({}), { type: "back" }],
		["help", "c", K({ ctrl: true }), { type: "quit", code: 130 }],
	])("%s: %j %j", (mode, input, key, action) => {
		expect(keyToAction(mode, input, key)).toEqual(action);
	});

	it("binds in the query line readline's Ctrl keys for editing, and search commands only on Ctrl keys readline leaves free here", () => {
		const ctrl = BINDINGS.filter((b) => b.modes.includes("query")).flatMap((b) => b.keys.filter((k) => /^ctrl\+[a-z]$/.test(k)));
		const editing = ["ctrl+a", "ctrl+e", "ctrl+b", "ctrl+f", "ctrl+d", "ctrl+w", "ctrl+u", "ctrl+k"];
		const commands = ["ctrl+s", "ctrl+o", "ctrl+x", "ctrl+r", "ctrl+y", "ctrl+g", "ctrl+t", "ctrl+l", "ctrl+c", "ctrl+z"];
		expect(new Set(ctrl)).toEqual(new Set([...editing, ...commands]));
	});

	it("binds no key twice in one mode", () => {
		const seen = new Map<string, number>();
		for (const b of BINDINGS) for (const m of b.modes) for (const k of b.keys) seen.set(`${m} ${k}`, (seen.get(`${m} ${k}`) ?? 0) + 1);
		// ctrl+c in the query line is listed twice on purpose (once in the query section of help, once in "Everywhere").
		expect([...seen].filter(([k, n]) => n > 1 && k !== "query ctrl+c")).toEqual([]);
	});
});

describe("where keys act", () => {
	const ALL_MODES: Mode[] = ["query", "list", "event", "trace", "help", "filters", "fork", "tree", "sessions", "goto"];

	it("keeps the filter and fork pickers open on ? (help would replace them and lose the draft or the candidates)", () => {
		expect(keyToAction("filters", "?", K({}))).toBeNull();
		expect(keyToAction("fork", "?", K({}))).toBeNull();
	});

	it("binds in the query line only the non-text keys its module comment names (↑ only for earlier queries, no PgUp)", () => {
		const keys = new Set(BINDINGS.filter((b) => b.modes.includes("query")).flatMap((b) => b.keys));
		for (const k of keys)
			expect(
				[
					"left",
					"right",
					"up",
					"home",
					"end",
					"down",
					"pgdn",
					"tab",
					"enter",
					"esc",
					"backspace",
					"delete",
					"f1",
					"f2",
					"f3",
					"f4",
					"f5",
					"f6",
					"f7",
					"wheelup",
					"wheeldown",
				].includes(k) || /^(ctrl|alt)\+/.test(k),
				k,
			).toBe(true);
		expect(keyToAction("query", "", K({ pageUp: true }))).toBeNull();
	});

	it("titles help sections by where their keys act", () => {
		const sections = new Map(helpSections().map((s) => [s.title, s.rows.map(([k]) => k)]));
		const everywhere = [...sections].find(([t]) => t.startsWith("Everywhere"));
		expect(everywhere?.[1]).toEqual(["Ctrl+C", "Ctrl+Z", "wheel↑/wheel↓"]);
		for (const m of ALL_MODES) expect(keyToAction(m, "c", K({ ctrl: true }))).toEqual({ type: "quit", code: 130 });
		expect(sections.get("Search screen: query line and hit list")).toEqual([
			"Ctrl+S",
			"Ctrl+O",
			"Ctrl+X",
			"Ctrl+R",
			"Alt+R",
			"F4/Alt+S",
			"F6/Alt+G",
			"Ctrl+Y",
			"F1/Ctrl+G",
			"Ctrl+T",
			"F7",
			"F5/Ctrl+L",
		]);
		for (const m of ["event", "trace"] as const) for (const k of ["y", "?", "q"]) expect(keyToAction(m, k, K({})), `${m} ${k}`).not.toBeNull();
		// No printable key is a command on the search screen.
		for (const m of ["query", "list"] as const)
			for (const k of ["y", "?", "q", "s", "e", "F", "x", "g", "G", "/", "h"]) expect(keyToAction(m, k, K({}))).toEqual({ type: "insert", text: k });
	});

	it("continue in pi, Markdown, pager, editor and export are event keys; F7 continues in pi from the search screen too", () => {
		const task = (t: string) => ({ type: "task", task: t });
		for (const m of ["event", "trace"] as const) {
			expect(keyToAction(m, "m", K({}))).toEqual(task("copy-md"));
			expect(keyToAction(m, "p", K({ ctrl: true }))).toEqual(task("pager"));
			expect(keyToAction(m, "e", K({ ctrl: true }))).toEqual(task("editor"));
			expect(keyToAction(m, "x", K({ ctrl: true }))).toEqual(task("export"));
			// No letter launches a program or writes a file (issue 31.5).
			for (const k of ["c", "v", "e"]) expect(keyToAction(m, k, K({}))).not.toMatchObject({ type: "task" });
			expect(keyToAction(m, "E", K({ shift: true }))).not.toMatchObject({ type: "task" });
		}
		for (const m of ["query", "list", "event"] as const) expect(keyToAction(m, "", K({ f7: true }))).toEqual(task("resume"));
		// Typed on the search screen those letters stay text.
		for (const k of ["c", "m", "v", "e", "E"]) expect(keyToAction("query", k, K({}))).toEqual({ type: "insert", text: k });
	});

	it("the wheel is a key of its own everywhere, never text", () => {
		for (const m of ALL_MODES) {
			expect(keyToAction(m, "", K({ wheelUp: true }))).toEqual({ type: "wheel", dir: -1 });
			expect(keyToAction(m, "", K({ wheelDown: true }))).toEqual({ type: "wheel", dir: 1 });
		}
	});

	it("names the key of an action for text that mentions it", () => {
		expect(keyFor("query", "quit")).toBe("Ctrl+C");
		expect(keyFor("event", "back")).toBe("Esc");
		expect(() => keyFor("query", "walk")).toThrow();
	});
});

describe("help and hints come from the table", () => {
	it("lists every binding in some help section", () => {
		const listed = helpSections().reduce((n, s) => n + s.rows.length, 0);
		expect(listed).toBe(BINDINGS.length);
	});

	it.each<[Mode, string[]]>([
		["query", ["hits", "open", "clear/quit", "scope", "filters", "errors", "help", "quit"]],
		["list", ["move", "open", "scope", "filters", "errors", "copy ref", "help", "quit"]],
		["event", ["parent", "child", "siblings", "forks", "fork above", "tree", "file order", "panel", "back", "help", "copy ref"]],
		["fork", ["choose", "go", "pick", "close"]],
		["tree", ["move", "open", "hits", "unfold", "back", "help"]],
	])("%s hints", (mode, labels) => {
		expect(hintsFor(mode).map(([, l]) => l)).toEqual(expect.arrayContaining(labels));
	});

	it("writes keys the way the screen shows them", () => {
		expect([prettyKey("pgdn"), prettyKey("ctrl+u"), prettyKey("esc"), prettyKey("q")]).toEqual(["PgDn", "Ctrl+U", "Esc", "q"]);
	});
});
