#!/usr/bin/env node
/**
 * pi-history's entry. The commands (run.ts) load from the bundle the build writes beside dist/src (build/bundle.ts):
 * one file per start path instead of a hundred modules each resolved and compiled on its own. Without a bundle, or
 * with one older than the last tsc output (a build that has not bundled yet), the modules load one by one. Every
 * module is loaded after V8's compile cache is on (Node ≥ 22.1), so later starts skip compiling them; `search` runs
 * from CommonJS bundles whose compiled code is kept beside the index on any Node (code-cache.ts). Builtins come from
 * process.getBuiltinModule: an import of one makes the ES module loader build a facade of all its exports.
 */
const { statSync } = process.getBuiltinModule("node:fs");
const { createRequire, enableCompileCache } = process.getBuiltinModule("node:module") as typeof import("node:module") & {
	enableCompileCache?: () => unknown;
};
const { fileURLToPath } = process.getBuiltinModule("node:url");

enableCompileCache?.();

const bundle = new URL("../pack/run.js", import.meta.url);
const bundled = statSync(bundle, { throwIfNoEntry: false });
// dist/.tsbuildinfo is rewritten by every tsc build that changed an output; a package has none.
const compiled = statSync(new URL("../../.tsbuildinfo", import.meta.url), { throwIfNoEntry: false });
const current = bundled !== undefined && (!compiled || compiled.mtimeMs <= bundled.mtimeMs);
const argv = process.argv.slice(2);
const searchBundle = fileURLToPath(new URL("../pack/search.cjs", import.meta.url));

/** `search` from its CommonJS bundles; null when the command line is one for the commands to parse. */
function searchFromBundle(): Promise<number | null> {
	const start = createRequire(import.meta.url)("../pack/search-start.cjs") as typeof import("./code-cache.js");
	return start.searchWithCodeCache(argv.slice(1), searchBundle);
}

const code = current && argv[0] === "search" && statSync(searchBundle, { throwIfNoEntry: false }) ? await searchFromBundle() : null;
if (code !== null) process.exitCode = code;
else if (current) await import(bundle.href);
else await import("./run.js");
