/**
 * `pi-history search` from one CommonJS file (dist/src/pack/search.cjs, written by build/bundle.ts) compiled with V8's
 * code cache. Node before 22.1 keeps no compiled code for ES modules between runs, and compiling the search path was
 * a large part of the command's start (issue 29); a script compiled by node:vm can take the code V8 produced in an
 * earlier run. The cache lives beside the index (our folder), never in the working directory, and is keyed by the
 * bundle file and the Node version: V8 itself checks little more than the source's length. Bundled as CommonJS too
 * (pack/search-start.cjs): builtins taken by require, not through the ES module loader's facades.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { Script } from "node:vm";
import { resolveConfig } from "../shared/config.js";
import { parseSearchArgs } from "./search-args.js";

/** The folder the compiled code of our bundles is kept in, beside the index; null when it may not be written. */
export function codeCacheDir(indexPath: string, cwd: string): string | null {
	const folder = dirname(resolve(cwd, indexPath));
	// An index kept in the folder the command runs in (`--index x.sqlite`): nothing more of ours goes there.
	if (folder === resolve(cwd) || !statSync(folder, { throwIfNoEntry: false })?.isDirectory()) return null;
	return join(folder, "pi-history-code-cache");
}

/** A CommonJS bundle run in this process, and how to keep its compiled code for the next run. */
export interface CachedBundle<T> {
	exports: T;
	/** Writes the code compiled so far, when there was no usable cache (never throws: a cache is optional). */
	save(): void;
}

/** Runs the CommonJS bundle `file` with the code V8 compiled for it in an earlier run, from `cacheDir` when given. */
export function runWithCodeCache<T>(file: string, cacheDir: string | null): CachedBundle<T> {
	const source = readFileSync(file, "utf8");
	const st = statSync(file);
	const name = `${basename(file)}-${process.version}-${process.arch}-${st.size}-${Math.trunc(st.mtimeMs)}-${st.ino}.v8`;
	const cacheFile = cacheDir ? join(cacheDir, name) : null;
	let cached: Buffer | undefined;
	try {
		cached = cacheFile ? readFileSync(cacheFile) : undefined;
	} catch {
		cached = undefined;
	}
	// Node's own CommonJS wrapper: the bundle sees require, module, __filename as a file loaded by require would.
	const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData: cached });
	const mod = { exports: {} as T };
	script.runInThisContext()(mod.exports, createRequire(file), mod, file, dirname(file));
	return {
		exports: mod.exports,
		save() {
			if (!cacheDir || !cacheFile || (cached && !script.cachedDataRejected)) return;
			try {
				mkdirSync(cacheDir, { recursive: true });
				// Another build's or Node's code is of no more use.
				for (const old of readdirSync(cacheDir)) if (old.startsWith(`${basename(file)}-`) && old !== name) rmSync(join(cacheDir, old), { force: true });
				const partial = `${cacheFile}.${process.pid}.tmp`;
				writeFileSync(partial, script.createCachedData());
				renameSync(partial, cacheFile);
			} catch {
				// A read-only or full folder: the next start compiles again.
			}
		},
	};
}

/** Runs `search` (argv after the command) from the CommonJS bundle `file`; null when commands.ts is to parse it. */
export async function searchWithCodeCache(argv: readonly string[], file: string): Promise<number | null> {
	let dir: string | null = null;
	try {
		dir = codeCacheDir(resolveConfig({ indexPath: parseSearchArgs(argv)?.flags.index }).indexPath, process.cwd());
	} catch {
		// No cache then; the command itself says what is wrong with its configuration.
	}
	const loaded = runWithCodeCache<{ searchFast(argv: readonly string[]): Promise<number | null> }>(file, dir);
	const code = await loaded.exports.searchFast(argv);
	// Only once the search answered from an index of ours: nothing is put beside another program's file (I22).
	if (code === 0) loaded.save();
	return code;
}
