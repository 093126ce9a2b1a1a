/** Pure view logic: layout, list windows, scope and filter requests, the event document, trace rows and hit rows. */
import { describe, expect, it } from "vitest";
import { type ExplorerService, IDLE_INDEXING } from "../components/core/explorer-service.js";
import { nextScope, searchRequest } from "../components/core/filters.js";
import { eventLayout, frameHeight, searchLayout, visibleHits } from "../components/core/layout.js";
import { clampScroll, positionText, windowTop } from "../components/core/list-window.js";
import { lineText, lineWidth } from "../components/core/styled.js";
import { stringWidth } from "../components/core/text-width.js";
import { runSearch } from "../components/event/loaders.js";
import { blockIndex, buildEventDoc, buildPreview, omittedText } from "../components/event/read-view.js";
import { forkCandidates, traceRows } from "../components/event/trace-rows.js";
import { pathLine } from "../components/event/trace-view.js";
import { EMPTY_LIST_KEYS } from "../components/root/help.js";
import { emptyLines, hitRows, indexText } from "../components/search/search-view.js";
import { brief, edge, makeEventData, makeHit } from "./helpers/ink.js";

describe("layout", () => {
	it.each<[number, number, boolean, number, number]>([
		// columns, rows → side by side, list lines, preview lines; frame = rows - 1 (Ink clears the screen otherwise)
		[80, 24, false, 10, 8],
		[100, 30, false, 14, 10],
		[160, 40, true, 35, 34],
		[40, 10, false, 2, 2],
	])("search %i×%i", (columns, rows, side, list, preview) => {
		const l = searchLayout({ columns, rows });
		expect([l.side, l.listLines, l.previewLines]).toEqual([side, list, preview]);
		const used = l.side ? 4 + l.listLines : 4 + l.listLines + 1 + l.previewLines;
		expect(used).toBe(frameHeight({ columns, rows }));
		expect(used).toBeLessThanOrEqual(rows - 1);
	});

	it.each<[number, number]>([
		[80, 24],
		[100, 30],
		[200, 60],
		[40, 10],
	])("event %i×%i fills exactly rows - 1", (columns, rows) => {
		const l = eventLayout({ columns, rows });
		// Three header lines (event, classification, session file and lineage) and two status lines.
		const used = l.side ? 5 + l.bodyLines : 5 + l.bodyLines + 1 + l.panelLines;
		expect(used).toBe(rows - 1);
		expect(l.side ? l.bodyWidth + 1 + l.panelWidth : l.bodyWidth).toBe(columns);
	});

	it("gives the trace panel more room on a wide terminal, so its path line is not cut at 200 columns", () => {
		expect(eventLayout({ columns: 120, rows: 40 }).panelWidth).toBe(48);
		expect(eventLayout({ columns: 200, rows: 60 }).panelWidth).toBe(80);
	});

	it("shows five two-line hits at 80×24", () => {
		expect(visibleHits(searchLayout({ columns: 80, rows: 24 }))).toBe(5);
	});
});

describe("list window", () => {
	it.each<[number, number, number, number, number]>([
		// cursor, top, height, count → top
		[0, 0, 5, 20, 0],
		[4, 0, 5, 20, 0],
		[5, 0, 5, 20, 1],
		[3, 4, 5, 20, 3],
		[19, 0, 5, 20, 15],
		[2, 10, 5, 3, 0],
		[0, 0, 0, 10, 0],
	])("cursor %i top %i height %i count %i → %i", (cursor, top, height, count, out) => {
		expect(windowTop(cursor, top, height, count)).toBe(out);
	});

	it("clamps scrolls and says where the window is", () => {
		expect(clampScroll(50, 10, 30)).toBe(20);
		expect(clampScroll(-3, 10, 30)).toBe(0);
		expect(positionText(5, 10, 100, true)).toBe("6–15 of 100+");
		expect(positionText(0, 10, 5)).toBe("");
	});
});

