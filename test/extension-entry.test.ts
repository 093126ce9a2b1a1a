/**
 * Which file pi loads for our extension (extension/load.ts): the build when dist/ is current, else the sources, so a
 * git install without a build and a checkout edited since its build still load, and an installed package (npm stamps
 * files with the time it unpacked them) loads the build. Hand-made package trees with set modification times.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { entryFile } from "../extension/load.js";

const roots: string[] = [];
afterAll(() => {
	for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A package tree whose files (relative path → seconds since the epoch) are written with those modification times. */
function packageTree(files: Record<string, number>): string {
	const root = mkdtempSync(join(tmpdir(), "pes-entry-"));
	roots.push(root);
	for (const [path, seconds] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), "export default () => {};\n");
		utimesSync(join(root, path), seconds, seconds);
	}
	return root;
}

const SOURCES = { "src/extension/index.ts": 1000, "src/extension/session-search.ts": 1000, "components/core/view.tsx": 1000 };
/** The build folder, named apart so this file runs with the source-only tests (vitest.config.ts USES_BUILD). */
const OUT = "dist";
/** A checkout (a package has no tsconfig.json), its sources and its build. */
const CHECKOUT = { "tsconfig.json": 1000, ...SOURCES };
const BUILT = {
	[`${OUT}/src/extension/index.js`]: 2000,
	[`${OUT}/src/extension/session-search.js`]: 2000,
	[`${OUT}/components/core/view.js`]: 2000,
};

describe("the extension entry pi loads", () => {
	it("is the build when it is newer than every source, for either entry", () => {
		const root = packageTree({ ...CHECKOUT, ...BUILT });
		expect(entryFile("index", root)).toBe(join(root, "dist", "src", "extension", "index.js"));
		expect(entryFile("session-search", root)).toBe(join(root, "dist", "src", "extension", "session-search.js"));
	});

	it("is the build in an installed package (no tsconfig.json), whatever times npm gave the files it unpacked", () => {
		const root = packageTree({ ...BUILT, ...Object.fromEntries(Object.keys(SOURCES).map((f) => [f, 3000])) });
		expect(entryFile("index", root)).toBe(join(root, "dist", "src", "extension", "index.js"));
		expect(entryFile("session-search", root)).toBe(join(root, "dist", "src", "extension", "session-search.js"));
	});

	it("is the TypeScript source without a build (a git install runs no build)", () => {
		const root = packageTree(CHECKOUT);
		expect(entryFile("index", root)).toBe(join(root, "src", "extension", "index.ts"));
	});

	it("is the TypeScript source when any source, of src/ or components/, changed after the build", () => {
		expect(entryFile("index", packageTree({ ...CHECKOUT, ...BUILT, "src/extension/index.ts": 3000 }))).toMatch(/src[\\/]extension[\\/]index\.ts$/);
		const root = packageTree({ ...CHECKOUT, ...BUILT, "components/core/view.tsx": 3000 });
		expect(entryFile("index", root)).toBe(join(root, "src", "extension", "index.ts"));
	});

	it("is the TypeScript source when the build lacks that entry", () => {
		const root = packageTree({ ...CHECKOUT, [`${OUT}/src/extension/index.js`]: 2000 });
		expect(entryFile("session-search", root)).toBe(join(root, "src", "extension", "session-search.ts"));
	});
});
