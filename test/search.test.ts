import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { ArgumentError } from "../src/shared/errors.js";
import type { Hit, SearchFilters } from "../src/shared/types.js";
import { fixtureEntry, type IndexedCorpus, indexedCorpus, KIND_OF, type Manifest, type Needle, needleById, type Occurrence } from "./helpers/corpus.js";

let indexed: IndexedCorpus;
let corpus: string;
let service: HistoryService;
let manifest: Manifest;

beforeAll(() => {
	indexed = indexedCorpus();
	({ corpus, service, manifest } = indexed);
});
afterAll(() => indexed.cleanup());

const needle = (id: string) => needleById(manifest, id);
const byPlanted = (p: string) => manifest.needles.filter((n) => n.plantedAs === p);
/** Our entry id of an occurrence: pi's id, or the synthetic `L<line>` of a v1 entry. */
const entryOf = (o: Occurrence) => o.entryId ?? `L${o.line}`;
const refs = (hits: Hit[]) => hits.map((h) => `${h.sessionId}/${h.entryId}`).sort();
const find = (query: string, filters: SearchFilters = {}, limit = 50) => service.search({ query, filters, limit });
/** The raw JSON of the entry an occurrence points at, read straight from the fixture file. */
const rawEntry = (o: Occurrence) => fixtureEntry(corpus, o.file, o.line);

