/**
 * The explorer's live view (src/cli/live.ts): a change under the session folders asks for one refresh, naming the
 * session files that changed, so that a large history's check stats them whatever its sample (quick-check.ts).
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { watchSessions } from "../src/cli/live.js";
import { tempDir } from "./helpers/corpus.js";

let t: ReturnType<typeof tempDir>;
beforeAll(() => {
	t = tempDir("pes-live-");
});
afterAll(() => t.cleanup());

it("names the session files written under the watched folders, and only those", async () => {
	const root = join(t.dir, "sessions");
	const folder = join(root, "--home-dev-app--");
	mkdirSync(folder, { recursive: true });
	const session = join(folder, "2026-03-01T00-00-00-000Z_0199c200-0000-7000-8000-000000000001.jsonl");
	const calls: string[][] = [];
	let changed: (files: string[]) => void = () => {};
	const watching = watchSessions(
		[root],
		(files) => {
			calls.push(files);
			changed(files);
		},
		{ debounceMs: 20 },
	);
	try {
		// Linux has recursive fs.watch since Node 19.1: this is the mode the explorer runs in.
		expect(watching.mode).toBe("watch");
		const named = new Promise<string[]>((resolve) => {
			changed = (files) => {
				if (files.includes(session)) resolve(files);
			};
		});
		writeFileSync(join(folder, "notes.txt"), "not a session\n");
		writeFileSync(session, "{}\n");
		appendFileSync(session, "{}\n");
		const files = await named;
		expect(files.every((f) => f.endsWith(".jsonl"))).toBe(true);
		expect(calls.flat().some((f) => f.endsWith("notes.txt"))).toBe(false);
	} finally {
		watching.stop();
	}
});

it("says when more session files changed than it names, so that the refresh checks every file", async () => {
	const root = join(t.dir, "burst");
	mkdirSync(root, { recursive: true });
	const got = new Promise<{ files: string[]; more: boolean }>((resolve) => {
		const watching = watchSessions(
			[root],
			(files, more) => {
				watching.stop();
				resolve({ files, more });
			},
			// One window for the whole burst: three files written at once, two named at most.
			{ debounceMs: 1000, named: 2 },
		);
		expect(watching.mode).toBe("watch");
		for (const n of [1, 2, 3]) writeFileSync(join(root, `s${n}.jsonl`), "{}\n");
	});
	const { files, more } = await got;
	expect(files.length).toBe(2);
	expect(more).toBe(true);
});