describe("scope and filters", () => {
	const now = Date.parse("2026-06-10T00:00:00Z");
	it.each<[Parameters<typeof searchRequest>[0], object]>([
		[
			{ query: "flaky", scope: "all", workspace: "/w", session: null, filters: {}, offset: 0, now },
			{ query: "flaky", prefix: true, filters: {}, limit: 50 },
		],
		[
			{ query: "fix f", scope: "all", workspace: "/w", session: null, filters: {}, offset: 0, now },
			{ query: "fix f", prefix: false, filters: {}, limit: 50 },
		],
		[
			{ query: "", scope: "workspace", workspace: "/w", session: null, filters: {}, offset: 50, now },
			{ query: "", prefix: false, filters: { cwds: ["/w"] }, limit: 50, offset: 50 },
		],
		[
			{
				query: "x",
				scope: "session",
				workspace: null,
				session: { id: "s9", label: "s9" },
				filters: { kinds: ["tool.result"], error: true, after: "7d", tool: "bash", roles: ["toolResult"], branch: "alternate" },
				offset: 0,
				now,
			},
			{
				query: "x",
				prefix: false,
				filters: {
					sessionIds: ["s9"],
					kinds: ["tool.result"],
					isError: true,
					after: "2026-06-03T00:00:00.000Z",
					tools: ["bash"],
					roles: ["toolResult"],
					branchStates: ["alternate"],
				},
				limit: 50,
			},
		],
	])("request %#", (input, out) => {
		expect(searchRequest(input)).toEqual(out);
	});

	it.each<[Parameters<typeof nextScope>[0], boolean, boolean, string]>([
		["all", true, true, "workspace"],
		["all", false, true, "session"],
		["all", false, false, "all"],
		["workspace", true, true, "session"],
		["workspace", true, false, "all"],
		["session", true, true, "all"],
	])("after %s (workspace %s, session %s) comes %s", (scope, w, s, out) => {
		expect(nextScope(scope, w, s)).toBe(out);
	});
});

describe("event document", () => {
	it("puts fragments and omitted blocks in content order and names what is not shown", () => {
		const data = makeEventData("e", { text: "visible answer" });
		data.read.fragments = [
			{ id: "assistant.text:2", kind: "assistant.text", text: "visible answer", range: [0, 14], totalChars: 14, truncated: false },
			{ id: "tool.call:3", kind: "tool.call", text: "bash command: ls", range: [0, 16], totalChars: 16, truncated: false },
		];
		data.read.omitted = [
			{ path: "message.content.0.thinking", reason: "thinking (private reasoning, never shown or indexed)", chars: 1234 },
			{ path: "message.content.0.thinkingSignature", reason: "signature", bytes: 300 },
			{ path: "message.content.1", reason: "image", mimeType: "image/png", bytes: 2048 },
			{ path: "message.details", reason: "details (tool payload, not shown)", bytes: 31 },
		];
		const doc = buildEventDoc(data, { chunks: {}, find: null, highlights: ["answer"], focusFragment: null, width: 80, wrap: true });
		const text = doc.lines.map((l) => lineText(l.line));
		const at = (needle: string) => text.findIndex((t) => t.includes(needle));
		expect(at("thinking hidden · 1,234 chars")).toBeGreaterThanOrEqual(0);
		expect(at("image image/png · 2.0 KB · not shown")).toBeGreaterThan(at("thinking hidden"));
		expect(at("assistant.text:2")).toBeGreaterThan(at("image"));
		expect(at("tool.call:3")).toBeGreaterThan(at("assistant.text:2"));
		expect(at("message.details: details (tool payload, not shown) · 31 B")).toBeGreaterThan(at("tool.call:3"));
		expect(doc.matchLine).toBe(at("visible answer"));
		for (const l of doc.lines) expect(lineWidth(l.line)).toBeLessThanOrEqual(80);
	});

	it("shows head, the gap not loaded yet, and tail of a large fragment; loaded chunks fill the gap in place, continuously", () => {
		const data = makeEventData("e", { text: "HEAD", totalChars: 10_000 });
		data.tails = { "user.text:0": { id: "user.text:0", kind: "user.text", text: "TAIL", range: [9996, 10_000], totalChars: 10_000, truncated: true } };
		data.read.fragments = [{ id: "user.text:0", kind: "user.text", text: "HEAD", range: [0, 4], totalChars: 10_000, truncated: true }];
		const doc = (chunks: Array<[number, string]>) =>
			buildEventDoc(data, {
				chunks: {
					"user.text:0": chunks.map(([at, text]) => ({
						id: "user.text:0",
						kind: "user.text" as const,
						text,
						range: [at, at + text.length] as [number, number],
						totalChars: 10_000,
						truncated: true,
					})),
				},
				find: null,
				highlights: [],
				focusFragment: null,
				width: 80,
				wrap: true,
			});
		const text = (d: ReturnType<typeof doc>) => d.lines.map((l) => lineText(l.line)).join("\n");
		expect(text(doc([]))).toMatch(/HEAD\n {2}⋯ loading chars 4–9,996 \(9,992\) ⋯\nTAIL/);
		// A chunk right after the head continues its last line: one text, no seam.
		const one = doc([[4, "-MORE\nnext"]]);
		expect(text(one)).toMatch(/HEAD-MORE\nnext\n {2}⋯ loading chars 14–9,996 \(9,982\) ⋯\nTAIL/);
		expect(one.lines.filter((l) => l.gap).map((l) => l.gap)).toEqual([[14, 9996]]);
		// A chunk in the middle leaves two gaps; overlapping chunks add only what is new.
		expect(
			text(
				doc([
					[5000, "MID"],
					[5001, "IDDLE"],
				]),
			),
		).toMatch(/HEAD\n {2}⋯ loading chars 4–5,000 \(4,996\) ⋯\nMIDDLE\n {2}⋯ loading chars 5,006–9,996 \(4,990\) ⋯\nTAIL/);
		// Everything loaded: no gap at all.
		expect(text(doc([[4, "x".repeat(9992)]]))).not.toMatch(/loading/);
	});

	it("cuts instead of wrapping when wrapping is off", () => {
		const data = makeEventData("e", { text: "x".repeat(200) });
		const wrapped = buildEventDoc(data, { chunks: {}, find: null, highlights: [], focusFragment: null, width: 50, wrap: true });
		const cut = buildEventDoc(data, { chunks: {}, find: null, highlights: [], focusFragment: null, width: 50, wrap: false });
		expect(wrapped.lines.length - cut.lines.length).toBe(3);
		expect(cut.lines.some((l) => lineText(l.line).endsWith("x…"))).toBe(true);
	});

	it.each<[string, number | null]>([
		["tool.call:2", 2],
		["message.content.3.thinking", 3],
		["content.1", 1],
		["message.details", null],
	])("block index of %s is %s", (id, n) => {
		expect(blockIndex(id)).toBe(n);
	});

	it("describes an image with its type and size", () => {
		expect(omittedText({ path: "x", reason: "image", mimeType: "image/png", bytes: 90 })).toBe("image image/png · 90 B · not shown");
	});

	it("previews the text around the match, not the start of a long fragment", () => {
		const text = `${"filler line\n".repeat(300)}the ECONNREFUSED line\nafter`;
		const read = makeEventData("e", { text }).read;
		const p = buildPreview(read, ["econnrefused"], 60, 4, Date.now());
		const lines = p.lines.map(lineText);
		expect(lines.some((l) => l.includes("the ECONNREFUSED line"))).toBe(true);
		expect(lineText(p.title)).toMatch(/char 3,\d{3} of 3,\d{3}/);
	});
});

