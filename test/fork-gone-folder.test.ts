/**
 * pi ≥ 1.5.2: resuming a session whose folder is gone forks it into the current folder with pi's own
 * `SessionManager.forkFrom` (the `--fork` path): a full copy with a new id. Its lineage must read as that copy, not as
 * a `/fork` of an earlier entry or a `/clone`. Ground truth: the files pi 1.6's SessionManager (deep-imported) writes.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openService, tempDir } from "./helpers/corpus.js";
import { sm } from "./helpers/oracle16.js";

type Forking = { forkFrom(source: string, cwd: string, sessionDir: string): { getSessionFile(): string; getHeader(): { id: string } | null } };

describe("a session whose folder is gone, forked by pi 1.6 into the current folder", () => {
	const tmp = tempDir("pes-goneforks-");
	afterAll(() => tmp.cleanup());

	it("reads as a --fork copy of its parent, with a new id", () => {
		const base = realpathSync(tmp.dir);
		const sessions = join(base, "sessions");
		const gone = join(base, "gone-project");
		const here = join(base, "here");
		mkdirSync(here, { recursive: true });
		const parent = sm.SessionManager.create(gone, join(sessions, "--gone--"));
		parent.appendMessage({ role: "user", content: "where is the config loaded", timestamp: 1 });
		const answer = parent.appendMessage({
			role: "assistant",
			content: [{ type: "text", text: "in src/config.ts" }],
			api: "faux",
			provider: "faux",
			model: "faux-1",
			usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			stopReason: "stop",
			timestamp: 2,
		});
		const fork = (sm.SessionManager as unknown as Forking).forkFrom(parent.getSessionFile(), here, join(sessions, "--here--"));
		const forkId = fork.getHeader()?.id as string;
		const parentId = (parent.getHeader() as { id: string }).id;
		expect(forkId).not.toBe(parentId);
		const service = openService(sessions, join(base, "index.sqlite"));
		try {
			service.refresh();
			const trace = service.trace({ sessionId: forkId, entryId: answer });
			expect(trace.lineage).toMatchObject({ parent: { id: parentId }, how: "copy", parentFile: parent.getSessionFile() });
		} finally {
			service.close();
		}
	});
});
