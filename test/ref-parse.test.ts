/**
 * The go-to-ref parser: every form a face prints or copies reads back to the same (sessionId, entryId). The forms
 * come from the faces' own output (the CLI's search text, the Pi tools' text, the status bar's copy message and
 * `--json`) for a hit of the fixture corpus, so when a face changes how it prints refs this test says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSearchForModel } from "../src/present/model-text.js";
import { parseRef } from "../src/present/ref-parse.js";
import { formatSearch, makeStyle, refOf, safeJson } from "../src/present/text.js";
import type { Hit } from "../src/shared/types.js";
import { type IndexedCorpus, indexedCorpus, needleAs } from "./helpers/corpus.js";

const S = "019c7793-6605-7207-a552-425b327b6318";
const E = "fbfd3658";

describe("parseRef: hand-written forms", () => {
	const ok: Array<[string, string, { sessionId: string; entryId: string; fragmentId?: string }]> = [
		["the pair y copies", `${S} ${E}`, { sessionId: S, entryId: E }],
		["the pair with spaces around", `   ${S}\t${E}  \n`, { sessionId: S, entryId: E }],
		["the CLI's ref line", `ref ${S} ${E}`, { sessionId: S, entryId: E }],
		["the status bar after y", `ref ${S} ${E}  (pi-history read ${S} ${E})`, { sessionId: S, entryId: E }],
		["a read command", `pi-history read ${S} ${E}`, { sessionId: S, entryId: E }],
		[
			"a read command with flags",
			`pi-history read --neighbors-after 3 ${S} ${E} --fragment tool.call:1 --json`,
			{ sessionId: S, entryId: E, fragmentId: "tool.call:1" },
		],
		["--flag=value", `pi-history read ${S} ${E} --fragment=user.text:0`, { sessionId: S, entryId: E, fragmentId: "user.text:0" }],
		["global flags before the command", `pi-history --index /tmp/i.sqlite trace ${S} ${E}`, { sessionId: S, entryId: E }],
		["a shell prompt and npx", `$ npx pi-history open '${S}' "${E}"`, { sessionId: S, entryId: E }],
		["the built CLI", `node dist/src/cli/main.cjs read ${S} ${E}`, { sessionId: S, entryId: E }],
		["the built CLI of an earlier version", `node dist/src/cli/main.js read ${S} ${E}`, { sessionId: S, entryId: E }],
		[
			"the tools' labelled ref",
			`   sessionId=${S} entryId=${E} fragmentId=tool.result:0 (2 matching parts)`,
			{ sessionId: S, entryId: E, fragmentId: "tool.result:0" },
		],
		["event_read's first line", `event sessionId=${S} entryId=${E} parentId=aa11bb22`, { sessionId: S, entryId: E }],
		["JSON fields", `{"sessionId": "${S}", "entryId": "${E}"}`, { sessionId: S, entryId: E }],
		["the key our messages print", `${S}/${E}`, { sessionId: S, entryId: E }],
		["backticks from Markdown", `\`${S} ${E}\``, { sessionId: S, entryId: E }],
		["a custom pi 1.x session id", `my-session_2 ${E}`, { sessionId: "my-session_2", entryId: E }],
	];
	it.each(ok)("%s", (_name, text, ref) => {
		expect(parseRef(text)).toEqual({ ok: true, ref });
	});

	const bad: Array<[string, string, RegExp]> = [
		["empty", "  ", /paste a ref/],
		["one id", S, /one id/],
		["three words", `${S} ${E} extra`, /3 words/],
		["a search line", "pi-history search ECONNREFUSED", /search names no event/],
		["a read without ids", "pi-history read", /needs <sessionId> <entryId> \(found 0 ids\)/],
		["a read with one id", `pi-history read ${S}`, /found 1 id\)/],
		["entryId without a session", `entryId=${E}`, /names no session/],
		["sessionId without an entry", `sessionId=${S}`, /names no event/],
	];
	it.each(bad)("says why: %s", (_name, text, why) => {
		const out = parseRef(text);
		expect(out.ok).toBe(false);
		if (!out.ok) expect(out.error).toMatch(why);
	});
});

describe("parseRef: what the faces print", () => {
	let c: IndexedCorpus;
	let hit: Hit;
	beforeAll(() => {
		c = indexedCorpus("pes-ref-parse-", { copy: false });
		const needle = needleAs(c.manifest, "user.text(abandoned-branch)");
		const found = c.service.search({ query: needle.text, limit: 1 }).hits[0];
		if (!found) throw new Error("the fixture needle is not found");
		hit = found;
	});
	afterAll(() => c.cleanup());

	const want = () => ({ sessionId: hit.sessionId, entryId: hit.entryId });
	const lineWith = (text: string, needle: string) => text.split("\n").find((l) => l.includes(needle)) ?? "";

	it("reads the CLI search text's ref line", () => {
		const text = formatSearch(c.service.search({ query: hit.snippet.split(/\s+/).slice(0, 3).join(" "), limit: 5 }), makeStyle(false));
		const line = lineWith(text, `ref ${hit.sessionId}`);
		expect(line).not.toBe("");
		expect(parseRef(line)).toMatchObject({ ok: true, ref: want() });
	});

	it("reads the Pi tools' hit ref line (event_search text)", () => {
		const text = formatSearchForModel(
			{ hits: [hit], notes: [], index: { sessions: 1, events: 1, freshAt: null, pending: 0 } },
			{
				query: "q",
				root: "/",
				includesCurrent: false,
			},
		).text;
		const line = lineWith(text, `sessionId=${hit.sessionId}`);
		expect(parseRef(line)).toEqual({ ok: true, ref: { ...want(), ...(hit.fragmentId ? { fragmentId: hit.fragmentId } : {}) } });
		// The whole text holds one hit: pasting all of it works too.
		expect(parseRef(text)).toMatchObject({ ok: true, ref: want() });
	});

	it("reads what y copies and --json's hit", () => {
		expect(parseRef(refOf(hit))).toEqual({ ok: true, ref: want() });
		expect(parseRef(safeJson({ sessionId: hit.sessionId, entryId: hit.entryId }, 2))).toMatchObject({ ok: true, ref: want() });
	});
});

describe("huge pastes (issue 32 item 8)", () => {
	// `)))…x` made the trailing-punctuation regex retry from every position: 80k characters took seconds.
	it("answers a long token of closing punctuation with a short message", () => {
		const token = `${")".repeat(60_000)}x`;
		const r = parseRef(token);
		expect(r).toEqual({ ok: false, error: expect.stringMatching(/^one id \(\){80}…\): a ref is a sessionId and an entryId$/) });
		expect(parseRef(`pi-history read ${S} ${E}${".".repeat(60_000)}`)).toEqual({ ok: true, ref: { sessionId: S, entryId: E } });
	});

	it("refuses a 200k-character token with its length, and still reads a 300-character id", () => {
		const r = parseRef(`${".".repeat(200_000)}x`);
		expect(r).toEqual({ ok: false, error: expect.stringContaining("200001 characters") });
		const long = "e".repeat(300);
		expect(parseRef(`${S} ${long}`)).toEqual({ ok: true, ref: { sessionId: S, entryId: long } });
	});
});