describe("trace rows", () => {
	const data = makeEventData("c", {
		ancestors: [brief("root"), brief("a1"), brief("a2"), brief("p")],
		edges: [
			edge("parent", "p"),
			edge("child", "k1"),
			edge("child", "k2"),
			edge("toward-leaf", "k2"),
			edge("sibling", "s"),
			edge("tool-result-for", "call", { note: "result of tool.call:1 (bash)" }),
			edge("session-parent", "x", { note: "header parentSession" }),
			edge("fork-of", "f", { sessionId: "s2", direction: "in" }),
			{ rel: "file-read", to: { file: "/w/a.ts" }, provenance: "inferred", note: "from read" },
		],
		nodes: [
			brief("p"),
			brief("k1", { branchState: "alternate" }),
			brief("k2"),
			brief("s"),
			brief("call", { kind: "tool.call" }),
			brief("f", { sessionId: "s2" }),
		],
	});
	// A session-only edge (entryId null), as the core writes for a parent session.
	data.trace.edges[6] = { rel: "session-parent", to: { sessionId: "s0", entryId: null }, provenance: "recorded", note: "header parentSession" };

	it("lists root, parent, children (leaf path marked), the fork, siblings and every link", () => {
		const rows = traceRows(data).map((r) => `${r.rel}|${r.id}|${r.marks.join(",")}|${r.target ? r.target.kind : "-"}`);
		expect(rows).toEqual([
			"root|root||event",
			"parent|p||event",
			"child|k1|alternate|event",
			"child|k2|leaf path|event",
			"fork|||-",
			"sibling|s||event",
			"result of|call||event",
			"forked from|#s0||session",
			"forked to|f|session #s2|event",
			"file read|||-",
		]);
	});

	it("collapses the path from the root", () => {
		expect(lineText(pathLine(data))).toBe("path ⌂ root › … 1 › a2 › p › ● here (depth 4)");
	});

	it("offers children and forked sessions as candidates", () => {
		expect(forkCandidates(data).map((c) => [c.ref.entryId, c.via, c.towardLeaf])).toEqual([
			["k1", "child", false],
			["k2", "child", true],
			["f", "forked session", false],
		]);
	});
});

