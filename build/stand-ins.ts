/** Which modules the CLI bundle takes from a remembering stand-in (build/frame-memo-*.ts), by the specifier Ink imports. */
import { join } from "node:path";

/** Specifier → the stand-in's compiled file name, in the build output's build/ folder. */
const FILES: Readonly<Record<string, string>> = {
	"string-width": "frame-memo-width.js",
	"@alcalzone/ansi-tokenize": "frame-memo-ansi.js",
};

/**
 * Ink's own modules by the path they resolve to (their specifier is relative: `./output.js`) → the stand-in's compiled
 * file name. Ink imports its Output from its renderer only.
 */
const MODULES: Readonly<Record<string, string>> = {
	"/node_modules/ink/build/output.js": "frame-memo-output.js",
};

/** The stand-in for the module resolved to `id` (a path), under `dist`; undefined for any other. */
export function moduleStandIn(dist: string, id: string): string | undefined {
	const hit = Object.entries(MODULES).find(([tail]) => id.replaceAll("\\", "/").endsWith(tail));
	return hit ? join(dist, "build", hit[1]) : undefined;
}

/** Specifier → the stand-in's compiled file under `dist` (the build output; tsc compiles build/ there too). */
export function standIns(dist: string): Record<string, string> {
	return Object.fromEntries(Object.entries(FILES).map(([specifier, file]) => [specifier, join(dist, "build", file)]));
}
