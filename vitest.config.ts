import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		// Real SQLite files, real pi processes and a real terminal: some tests take seconds.
		testTimeout: 60_000,
		hookTimeout: 60_000,
		include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
		exclude: ["**/node_modules/**", "dist/**"],
		// Tests that run the CLI, workers or child processes use dist/: rebuild it once when a source is newer.
		globalSetup: ["test/support/global-setup.ts"],
	},
});
