import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { LongFirstSequencer } from "./test/support/sequencer.js";

/** The tests that drive a real terminal (tmux) or real pi end to end, or pack the package. */
const TERMINAL = ["test/*.e2e.test.ts", "test/terminal-safety.test.ts", "test/package.test.ts"];

/**
 * A test file uses dist/ when it starts the built CLI or workers (test/helpers/build.ts, the explorer under tmux, a
 * child that imports dist/), or real pi (its helpers, or an end-to-end file). Every other test runs from source and
 * never waits for a build.
 */
const USES_BUILD = /helpers\/(build|explorer-e2e|pi16|pi-run|pi-rpc|fork-family)\.js|support\/refresh-child\.mjs|["'`]dist\//;

const testFiles = readdirSync("test").filter((f) => /\.test\.tsx?$/.test(f));
const BUILT = testFiles.filter((f) => USES_BUILD.test(readFileSync(`test/${f}`, "utf8"))).map((f) => `test/${f}`);

/** The projects that use dist/ start one background build and wait for it in each file (test/helpers/build.ts). */
const waitsForBuild = { globalSetup: ["test/support/global-setup.ts"], setupFiles: ["test/support/wait-for-build.ts"] };

export default defineConfig({
	test: {
		// Real SQLite files, real pi processes and a real terminal: some tests take seconds.
		testTimeout: 60_000,
		hookTimeout: 60_000,
		exclude: ["**/node_modules/**", "dist/**"],
		// Three test files at a time on 2 cores: most of a real-pi or tmux test is waiting for another process, and two
		// at a time no longer fit the 5-minute budget. Every test file works in its own temp folder.
		maxWorkers: 3,
		// Files share their worker's modules instead of importing the whole stack again each (vitest's isolation):
		// that took ~45 s of the budget. It is safe here: no mocks, every file works in its own temp folder, and the
		// one file that changes shared state (Ink's caches, an env variable) puts it back.
		isolate: false,
		// One queue for all projects (no groupOrder): source-only files first while dist/ builds, then the files that
		// use it, the known long ones first (test/support/sequencer.ts). Separate groups left workers idle at the end of
		// each group, waiting for its last long file.
		sequence: { sequencer: LongFirstSequencer },
		projects: [
			{
				// From source, first, while dist/ builds in the background.
				extends: true,
				test: {
					name: "unit",
					include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
					exclude: [...BUILT, ...TERMINAL, "**/node_modules/**", "dist/**"],
				},
			},
			{
				// The built CLI, workers and real pi, outside a terminal.
				extends: true,
				test: {
					name: "built",
					include: BUILT,
					exclude: [...TERMINAL, "**/node_modules/**", "dist/**"],
					...waitsForBuild,
				},
			},
			{
				// Alongside the others: every screen wait is on content, not on time.
				extends: true,
				test: { name: "terminal", include: TERMINAL, ...waitsForBuild },
			},
		],
	},
});