describe("search against the generator's ground truth", () => {
	it("finds every searchable occurrence of every `found` needle, as a phrase, within limit 50", () => {
		let checked = 0;
		for (const n of manifest.needles.filter((x) => x.expect === "found")) {
			const wanted = n.occurrences.filter((o) => o.searchable && KIND_OF[o.kind]).map((o) => `${o.sessionId}/${entryOf(o)}`);
			if (wanted.length === 0) continue;
			const got = refs(find(`"${n.text}"`).hits);
			for (const w of wanted) expect(got, `${n.id} ${n.plantedAs}`).toContain(w);
			checked++;
		}
		expect(checked).toBeGreaterThan(50);
	});

	it("returns nothing for `not_found` needles (thinking, custom data, damaged lines, non-session files)", () => {
		for (const n of manifest.needles.filter((x) => x.expect === "not_found")) {
			expect(find(`"${n.text}"`).hits, `${n.id} ${n.plantedAs}`).toEqual([]);
			expect(find(n.text).hits, `${n.id} unquoted`).toEqual([]);
		}
	});

	it("finds label needles with --label and never by text", () => {
		for (const n of byPlanted("label.label")) {
			expect(find(`"${n.text}"`).hits).toEqual([]);
			const got = refs(find("", { labels: [n.text] }).hits);
			for (const o of n.occurrences) expect(got).toContain(`${o.sessionId}/${o.entryId}`);
		}
	});

	it("reports branchState alternate for abandoned-branch occurrences off the materialized-leaf path", () => {
		let seen = 0;
		for (const n of byPlanted("user.text(abandoned-branch)")) {
			const hits = find(`"${n.text}"`).hits;
			for (const o of n.occurrences.filter((x) => x.onLeafPath === false)) {
				expect(hits.find((h) => h.sessionId === o.sessionId && h.entryId === o.entryId)?.branchState, n.id).toBe("alternate");
				seen++;
			}
		}
		expect(seen).toBeGreaterThan(0);
	});

	it("reports selectionState summarized for compacted-away occurrences on the path", () => {
		let seen = 0;
		for (const n of byPlanted("user.text(compacted-away)")) {
			const hits = find(`"${n.text}"`).hits;
			for (const o of n.occurrences.filter((x) => x.onLeafPath === true)) {
				const hit = hits.find((h) => h.sessionId === o.sessionId && h.entryId === o.entryId);
				expect(hit?.selectionState, `${n.id} ${o.file}`).toBe(o.inLlmContext ? "direct" : "summarized");
				if (!o.inLlmContext) seen++;
			}
		}
		expect(seen).toBeGreaterThan(0);
	});

	it("coalesces fragments into one hit per event, and the limit counts events", () => {
		// An assistant turn whose text ("I'll run `cargo test`") and tool call ("cargo clippy …") both say "cargo".
		const o = needle("N00049").occurrences[0] as Occurrence;
		const entry = rawEntry(o) as { message: { role: string; content: Array<{ type: string; text?: string; name?: string; arguments?: unknown }> } };
		const word = /(?<![A-Za-z0-9])cargo(?![A-Za-z0-9])/i;
		const fragmentsWithWord = entry.message.content.filter(
			(b) => (b.type === "text" && word.test(b.text ?? "")) || (b.type === "toolCall" && word.test(`${b.name}\n${JSON.stringify(b.arguments)}`)),
		).length;
		expect([entry.message.role, fragmentsWithWord]).toEqual(["assistant", 2]);
		const inSession = find("cargo", { sessionIds: [o.sessionId] }, 50).hits;
		expect(new Set(refs(inSession)).size).toBe(inSession.length);
		const mine = inSession.filter((h) => h.entryId === o.entryId);
		expect(mine).toHaveLength(1);
		expect(mine[0]?.matchedFragments).toBe(fragmentsWithWord);
		// The session has more matching fragments than events; a limit of 3 still gives 3 distinct events.
		expect(inSession.length).toBeGreaterThan(3);
		const top3 = find("cargo", { sessionIds: [o.sessionId] }, 3).hits;
		expect(top3).toHaveLength(3);
		expect(new Set(refs(top3)).size).toBe(3);

		const hits = find("webhook", {}, 50).hits;
		expect(new Set(refs(hits)).size).toBe(hits.length);
		expect(find("webhook", {}, 3).hits).toHaveLength(3);
	});

	it("ranks copies of a forked entry after every distinct event; one copy keeps its place", () => {
		// Ground truth from the files: /fork, /clone and --fork copy an entry byte for byte (same id, same line) into
		// other session files. Every fixture line with the phrase is one expected hit; lines equal in id and bytes
		// are one family.
		const phrase = "exact text";
		const hasPhrase = /(?<![A-Za-z0-9])exact text(?![A-Za-z0-9])/i;
		const family = new Map<string, string>();
		const expected: string[] = [];
		for (const f of manifest.files.filter((x) => x.isSession)) {
			for (const line of readFileSync(join(corpus, f.file), "utf8").split("\n")) {
				if (!hasPhrase.test(line)) continue;
				const id = (JSON.parse(line) as { id: string }).id;
				expected.push(`${f.sessionId}/${id}`);
				family.set(`${f.sessionId}/${id}`, line);
			}
		}
		const sizes = new Map<string, number>();
		for (const k of family.values()) sizes.set(k, (sizes.get(k) ?? 0) + 1);
		// N00002's tool error was copied into four files; other families have two copies or one.
		const n = needle("N00002");
		expect(new Set(n.occurrences.map((o) => family.get(`${o.sessionId}/${o.entryId}`))).size).toBe(1);
		expect(sizes.get(family.get(`${n.occurrences[0]?.sessionId}/${n.occurrences[0]?.entryId}`) as string)).toBe(n.occurrences.length);
		expect([...sizes.values()].some((x) => x === 1)).toBe(true);

		const hits = find(`"${phrase}"`, {}, 50).hits;
		expect(refs(hits)).toEqual(expected.sort());
		const firstSeen = new Set<string>();
		const leading: number[] = [];
		const copies: number[] = [];
		hits.forEach((h, i) => {
			const k = family.get(`${h.sessionId}/${h.entryId}`) as string;
			(firstSeen.has(k) ? copies : leading).push(i);
			firstSeen.add(k);
		});
		expect(leading).toHaveLength(sizes.size);
		expect(copies).toHaveLength(hits.length - sizes.size);
		expect(copies.length).toBeGreaterThan(0);
		expect(Math.max(...leading)).toBeLessThan(Math.min(...copies));
	});

	it("matches identifier parts, paths, error codes, CJK substrings and emoji", () => {
		expect(find("Webhook").hits.some((h) => /handleWebhook/.test(h.snippet))).toBe(true);
		expect(find("backoff").hits.some((h) => /retry_with_backoff|withBackoff|backoff/i.test(h.snippet))).toBe(true);
		expect(find("src/App.tsx").hits.length).toBeGreaterThan(0);
		expect(find("ECONNREFUSED").hits.length).toBeGreaterThan(0);
		expect(refs(find("カワウソ").hits)).toEqual(expect.arrayContaining(needle("N00001").occurrences.map((o) => `${o.sessionId}/${o.entryId}`)));
		expect(find("水獭").hits.length).toBeGreaterThan(0);
		expect(refs(find("🐢").hits)).toEqual(expect.arrayContaining(needle("N00013").occurrences.map((o) => `${o.sessionId}/${o.entryId}`)));
	});

	it("follows typing: the last unfinished term is a prefix in interactive mode", () => {
		const typed = service.search({ query: "velvet-ibex-0000", prefix: true }).hits;
		expect(refs(typed)).toEqual(expect.arrayContaining(["N00002"].flatMap((id) => needle(id).occurrences.map((o) => `${o.sessionId}/${o.entryId}`))));
		expect(service.search({ query: "velvet-ibex-0000" }).hits).toEqual([]);
	});

	it("builds bounded snippets with marks on the matched text", () => {
		for (const h of find("ECONNREFUSED", {}, 20).hits) {
			expect(h.snippet.length).toBeLessThanOrEqual(240);
			expect(h.marks.length).toBeGreaterThan(0);
			for (const [a, b] of h.marks) expect(h.snippet.slice(a, b).toUpperCase()).toContain("ECONNREFUSED");
		}
		const short = service.search({ query: "ECONNREFUSED", snippetChars: 60 }).hits;
		for (const h of short) expect(h.snippet.length).toBeLessThanOrEqual(60);
	});
});

