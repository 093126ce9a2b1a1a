/** The small trust items of issue 31.10 that need no terminal: what to run instead of the explorer, and colors. */
import { describe, expect, it } from "vitest";
import { colorWanted } from "../src/cli/color.js";
import { noTerminalText } from "../src/cli/no-terminal.js";

describe("without a terminal", () => {
	it("suggests a command that works: full ids, quoted, on the history it was asked to open", () => {
		const open = { sessionId: "019c1234-aaaa-7bbb-8ccc-0123456789ab", entryId: "e1f2a3b4" };
		expect(noTerminalText({ open, sessionsDirs: ["/data/my sessions"], indexPath: "/data/idx.sqlite" })).toBe(
			"pi-history: the explorer needs a terminal; use `pi-history read 019c1234-aaaa-7bbb-8ccc-0123456789ab e1f2a3b4 --sessions-dir '/data/my sessions' --index /data/idx.sqlite` (add --json for scripts)\n",
		);
		expect(noTerminalText({})).toBe("pi-history: the explorer needs a terminal; use `pi-history search <query>` (add --json for scripts)\n");
		// An id from a hostile file is quoted and its control characters made visible, never sent raw.
		expect(noTerminalText({ open: { sessionId: "a$(rm -rf x)", entryId: "b\u001b]0;t\u0007" } })).toBe(
			"pi-history: the explorer needs a terminal; use `pi-history read 'a$(rm -rf x)' 'b␛]0;t␇'` (add --json for scripts)\n",
		);
	});
});

describe("colors", () => {
	it("none on a terminal that has none (TERM=dumb), with NO_COLOR, or with --no-color", () => {
		expect(colorWanted(undefined, { TERM: "xterm-256color" })).toBe(true);
		expect(colorWanted(undefined, { TERM: "dumb" })).toBe(false);
		expect(colorWanted(undefined, { NO_COLOR: "1" })).toBe(false);
		expect(colorWanted(false, {})).toBe(false);
	});
});
