/**
 * Issue 32 item 7: an index grown by a refresh history (partial files, appends, rewrites, deletes and re-adds, which
 * hand out row ids in an order no fresh build does) answers exactly as a fresh build of the same final files: the
 * same top-50s, tie orders and chosen fork copies. Compares answers as JSON, not rows.
 */
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupBySession } from "../components/search/hit-groups.js";
import type { HistoryService } from "../src/service/service.js";
import type { SearchRequest } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { copySmallCorpus, sessionFiles } from "./helpers/reliability.js";

let tmp: ReturnType<typeof tempDir>;
let refreshed: HistoryService;
let fresh: HistoryService;

/** Every whole line but the last `cut` share of them. */
function head(text: string, share: number): string {
	const lines = text.split("\n").filter((l) => l !== "");
	return lines
		.slice(0, Math.max(1, Math.floor(lines.length * share)))
		.map((l) => `${l}\n`)
		.join("");
}

beforeAll(() => {
	tmp = tempDir("pes-ties-");
	const finals = join(tmp.dir, "final");
	// The forked payments-api family (copies of one entry in several files) fits under 200 KB a file.
	copySmallCorpus(finals, 200_000);
	const files = sessionFiles(finals);
	const text = new Map(files.map((f) => [relative(finals, f), readFileSync(f, "utf8")]));
	const names = [...text.keys()];
	const sessions = join(tmp.dir, "sessions");
	const put = (name: string, body: string, at: number) => {
		const path = join(sessions, name);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, body);
		utimesSync(path, at, at);
	};
	refreshed = openService(sessions, join(tmp.dir, "refreshed.sqlite"));
	// 1: the newest files first, each cut to a third of its lines; every third file not there yet.
	let clock = 1_700_000_000;
	[...names].reverse().forEach((name, i) => {
		if (i % 3 !== 1) put(name, head(text.get(name) as string, 1 / 3), clock++);
	});
	refreshed.refresh();
	// 2: appends to every other file (row ids of later lines now after other files' first lines), a rewrite of one.
	names.forEach((name, i) => {
		if (i % 2 === 0) put(name, text.get(name) as string, clock++);
	});
	const rewritten = names.find((_, i) => i % 3 === 1 && i % 2 === 1) as string;
	put(rewritten, head(text.get(names[0] as string) as string, 1), clock++);
	refreshed.refresh();
	// 3: some complete files deleted, then every file as it ends up (the deleted ones come back with new row ids).
	const gone = names.filter((_, i) => i % 4 === 0);
	for (const name of gone) rmSync(join(sessions, name));
	refreshed.refresh();
	names.forEach((name, i) => {
		put(name, text.get(name) as string, 1_800_000_000 + ((i * 7) % names.length));
	});
	refreshed.refresh();
	fresh = openService(sessions, join(tmp.dir, "fresh.sqlite"));
	fresh.refresh();
});

afterAll(() => {
	refreshed?.close();
	fresh?.close();
	tmp?.cleanup();
});

/** A search's answer without what says when it was asked. */
function answer(service: HistoryService, request: SearchRequest): string {
	const { index, ...rest } = service.search({ limit: 50, ...request });
	return JSON.stringify({ ...rest, index: { sessions: index.sessions, events: index.events } }, null, 1);
}

const REQUESTS: Array<[string, SearchRequest]> = [
	["common word", { query: "the" }],
	["common word, page 2", { query: "the", offset: 50 }],
	["common word, newest", { query: "the", order: "newest" }],
	["common word, counted", { query: "the", limit: 5, total: true }],
	["tool word", { query: "read" }],
	["kind filter", { query: "file", filters: { kinds: ["tool.result"] } }],
	["kind filter, no query", { query: "", filters: { kinds: ["tool.call"] } }],
	["no query: newest", { query: "" }],
	["no query, page 2", { query: "", offset: 50 }],
	["wordy, partial", { query: "how did we retry the flaky payment webhook zzqxv" }],
	["cwd scope", { query: "the", filters: { cwds: ["/home/alice/code/payments-api"] } }],
	["types filter", { query: "", filters: { types: ["model_change", "thinking_level_change"] } }],
	["phrase", { query: '"you are"' }],
];

describe("a refreshed index answers as a fresh build of the same files (issue 32 item 7)", () => {
	it("gives the same search answers: top-50s, pages, tie orders, counts", () => {
		for (const [name, request] of REQUESTS) expect(answer(refreshed, request), name).toBe(answer(fresh, request));
	});

	it("groups hits by session the same way and picks the same fork copies to read and trace", () => {
		const a = refreshed.search({ query: "the", limit: 50 });
		const b = fresh.search({ query: "the", limit: 50 });
		expect(JSON.stringify(groupBySession(a.hits))).toBe(JSON.stringify(groupBySession(b.hits)));
		for (const hit of b.hits.slice(0, 10)) {
			const ref = { sessionId: hit.sessionId, entryId: hit.entryId };
			expect(JSON.stringify(refreshed.read(ref))).toBe(JSON.stringify(fresh.read(ref)));
			expect(JSON.stringify(refreshed.trace(ref))).toBe(JSON.stringify(fresh.trace(ref)));
		}
	});

	it("answers the extension's session_search and lists sessions the same way", () => {
		const caller = { root: "/home/alice/code/payments-api" };
		for (const query of ["the", "read", "error"]) {
			const request = { query, limit: 50, snippetChars: 200, caller };
			expect(JSON.stringify(refreshed.sessionSearch(request)), query).toBe(JSON.stringify(fresh.sessionSearch(request)));
		}
		const listing = (s: HistoryService) => JSON.stringify(s.sessions({}).sessions);
		expect(listing(refreshed)).toBe(listing(fresh));
	});
});
