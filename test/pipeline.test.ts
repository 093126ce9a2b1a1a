/** The pipelined refresh (files read in a worker thread, built code) writes exactly what the single-thread one does. */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST } from "./helpers/build.js";
import { copyCorpus, loadManifest, type Manifest, tempDir } from "./helpers/corpus.js";
import { expectSameIndex } from "./helpers/dump.js";

// dist/ is brought up to date by vitest's globalSetup (test/support/global-setup.ts).
let tmp: ReturnType<typeof tempDir>;

beforeAll(() => {
	tmp = tempDir();
});
afterAll(() => tmp.cleanup());

type Service = {
	refresh(o?: object): { pending: number };
	refreshAsync(o?: object): Promise<{ pending: number; filesChanged: number }>;
	close(): void;
};

async function openBuilt(dir: string, index: string): Promise<Service> {
	const { resolveConfig } = (await import(join(DIST, "shared", "config.js"))) as typeof import("../src/shared/config.js");
	const { HistoryService } = (await import(join(DIST, "service", "service.js"))) as { HistoryService: { open(o: object): Service } };
	return HistoryService.open({ config: resolveConfig({ sessionsDirs: [dir], indexPath: index, env: {}, home: tmp.dir }) });
}

describe("pipelined refresh", () => {
	it("equals the single-thread refresh on the corpus, cold and after appends and a rewrite", async () => {
		const corpus = copyCorpus(join(tmp.dir, "corpus"));
		const manifest: Manifest = loadManifest(corpus);
		const piped = await openBuilt(corpus, join(tmp.dir, "piped.sqlite"));
		expect((await piped.refreshAsync({ workerThresholdBytes: 0 })).filesChanged).toBe(manifest.files.length);
		const sessions = manifest.files.filter((f) => f.isSession && f.headerVersion === 3);
		for (const f of sessions.slice(0, 5)) {
			appendFileSync(
				join(corpus, f.file),
				`${JSON.stringify({ type: "label", id: `pl${f.entries}`, parentId: f.leafIdOnLoad, timestamp: "2026-11-30T00:00:00.000Z", targetId: f.leafIdOnLoad, label: "pipelined" })}\n`,
			);
		}
		const rewritten = join(corpus, (sessions[6] as Manifest["files"][number]).file);
		writeFileSync(rewritten, readFileSync(rewritten, "utf8").replace('"version":3', '"version":3,"note":"rewritten"'));
		await piped.refreshAsync({ workerThresholdBytes: 0 });
		piped.close();
		const single = await openBuilt(corpus, join(tmp.dir, "single.sqlite"));
		single.refresh();
		single.close();
		expectSameIndex(join(tmp.dir, "piped.sqlite"), join(tmp.dir, "single.sqlite"));
	});
});
