/**
 * The explorer's composition: indexing in a worker thread (the compiled worker, also under vitest) or in 50 ms
 * slices when there is none, the indexing state fed to the UI, and the choice of history (the user's or the demo).
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chooseHistory, findDemoHistory, IndexingStore, osc52, refreshLine } from "../src/cli/explorer.js";
import { pathTag } from "../src/cli/history-choice.js";
import { type IndexMessage, startIndexing, workerScript } from "../src/service/refresh-thread.js";
import { emptyRefreshSummary } from "../src/shared/types.js";
import { DIST } from "./helpers/build.js";
import { CORPUS_DIR, copyCorpus, indexedCorpus, loadManifest, tempDir } from "./helpers/corpus.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const c of cleanups.splice(0)) c();
});

/** Session files of the corpus, per the generator's manifest. */
const SESSIONS = loadManifest().files.filter((f) => f.isSession).length;

function corpusCopy() {
	// The UI opens (and so creates) the index first; the worker then writes through its own connection.
	const c = indexedCorpus("pes-tui-worker-", { refresh: false });
	cleanups.push(c.cleanup);
	return { config: c.config, reader: c.service };
}

function collect(run: (listener: (m: IndexMessage) => void) => void): Promise<IndexMessage[]> {
	return new Promise((resolve) => {
		const messages: IndexMessage[] = [];
		run((m) => {
			messages.push(m);
			if (m.type !== "progress") resolve(messages);
		});
	});
}

describe("indexing off the UI thread", () => {
	it("indexes in a worker thread (the built code, as installed) while the UI's own connection reads the result", async () => {
		// dist/ is brought up to date by vitest's globalSetup (test/support/global-setup.ts).
		const built = (await import(join(DIST, "service", "refresh-thread.js"))) as typeof import("../src/service/refresh-thread.js");
		expect(built.workerScript()?.pathname).toMatch(/refresh-thread\.js$/);
		const { config, reader } = corpusCopy();
		expect(SESSIONS).toBeGreaterThan(0);
		expect(reader.search({ query: "" }).index.sessions).toBe(0);
		let mode = "";
		const messages = await collect((listener) => {
			mode = built.startIndexing(config, {}, listener).mode;
		});
		expect(mode).toBe("worker");
		const done = messages.at(-1);
		if (done?.type !== "done") throw new Error(`indexing failed: ${JSON.stringify(done)}`);
		expect(done.summary.sessionsAdded).toBe(SESSIONS);
		expect(messages.some((m) => m.type === "progress" && m.progress.filesTotal > 0)).toBe(true);
		expect(reader.search({ query: "" }).index.sessions).toBe(SESSIONS);
	});

	it("indexes in slices on the main thread when there is no compiled worker", async () => {
		// The TypeScript source cannot be a worker's script: it falls back to slices even without being forced.
		expect(workerScript()).toBeNull();
		const { config, reader } = corpusCopy();
		let mode = "";
		const messages = await collect((listener) => {
			mode = startIndexing(config, { forceInProcess: true }, listener).mode;
		});
		expect(mode).toBe("in-process");
		expect(messages.at(-1)?.type).toBe("done");
		expect(reader.search({ query: "" }).index.sessions).toBe(SESSIONS);
	});

	it("turns worker messages into the state the status bar shows, announcing new data", () => {
		const store = new IndexingStore();
		const seen: number[] = [];
		store.subscribe(() => seen.push(store.get().generation));
		expect(store.get().phase).toBe("indexing");
		store.handle({ type: "progress", progress: { phase: "ingest", filesDone: 1, filesTotal: 3, bytesDone: 10, bytesTotal: 30, startedAt: Date.now() } });
		expect(store.get().progress?.filesDone).toBe(1);
		store.handle({
			type: "done",
			summary: {
				files: 3,
				filesChanged: 3,
				sessionsAdded: 3,
				sessionsRebuilt: 0,
				sessionsAppended: 0,
				sessionsRemoved: 0,
				linesIngested: 9,
				eventsIngested: 9,
				bytesRead: 30,
				errors: [],
				notes: [],
				pending: 0,
				ms: 1200,
			},
		});
		expect(store.get()).toMatchObject({ phase: "done", summary: "indexed 3 changed file(s) in 1.2s", progress: null });
		expect(seen.at(-1)).toBeGreaterThan(seen[0] ?? 0);
		store.handle({ type: "error", message: "disk full" });
		expect(store.get()).toMatchObject({ phase: "failed", error: "disk full" });
	});

	it("says when the index was already up to date, or busy with another writer", () => {
		const summary = emptyRefreshSummary({ files: 3, ms: 5 });
		expect(refreshLine(summary)).toBe("index up to date");
		expect(refreshLine({ ...summary, busy: true })).toMatch(/^index busy/);
	});
});

