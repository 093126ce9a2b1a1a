/**
 * FTS5's averages record (rows and tokens per column, what bm25 reads) when every indexed row is gone: an index whose
 * sessions were all deleted must hold what a fresh build of no sessions holds, the empty record of a new table, not a
 * record of zeros (the randomized "refresh equals a fresh full build" property found the difference). Ground truth:
 * a fresh build of the same folder.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { copyCorpus, openService, tempDir } from "./helpers/corpus.js";
import { expectEqualsFreshBuild } from "./helpers/dump.js";

const t = tempDir("pes-fts-empty-");
afterAll(() => t.cleanup());

describe("an index whose every session file was deleted", () => {
	it("equals a fresh build of the empty folder, FTS totals included", () => {
		const sessions = copyCorpus(join(t.dir, "corpus"));
		const index = join(t.dir, "index.sqlite");
		const service = openService(sessions, index);
		service.refresh();
		// The files go, the folder stays (a missing folder is a drive not mounted: its sessions are kept).
		for (const dir of readdirSync(sessions)) rmSync(join(sessions, dir), { recursive: true });
		service.refresh();
		service.close();
		expectEqualsFreshBuild(sessions, index, join(t.dir, "fresh.sqlite"));
	});
});
