/**
 * A deep `H` in a real terminal (tmux, issue 14 items 7 and 10): on a long linear session the nearest fork above
 * the last entry is thousands of parent steps up. The core walks it in one query, off the input loop: the answer
 * arrives, and Ctrl+C still ends the explorer. Ground truth is the file written here: a chain of N entries with
 * one branch off entry FORK. Outcomes only, never times.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { explorerE2e } from "./helpers/explorer-e2e.js";
import { hasTmux } from "./helpers/tmux.js";

const N = 20_000;
const FORK = 3;
const SESSION = "0199d000-0000-7000-8000-0000000deeb0";
const NEEDLE = "deepwalkneedle";
const id = (i: number) => `d${i.toString(16).padStart(7, "0")}`;

function line(entryId: string, parentId: string | null, i: number, text: string): string {
	const ts = new Date(Date.UTC(2026, 3, 1) + i * 1000).toISOString();
	const role = i % 2 === 1 ? "user" : "assistant";
	return `${JSON.stringify({ type: "message", id: entryId, parentId, timestamp: ts, message: { role, content: [{ type: "text", text }], timestamp: 1 } })}\n`;
}

describe.skipIf(!hasTmux)("a deep H in a real terminal (tmux)", () => {
	const explorer = explorerE2e("pes-deep-walk-", (dir) => {
		const folder = join(dir, "sessions", "--deep--");
		mkdirSync(folder, { recursive: true });
		const parts = [`${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: "2026-04-01T00:00:00.000Z", cwd: "/tmp/deep" })}\n`];
		for (let i = 1; i <= N; i++) {
			parts.push(line(id(i), i === 1 ? null : id(i - 1), i, i === N ? `the last step ${NEEDLE}` : `step ${i}`));
			if (i === FORK) parts.push(line("branch-x", id(FORK), i, "the road not taken"));
		}
		writeFileSync(join(folder, "2026-04-01T00-00-00-000Z_deep.jsonl"), parts.join(""));
		return join(dir, "sessions");
	});

	it("H from the last of 20,000 entries lands on the fork 19,997 steps up, and Ctrl+C then ends the explorer", async () => {
		const s = explorer.start({ size: { columns: 110, rows: 30 } });
		await s.waitFor((x) => x.includes("recent events") && /index up to date|indexed \d+/.test(x), 120_000);
		s.type(NEEDLE);
		await s.waitFor("the last step");
		s.keys("Enter");
		await s.waitFor("── assistant.text:0 · ");
		s.keys("H");
		await s.waitFor(`fork ${N - FORK} step(s) up: 2 branches continue here`);
		s.keys("C-c");
		await s.waitFor(/__EXIT__=\d+/);
	});
});
