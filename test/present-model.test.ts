/** Model-facing text of search, read and trace results: refs, marks, exact text, and honest cuts within pi's limits. */
import { describe, expect, it } from "vitest";
import {
	formatReadForModel,
	formatSearchForModel,
	formatTraceForModel,
	MODEL_OUTPUT_LIMITS,
	markMatches,
	type OutputLimits,
} from "../src/present/model-text.js";
import type { EventBrief, FragmentWindow, Hit, ReadResult, SearchResult, TraceEdge, TraceResult } from "../src/shared/types.js";

const S = "019be2c2-9f33-7094-a319-1274f826a4f8";
const OTHER = "019c51a8-d146-712e-8e2a-8eef6dd726ff";

function hit(over: Partial<Hit> = {}): Hit {
	return {
		sessionId: S,
		entryId: "be96970a",
		fragmentId: "tool.result:0",
		entryType: "message",
		kind: "tool.result",
		role: "toolResult",
		toolName: "bash",
		timestamp: "2026-01-21T22:55:01.123Z",
		isError: true,
		branchState: "selected",
		contextRole: "conversation",
		selectionState: "direct",
		score: 3.2,
		matchedFragments: 1,
		snippet: "connect\tfailed:\n  ECONNREFUSED 127.0.0.1:5432",
		marks: [[18, 30]],
		session: { id: S, cwd: "/home/alice/code/payments-api", name: "Fix retries", file: "/x.jsonl" },
		...over,
	};
}

function searchResult(hits: Hit[], notes: string[] = [], pending = 0): SearchResult {
	return { hits, notes, index: { sessions: 30, events: 817, freshAt: "2026-06-06T10:00:00.000Z", pending } };
}

const view = { query: "ECONNREFUSED", root: "/home/alice/code/payments-api", currentSessionId: "01aa-own", includesCurrent: false };

function brief(over: Partial<EventBrief> = {}): EventBrief {
	return {
		sessionId: S,
		entryId: "ff3da104",
		entryType: "message",
		role: "assistant",
		kind: "tool.call",
		timestamp: "2026-01-21T22:55:00.000Z",
		branchState: "selected",
		preview: "edit src/retry.ts",
		...over,
	};
}

function fragment(text: string, over: Partial<FragmentWindow> = {}): FragmentWindow {
	return { id: "tool.result:0", kind: "tool.result", text, range: [0, text.length], totalChars: text.length, truncated: false, ...over };
}

function readResult(fragments: FragmentWindow[], over: Partial<ReadResult> = {}): ReadResult {
	return {
		event: {
			sessionId: S,
			entryId: "be96970a",
			parentId: "ff3da104",
			type: "message",
			timestamp: "2026-01-21T22:55:01.123Z",
			message: { role: "toolResult", toolName: "bash", isError: true },
		},
		fragments,
		omitted: [],
		source: { file: "/home/alice/.pi/agent/sessions/x.jsonl", line: 6, byteOffset: 1200, byteLength: 442 },
		neighbors: { order: "branch", before: [], after: [], forkCandidates: [] },
		classification: { branchState: "selected", contextRole: "conversation", selectionState: "direct", onMaterializedLeafPath: true, materializedLeafId: "zz" },
		session: { id: S, cwd: "/home/alice/code/payments-api", file: "/x.jsonl" },
		notes: [],
		...over,
	};
}

function traceResult(edges: TraceEdge[], nodes: EventBrief[] = []): TraceResult {
	return {
		node: {
			...brief({ entryId: "be96970a", kind: "tool.result", role: "toolResult", preview: "ECONNREFUSED" }),
			classification: readResult([]).classification,
			session: { id: S, cwd: "/w", name: "Fix retries", file: "/x.jsonl" },
		},
		edges,
		nodes: Object.fromEntries(nodes.map((n) => [`${n.sessionId}/${n.entryId}`, n])),
		notes: [],
	};
}

function within(text: string, limits: OutputLimits) {
	expect(Buffer.byteLength(text, "utf8")).toBeLessThanOrEqual(limits.maxBytes);
	expect(text.split("\n").length).toBeLessThanOrEqual(limits.maxLines);
}

describe("markMatches", () => {
	it.each([
		{ name: "one match", snippet: "a retryWithBackoff b", marks: [[2, 18]] as Array<[number, number]>, want: "a «retryWithBackoff» b" },
		{
			name: "marks out of order",
			snippet: "x ab y cd",
			marks: [
				[7, 9],
				[2, 4],
			] as Array<[number, number]>,
			want: "x «ab» y «cd»",
		},
		{ name: "whitespace flattened", snippet: "line one\n\tline  two", marks: [[5, 8]] as Array<[number, number]>, want: "line «one» line two" },
		{
			name: "overlapping and out-of-range marks ignored",
			snippet: "abcdef",
			marks: [
				[0, 3],
				[2, 4],
				[5, 99],
			] as Array<[number, number]>,
			want: "«abc»def",
		},
		{ name: "no marks", snippet: "plain", marks: [] as Array<[number, number]>, want: "plain" },
	])("$name", ({ snippet, marks, want }) => {
		expect(markMatches(snippet, marks)).toBe(want);
	});
});

