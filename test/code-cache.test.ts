/**
 * `pi-history search` keeps V8's compiled code of its bundle beside the index (issue 29): the next search starts from
 * it and answers the same; it never writes into the folder it runs in, and a cache V8 cannot use is written again.
 * Ground truth: the built CLI's own first answer, and the folders as the test made them.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./helpers/build.js";
import { copyCorpus, tempDir } from "./helpers/corpus.js";

const CACHE = "pi-history-code-cache";

let tmp: ReturnType<typeof tempDir>;
let corpus: string;
let project: string;
let indexDir: string;

/** `search --json` run from `cwd`; its hits as their refs (what a user compares between two runs). */
function search(cwd: string, index: string): string[] {
	const r = spawnSync(process.execPath, [CLI, "search", "--json", "--limit", "20", "error", "--sessions-dir", corpus, "--index", index], {
		cwd,
		encoding: "utf8",
		env: { ...process.env, NO_COLOR: "1" },
	});
	expect(r.status, r.stderr).toBe(0);
	const hits = (JSON.parse(r.stdout) as { hits: Array<{ sessionId: string; entryId: string; fragmentId: string }> }).hits;
	expect(hits.length).toBeGreaterThan(0);
	return hits.map((h) => `${h.sessionId} ${h.entryId} ${h.fragmentId}`);
}

beforeAll(() => {
	tmp = tempDir("pes-code-cache-");
	corpus = copyCorpus(join(tmp.dir, "corpus"));
	project = join(tmp.dir, "project");
	indexDir = join(tmp.dir, "index");
	mkdirSync(project);
	mkdirSync(indexDir);
});
afterAll(() => tmp.cleanup());

describe("search's compiled code", () => {
	it("is kept beside the index, never in the folder the command runs in, and the next search answers the same", () => {
		const first = search(project, join(indexDir, "index.sqlite"));
		expect(readdirSync(project)).toEqual([]);
		const kept = readdirSync(join(indexDir, CACHE));
		expect(kept).toHaveLength(1);
		expect(search(project, join(indexDir, "index.sqlite"))).toEqual(first);
		expect(readdirSync(join(indexDir, CACHE))).toEqual(kept);
	});

	it("is written again when V8 cannot use it, with the same answer", () => {
		const file = join(indexDir, CACHE, readdirSync(join(indexDir, CACHE))[0] as string);
		const first = search(project, join(indexDir, "index.sqlite"));
		writeFileSync(file, "not V8's code");
		expect(search(project, join(indexDir, "index.sqlite"))).toEqual(first);
		expect(readFileSync(file, "utf8")).not.toBe("not V8's code");
	});

	it("is not kept for an index in the folder the command runs in", () => {
		search(project, "here.sqlite");
		expect(readdirSync(project).filter((f) => !f.startsWith("here.sqlite"))).toEqual([]);
	});
});
