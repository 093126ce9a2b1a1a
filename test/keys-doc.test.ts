/** docs/keys.md is what the keymap makes now (`npm run docs:keys` writes it). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./helpers/corpus.js";
import { KEYS_DOC, keysMarkdown } from "./support/keys-doc.js";

describe("docs/keys.md", () => {
	it("lists every binding of the keymap, section by section (run npm run docs:keys when this fails)", () => {
		expect(readFileSync(join(PROJECT_ROOT, KEYS_DOC), "utf8")).toBe(keysMarkdown());
	});
});
