/**
 * A same-id twin calling the tool (issue 32 item 8): two files share a session id, so the second's public id is
 * `<id>~<hash>`. The text telling the caller how to search its own session must give an id that reaches that very
 * session (pi's header id reached the other twin). Which twin keeps the plain id follows the files alone: an append
 * changes nothing, a twin cut to nothing hands it on, as a fresh build of the same files would.
 */
import { appendFileSync, mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatSearchForModel } from "../src/present/model-text.js";
import { openService } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const { fresh } = scratch("pes-twin-");

const file = (text: string) =>
	`${JSON.stringify({ type: "session", version: 3, id: "twin", timestamp: "2026-02-01T00:00:00.000Z", cwd: "/twins" })}\n${JSON.stringify({
		type: "message",
		id: "t1",
		parentId: null,
		timestamp: "2026-02-01T00:00:01.000Z",
		message: { role: "user", content: [{ type: "text", text }], timestamp: 1 },
	})}\n`;

describe("the same-id twin's own session (issue 32 item 8)", () => {
	it("the id the tool text names for the caller's own session reaches that session, not its twin", () => {
		const dir = fresh("sessions");
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "a.jsonl"), file("ochre words of twin a"));
		writeFileSync(join(dir, "b.jsonl"), file("ochre words of twin b"));
		const s = openService(dir, join(dirname(dir), "index.sqlite"));
		try {
			s.refresh();
			// The caller is twin b (the path that sorts second, so its public id is not its header id).
			const caller = { root: "/twins", currentSessionId: "twin", currentSessionFile: join(dir, "b.jsonl") };
			const result = s.search({ query: "ochre", caller });
			expect(result.hits.map((h) => h.entryId)).toEqual(["t1"]);
			const text = formatSearchForModel(result, {
				query: "ochre",
				root: caller.root,
				currentSessionId: result.currentSessionId ?? caller.currentSessionId,
				includesCurrent: false,
			});
			const named = /pass sessionId=(\S+) to search it/.exec(text.text)?.[1];
			expect(named).toMatch(/^twin~[0-9a-f]{8}$/);
			const own = s.search({ query: "ochre", caller, filters: { sessionIds: [named as string] } });
			expect(own.hits.map((h) => s.read({ sessionId: h.sessionId, entryId: h.entryId }).fragments[0]?.text)).toEqual(["ochre words of twin b"]);
		} finally {
			s.close();
		}
	});

	it("an append keeps the twins' ids; the twin cut to nothing hands the plain id to the other, as a fresh build does", () => {
		const dir = fresh("sessions");
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "a.jsonl"), file("umber words of twin a"));
		writeFileSync(join(dir, "b.jsonl"), file("umber words of twin b"));
		const s = openService(dir, join(dirname(dir), "index.sqlite"));
		const idsOf = (query: string) => s.search({ query }).hits.map((h) => h.sessionId);
		try {
			s.refresh();
			const [twinB] = idsOf("umber twin b");
			expect(twinB).toMatch(/^twin~[0-9a-f]{8}$/);
			const more = { type: "message", id: "t2", parentId: "t1", timestamp: "2026-02-01T00:00:02.000Z" };
			appendFileSync(
				join(dir, "b.jsonl"),
				`${JSON.stringify({ ...more, message: { role: "user", content: [{ type: "text", text: "sienna later" }], timestamp: 2 } })}\n`,
			);
			expect(s.refresh().filesChanged).toBe(1);
			expect(idsOf("sienna")).toEqual([twinB]);
			expect(idsOf("umber twin a")).toEqual(["twin"]);
			truncateSync(join(dir, "a.jsonl"), 0);
			s.refresh();
			expect(idsOf("umber")).toEqual(["twin"]);
			expect(idsOf("sienna")).toEqual(["twin"]);
		} finally {
			s.close();
		}
		const rebuilt = openService(dir, join(dirname(dir), "fresh.sqlite"));
		try {
			rebuilt.refresh();
			expect(rebuilt.search({ query: "sienna" }).hits.map((h) => h.sessionId)).toEqual(["twin"]);
		} finally {
			rebuilt.close();
		}
	});
});
