/** `npm run docs:keys`: writes docs/keys.md from the keymap (run from the built test/ in dist/). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEYS_DOC, keysMarkdown } from "./keys-doc.js";

writeFileSync(join(process.cwd(), KEYS_DOC), keysMarkdown());
console.log(`wrote ${KEYS_DOC}`);
