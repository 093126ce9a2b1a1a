/**
 * The built code (dist/) that some tests run as a user does: the CLI, the refresh and indexing workers, child
 * processes. `ensureBuilt` rebuilds dist/ when a source is newer than its output, so a bare `vitest` run never tests
 * stale code; vitest.config.ts runs it once, as a globalSetup, before any test file starts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "./corpus.js";

/** The compiled sources. */
export const DIST = join(PROJECT_ROOT, "dist", "src");
/** The built `pi-history` CLI. */
export const CLI = join(DIST, "cli", "main.js");

/** Folders whose TypeScript is compiled into dist/ and run from there by tests. */
const SOURCES = ["src", "components"];

/** Sources under SOURCES whose compiled output is missing or older than the source. */
export function staleOutputs(): string[] {
	const stale: string[] = [];
	const walk = (dir: string) => {
		for (const e of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, e.name);
			if (e.isDirectory()) walk(path);
			else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) {
				const out = join(PROJECT_ROOT, "dist", relative(PROJECT_ROOT, path).replace(/\.tsx?$/, ".js"));
				if (!existsSync(out) || statSync(out).mtimeMs < statSync(path).mtimeMs) stale.push(relative(PROJECT_ROOT, path));
			}
		}
	};
	for (const dir of SOURCES) walk(join(PROJECT_ROOT, dir));
	return stale;
}

/** Builds dist/ when any compiled source is missing or stale (npm test builds first; a bare vitest run may not). */
export function ensureBuilt(): void {
	if (staleOutputs().length === 0) return;
	// tsc emits even when it reports type errors; whether the outputs are now fresh is what counts.
	const build = () => spawnSync("npx", ["tsc", "-p", "tsconfig.json"], { cwd: PROJECT_ROOT, encoding: "utf8" });
	let tsc = build();
	if (staleOutputs().length > 0) {
		// An incremental build skips a source whose text did not change (a touched file): build everything.
		rmSync(join(PROJECT_ROOT, "dist", ".tsbuildinfo"), { force: true });
		tsc = build();
	}
	const still = staleOutputs();
	if (still.length > 0) throw new Error(`dist/ could not be built (still stale: ${still.slice(0, 5).join(", ")})\n${tsc.stdout}${tsc.stderr}`);
}