describe("formatSearchForModel", () => {
	it.each([
		{
			name: "a hit gives refs, kind, time, states, session and a marked one-line snippet",
			result: searchResult([hit({ label: "repro" })]),
			view,
			contains: [
				'1 hit for "ECONNREFUSED" in sessions under /home/alice/code/payments-api; your current session 01aa-own is excluded (pass sessionId=01aa-own to search it).',
				'1. tool.result (bash, error) · 2026-01-21T22:55:01Z · branchState=selected selectionState=direct · label "repro" · session "Fix retries" cwd /home/alice/code/payments-api',
				`   sessionId=${S} entryId=be96970a fragmentId=tool.result:0`,
				"   connect failed: «ECONNREFUSED» 127.0.0.1:5432",
				"Next: event_read",
			],
			absent: ["[output cut"],
		},
		{
			name: "an empty result explains itself with the core's notes and pending files",
			result: searchResult(
				[],
				["no hits with the kind filter; there are hits without it", "searched sessions whose cwd is under /home/alice/code/payments-api"],
				3,
			),
			view,
			contains: ['No hits for "ECONNREFUSED"', "- no hits with the kind filter; there are hits without it", "3 session file(s) not indexed yet"],
			absent: ["Next:", "sessionId=01aa-own entryId"],
		},
		{
			name: "the caller's own session, targeted by id, is named as included",
			result: searchResult([
				hit({ sessionId: "01aa-own", isError: false, toolName: undefined, matchedFragments: 3, session: { id: "01aa-own", cwd: "/w/app", file: "/o.jsonl" } }),
			]),
			view: { ...view, includesCurrent: true },
			contains: [
				"including your current session 01aa-own up to the message that called this tool",
				"1. tool.result · ",
				"fragmentId=tool.result:0 (3 matching parts)",
				"cwd /w/app",
			],
			absent: ["is excluded", "(bash"],
		},
		{
			name: "an alternate, summarized event says so",
			result: searchResult([
				hit({
					branchState: "alternate",
					selectionState: "not-selected",
					kind: null,
					entryType: "label",
					role: undefined,
					toolName: undefined,
					isError: undefined,
				}),
			]),
			view: { query: "", root: "/w", includesCurrent: false },
			contains: ["1 hit for the filters in sessions under /w.", "1. label · ", "branchState=alternate selectionState=not-selected"],
			absent: ["current session"],
		},
	])("$name", ({ result, view: v, contains, absent }) => {
		const out = formatSearchForModel(result, v);
		for (const s of contains) expect(out.text).toContain(s);
		for (const s of absent) expect(out.text).not.toContain(s);
		expect(out.truncated).toBe(false);
	});

	it.each([
		{ name: "bytes", limits: { maxBytes: 8 * 1024, maxLines: 2000 }, snippet: "é".repeat(1990) },
		{ name: "lines", limits: { maxBytes: 50 * 1024, maxLines: 40 }, snippet: "short" },
		{ name: "pi's own limits", limits: MODEL_OUTPUT_LIMITS, snippet: "界".repeat(2000) },
	])("cuts whole hits to stay within the $name limit and says so", ({ limits, snippet }) => {
		const hits = Array.from({ length: 50 }, (_, i) => hit({ entryId: `e${String(i).padStart(7, "0")}`, snippet, marks: [] }));
		const out = formatSearchForModel(searchResult(hits), view, limits);
		within(out.text, limits);
		expect(out.truncated).toBe(true);
		const shown = out.text.match(/^ {3}sessionId=/gm)?.length ?? 0;
		expect(shown).toBeGreaterThan(0);
		expect(shown).toBeLessThan(50);
		expect(out.text).toContain(`[output cut at ${shown} of 50 hits`);
	});
});

