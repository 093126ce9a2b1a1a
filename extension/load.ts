/**
 * What pi loads for this package (package.json `pi.extensions`, or `pi -e <package>/extension/<entry>.ts`): the
 * built JavaScript of an entry when dist/ holds a build of the current sources, else its TypeScript source. pi
 * compiles an extension's TypeScript through jiti on every start, every module of src/ and components/ the entry
 * imports; the built modules skip that. A git install (`npm install --omit=dev`, no build) and a checkout with
 * edits newer than its build load the sources. This folder lies outside src/ on purpose: src/ never names its build
 * output (test/helpers/architecture.ts); choosing between the two is packaging, like build/.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { newestFile } from "../src/shared/newest-file.js";

/** The package's root folder (this file is `<root>/extension/load.ts`). */
const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The folders tsc compiles into dist/ (tsconfig.json) that an extension entry imports. */
const SOURCES = ["src", "components"];

/**
 * Whether dist/ under `root` holds a build of the current sources. In a checkout (its tsconfig.json): its newest
 * module is not older than the newest source, as a build rewrites what changed. A package ships no tsconfig.json, and
 * npm stamps every file with the time it unpacked it, in any order: there the build is the one it was packed with.
 */
export function buildIsCurrent(root: string = ROOT): boolean {
	const built = Math.max(...SOURCES.map((dir) => newestFile(join(root, "dist", dir), /\.js$/)));
	if (built === 0 || !existsSync(join(root, "tsconfig.json"))) return built > 0;
	return built >= Math.max(...SOURCES.map((dir) => newestFile(join(root, dir), /\.tsx?$/)));
}

/** The file pi should load for extension entry `name` (a module of src/extension/) of the package at `root`. */
export function entryFile(name: string, root: string = ROOT): string {
	const built = join(root, "dist", "src", "extension", `${name}.js`);
	return existsSync(built) && buildIsCurrent(root) ? built : join(root, "src", "extension", `${name}.ts`);
}

/** A pi extension factory: what an entry module's default export is. */
type Factory = (pi: unknown) => unknown;

/** The factory of extension entry `name`, loaded from the file entryFile picks when pi calls it. */
export function loadEntry(name: string): (pi: unknown) => Promise<void> {
	return async (pi) => {
		const module = (await import(pathToFileURL(entryFile(name)).href)) as { default: Factory };
		await module.default(pi);
	};
}
