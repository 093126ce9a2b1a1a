/** Hit order (newest first checked against the fixture files' own timestamps) and the session filter by id or name. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArgumentError } from "../src/shared/errors.js";
import type { Hit } from "../src/shared/types.js";
import { fixtureEntry, type IndexedCorpus, indexedCorpus, KIND_OF, type Manifest } from "./helpers/corpus.js";

let indexed: IndexedCorpus;
let manifest: Manifest;
beforeAll(() => {
	indexed = indexedCorpus("pes-order-");
	manifest = indexed.manifest;
});
afterAll(() => indexed.cleanup());

/** Every searchable occurrence of a `found` needle whose text has `word`, with its entry's timestamp from the file. */
function planted(word: string): Map<string, number> {
	const out = new Map<string, number>();
	for (const n of manifest.needles) {
		if (
			n.expect !== "found" ||
			!n.text
				.toLowerCase()
				.split(/[^a-z]+/)
				.includes(word)
		)
			continue;
		for (const o of n.occurrences) {
			if (!o.searchable || !KIND_OF[o.kind]) continue;
			const raw = fixtureEntry<{ timestamp?: string }>(indexed.corpus, o.file, o.line);
			out.set(`${o.sessionId}/${o.entryId ?? `L${o.line}`}`, Date.parse(raw.timestamp ?? ""));
		}
	}
	return out;
}
const ref = (h: Hit) => `${h.sessionId}/${h.entryId}`;

describe("search order", () => {
	it.each(["tapir", "velvet", "puffin"])("newest first: the planted %s events by their timestamps, every one, paged", (word) => {
		const truth = planted(word);
		expect(truth.size).toBeGreaterThan(5);
		const pages: Hit[] = [];
		for (let offset = 0; offset < 200; offset += 4) {
			const page = indexed.service.search({ query: word, order: "newest", limit: 4, offset }).hits;
			pages.push(...page);
			if (page.length < 4) break;
		}
		const planted_ = pages.filter((h) => truth.has(ref(h)));
		// Every planted event is found once, and they come newest first.
		expect(new Set(planted_.map(ref))).toEqual(new Set(truth.keys()));
		expect(planted_.length).toBe(truth.size);
		const times = planted_.map((h) => truth.get(ref(h)) as number);
		expect(times).toEqual([...times].sort((a, b) => b - a));
		// The same events as the relevance order, only ordered differently.
		const relevance = indexed.service.search({ query: word, limit: 50 }).hits;
		expect(new Set(pages.map(ref))).toEqual(new Set(relevance.map(ref)));
	});

	it("relevance stays the default order", () => {
		const a = indexed.service.search({ query: "tapir", limit: 20 }).hits.map(ref);
		const b = indexed.service.search({ query: "tapir", limit: 20, order: "relevance" }).hits.map(ref);
		expect(b).toEqual(a);
		const newest = indexed.service.search({ query: "tapir", limit: 20, order: "newest" }).hits.map(ref);
		expect(newest).not.toEqual(a);
	});

	it("names the orders it takes", () => {
		expect(() => indexed.service.search({ query: "tapir", order: "oldest" as never })).toThrow(ArgumentError);
	});
});

describe("session filter by id or name", () => {
	/** Each session file's id and its name as pi shows it: the last session_info entry's, read from the file. */
	function sessionNames(): Array<{ id: string; name: string | null }> {
		return manifest.files
			.filter((f) => f.isSession && f.sessionId)
			.map((f) => {
				const lines = readFileSync(join(indexed.corpus, f.file), "utf8").split("\n").filter(Boolean);
				let name: string | null = null;
				for (const l of lines) {
					// Damaged lines (a corpus quirk) are skipped, as pi skips them.
					let e: { type?: string; name?: string };
					try {
						e = JSON.parse(l);
					} catch {
						continue;
					}
					if (e.type === "session_info") name = e.name?.trim() || null;
				}
				return { id: f.sessionId as string, name };
			});
	}
	const sessionsOf = (filter: string) =>
		new Set(indexed.service.search({ query: "", filters: { sessions: [filter] }, limit: 50 }).hits.map((h) => h.sessionId));

	it("takes part of a session's current name, any case", () => {
		const named = sessionNames().filter((s) => s.name);
		const pick = named[0]?.name as string;
		expect(pick).toBeTruthy();
		const part = pick.slice(2, 12).toUpperCase();
		const want = new Set(named.filter((s) => s.name?.toLowerCase().includes(part.toLowerCase())).map((s) => s.id));
		expect(want.size).toBeGreaterThan(0);
		expect(sessionsOf(part)).toEqual(want);
	});

	it("takes the start of a session id", () => {
		const all = sessionNames();
		const id = all[0]?.id as string;
		const want = new Set(all.filter((s) => s.id.startsWith(id.slice(0, 10))).map((s) => s.id));
		expect(sessionsOf(id.slice(0, 10))).toEqual(want);
		expect(sessionsOf("no-such-session-zz")).toEqual(new Set());
	});
});
