/** The built CLI as a user runs it: real process, real index file, the fixture corpus. */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./helpers/build.js";
import { copyCorpus, fixtureEntry, loadManifest, type Manifest, needleById, readEntries, tempDir } from "./helpers/corpus.js";

// dist/ is brought up to date by vitest's globalSetup (test/support/global-setup.ts).
let tmp: ReturnType<typeof tempDir>;
let corpus: string;
let index: string;
let manifest: Manifest;

function run(args: string[], env: Record<string, string> = {}) {
	const r = spawnSync(process.execPath, [CLI, ...args, "--sessions-dir", corpus, "--index", index], {
		encoding: "utf8",
		env: { ...process.env, NO_COLOR: "1", ...env },
	});
	return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const json = (args: string[]) => {
	const r = run([...args, "--json"]);
	expect(r.code, r.stderr).toBe(0);
	return JSON.parse(r.stdout);
};

beforeAll(() => {
	tmp = tempDir();
	corpus = copyCorpus(join(tmp.dir, "corpus"));
	index = join(tmp.dir, "index.sqlite");
	manifest = loadManifest(corpus);
});
afterAll(() => tmp.cleanup());

describe("pi-history index and status", () => {
	it("indexes the corpus and reports the manifest's session files and entries", () => {
		const summary = json(["index"]);
		expect(summary.sessionsAdded).toBe(manifest.files.filter((f) => f.isSession).length);
		const status = json(["status"]);
		expect(status).toMatchObject({
			sessions: summary.sessionsAdded,
			files: manifest.files.length,
			events: manifest.files.filter((f) => f.isSession).reduce((n, f) => n + f.entries, 0),
		});
		for (const key of ["fragments", "sourceBytes", "indexBytes", "freshAt", "errors"]) expect(status).toHaveProperty(key);
		expect(status.indexBytes).toBeGreaterThan(0);
	});

	it("touches nothing on a second run, and re-ingests exactly one appended line", () => {
		expect(json(["index"])).toMatchObject({ filesChanged: 0, linesIngested: 0 });
		const f = manifest.files.find((x) => x.isSession && x.headerVersion === 3 && x.quirks.length === 0) as Manifest["files"][number];
		appendFileSync(
			join(corpus, f.file),
			`${JSON.stringify({ type: "session_info", id: "cl1append", parentId: f.leafIdOnLoad, timestamp: "2026-11-30T01:00:00.000Z", name: "cli appended name" })}\n`,
		);
		expect(json(["index"])).toMatchObject({ filesChanged: 1, linesIngested: 1, eventsIngested: 1, sessionsAppended: 1 });
	});
});

describe("pi-history search", () => {
	it("prints the DESIGN §5 JSON", () => {
		const needle = needleById(manifest, "N00002");
		const r = json(["search", `"${needle.text}"`, "--limit", "50"]);
		expect(r.hits.map((h: { entryId: string }) => h.entryId)).toEqual(needle.occurrences.map((o) => o.entryId));
		// The occurrences are one entry copied across a fork family (same entry id, same line): the total counts it once.
		expect(r.total).toEqual({ count: new Set(needle.occurrences.map((o) => `${o.entryId}@${o.line}`)).size, atLeast: false });
		const hit = r.hits[0];
		for (const key of [
			"sessionId",
			"entryId",
			"fragmentId",
			"entryType",
			"kind",
			"timestamp",
			"branchState",
			"contextRole",
			"selectionState",
			"score",
			"matchedFragments",
			"snippet",
			"marks",
			"session",
		]) {
			expect(hit).toHaveProperty(key);
		}
		expect(r.index).toMatchObject({ sessions: expect.any(Number), events: expect.any(Number), pending: 0 });
	});

	it.each([
		["FTS5 operators", "foo AND bar OR NOT baz"],
		["NEAR", "NEAR(foo bar, 3)"],
		["column filter", "user_text:secret"],
		["star and caret", "^foo* *"],
		["parentheses", "((("],
		["unbalanced quote", '"unbalanced'],
		["SQL fragment", "'; DROP TABLE events; --"],
		["emoji", "🐢⚡"],
		["10 KB string", "x".repeat(10_240)],
		["control characters", "a\u0001b\u0007c"],
	])("survives %s: exit 0, no SQL error", (_name, query) => {
		const r = run(["search", query, "--json"]);
		expect(r.code).toBe(0);
		expect(`${r.stdout}${r.stderr}`).not.toMatch(/SQLITE|syntax error|fts5:|no such column|unable to use/i);
		expect(JSON.parse(r.stdout)).toHaveProperty("hits");
	});

	it("clamps out-of-range limits and snippet sizes instead of failing", () => {
		const many = json(["search", "the", "--limit", "100000", "--snippet-chars", "99999999"]);
		expect(many.hits.length).toBeLessThanOrEqual(50);
		for (const h of many.hits) expect(h.snippet.length).toBeLessThanOrEqual(2000);
		expect(json(["search", "the", "--limit", "-5"]).hits.length).toBe(1);
		expect(run(["search", "the", "--limit", "abc"]).code).toBe(2);
	});

	it("prints readable text without color when NO_COLOR is set or stdout is not a terminal", () => {
		const r = run(["search", "ECONNREFUSED", "--limit", "3"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/ref \S+ \S+/);
		// More than three events say ECONNREFUSED: the text says how many there are in all.
		expect(r.stdout).toMatch(/^3 of \d+ hits shown; --limit shows more/m);
		expect(r.stdout).not.toContain("\u001b[");
	});

	it("takes relative times for --after/--before, like the explorer's date filters", () => {
		// The fixture corpus was written in early 2026: nothing in it is from the last two days, all of it from the last ten years.
		const recent = run(["search", "ECONNREFUSED", "--after", "2d", "--json"]);
		expect(recent.code).toBe(0);
		expect(JSON.parse(recent.stdout).hits).toEqual([]);
		const decade = run(["search", "ECONNREFUSED", "--after", "3650d", "--before", "now", "--json"]);
		expect(decade.code).toBe(0);
		expect(JSON.parse(decade.stdout).hits.length).toBeGreaterThan(0);
	});

	it("lists the newest events first with --order newest, the best first by default", () => {
		const newest = json(["search", "error", "--order", "newest", "--limit", "20", "--no-refresh"]);
		const times = newest.hits.map((h: { timestamp: string }) => Date.parse(h.timestamp));
		expect(times.length).toBeGreaterThan(5);
		expect(times).toEqual([...times].sort((a: number, b: number) => b - a));
		const best = json(["search", "error", "--limit", "20", "--no-refresh"]);
		const scores = best.hits.map((h: { score: number }) => h.score);
		expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
		// The newest match of all comes first: none of the best-ranked ones is newer.
		const bestTimes = best.hits.map((h: { timestamp: string }) => Date.parse(h.timestamp));
		expect(Math.max(...bestTimes)).toBeLessThanOrEqual(times[0]);
		expect(json(["search", "error", "--order", "relevance", "--limit", "20", "--no-refresh"]).hits).toEqual(best.hits);
	});

	it("exits 2 with a one-line cause for bad usage, 1 for a missing event", () => {
		for (const args of [
			["search", "x", "--order", "oldest"],
			["search", "x", "--order", "branch"],
			["search", "x", "--kind", "bogus"],
			["search", "x", "--after", "someday"],
			["frobnicate"],
			["search", "x", "--no-such-flag"],
			["read", "only-one-arg"],
		]) {
			const r = run(args);
			expect(r.code, args.join(" ")).toBe(2);
			expect(r.stderr.trim().split("\n").length).toBeLessThanOrEqual(3);
			expect(r.stderr).not.toMatch(/ at .*\.js:\d+/);
		}
		const missing = run(["read", "no-such-session", "abc"]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/no event/);
	});
});

describe("pi-history flags", () => {
	it("a repeated single-value flag or a flag without its value is a usage error, and nothing is created or indexed", () => {
		// A private home: the default index would be created under it if a missing value were ignored.
		const home = join(tmp.dir, "flags-home");
		const bare = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, HOME: home, NO_COLOR: "1" } });
		const cases: Array<[string[], RegExp]> = [
			[["search", "x", "--limit", "5", "--limit", "7"], /--limit was given more than once/],
			[["search", "x", "--index", "a.sqlite", "--index=b.sqlite"], /--index was given more than once/],
			[["status", "--index"], /--index needs a value/],
			[["index", "--sessions-dir"], /--sessions-dir needs a value/],
			[["search", "x", "--limit", "--json"], /--limit needs a value/],
			[["search", "x", "--index="], /--index needs a value/],
		];
		for (const [args, message] of cases) {
			const r = bare(args);
			expect(r.status, args.join(" ")).toBe(2);
			expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
			expect(r.stderr).toMatch(message);
			expect(r.stderr).not.toMatch(/ at .*\.js:\d+/);
		}
		expect(existsSync(home)).toBe(false);
		// Repeatable flags stay repeatable.
		expect(run(["search", "handleWebhook", "--session", "a", "--session", "b"]).code).toBe(0);
	});
});

