/**
 * Search as you type writes a prefix of few terms as those terms (src/index/vocabulary.ts): the same events match as
 * with FTS5's own prefix query, whatever the number of terms. Ground truth: the
 * words this test writes into the session, matched by hand.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IndexStore, openStore } from "../src/index/store.js";
import { prefixTerms } from "../src/index/vocabulary.js";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";

const SESSION = "0199d000-0000-7000-8000-0000000000a1";
/** One message per text, entry id `m<i>`. */
const TEXTS = [
	"handle the webhook",
	"the handler retried",
	"handleWebhook threw ECONNREFUSED",
	"hash mismatch",
	"nothing relevant here",
	"a handful of HANDLES",
	"Handlebars template",
	// More distinct zz-words than a prefix is expanded to: FTS5's own prefix query answers.
	...Array.from({ length: 70 }, (_, i) => `zz${i.toString(36).padStart(2, "0")}word number ${i}`),
];

let t: ReturnType<typeof tempDir>;
let service: HistoryService;
/** Another, read-only connection to the same index, as the explorer's query thread has. */
let store: IndexStore;

beforeAll(() => {
	t = tempDir("pes-prefix-terms-");
	const dir = join(t.dir, "sessions", "--p--");
	mkdirSync(dir, { recursive: true });
	const ts = (i: number) => new Date(Date.UTC(2026, 6, 1) + i * 1000).toISOString();
	const lines = [`${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: ts(0), cwd: "/tmp/p" })}\n`];
	TEXTS.forEach((text, i) => {
		const message = { role: "user", content: [{ type: "text", text }], timestamp: 1 };
		lines.push(`${JSON.stringify({ type: "message", id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: ts(i + 1), message })}\n`);
	});
	writeFileSync(join(dir, "2026-07-01T00-00-00-000Z_p.jsonl"), lines.join(""));
	service = openService(join(t.dir, "sessions"), join(t.dir, "index.sqlite"));
	service.refresh();
	store = openStore(join(t.dir, "index.sqlite"), { readonly: true });
});

afterAll(() => {
	store?.db.close();
	service?.close();
	t.cleanup();
});

/** The entry ids of the messages whose words (camelCase parts too) start with `prefix`, by hand. */
function expected(prefix: string): string[] {
	const words = (text: string) => text.split(/[^A-Za-z0-9]+/).flatMap((w) => [w, ...w.split(/(?=[A-Z][a-z])/)]);
	return TEXTS.flatMap((text, i) => (words(text).some((w) => w.toLowerCase().startsWith(prefix)) ? [`m${i}`] : [])).sort();
}

/** Every hit of a search as you type, page by page. */
function found(query: string): string[] {
	const out: string[] = [];
	for (let offset = 0; ; offset += 20) {
		const hits = service.search({ query, prefix: true, limit: 20, offset }).hits;
		out.push(...hits.map((h) => h.entryId));
		if (hits.length < 20) return out.sort();
	}
}

describe("a prefix typed in the explorer", () => {
	it.each([
		["ha", 6],
		["han", 5],
		["handle", 5],
		["handlew", 1],
		["hash", 1],
		["zz", 70],
		["zz1", 34],
	])("%s finds exactly the events with a word starting with it (%i)", (prefix, n) => {
		expect(expected(prefix)).toHaveLength(n);
		expect(found(prefix)).toEqual(expected(prefix));
		expect(service.count({ query: prefix, prefix: true })).toEqual({ count: n, atLeast: false });
	});

	it("is written as its terms when they are few, and stays a prefix query when there are more than 64", () => {
		expect(prefixTerms(store, "han")).toEqual(["handle", "handlebars", "handler", "handles", "handlewebhook", "handful"].sort());
		expect(prefixTerms(store, "zz")).toBeNull();
		// A longer prefix is filtered from the cached list of a shorter one: the same answer.
		expect(prefixTerms(store, "handl")).toEqual(["handle", "handlebars", "handler", "handles", "handlewebhook"]);
		expect(prefixTerms(store, "qqq")).toEqual([]);
	});
});