describe("filters (each combinable with a query)", () => {
	const ids = (n: Needle) => n.occurrences.map((o) => `${o.sessionId}/${entryOf(o)}`);

	it("session id", () => {
		const n = needle("N00003");
		const one = n.occurrences[1] as Occurrence;
		expect(refs(find(`"${n.text}"`, { sessionIds: [one.sessionId] }).hits)).toEqual([`${one.sessionId}/${one.entryId}`]);
	});

	it("cwd: subtree by default, exact on request, never a string-prefix neighbour", () => {
		const nested = manifest.cwds.find((c) => c.nestedUnder) as { cwd: string; nestedUnder: string };
		const sessionsUnder = (root: string, subtree: boolean) => new Set(find("", { cwds: [root], cwdSubtree: subtree }, 50).hits.map((h) => h.session.cwd));
		const sub = sessionsUnder(nested.nestedUnder, true);
		expect(sub.has(nested.nestedUnder)).toBe(true);
		const exact = sessionsUnder(nested.nestedUnder, false);
		expect([...exact]).toEqual([nested.nestedUnder]);
		const all = sessionsUnder("/home/alice/code/payments-api", true);
		expect([...all].every((c) => c === "/home/alice/code/payments-api" || c.startsWith("/home/alice/code/payments-api/"))).toBe(true);
	});

	it("kind", () => {
		const n = needle("N00002"); // a tool result
		expect(find(`"${n.text}"`, { kinds: ["user.text"] }).hits).toEqual([]);
		expect(refs(find(`"${n.text}"`, { kinds: ["tool.result"] }).hits)).toEqual(ids(n).sort());
		expect(() => find("x", { kinds: ["nonsense" as never] })).toThrow(ArgumentError);
	});

	it("entry type and role", () => {
		const name = needle("N00004"); // session_info
		expect(find(`"${name.text}"`, { types: ["message"] }).hits).toEqual([]);
		expect(refs(find(`"${name.text}"`, { types: ["session_info"] }).hits)).toEqual(ids(name).sort());
		const result = needle("N00002");
		expect(find(`"${result.text}"`, { roles: ["user"] }).hits).toEqual([]);
		expect(find(`"${result.text}"`, { roles: ["toolResult"] }).hits.length).toBe(result.occurrences.length);
	});

	it("tool name matches results and calls", () => {
		const result = needle("N00061"); // bash tool result
		expect(find(`"${result.text}"`, { tools: ["bash"] }).hits.length).toBe(1);
		expect(find(`"${result.text}"`, { tools: ["read"] }).hits).toEqual([]);
		const call = needle("N00055"); // bash tool call arguments
		expect(find(`"${call.text}"`, { tools: ["bash"] }).hits.length).toBe(1);
	});

	it("time range (ISO), bad dates rejected", () => {
		const n = needle("N00054");
		const ts = rawEntry(n.occurrences[0] as Occurrence).timestamp as string;
		const ms = Date.parse(ts);
		expect(find(`"${n.text}"`, { after: new Date(ms + 1).toISOString() }).hits).toEqual([]);
		expect(find(`"${n.text}"`, { after: ts, before: ts }).hits.length).toBe(1);
		expect(find(`"${n.text}"`, { before: new Date(ms - 1).toISOString() }).hits).toEqual([]);
		expect(() => find("x", { after: "last tuesday" })).toThrow(ArgumentError);
	});

	it("error state", () => {
		const failed = needle("N00002");
		expect(find(`"${failed.text}"`, { isError: false }).hits).toEqual([]);
		expect(find(`"${failed.text}"`, { isError: true }).hits.length).toBe(failed.occurrences.length);
		const ok = needle("N00010");
		expect(find(`"${ok.text}"`, { isError: true }).hits).toEqual([]);
		for (const h of find("", { isError: true }, 50).hits) expect(h.isError).toBe(true);
	});

	it("branch state and selection state", () => {
		const n = needle("N00001");
		const off = n.occurrences.filter((o) => o.onLeafPath === false).map((o) => `${o.sessionId}/${o.entryId}`);
		expect(refs(find(`"${n.text}"`, { branchStates: ["alternate"] }).hits)).toEqual(off.sort());
		const summarized = n.occurrences.filter((o) => o.onLeafPath && !o.inLlmContext).map((o) => `${o.sessionId}/${o.entryId}`);
		expect(refs(find(`"${n.text}"`, { selectionStates: ["summarized"] }).hits)).toEqual(summarized.sort());
	});

	it("file evidence from read/edit/write calls", () => {
		// Ground truth from the fixture itself: an edit call's path argument.
		const pair = manifest.toolPairsSample.find((p) => p.toolName === "edit") as Manifest["toolPairsSample"][number];
		const call = fixtureEntry<{ message: { content: Array<{ type: string; id?: string; arguments?: { path: string } }> } }>(
			corpus,
			pair.file,
			pair.callEntryId,
		);
		const block = call.message.content.find((b) => b.id === pair.toolCallId);
		const path = block?.arguments?.path as string;
		const hits = find("", { files: [path], sessionIds: [pair.sessionId] }, 50).hits;
		expect(hits.map((h) => h.entryId)).toContain(pair.callEntryId);
		expect(find("", { files: ["no/such/file.ts"] }).hits).toEqual([]);
	});

	it("label", () => {
		const n = needle("N00014");
		expect(refs(find("", { labels: [n.text] }).hits)).toEqual(expect.arrayContaining(n.occurrences.map((o) => `${o.sessionId}/${o.entryId}`)));
		expect(find("", { labels: ["no-such-label"] }).hits).toEqual([]);
	});

	it("an empty query with filters lists matching events newest first", () => {
		const hits = find("", { roles: ["user"] }, 50).hits;
		expect(hits.length).toBe(50);
		const times = hits.map((h) => Date.parse(h.timestamp));
		for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1] as number);
	});

	it("explains an empty result by the filter that emptied it", () => {
		const n = needle("N00002");
		const r = find(`"${n.text}"`, { kinds: ["user.text"] });
		expect(r.hits).toEqual([]);
		expect(r.notes.join(" ")).toMatch(/kind filter/);
	});
});