describe("hit rows and empty states", () => {
	const now = Date.parse("2026-01-01T00:05:00Z");
	it.each<[number, 1 | 2]>([
		[80, 2],
		[40, 2],
		[100, 1],
	])("fits a CJK, error, alternate hit into %i cells (%i lines)", (width, lines) => {
		const hit = makeHit({
			isError: true,
			branchState: "alternate",
			selectionState: "summarized",
			snippet: "银色水獭00010号 failed with ECONNREFUSED",
			marks: [[0, 11]],
			label: "repro",
			toolName: "bash",
			kind: "tool.result",
		});
		const rows = hitRows(hit, width, now, true, lines);
		expect(rows).toHaveLength(lines);
		for (const r of rows) expect(stringWidth(lineText(r))).toBeLessThanOrEqual(width);
		const all = rows.map(lineText).join("\n");
		// The time gives way first when the row is full (issue 31.7): the id part that tells copies apart stays.
		expect(all).toContain("#s1");
		if (width >= 100) expect(all).toContain("5m ago");
		if (width >= 80) expect(all).toMatch(/tool\.result bash {2}✗ error {2}⑂ alternate {2}summarized {2}#repro/);
	});

	it("starts a snippet near its match when the match is far to the right", () => {
		const snippet = `${"word ".repeat(40)}NEEDLE end`;
		const rows = hitRows(makeHit({ snippet, marks: [[200, 206]] }), 60, now, false, 2);
		expect(lineText(rows[1] ?? [])).toMatch(/…word.*NEEDLE end/);
	});

	it("says what to do when nothing is indexed, and when a query finds nothing", () => {
		const base = { loading: false, error: null, notes: [], scope: "all" as const, filters: {}, status: null, keys: EMPTY_LIST_KEYS };
		const none = emptyLines({ ...base, query: "", indexEvents: 0, indexing: { ...IDLE_INDEXING, phase: "done" } });
		expect(none.map((l) => l.text).join(" ")).toMatch(/--demo/);
		const miss = emptyLines({
			...base,
			query: "zzz",
			scope: "workspace",
			filters: { error: true },
			indexEvents: 10,
			indexing: IDLE_INDEXING,
			notes: ["no hits with the cwd filter; there are hits without it"],
		});
		expect(miss.map((l) => l.text)).toEqual([
			"No hits for “zzz”.",
			"no hits with this workspace scope; there are hits without it",
			"Try other or shorter words (the last one is read as a prefix).",
			"Ctrl+S widens the scope to all sessions.",
			"Backspace on an empty query removes the last filter chip; Alt+R clears them all; Ctrl+O changes them.",
		]);
	});

	it("shows a search that threw null as a failed search instead of crashing", async () => {
		const throwsNull = {
			search: () => {
				throw null;
			},
		} as unknown as ExplorerService;
		const out = await runSearch(throwsNull, searchRequest({ query: "x", scope: "all", workspace: null, session: null, filters: {}, offset: 0, now }));
		expect(out).toEqual({ error: "null" });
		const lines = emptyLines({
			loading: false,
			error: "error" in out ? out.error : null,
			query: "x",
			notes: [],
			scope: "all",
			filters: {},
			indexEvents: 10,
			indexing: IDLE_INDEXING,
			status: null,
			keys: EMPTY_LIST_KEYS,
		});
		expect(lines[0]?.text).toBe("search failed: null");
	});

	it("shows indexing progress, then counts and freshness", () => {
		const progress = { phase: "ingest" as const, filesDone: 3, filesTotal: 10, bytesDone: 2e6, bytesTotal: 8e6, startedAt: now - 1000 };
		expect(indexText({ ...IDLE_INDEXING, phase: "indexing", progress }, null, now).text).toBe("indexing 3/10 files · 2/8 MB · 2.0 MB/s · ETA 3s");
		// Before any byte is done there is no estimate (not "ETA 0s").
		const start = { ...progress, filesDone: 0, bytesDone: 0 };
		expect(indexText({ ...IDLE_INDEXING, phase: "indexing", progress: start }, null, now).text).toBe("indexing 0/10 files · 0/8 MB · 0.0 MB/s · ETA …");
		expect(indexText({ ...IDLE_INDEXING, phase: "done" }, { sessions: 3, events: 1200, freshAt: "2026-01-01T00:04:00Z" }, now).text).toBe(
			"3 sessions · 1,200 events · fresh 1m ago",
		);
	});
});
