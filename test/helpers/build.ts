/**
 * The built code (dist/) that some tests run as a user does: the CLI, the refresh and indexing workers, child
 * processes, real pi. vitest.config.ts sends those test files to the projects that wait for the build; the other
 * tests import the TypeScript sources and never wait for it. The build runs once per vitest run, in the background
 * while the source-only tests run (test/support/global-setup.ts), and only when a source is newer than its output.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { bundleCli } from "../../build/bundle.js";
import type { BuildOutcome } from "../support/build-signal.js";
import { PROJECT_ROOT } from "./corpus.js";

/** The compiled sources. */
export const DIST = join(PROJECT_ROOT, "dist", "src");
/** The built `pi-history` CLI. */
export const CLI = join(DIST, "cli", "main.cjs");

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

/**
 * Runs the project's tsc without blocking the caller's event loop, on src/ and components/ only
 * (build/tsconfig.dist.json): the tests run nothing else from dist/. It emits without type-checking (`--noCheck`),
 * a third of the CPU while the first tests run beside it: `npm run typecheck` checks everything, in CI before the tests.
 */
function tsc(): Promise<{ status: number | null; output: string }> {
	return new Promise((resolve) => {
		const child = spawn(
			process.execPath,
			[join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join("build", "tsconfig.dist.json"), "--noCheck"],
			{
				cwd: PROJECT_ROOT,
				stdio: ["ignore", "pipe", "pipe"],
			},
		);
		let output = "";
		child.stdout.on("data", (d: Buffer) => {
			output += d.toString();
		});
		child.stderr.on("data", (d: Buffer) => {
			output += d.toString();
		});
		child.on("close", (status) => resolve({ status, output }));
	});
}

/** tsc's incremental state of the tests' build (build/tsconfig.dist.json), rewritten by every build that changed an output. */
const TEST_BUILD_INFO = join(PROJECT_ROOT, "dist", "tests.tsbuildinfo");

/**
 * True when the CLI's bundle (build/bundle.ts) is missing or older than the last tsc output: that of `npm run build`
 * (dist/.tsbuildinfo, as main.cts judges it) or of the tests' build.
 */
function bundleStale(): boolean {
	const bundle = statSync(join(DIST, "pack", "run.js"), { throwIfNoEntry: false });
	const compiled = [join(PROJECT_ROOT, "dist", ".tsbuildinfo"), TEST_BUILD_INFO].map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0);
	return !bundle || Math.max(...compiled) > bundle.mtimeMs;
}

/** Builds dist/ when any compiled source is missing or stale, then the CLI's bundle, as `npm run build` does. */
export async function buildDist(): Promise<BuildOutcome> {
	const outcome = await compileDist();
	if (!outcome.ok || !bundleStale()) return outcome;
	try {
		await bundleCli(DIST);
	} catch (error) {
		return { ok: false, output: `the CLI bundle could not be built: ${String(error)}` };
	}
	return outcome;
}

/** Runs tsc when any compiled source is missing or stale; a type error fails it, as `npm run build` would. */
async function compileDist(): Promise<BuildOutcome> {
	if (staleOutputs().length === 0) return { ok: true, output: "" };
	let run = await tsc();
	if (staleOutputs().length > 0) {
		// An incremental build skips a source whose text did not change (a touched file): build everything.
		rmSync(TEST_BUILD_INFO, { force: true });
		run = await tsc();
	}
	const still = staleOutputs();
	if (still.length > 0) return { ok: false, output: `dist/ could not be built (still stale: ${still.slice(0, 5).join(", ")})\n${run.output}` };
	if (run.status !== 0) return { ok: false, output: `tsc reported errors:\n${run.output}` };
	return { ok: true, output: "" };
}
