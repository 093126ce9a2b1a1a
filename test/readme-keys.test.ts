/** The README's key table is the help overlay's table: same sections, same keys, same words, in the same order. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { helpSections } from "../components/root/keymap.js";

/** The README rows the help sections make: `| title | keys help · keys help |`, with `|` escaped. */
function readmeKeyRows(): string[] {
	return helpSections().map((s) => `| ${s.title} | ${s.rows.map(([k, h]) => `${k} ${h}`.replaceAll("|", "\\|")).join(" · ")} |`);
}

describe("README key table", () => {
	it("matches the help overlay row for row", () => {
		const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
		const start = readme.indexOf("| Where | Keys |");
		expect(start).toBeGreaterThan(-1);
		const rows = readme
			.slice(start)
			.split("\n")
			.slice(2)
			.filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith("|")));
		expect(rows).toEqual(readmeKeyRows());
	});
});