describe("formatReadForModel", () => {
	it.each([
		{
			name: "exact text, whitespace and all, between markers",
			read: readResult([fragment("line 1\n\tindented  twice\n\nend ")]),
			contains: [
				`event sessionId=${S} entryId=be96970a parentId=ff3da104`,
				"message role=toolResult toolName=bash isError=true · 2026-01-21T22:55:01Z · branchState=selected selectionState=direct contextRole=conversation",
				"source /home/alice/.pi/agent/sessions/x.jsonl line 6",
				"--- fragment tool.result:0 (tool.result) chars 0-29 of 29 ---\nline 1\n\tindented  twice\n\nend \n--- end tool.result:0 ---",
			],
			absent: ["more:", "[output cut"],
		},
		{
			name: "a window of a longer fragment says where to continue",
			read: readResult([fragment("abcdefghij", { range: [10, 20], totalChars: 95, truncated: true })]),
			contains: ["chars 10-20 of 95 · more: event_read fragmentId=tool.result:0 offset=20 ---\nabcdefghij\n--- end"],
			absent: ["[output cut"],
		},
		{
			name: "omitted parts, notes and neighbors in a named order",
			read: readResult([fragment("x")], {
				omitted: [{ path: "message.content[1]", reason: "image", bytes: 2048, mimeType: "image/png" }],
				notes: ["the source file was rewritten since indexing"],
				neighbors: {
					order: "append",
					before: [brief()],
					after: [brief({ sessionId: OTHER, entryId: "77", branchState: "alternate", kind: null, role: "user", preview: "next\nline" })],
					forkCandidates: [brief({ entryId: "f0rk" })],
					note: "file order",
				},
			}),
			contains: [
				"- the source file was rewritten since indexing",
				"not shown:\n- message.content[1]: image image/png (2048 bytes)",
				"neighbors in append order (same session): file order",
				'  before: entryId=ff3da104 tool.call · 2026-01-21T22:55:00Z · "edit src/retry.ts"',
				`  after: sessionId=${OTHER} entryId=77 message/user (alternate branch) · 2026-01-21T22:55:00Z · "next line"`,
				"  fork candidate: entryId=f0rk tool.call",
			],
			absent: [],
		},
	])("$name", ({ read, contains, absent }) => {
		const out = formatReadForModel(read);
		for (const s of contains) expect(out.text).toContain(s);
		for (const s of absent) expect(out.text).not.toContain(s);
	});

	it.each([
		{ name: "bytes, ASCII", limits: { maxBytes: 4096, maxLines: 2000 }, text: "a".repeat(12_000) },
		{ name: "bytes, CJK (3 bytes a character)", limits: MODEL_OUTPUT_LIMITS, text: "検索".repeat(9000) },
		{ name: "bytes, emoji (surrogate pairs)", limits: { maxBytes: 3001, maxLines: 2000 }, text: "🐢⚡".repeat(3000) },
		{ name: "lines", limits: MODEL_OUTPUT_LIMITS, text: "x\n".repeat(6000) },
	])("cuts a fragment within the $name limit at an offset it names, without splitting a character", ({ limits, text }) => {
		const start = 500;
		const out = formatReadForModel(
			readResult([
				fragment(text, { range: [start, start + text.length], totalChars: start + text.length + 10, truncated: true }),
				fragment("second", { id: "tool.result:1" }),
			]),
			limits,
		);
		within(out.text, limits);
		expect(out.truncated).toBe(true);
		const m = /continue with event_read fragmentId=tool\.result:0 offset=(\d+); not shown: fragment\(s\) tool\.result:1/.exec(out.text);
		expect(m, out.text.slice(-300)).not.toBeNull();
		const offset = Number(m?.[1]);
		expect(offset).toBeGreaterThan(start);
		const shown = text.slice(0, offset - start);
		expect(out.text).toContain(`---\n${shown}\n[output cut`);
		expect(out.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
	});
});

describe("formatTraceForModel", () => {
	const nodes = [brief(), brief({ sessionId: OTHER, entryId: "aa11", kind: "user.text", preview: "fork point", branchState: "alternate" })];
	it.each([
		{
			name: "same-session event",
			edge: { rel: "parent", to: { sessionId: S, entryId: "ff3da104" }, provenance: "recorded" },
			want: '- parent -> entryId=ff3da104 [recorded] · tool.call · "edit src/retry.ts"',
		},
		{
			name: "event of another session, incoming",
			edge: { rel: "fork-of", to: { sessionId: OTHER, entryId: "aa11" }, provenance: "derived", direction: "in", note: "copied" },
			want: `- fork-of <- sessionId=${OTHER} entryId=aa11 [derived] · user.text (alternate branch) · "fork point" (copied)`,
		},
		{
			name: "whole session",
			edge: { rel: "session-parent", to: { sessionId: OTHER, entryId: null }, provenance: "recorded" },
			want: `- session-parent -> session sessionId=${OTHER} [recorded]`,
		},
		{
			name: "file",
			edge: { rel: "file-changed", to: { file: "/w/src/retry.ts" }, provenance: "inferred" },
			want: "- file-changed -> file /w/src/retry.ts [inferred]",
		},
		{ name: "hidden", edge: { rel: "fork-of", to: { hidden: true }, provenance: "recorded" }, want: "- fork-of -> (not available) [recorded]" },
	] as Array<{ name: string; edge: TraceEdge; want: string }>)("$name", ({ edge, want }) => {
		const out = formatTraceForModel(traceResult([edge], nodes));
		expect(out.text).toContain(`trace of sessionId=${S} entryId=be96970a: tool.result · 2026-01-21T22:55:00Z · branchState=selected selectionState=direct`);
		expect(out.text).toContain('session "Fix retries" cwd /w · "ECONNREFUSED"');
		expect(out.text).toContain(want);
	});

	it("cuts whole edges within the limits and says how many were listed", () => {
		const edges: TraceEdge[] = Array.from({ length: 600 }, (_, i) => ({ rel: "child", to: { sessionId: S, entryId: `c${i}` }, provenance: "recorded" }));
		const limits = { maxBytes: 50 * 1024, maxLines: 200 };
		const out = formatTraceForModel(traceResult(edges), limits);
		within(out.text, limits);
		const shown = out.text.match(/^- child -> /gm)?.length ?? 0;
		expect(out.text).toContain(`[output cut at ${shown} of 600 edges`);
	});
});
