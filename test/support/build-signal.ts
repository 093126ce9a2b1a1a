/**
 * How the one build of a vitest run tells the test files waiting for it that it is over: a file written whole (by
 * rename) into a folder the globalSetup provides. Apart from test/helpers/build.ts so that waiting loads nothing else.
 */
import { existsSync, readFileSync, renameSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What a build left: whether dist/ is usable, and tsc's words when it is not. */
export interface BuildOutcome {
	ok: boolean;
	output: string;
}

/** The file in `signalDir` that says the build is over (written whole, by rename). */
const DONE = "done.json";

/** Records a build's outcome in `signalDir` for the test files waiting on it. */
export function announceBuild(signalDir: string, outcome: BuildOutcome): void {
	const tmp = join(signalDir, `${DONE}.tmp`);
	writeFileSync(tmp, JSON.stringify(outcome));
	renameSync(tmp, join(signalDir, DONE));
}

/** Resolves once the build announced in `signalDir` is over; rejects with tsc's words when it failed. */
export function waitForBuild(signalDir: string): Promise<void> {
	const done = join(signalDir, DONE);
	return new Promise<void>((resolve, reject) => {
		const settle = () => {
			if (!existsSync(done)) return false;
			watcher.close();
			const outcome = JSON.parse(readFileSync(done, "utf8")) as BuildOutcome;
			if (outcome.ok) resolve();
			else reject(new Error(outcome.output));
			return true;
		};
		// Woken by the rename that publishes the outcome, not by a timer; checked once after watching starts so an
		// outcome written in between is not missed.
		const watcher = watch(signalDir, () => settle());
		settle();
	});
}
