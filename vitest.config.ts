import { defineConfig } from "vitest/config";

/** The tests that drive a real terminal (tmux) or the real pi: they run after the others. */
const TERMINAL = ["test/*.e2e.test.ts", "test/terminal-safety.test.ts", "test/package.test.ts"];

export default defineConfig({
	test: {
		// Real SQLite files, real pi processes and a real terminal: some tests take seconds.
		testTimeout: 60_000,
		hookTimeout: 60_000,
		exclude: ["**/node_modules/**", "dist/**"],
		// Tests that run the CLI, workers or child processes use dist/: rebuild it once when a source is newer.
		globalSetup: ["test/support/global-setup.ts"],
		// Two test files at a time even on 2 cores (vitest's default there is one): one file at a time took ~280 s of
		// the 5-minute budget. Every test file works in its own temp folder.
		maxWorkers: 2,
		// Files share their worker's modules instead of importing the whole stack again each (vitest's isolation):
		// that took ~45 s of the budget. It is safe here: no mocks, every file works in its own temp folder, and the
		// one file that changes shared state (Ink's caches, an env variable) puts it back.
		isolate: false,
		projects: [
			{
				extends: true,
				test: {
					name: "core",
					include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
					exclude: [...TERMINAL, "**/node_modules/**", "dist/**"],
					sequence: { groupOrder: 0 },
				},
			},
			{
				// After the core tests, two files at a time like them: one at a time took 160 s of the 5-minute budget, two
				// take 96 s (120-127 s with a busy loop on one core), and every screen wait is on content, not on time.
				extends: true,
				test: { name: "terminal", include: TERMINAL, sequence: { groupOrder: 1 } },
			},
		],
	},
});