describe("which history the explorer opens", () => {
	function emptyAgentDir(): string {
		const t = tempDir("pes-tui-agent-");
		cleanups.push(t.cleanup);
		mkdirSync(join(t.dir, "sessions"), { recursive: true });
		return t.dir;
	}

	it("finds the bundled demo history", () => {
		expect(findDemoHistory()).toBe(CORPUS_DIR);
	});

	it("opens the demo, indexed in the temp dir, when there are no Pi sessions", () => {
		const agent = emptyAgentDir();
		const choice = chooseHistory({ demo: false, color: false }, { PI_CODING_AGENT_DIR: agent });
		expect(choice.demo).toBe(true);
		expect(choice.banner).toBe("DEMO history");
		expect(choice.notice).toMatch(/no Pi sessions under .*: exploring the bundled demo history/);
		expect(choice.config.roots.map((r) => r.path)).toEqual([CORPUS_DIR]);
		expect(choice.config.indexPath.startsWith(tmpdir())).toBe(true);
		expect(choice.config.indexPath).not.toContain(".pi");
	});

	it("opens the user's history when it has sessions, and the demo only with --demo", () => {
		const agent = emptyAgentDir();
		copyCorpus(join(agent, "sessions"), join(CORPUS_DIR, "sessions"));
		const mine = chooseHistory({ demo: false, color: false }, { PI_CODING_AGENT_DIR: agent });
		expect([mine.demo, mine.banner]).toEqual([false, null]);
		expect(mine.config.indexPath).toBe(join(agent, "pi-event-search", "index.sqlite"));
		const forced = chooseHistory({ demo: true, color: false }, { PI_CODING_AGENT_DIR: agent });
		expect([forced.demo, forced.banner, forced.notice]).toEqual([true, "DEMO history", "demo: the bundled sample history (--demo)"]);
		expect(forced.config.indexPath.startsWith(tmpdir())).toBe(true);
	});

	it("gives two demo locations (two checkouts) indexes of their own", () => {
		const a = pathTag("/home/me/pi-event-search/fixtures/corpus");
		const b = pathTag("/home/me/pi-event-search-2/fixtures/corpus");
		expect(a).toMatch(/^[0-9a-f]{8}$/);
		expect(b).not.toBe(a);
		expect(pathTag("/home/me/pi-event-search/fixtures/corpus")).toBe(a);
		expect(chooseHistory({ demo: true, color: false }).config.indexPath).toContain(`pi-event-search-demo-${pathTag(findDemoHistory() ?? "")}`);
	});

	it("never swaps an explicit --sessions-dir for the demo", () => {
		const agent = emptyAgentDir();
		const choice = chooseHistory(
			{ demo: false, color: false, sessionsDirs: [join(agent, "sessions")], indexPath: join(agent, "i.sqlite") },
			{ PI_CODING_AGENT_DIR: agent },
		);
		expect(choice.demo).toBe(false);
	});

	it("copies with OSC 52", () => {
		expect(osc52("s1 e1")).toBe(`\u001b]52;c;${Buffer.from("s1 e1").toString("base64")}\u0007`);
	});
});
