/** The README's essential keys are keys of the keymap: each row names a binding's keys and help words exactly. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { keyRows } from "./support/keys-doc.js";

/** The README key table's rows as `| keys | what it does |` (its first column, where, dropped). */
function readmeKeyRows(): string[] {
	const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
	const start = readme.indexOf("| Where | Keys | What it does |");
	expect(start).toBeGreaterThan(-1);
	const lines = readme.slice(start).split("\n").slice(2);
	const end = lines.findIndex((l) => !l.startsWith("|"));
	// Drop the first cell: `| Where | keys | help |` → `| keys | help |` (an escaped `\|` is not a cell border).
	const withoutWhere = (l: string) =>
		l
			.split(/(?<!\\)\|/)
			.slice(2)
			.join("|");
	return lines.slice(0, end).map((l) => `|${withoutWhere(l)}`);
}

describe("README key table", () => {
	it("lists only real bindings, with the keymap's keys and words", () => {
		const rows = readmeKeyRows();
		expect(rows.length).toBeGreaterThan(10);
		const known = new Set(keyRows().map((r) => r.row));
		expect(rows.filter((r) => !known.has(r))).toEqual([]);
	});

	it("points to the full table in docs/keys.md", () => {
		expect(readFileSync(new URL("../README.md", import.meta.url), "utf8")).toContain("(docs/keys.md)");
	});
});
