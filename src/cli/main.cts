#!/usr/bin/env node
/**
 * pi-history's entry, a CommonJS file: an ES module entry made every start build the ES module loader first, and
 * `pi-history search` never needs it (it runs from CommonJS bundles, code-cache.ts). The commands (run.ts) load
 * from the bundle the build writes beside dist/src (build/bundle.ts): one file per start path instead of a hundred
 * modules each resolved and compiled on its own. Without a bundle, or with one older than the last tsc output (a
 * build that has not bundled yet), the modules load one by one. Every module is loaded after V8's compile cache is
 * on (Node ≥ 22.1), so later starts skip compiling them; `search` keeps its bundles' compiled code beside the index
 * on any Node.
 */
import fs = require("node:fs");
import nodeModule = require("node:module");
import path = require("node:path");

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const pack = path.join(__dirname, "..", "pack");
const bundled = fs.statSync(path.join(pack, "run.js"), { throwIfNoEntry: false });
// dist/.tsbuildinfo is rewritten by every tsc build that changed an output; a package has none.
const compiled = fs.statSync(path.join(__dirname, "..", "..", ".tsbuildinfo"), { throwIfNoEntry: false });
const current = bundled !== undefined && (!compiled || compiled.mtimeMs <= bundled.mtimeMs);
const argv = process.argv.slice(2);
const searchBundle = path.join(pack, "search.cjs");
// Names, not literals: the bundles exist only once built (the package test follows their imports on its own).
const BUNDLE = "../pack/run.js";
const SEARCH_START = "../pack/search-start.cjs";

/** `search` from its CommonJS bundles; null when the command line is one for the commands to parse. */
function searchFromBundle(): Promise<number | null> {
	const start = require(SEARCH_START) as { searchWithCodeCache(argv: readonly string[], file: string): Promise<number | null> };
	return start.searchWithCodeCache(argv.slice(1), searchBundle);
}

async function main(): Promise<void> {
	const code = current && argv[0] === "search" && fs.statSync(searchBundle, { throwIfNoEntry: false }) ? await searchFromBundle() : null;
	if (code !== null) process.exitCode = code;
	else if (current) await import(BUNDLE);
	else await import("./run.js");
}

void main();