describe("pi-history read and trace", () => {
	it("reads and traces a tool pair, as JSON and as text", () => {
		const pair = manifest.toolPairsSample[0] as Manifest["toolPairsSample"][number];
		const trace = json(["trace", pair.sessionId, pair.resultEntryId]);
		expect(trace.edges).toContainEqual(
			expect.objectContaining({ rel: "tool-result-for", to: { sessionId: pair.sessionId, entryId: pair.callEntryId }, provenance: "recorded" }),
		);
		// Ground truth: the tool result as pi wrote it in the fixture file.
		const entry = fixtureEntry<{ message: { content: Array<{ type: string; text: string }> } }>(corpus, pair.file, pair.resultEntryId);
		const source = entry.message.content[0]?.text as string;
		expect(source.length).toBeGreaterThan(0);
		const read = json(["read", pair.sessionId, pair.resultEntryId]);
		expect(read.fragments[0]).toMatchObject({ kind: "tool.result", text: source });
		expect(read.source).toMatchObject({
			file: join(corpus, pair.file),
			line: expect.any(Number),
			byteOffset: expect.any(Number),
			byteLength: expect.any(Number),
		});
		const text = run(["read", pair.sessionId, pair.resultEntryId]);
		expect(text.code).toBe(0);
		for (const line of source.split("\n")) expect(text.stdout).toContain(line);
		expect(run(["trace", pair.sessionId, pair.resultEntryId]).stdout).toMatch(/tool-result-for/);
	});

	it("lists --neighbors-before/--neighbors-after events around a read (the old --before/--after still work, with a note)", () => {
		const pair = manifest.toolPairsSample[0] as Manifest["toolPairsSample"][number];
		// Ground truth: append order is the order of the entries in the file (the header has no id).
		const ids = readEntries(join(corpus, pair.file))
			.map((e) => e.id)
			.filter((id): id is string => typeof id === "string");
		const at = ids.indexOf(pair.resultEntryId);
		expect(at).toBeGreaterThanOrEqual(2);
		const ref = [pair.sessionId, pair.resultEntryId, "--order", "append"];
		const read = run(["read", ...ref, "--neighbors-before", "2", "--neighbors-after", "0", "--json"]);
		expect(read.code, read.stderr).toBe(0);
		expect(read.stderr).not.toMatch(/deprecated/);
		const neighbors = JSON.parse(read.stdout).neighbors as { before: Array<{ entryId: string }>; after: unknown[] };
		expect(neighbors.before.map((b) => b.entryId)).toEqual([ids[at - 2], ids[at - 1]]);
		expect(neighbors.after).toEqual([]);
		const old = run(["read", ...ref, "--before", "2", "--after", "0", "--json"]);
		expect(old.code).toBe(0);
		expect(JSON.parse(old.stdout).neighbors).toEqual(neighbors);
		expect(old.stderr).toMatch(/--before N is deprecated; use --neighbors-before N/);
	});
});

