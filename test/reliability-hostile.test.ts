/**
 * Hostile session files (issue [reliability]): huge lines, invalid bytes, broken headers, unknown types, broken trees,
 * twin session ids, a huge fan-out and thousands of tiny sessions. Each is indexed or skipped with a note; the
 * others come through.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { NotFoundError } from "../src/shared/errors.js";
import { openService } from "./helpers/corpus.js";
import { checkInvariants, scratch } from "./helpers/reliability.js";

const { fresh } = scratch("pes-rel-hostile-");

describe("hostile session files", () => {
	let dir: string;
	let index: string;
	let service: HistoryService;
	const H = (id: string, extra: Record<string, unknown> = {}) =>
		JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-02-01T00:00:00.000Z", cwd: "/hostile", ...extra });
	const msg = (id: string, parentId: string | null, text: string, role = "user") =>
		JSON.stringify({
			type: "message",
			id,
			parentId,
			timestamp: "2026-02-01T00:00:01.000Z",
			message: { role, content: [{ type: "text", text }], timestamp: 1 },
		});
	const write = (name: string, lines: Array<string | Buffer>) => {
		const parts = lines.map((l) => (typeof l === "string" ? Buffer.from(`${l}\n`) : Buffer.concat([l, Buffer.from("\n")])));
		writeFileSync(join(dir, name), Buffer.concat(parts));
	};

	beforeAll(() => {
		dir = fresh("hostile");
		mkdirSync(dir, { recursive: true });
		// A normal session that must come through everything untouched.
		write("normal.jsonl", [H("normal"), msg("n1", null, "the healthy session mentions zircon-walrus-5150"), msg("n2", "n1", "reply", "assistant")]);
		// 50 MB in one line: a pasted log with a word near its end.
		const half = "log line with nothing special\n".repeat(850_000);
		const huge = `${half} middle marker larch-middle-4242 ${half} tail marker obsidian-kestrel-9001`;
		write("huge-line.jsonl", [H("huge"), msg("h1", null, huge)]);
		const edge = 128 * 1024;
		write("gap.jsonl", [H("gap"), msg("g1", null, `${"f ".repeat((edge - 5) / 2)}f zulu${"m ".repeat(20_000)}yankee${" t".repeat((edge - 6) / 2)}`)]);
		// Invalid UTF-8 inside and outside strings, NUL bytes, non-object lines, deep nesting.
		write("bytes.jsonl", [
			H("bytes"),
			Buffer.concat([
				Buffer.from('{"type":"message","id":"b1","parentId":null,"timestamp":"2026-02-01T00:00:00Z","message":{"role":"user","content":"broken '),
				Buffer.from([0xff, 0xfe, 0xc3]),
				Buffer.from(' bytes fennel-utf8"}}'),
			]),
			Buffer.from([0xff, 0x00, 0x7b, 0x00]),
			'{"type":"message","id":"b2","parentId":"b1","timestamp":"2026-02-01T00:00:00Z","message":{"role":"user","content":"nul \u0000 inside"}}'.replace(
				"\\u0000",
				"\u0000",
			),
			"42",
			"[1,2,3]",
			'"just a string"',
			"null",
			`{"type":"message","id":"b3","parentId":"b1","timestamp":"2026-02-01T00:00:00Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"deep","arguments":${"[".repeat(50_000)}${"]".repeat(50_000)}}]}}`,
			msg("b4", "b3", "after the deep line comes granite-deep-77"),
		]);
		// Headers with missing or wrong-typed fields.
		write("no-cwd.jsonl", [
			JSON.stringify({ type: "session", version: 3, id: "nocwd", timestamp: "2026-02-01T00:00:00Z" }),
			msg("c1", null, "no cwd header amber-nocwd"),
		]);
		write("bad-version.jsonl", [
			JSON.stringify({ type: "session", version: "3", id: "badversion", cwd: 42 }),
			msg("v1", null, "string version cobalt-version"),
		]);
		write("bad-id.jsonl", [JSON.stringify({ type: "session", version: 3, id: 123, cwd: "/x" }), msg("i1", null, "numeric id never indexed")]);
		// Unknown types and roles, cycles, self parents, dangling parents, duplicate ids with different content.
		write("tree.jsonl", [
			H("tree"),
			JSON.stringify({ type: "hologram", id: "u1", parentId: null, timestamp: "2026-02-01T00:00:00Z", payload: { secret: "opaque-hologram-text" } }),
			JSON.stringify({ type: "message", id: "u2", parentId: "u1", timestamp: "2026-02-01T00:00:00Z", message: { role: "robot", content: "robot-role-text" } }),
			msg("cy1", "cy2", "cycle one"),
			msg("cy2", "cy1", "cycle two"),
			msg("self", "self", "self parent"),
			msg("dang", "nowhere", "dangling parent teal-dangle"),
			msg("dup", "u2", "first copy loses saffron-first"),
			msg("dup", "u2", "second copy wins saffron-second"),
			msg("leaf", "dup", "the leaf"),
		]);
		// Two files claiming one session id.
		write("same-id-a.jsonl", [H("twin"), msg("t1", null, "twin a says ochre-twin-a")]);
		write("same-id-b.jsonl", [H("twin"), msg("t1", null, "twin b says ochre-twin-b")]);
		// 20,000 children of one node (the bound on what a read or trace returns does not depend on the count).
		const kids: string[] = [H("fanout"), msg("root", null, "the parent of a crowd")];
		for (let i = 0; i < 20_000; i++)
			kids.push(JSON.stringify({ type: "label", id: `k${i}`, parentId: "root", timestamp: "2026-02-01T00:00:02Z", targetId: "root", label: `l${i}` }));
		write("fanout.jsonl", kids);
		// 2,000 tiny sessions.
		const tiny = join(dir, "tiny");
		mkdirSync(tiny);
		for (let i = 0; i < 2_000; i++) writeFileSync(join(tiny, `t${i}.jsonl`), `${H(`tiny-${i}`)}\n${msg(`m${i}`, null, `tiny session ${i}`)}\n`);
		index = join(dirname(dir), "hostile.sqlite");
		service = openService(dir, index);
	});
	afterAll(() => service.close());

	it("indexes or skips each hostile file with a note, and the others come through", async () => {
		const summary = await service.refreshAsync();
		expect(summary.errors).toEqual([]);
		expect(service.search({ query: "zircon-walrus-5150" }).hits.map((h) => h.entryId)).toEqual(["n1"]);
		const status = service.status();
		expect(status.sessions).toBe(2_000 + 10);
		checkInvariants(index);
	});

	it("keeps a 50 MB line searchable at both ends and readable in windows", () => {
		const hit = service.search({ query: "obsidian-kestrel-9001" }).hits[0];
		expect(hit?.entryId).toBe("h1");
		expect(hit?.snippet.endsWith("obsidian-kestrel-9001")).toBe(true);
		expect(hit?.marks.map(([a, b]) => hit.snippet.slice(a, b))).toEqual(["obsidian-kestrel-9001"]);
		// Beyond 256 KiB only the first and last 128 KiB are indexed (I20): the middle is not searchable.
		expect(service.search({ query: "larch-middle-4242" }).hits).toEqual([]);
		const r = service.read({ sessionId: "huge", entryId: "h1", fragmentId: "user.text:0", offset: 0, maxChars: 100 });
		expect(r.fragments[0]?.totalChars).toBeGreaterThan(50_000_000);
		expect(r.fragments[0]?.text).toHaveLength(100);
		// The omission marker stops a phrase from matching across the cut: head ends "zulu", tail starts "yankee".
		expect(service.search({ query: "zulu" }).hits.map((h) => h.entryId)).toEqual(["g1"]);
		expect(service.search({ query: "yankee" }).hits.map((h) => h.entryId)).toEqual(["g1"]);
		expect(service.search({ query: '"zulu yankee"' }).hits).toEqual([]);
	});

	it("skips bytes that are not JSON objects, and survives invalid UTF-8, NUL bytes and deep nesting", () => {
		expect(service.search({ query: "fennel-utf8" }).hits.map((h) => h.entryId)).toEqual(["b1"]);
		expect(service.search({ query: "granite-deep-77" }).hits.map((h) => h.entryId)).toEqual(["b4"]);
		const deep = service.read({ sessionId: "bytes", entryId: "b3" });
		expect(JSON.stringify(deep).length).toBeLessThan(100_000);
		const trace = service.trace({ sessionId: "bytes", entryId: "b3" });
		expect(trace.edges.map((e) => e.rel)).toContain("parent");
		const db = new Database(index, { readonly: true });
		const file = db.prepare("SELECT note, skipped_lines FROM files WHERE path LIKE '%bytes.jsonl'").get() as { note: string; skipped_lines: number };
		db.close();
		expect(file.skipped_lines).toBeGreaterThanOrEqual(5);
		expect(file.note).toMatch(/unparseable/);
	});

	it("reads headers with missing or wrong-typed fields as far as they go, and skips a header without a string id", () => {
		expect(service.search({ query: "amber-nocwd" }).hits[0]?.session.cwd).toBe("");
		expect(service.search({ query: "cobalt-version" }).hits.length).toBe(1);
		expect(service.search({ query: '"numeric id never indexed"' }).hits).toEqual([]);
	});

	it("keeps unknown types and roles as opaque events, never searchable by their payload", () => {
		expect(service.search({ query: "opaque-hologram-text" }).hits).toEqual([]);
		expect(service.search({ query: "", filters: { types: ["hologram"] } }).hits.map((h) => h.entryId)).toEqual(["u1"]);
		expect(service.search({ query: "", filters: { roles: ["robot"] } }).hits.map((h) => h.entryId)).toEqual(["u2"]);
	});

	it("handles cycles, self parents, dangling parents and duplicate ids without looping", () => {
		expect(service.read({ sessionId: "tree", entryId: "cy1", before: 10, after: 10 }).classification.branchState).toBe("unknown");
		expect(service.trace({ sessionId: "tree", entryId: "self" }).edges.length).toBeGreaterThan(0);
		expect(service.read({ sessionId: "tree", entryId: "dang", before: 5 }).neighbors.before).toEqual([]);
		// pi follows the last copy of an id (duplicate-ids.test.ts checks it against pi's SessionManager).
		expect(service.search({ query: "saffron-second" }).hits.length).toBe(1);
		expect(service.search({ query: "saffron-first" }).hits).toEqual([]);
		// None of this is a failure of the file: it is indexed, not listed among errors, and the kept duplicate is noted.
		expect(service.status().errors.map((e) => e.file)).not.toContain(join(dir, "tree.jsonl"));
		const db = new Database(index, { readonly: true });
		const file = db.prepare("SELECT status, note, duplicate_entries FROM files WHERE path = ?").get(join(dir, "tree.jsonl")) as {
			status: string;
			note: string;
			duplicate_entries: number;
		};
		db.close();
		expect(file).toMatchObject({ status: "ok", duplicate_entries: 1 });
		expect(file.note).toMatch(/1 duplicate id\(s\) with different content \(last kept/);
	});

	it("never merges two files that claim one session id, and reports the conflict", () => {
		const a = service.search({ query: "ochre-twin-a" }).hits[0];
		const b = service.search({ query: "ochre-twin-b" }).hits[0];
		// The documented rule: the path that sorts first keeps the id.
		expect(a?.sessionId).toBe("twin");
		expect(b?.sessionId).toMatch(/^twin~[0-9a-f]{8}$/);
		expect(service.status().conflicts).toEqual([
			expect.objectContaining({ sessionId: "twin", files: [expect.stringMatching(/same-id-a/), expect.stringMatching(/same-id-b/)] }),
		]);
		for (const h of [a, b])
			expect(service.read({ sessionId: h?.sessionId as string, entryId: "t1" }).fragments[0]?.text).toBe(
				h === a ? "twin a says ochre-twin-a" : "twin b says ochre-twin-b",
			);
	});

	it("bounds reads and traces of a node with 20,000 children", () => {
		const t = service.trace({ sessionId: "fanout", entryId: "root" });
		expect(t.edges.filter((e) => e.rel === "child").length).toBeLessThanOrEqual(50);
		expect(t.notes.join(" ")).toMatch(/more child/);
		const r = service.read({ sessionId: "fanout", entryId: "root", after: 3 });
		expect(r.neighbors.forkCandidates.length + r.neighbors.after.length).toBeLessThanOrEqual(53);
		expect(JSON.stringify(r).length).toBeLessThan(200_000);
	});

	it("refuses nothing it cannot handle: an unchanged refresh afterwards touches nothing", () => {
		expect(service.refresh().filesChanged).toBe(0);
		expect(() => service.read({ sessionId: "bad-id", entryId: "i1" })).toThrow(NotFoundError);
	});
});
