/** Test helpers for Ink components: key sequences, one key per write with a yield, frames without ANSI codes. */
import { stripVTControlCharacters } from "node:util";
import type { render } from "ink-testing-library";
import type { EventData } from "../../components/event/loaders.js";
import type { EventBrief, Hit, ReadResult, TraceEdge, TraceResult } from "../../src/shared/types.js";

/** What ink-testing-library's render returns. */
export type Rendered = ReturnType<typeof render>;

/** Escape sequences of the keys the explorer uses. */
export const KEYS = {
	up: "\u001B[A",
	down: "\u001B[B",
	right: "\u001B[C",
	left: "\u001B[D",
	pgup: "\u001B[5~",
	pgdn: "\u001B[6~",
	home: "\u001B[H",
	end: "\u001B[F",
	enter: "\r",
	esc: "\u001B",
	tab: "\t",
	backspace: "\u007F",
	ctrlC: "\u0003",
	ctrlU: "\u0015",
	f1: "\u001BOP",
} as const;

/** Lets React 19 flush effects and Ink re-register its input handler (Shopify's pattern). */
export async function tick(): Promise<void> {
	await new Promise<void>((resolve) => setImmediate(() => setTimeout(resolve, 0)));
}

/** The last frame as plain text. */
export function frame(r: Rendered): string {
	return stripVTControlCharacters(r.lastFrame() ?? "");
}

/** Sends one key and yields (twice for a lone Escape, which Ink flushes on setImmediate). */
export async function press(r: Rendered, key: string): Promise<void> {
	r.stdin.write(key);
	await tick();
	if (key === KEYS.esc) await tick();
	await tick();
}

/** Types text one character at a time. */
export async function type(r: Rendered, text: string): Promise<void> {
	for (const c of text) await press(r, c);
}

/** Polls the frame until it matches, or fails with the frame in the message. */
export async function waitForFrame(r: Rendered, test: string | RegExp | ((f: string) => boolean), timeoutMs = 20_000): Promise<string> {
	const ok = (f: string) => (typeof test === "string" ? f.includes(test) : test instanceof RegExp ? test.test(f) : test(f));
	const until = Date.now() + timeoutMs;
	for (;;) {
		const f = frame(r);
		if (ok(f)) return f;
		if (Date.now() > until) throw new Error(`frame did not match ${String(test)} within ${timeoutMs} ms:\n${f}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Plain data factories for reducer and view tests (props in, frames out: no database involved).

/** A hit with sensible defaults. */
export function makeHit(overrides: Partial<Hit> = {}): Hit {
	const sessionId = overrides.sessionId ?? "s1";
	return {
		sessionId,
		entryId: "e1",
		fragmentId: "user.text:0",
		entryType: "message",
		kind: "user.text",
		role: "user",
		timestamp: "2026-01-01T00:00:00.000Z",
		branchState: "selected",
		contextRole: "conversation",
		selectionState: "direct",
		score: 1,
		matchedFragments: 1,
		snippet: "fix the flaky test",
		marks: [[8, 13]],
		session: { id: sessionId, cwd: "/home/alice/code/app", file: "/x.jsonl" },
		...overrides,
	};
}

/** `n` hits with entry ids e0…e(n-1). */
export function makeHits(n: number, from = 0): Hit[] {
	return Array.from({ length: n }, (_, i) => makeHit({ entryId: `e${from + i}` }));
}

/** An event brief. */
export function brief(entryId: string, overrides: Partial<EventBrief> = {}): EventBrief {
	return {
		sessionId: "s1",
		entryId,
		entryType: "message",
		kind: "user.text",
		timestamp: "2026-01-01T00:00:00.000Z",
		branchState: "selected",
		preview: `preview of ${entryId}`,
		...overrides,
	};
}

/** Loaded event data for `entryId`, with trace edges and nodes, a text of `text`, and the given ancestors. */
export function makeEventData(
	entryId: string,
	options: {
		edges?: TraceEdge[];
		nodes?: EventBrief[];
		text?: string;
		totalChars?: number;
		ancestors?: EventBrief[];
		leaf?: string;
		appendBefore?: EventBrief;
		appendAfter?: EventBrief;
		branchState?: "selected" | "alternate";
	} = {},
): EventData {
	const text = options.text ?? "hello world";
	const self = brief(entryId, { branchState: options.branchState ?? "selected" });
	const classification = {
		branchState: self.branchState,
		contextRole: "conversation" as const,
		selectionState: "direct" as const,
		onMaterializedLeafPath: self.branchState === "selected",
		materializedLeafId: options.leaf ?? "leaf",
	};
	const read: ReadResult = {
		event: { sessionId: "s1", entryId, type: "message", timestamp: self.timestamp, message: { role: "user" } },
		fragments: [
			{
				id: "user.text:0",
				kind: "user.text",
				text,
				range: [0, text.length],
				totalChars: options.totalChars ?? text.length,
				truncated: (options.totalChars ?? text.length) > text.length,
			},
		],
		omitted: [],
		source: { file: "/x/s1.jsonl", line: 3, byteOffset: 100, byteLength: 200 },
		neighbors: { order: "branch", before: options.ancestors ?? [], after: [], forkCandidates: [] },
		classification,
		session: { id: "s1", cwd: "/home/alice/code/app", file: "/x/s1.jsonl" },
		notes: [],
	};
	const nodes: Record<string, EventBrief> = { [`s1/${entryId}`]: self };
	for (const n of options.nodes ?? []) nodes[`${n.sessionId}/${n.entryId}`] = n;
	const trace: TraceResult = { node: { ...self, classification, session: read.session }, edges: options.edges ?? [], nodes, notes: [] };
	return { read, trace, appendBefore: options.appendBefore ?? null, appendAfter: options.appendAfter ?? null, tails: {} };
}

/** A trace edge to an event of session s1 (or another session). */
export function edge(rel: TraceEdge["rel"], entryId: string, extra: Partial<TraceEdge> & { sessionId?: string } = {}): TraceEdge {
	const { sessionId, ...rest } = extra;
	return {
		rel,
		to: { sessionId: sessionId ?? "s1", entryId },
		provenance: rel === "sibling" || rel === "toward-leaf" || rel === "fork-of" ? "derived" : "recorded",
		...rest,
	};
}
