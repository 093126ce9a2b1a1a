/**
 * kill -9 during write transactions (issue [reliability]): after every kill the index opens and is consistent, and
 * the next refresh equals a fresh build. The child reports its progress and is killed on those messages, never after
 * a timer, so what is proven does not depend on how busy the machine is.
 */
import { fork } from "node:child_process";
import { appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { openService, PROJECT_ROOT } from "./helpers/corpus.js";
import { checkInvariants, copySmallCorpus, scratch, sessionFiles } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-rel-kill-");

/** A progress message of test/support/refresh-child.mjs. */
type ChildMessage = "started" | { phase: string; filesDone: number };

describe("kill -9 during write transactions", () => {
	it("recovers 20 times: the index opens, is consistent, and the next refresh equals a fresh build", async () => {
		const dir = fresh("kill");
		// Two copies of the corpus, so a full refresh has a write transaction of real size to be killed inside.
		for (let i = 0; i < 2; i++) copySmallCorpus(join(dir, `copy${i}`));
		const index = join(dirname(dir), "kill.sqlite");
		const child = join(PROJECT_ROOT, "test/support/refresh-child.mjs");
		let killedMidWay = 0;
		for (let round = 0; round < 20; round++) {
			const full = round % 2 === 0;
			// Full rounds die as their ingest starts (inside the first write transaction); incremental rounds die right
			// after opening the index, or as their (recovery) ingest starts.
			const killOn = (m: ChildMessage) => (full || round % 4 === 3 ? typeof m === "object" && m.phase === "ingest" : m === "started");
			// A plain node child: vitest's own execArgv must not leak into it.
			const proc = fork(child, [dir, index, full ? "full" : "incremental"], { stdio: "ignore", execArgv: [] });
			const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
			const killed = await new Promise<boolean>((resolve) => {
				proc.on("message", (m: ChildMessage) => {
					if (!killOn(m) || proc.exitCode !== null) return;
					resolve(proc.kill("SIGKILL"));
				});
				void exited.then(() => resolve(false));
			});
			await exited;
			if (killed && proc.signalCode === "SIGKILL") killedMidWay++;
			checkInvariants(index, false);
			// Some rounds also touch the files, so recovery has real work to do.
			if (round % 5 === 4) appendFileSync(sessionFiles(dir)[round] as string, "{torn");
		}
		expect(killedMidWay).toBeGreaterThanOrEqual(15);
		const s = openService(dir, index);
		const summary = s.refresh();
		s.close();
		expect(summary.errors).toEqual([]);
		checkInvariants(index);
		freshBuild(dir, index);
	});
});
