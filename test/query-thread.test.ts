/**
 * The explorer's query thread: searches, reads and traces answered by a worker thread through its own read-only
 * connection, equal to the service's own answers; a burst of searches (or of the tree view's windows) is answered
 * for the newest, the older ones that had not started are dropped.
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchRequest } from "../components/core/filters.js";
import type * as QueryThreadModule from "../src/service/query-thread.js";
import { DIST } from "./helpers/build.js";
import { type IndexedCorpus, indexedCorpus, loadManifest, needleById } from "./helpers/corpus.js";

const manifest = loadManifest();
const needle = needleById(manifest, "N00033");
const now = Date.parse("2026-06-01T00:00:00Z");
const ask = (query: string) => searchRequest({ query, scope: "all", workspace: null, session: null, filters: {}, offset: 0, now });

let corpus: IndexedCorpus;
// The built module (kept fresh by vitest's globalSetup): a worker thread can only run compiled JavaScript.
let mod: typeof QueryThreadModule;
let thread: QueryThreadModule.QueryThread;

describe("query thread", () => {
	beforeAll(async () => {
		mod = (await import(join(DIST, "service", "query-thread.js"))) as typeof QueryThreadModule;
		corpus = indexedCorpus("pes-query-thread-");
		thread = mod.QueryThread.start(corpus.service.config);
	});
	afterAll(async () => {
		await thread.close();
		corpus.cleanup();
	});

	it("loaded from TypeScript source (as pi loads the extension), still answers from a worker: the package's build", async () => {
		const source = await import("../src/service/query-thread.js");
		const fromSource = source.QueryThread.start(corpus.service.config);
		try {
			expect(fromSource.threaded).toBe(true);
			const mine = await fromSource.search(ask(needle.text));
			expect(mine.hits.map((h) => `${h.sessionId}/${h.entryId}`).sort()).toEqual(needle.occurrences.map((o) => `${o.sessionId}/${o.entryId}`).sort());
		} finally {
			await fromSource.close();
		}
	});

	it("runs in a worker and answers like the service", async () => {
		expect(thread.threaded).toBe(true);
		const mine = await thread.search(ask(needle.text));
		expect(mine.hits.map((h) => `${h.sessionId}/${h.entryId}`).sort()).toEqual(needle.occurrences.map((o) => `${o.sessionId}/${o.entryId}`).sort());
		const occ = needle.occurrences[0] as (typeof needle.occurrences)[0];
		const ref = { sessionId: occ.sessionId, entryId: occ.entryId as string };
		expect(await thread.read({ ...ref, maxChars: 500 })).toEqual(corpus.service.read({ ...ref, maxChars: 500 }));
		expect(await thread.trace(ref)).toEqual(corpus.service.trace(ref));
		// The tree view's question too: the whole fork family, with the needle's entries marked as hits.
		const tree = await thread.tree({ ...ref, query: needle.text });
		expect(tree).toEqual(corpus.service.tree({ ...ref, query: needle.text }));
		expect(tree.hits).toBeGreaterThan(0);
		// The session browser's listing, all sessions and one workspace's.
		const all = await thread.sessions({});
		expect(all.sessions.map((x) => x.id).sort()).toEqual(
			manifest.files
				.filter((f) => f.isSession)
				.map((f) => f.sessionId)
				.sort(),
		);
		expect(all).toEqual(corpus.service.sessions({}));
		const ws = { workspace: "/home/alice/code/payments-api" };
		expect(await thread.sessions(ws)).toEqual(corpus.service.sessions(ws));
		// The walk up to the nearest fork (the explorer's H) is answered in the worker too.
		expect(await thread.forkAbove(ref)).toEqual(corpus.service.forkAbove(ref));
	});

	it("answers the newest of a burst of searches and drops the ones that had not started", async () => {
		const words = ["l", "lu", "lun", "luna", "lunar"];
		const outcomes = await Promise.allSettled(words.map((w) => thread.search(ask(w))));
		// The first started at once; the middle ones were replaced before they ran; the newest is answered.
		expect(outcomes[0]?.status).toBe("fulfilled");
		for (const o of outcomes.slice(1, -1)) expect(o.status === "rejected" && o.reason instanceof mod.SupersededError).toBe(true);
		const last = outcomes.at(-1);
		expect(last?.status).toBe("fulfilled");
		if (last?.status === "fulfilled") expect(last.value.hits.length).toBe(corpus.service.search(ask("lunar")).hits.length);
	});

	it("answers the newest of a burst of tree windows (a filter typed into the tree view) and drops the ones not started", async () => {
		const sessionId = (needle.occurrences[0] as (typeof needle.occurrences)[0]).sessionId;
		const typed = ["l", "lu", "lun", "luna"].map((text) => ({ sessionId, text, count: 50 }));
		const outcomes = await Promise.allSettled(typed.map((r) => thread.treeWindow(r)));
		expect(outcomes[0]?.status).toBe("fulfilled");
		for (const o of outcomes.slice(1, -1)) expect(o.status === "rejected" && o.reason instanceof mod.SupersededError).toBe(true);
		const last = outcomes.at(-1);
		expect(last?.status === "fulfilled" && last.value).toEqual(corpus.service.treeWindow(typed.at(-1) as (typeof typed)[0]));
	});

	it("counts after the searches asked before, and drops a count a newer search overtook", async () => {
		const order: string[] = [];
		const first = thread.search(ask("lunar")).then(() => order.push("search lunar"));
		const stale = thread.count(ask("lunar")).then(
			() => order.push("count lunar"),
			(e) => order.push(e instanceof mod.SupersededError ? "count lunar dropped" : "count lunar failed"),
		);
		const second = thread.search(ask("luna")).then(() => order.push("search luna"));
		const count = thread.count(ask("luna")).then((c) => {
			order.push("count luna");
			return c;
		});
		await Promise.all([first, stale, second]);
		expect(await count).toEqual(corpus.service.count(ask("luna")));
		expect(order).toEqual(["count lunar dropped", "search lunar", "search luna", "count luna"]);
	});
});
