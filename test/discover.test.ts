/** Finding session files: whether a history has any (the launcher's demo fallback) agrees with the full walk. */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SourceRoot } from "../src/shared/config.js";
import { discover, hasSessionFile } from "../src/source/discover.js";
import { tempDir } from "./helpers/corpus.js";

const tmp = tempDir("pes-discover-");
afterAll(() => tmp.cleanup());

/** Makes a root under the temp dir from relative file paths (a trailing "/" makes a directory). */
function root(name: string, entries: string[]): SourceRoot {
	const path = join(tmp.dir, name);
	mkdirSync(path, { recursive: true });
	for (const e of entries) {
		const target = join(path, e);
		if (e.endsWith("/")) mkdirSync(target, { recursive: true });
		else {
			mkdirSync(join(target, ".."), { recursive: true });
			writeFileSync(target, "{}\n");
		}
	}
	return { path, kind: "extra" };
}

const deep = `${Array.from({ length: 9 }, (_, i) => `d${i}`).join("/")}/s.jsonl`;

describe("hasSessionFile", () => {
	it.each<[string, () => SourceRoot[], boolean]>([
		["a missing root", () => [{ path: join(tmp.dir, "nothing-here"), kind: "default" }], false],
		["an empty root", () => [root("empty", [])], false],
		["only other files and empty folders", () => [root("other", ["notes.txt", "a/b/", "c/s.json"])], false],
		["a session file in a cwd folder", () => [root("one", ["--work-project--/2026-01-01_abc.jsonl"])], true],
		["a session file after folders without any", () => [root("later", ["a/", "b/x.txt", "c/d/e.jsonl"])], true],
		["none in the first root, one in the second", () => [root("first", ["a/"]), root("second", ["s.jsonl"])], true],
		["one only below the depth the walk reaches", () => [root("deep", [deep])], false],
	])("%s", (_name, roots, expected) => {
		const r = roots();
		expect(hasSessionFile(r)).toBe(expected);
		// The full walk says the same.
		expect(discover(r).files.length > 0).toBe(expected);
	});

	it("follows a symlinked folder as the walk does", () => {
		const target = root("linked-target", ["x/s.jsonl"]);
		const r = root("with-link", []);
		symlinkSync(target.path, join(r.path, "link"));
		expect(hasSessionFile([r])).toBe(true);
	});
});
