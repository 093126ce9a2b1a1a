/**
 * The tests that use dist/ wait for this run's build (test/support/build-signal.ts): they start once it is over, never
 * on a half-written outcome, and a failed build fails them with tsc's words instead of running them on stale code.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { announceBuild, waitForBuild } from "./support/build-signal.js";

const dirs: string[] = [];
const signalDir = () => {
	const dir = mkdtempSync(join(tmpdir(), "pes-build-signal-"));
	dirs.push(dir);
	return dir;
};
afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("waiting for the build", () => {
	it("waits while the build runs and goes on once it announces success", async () => {
		const dir = signalDir();
		let over = false;
		const waiting = waitForBuild(dir).then(() => {
			over = true;
		});
		// A turn of the event loop with nothing announced: still waiting.
		await new Promise((r) => setImmediate(r));
		expect(over).toBe(false);
		announceBuild(dir, { ok: true, output: "" });
		await waiting;
		expect(over).toBe(true);
	});

	it("goes on at once when the build was over before the file started", async () => {
		const dir = signalDir();
		announceBuild(dir, { ok: true, output: "" });
		await expect(waitForBuild(dir)).resolves.toBeUndefined();
	});

	it("fails the waiting file with tsc's words when the build failed", async () => {
		const dir = signalDir();
		const waiting = waitForBuild(dir);
		announceBuild(dir, { ok: false, output: "tsc reported errors:\nsrc/x.ts(1,7): error TS2322" });
		await expect(waiting).rejects.toThrow("error TS2322");
	});
});
