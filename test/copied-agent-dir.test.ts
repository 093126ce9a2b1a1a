/**
 * A copied agent dir (`cp -r ~/.pi/agent agent2`, then PI_CODING_AGENT_DIR=agent2) stops indexing the old folder:
 * its index answers as a fresh build at the new location would, every session once, and status says what happened.
 * An index shared by two agent dirs (--index) keeps the sessions of both.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexStatus, SearchResult } from "../src/shared/types.js";
import { CLI } from "./helpers/build.js";
import { CORPUS_DIR, loadManifest, tempDir } from "./helpers/corpus.js";

let tmp: ReturnType<typeof tempDir>;
let a: string;
let b: string;

/** The real CLI with `agentDir` as pi's agent dir (and nothing else from this machine's environment). */
function cli(agentDir: string, ...args: string[]) {
	const env = { PATH: process.env.PATH, HOME: tmp.dir, PI_CODING_AGENT_DIR: agentDir };
	const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env, cwd: tmp.dir });
	expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(0);
	return r;
}
const status = (agentDir: string, ...args: string[]) => JSON.parse(cli(agentDir, "status", "--json", ...args).stdout) as IndexStatus;
const search = (agentDir: string, ...args: string[]) => JSON.parse(cli(agentDir, "search", "--json", "--limit", "50", ...args).stdout) as SearchResult;

const manifest = loadManifest();
const sessionIds = manifest.files.filter((f) => f.isSession && f.sessionId).map((f) => f.sessionId as string);
// A word planted in many sessions: a session indexed twice shows in its hits twice.
const needle = manifest.needles
	.filter((n) => n.expect === "found")
	.sort((x, y) => new Set(y.occurrences.map((o) => o.sessionId)).size - new Set(x.occurrences.map((o) => o.sessionId)).size)[0];

beforeAll(() => {
	tmp = tempDir("pes-copyroot-");
	a = join(tmp.dir, "agent");
	mkdirSync(a);
	cpSync(join(CORPUS_DIR, "sessions"), join(a, "sessions"), { recursive: true });
	cli(a, "index");
	b = join(tmp.dir, "agent2");
	cpSync(a, b, { recursive: true });
});
afterAll(() => tmp.cleanup());

describe("a copied agent dir", () => {
	it("status names the old folder as leaving, before any refresh (status writes nothing)", () => {
		const before = status(b);
		const old = before.roots.find((r) => r.path === join(a, "sessions"));
		expect(old?.leaving).toMatch(/copied from .*agent\/pi-event-search\/index\.sqlite/);
		expect(status(b).roots).toEqual(before.roots);
	});

	it("indexes only the new folder: each session once, the answers of a fresh build, and status says it once", () => {
		expect(needle).toBeDefined();
		const text = needle?.text ?? "";
		const hits = search(b, text);
		const fresh = search(b, text, "--index", join(tmp.dir, "fresh.sqlite"));
		const key = (r: SearchResult) => r.hits.map((h) => [h.sessionId, h.entryId, h.fragmentId, h.session.file]);
		expect(key(hits)).toEqual(key(fresh));
		expect(hits.hits.length).toBeGreaterThan(1);
		for (const h of hits.hits) expect(h.session.file.startsWith(join(b, "sessions"))).toBe(true);
		expect(new Set(hits.hits.map((h) => h.sessionId)).size).toBe(new Set(needle?.occurrences.filter((o) => o.searchable).map((o) => o.sessionId)).size);

		const after = status(b);
		expect(after.roots.map((r) => r.path)).toEqual([join(b, "sessions")]);
		expect(after.sessions).toBe(new Set(sessionIds).size);
		expect(after.conflicts).toEqual([]);
		expect(after.rootsDropped?.roots.map((r) => [r.path, r.sessions])).toEqual([[join(a, "sessions"), new Set(sessionIds).size]]);
		expect(after.rootsDropped?.roots[0]?.reason).toMatch(/copied from .*agent\/pi-event-search\/index\.sqlite; the old folder is no longer indexed/);
		// The original agent dir's index is its own: untouched by the copy's refresh.
		expect(status(a).roots.map((r) => r.path)).toEqual([join(a, "sessions")]);
	});

	it("an index shared by two agent dirs (--index) keeps the sessions of both", () => {
		const shared = join(b, "pi-event-search", "index.sqlite");
		cli(a, "index", "--index", shared);
		cli(b, "index");
		expect(
			status(b)
				.roots.map((r) => r.path)
				.sort(),
		).toEqual([join(a, "sessions"), join(b, "sessions")]);
		expect(status(b).sessions).toBe(2 * new Set(sessionIds).size);
	});
});