describe("pi-history search's count", () => {
	it("stops counting at 1,000 and says so, however many events match", () => {
		const dir = join(tmp.dir, "many");
		mkdirSync(join(dir, "--w--"), { recursive: true });
		const session = "0199c000-0000-7000-8000-00000000c0de";
		const lines = [JSON.stringify({ type: "session", version: 3, id: session, timestamp: "2026-03-01T00:00:00.000Z", cwd: "/tmp/w" })];
		for (let i = 1; i <= 1100; i++) {
			const message = { role: "user", content: [{ type: "text", text: `quasarcount entry ${i}` }], timestamp: 1 };
			lines.push(JSON.stringify({ type: "message", id: `q${i}`, parentId: i === 1 ? null : `q${i - 1}`, timestamp: "2026-03-01T00:00:01.000Z", message }));
		}
		writeFileSync(join(dir, "--w--", `2026-03-01T00-00-00-000Z_${session}.jsonl`), `${lines.join("\n")}\n`);
		const search = (...args: string[]) =>
			spawnSync(process.execPath, [CLI, "search", "quasarcount", ...args, "--sessions-dir", dir, "--index", join(tmp.dir, "many.sqlite")], {
				encoding: "utf8",
				env: { ...process.env, NO_COLOR: "1" },
			});
		const r = search("--json");
		expect(r.status, r.stderr).toBe(0);
		expect(JSON.parse(r.stdout).total).toEqual({ count: 1000, atLeast: true });
		expect(search().stdout).toMatch(/^10 of 1,000\+ hits shown/m);
	});
});
