/** Which modules the CLI bundle takes from a remembering stand-in (build/frame-memo-*.ts), by the specifier Ink imports. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

/** Specifier → the stand-in's compiled file, beside this one. */
export const STAND_INS: Readonly<Record<string, string>> = {
	"string-width": join(HERE, "frame-memo-width.js"),
	"@alcalzone/ansi-tokenize": join(HERE, "frame-memo-ansi.js"),
};
