/**
 * Bundles the compiled CLI (dist/src/cli/run.js) into dist/src/pack/: the start paths (`search`, the explorer, the
 * other commands) each become a few chunks, so a start resolves and compiles a handful of files instead of a hundred
 * modules (issue 29). Worker threads still start from their own compiled modules (their URLs name dist/src/<dir>/).
 * better-sqlite3's JavaScript is inside, its native addon outside (loaded by path); react-devtools-core stays outside
 * (Ink loads it only with DEV=true). Ink's text measuring and tokenizing, and its Output, come through remembering
 * stand-ins (frame-memo-*.ts): Ink redoes all of them for every line of the screen on every frame. `search` is also
 * bundled alone as CommonJS (pack/search.cjs, started by pack/search-start.cjs) for V8's code cache on any Node
 * (src/cli/code-cache.ts). Run by `npm run build` after tsc.
 *
 *   node dist/build/bundle.js
 */
import { rmSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "rolldown";
import { moduleStandIn, standIns } from "./stand-ins.js";

/**
 * Puts the stand-ins where a module imports the one they wrap: only where the import resolves to the very copy the
 * stand-in imports (wrap-ansi's own older string-width stays as it is), and never for the stand-in's own import.
 */
function frameMemo(dist: string): Plugin {
	const stands = standIns(dist);
	return {
		name: "frame-memo",
		async resolveId(source, importer) {
			if (source === "./output.js" && importer) {
				const resolved = await this.resolve(source, importer, { skipSelf: true });
				return resolved ? (moduleStandIn(dist, resolved.id) ?? null) : null;
			}
			const standIn = stands[source];
			if (!standIn || !importer || importer === standIn) return null;
			const [wanted, wrapped] = await Promise.all([this.resolve(source, importer, { skipSelf: true }), this.resolve(source, standIn, { skipSelf: true })]);
			return wanted && wrapped && wanted.id === wrapped.id ? standIn : null;
		},
	};
}

/** Writes the bundle of `distSrc`'s CLI into `distSrc/pack` (replacing what was there). */
export async function bundleCli(distSrc: string): Promise<void> {
	const out = join(distSrc, "pack");
	rmSync(out, { recursive: true, force: true });
	await build({
		input: { run: join(distSrc, "cli", "run.js") },
		platform: "node",
		// better-sqlite3's JavaScript is bundled, its addon named by path (src/index/sqlite.ts): `bindings` is never called.
		external: ["bindings", "react-devtools-core"],
		logLevel: "warn",
		plugins: [frameMemo(join(distSrc, ".."))],
		// React's production build, decided when bundling: with the choice left to the start, both builds were in the
		// explorer's chunk (react-reconciler's development build alone is 9,000 lines), and a start compiled both.
		transform: { define: { "process.env.NODE_ENV": JSON.stringify("production") } },
		output: { dir: out, format: "esm", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js", sourcemap: false },
	});
	// `search` once more as one CommonJS file: node:vm can give such a script the code V8 compiled in an earlier run
	// (src/cli/code-cache.ts), which Node before 22.1 cannot do for ES modules. search-start.cjs, what main.cts
	// requires first, finds that code and runs search.cjs with it.
	for (const [name, entry] of [
		["search", "search-fast.js"],
		["search-start", "code-cache.js"],
	] as const)
		await build({
			input: { [name]: join(distSrc, "cli", entry) },
			platform: "node",
			external: ["bindings", "react-devtools-core"],
			logLevel: "warn",
			output: { dir: out, format: "cjs", entryFileNames: "[name].cjs", codeSplitting: false, sourcemap: false },
		});
	// The entry is the last file written: main.cts takes the bundle only when it is not older than the tsc output.
	const now = new Date();
	utimesSync(join(out, "run.js"), now, now);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
	await bundleCli(join(dirname(fileURLToPath(import.meta.url)), "..", "src"));
}
