/** Which modules the CLI bundle takes from a remembering stand-in (build/frame-memo-*.ts), by the specifier Ink imports. */
import { join } from "node:path";

/** Specifier → the stand-in's compiled file name, in the build output's build/ folder. */
const FILES: Readonly<Record<string, string>> = {
	"string-width": "frame-memo-width.js",
	"@alcalzone/ansi-tokenize": "frame-memo-ansi.js",
};

/** Specifier → the stand-in's compiled file under `dist` (the build output; tsc compiles build/ there too). */
export function standIns(dist: string): Record<string, string> {
	return Object.fromEntries(Object.entries(FILES).map(([specifier, file]) => [specifier, join(dist, "build", file)]));
}
