#!/usr/bin/env node
/**
 * pi-history's entry. The commands (run.ts) load from the bundle the build writes beside dist/src (build/bundle.ts):
 * one file per start path instead of a hundred modules each resolved and compiled on its own. Without a bundle, or
 * with one older than the last tsc output (a build that has not bundled yet), the modules load one by one. Every
 * module is loaded after V8's compile cache is on (Node ≥ 22.1), so later starts skip compiling them.
 */
import { statSync } from "node:fs";
import module from "node:module";

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const bundle = new URL("../pack/run.js", import.meta.url);
const bundled = statSync(bundle, { throwIfNoEntry: false });
// dist/.tsbuildinfo is rewritten by every tsc build that changed an output; a package has none.
const compiled = statSync(new URL("../../.tsbuildinfo", import.meta.url), { throwIfNoEntry: false });
if (bundled && (!compiled || compiled.mtimeMs <= bundled.mtimeMs)) await import(bundle.href);
else await import("./run.js");
