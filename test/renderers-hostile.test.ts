/**
 * I21 for pi's screen: every tool's call line and result (collapsed, expanded, error) is drawn from the model's
 * arguments and from session text, both attacker-controlled, so none may carry a raw terminal control (issue 32 item 4).
 */
import type { AgentToolResult, ExtensionContext, Theme, ToolDefinition } from "@mariozechner/pi-coding-agent";
import type { TSchema } from "typebox";
import { describe, expect, it } from "vitest";
import { createExtension, type ExtensionRegistrar } from "../src/extension/index.js";

type AnyTool = ToolDefinition<TSchema, unknown>;

/** ESC, BEL, C1 CSI/OSC, RLO, a CSI screen edit, an OSC 8 link, an OSC 52 clipboard write, CR/BS overwrites. */
const HOSTILE =
	"a\u001b[2J\u001b[31mred\u0007b\u009b31m\u009d0;t\u0007c\u202egnp.exe\u001b]8;;http://x\u001b\\l\u001b]8;;\u001b\\\u001b]52;c;aGk=\u0007\rz\bq\u2066";
/** A raw control or bidi character a terminal would act on. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function tools(): Map<string, AnyTool> {
	const out = new Map<string, AnyTool>();
	let start: ((event: unknown, ctx: ExtensionContext) => unknown) | undefined;
	const registrar = {
		registerTool: (tool: AnyTool) => void out.set(tool.name, tool),
		getAllTools: () => [],
		on: (event: string, handler: (event: unknown, ctx: ExtensionContext) => unknown) => {
			if (event === "session_start") start = handler;
		},
	};
	createExtension({ sessionSearchTool: true, log: () => {} })(registrar as unknown as ExtensionRegistrar);
	start?.({ type: "session_start" }, { hasUI: false } as unknown as ExtensionContext);
	return out;
}

const theme = { fg: (_c: string, s: string) => s, bold: (s: string) => s } as unknown as Theme;
const ctx = (isError: boolean) => ({ lastComponent: undefined, isError, expanded: false, isPartial: false }) as never;

const ARGS: Record<string, Record<string, unknown>> = {
	event_search: { query: HOSTILE, kinds: [HOSTILE], cwd: HOSTILE, after: HOSTILE, sessionId: HOSTILE },
	event_read: { sessionId: HOSTILE, entryId: HOSTILE, fragmentId: HOSTILE, offset: 3 },
	event_trace: { sessionId: HOSTILE, entryId: HOSTILE },
	session_search: { query: HOSTILE, limit: 3, cwd: HOSTILE, after: HOSTILE, before: HOSTILE, snippetChars: HOSTILE },
};

const hit = { sessionId: HOSTILE, entryId: HOSTILE, kind: HOSTILE, entryType: HOSTILE };
const DETAILS: Record<string, unknown> = {
	event_search: { hits: [hit, hit], index: { pending: 0 }, notes: [] },
	event_read: { event: { type: HOSTILE, entryId: HOSTILE }, session: { id: HOSTILE }, fragments: [{ text: HOSTILE, truncated: false }], omitted: [] },
	event_trace: { edges: [{ rel: HOSTILE }, { rel: HOSTILE }] },
	session_search: { count: 1 },
};

describe("tool renderers with hostile arguments and results (I21)", () => {
	const all = tools();

	it("registers all four tools", () => {
		expect([...all.keys()].sort()).toEqual(["event_read", "event_search", "event_trace", "session_search"]);
	});

	for (const name of Object.keys(ARGS)) {
		it(`${name}: the call line and every result view carry no raw control`, () => {
			const tool = all.get(name) as AnyTool;
			const lines: string[] = [];
			lines.push(...(tool.renderCall?.(ARGS[name] as never, theme, ctx(false)).render(400) ?? []));
			const result: AgentToolResult<unknown> = { content: [{ type: "text", text: `hits:\n${HOSTILE}\n${HOSTILE}` }], details: DETAILS[name] };
			for (const expanded of [false, true]) lines.push(...(tool.renderResult?.(result, { expanded, isPartial: false }, theme, ctx(false)).render(400) ?? []));
			lines.push(...(tool.renderResult?.(result, { expanded: false, isPartial: false }, theme, ctx(true)).render(400) ?? []));
			expect(lines.length).toBeGreaterThan(2);
			for (const line of lines) expect(line).not.toMatch(RAW);
			// The hostile text is still shown, made visible.
			expect(lines.join("\n")).toContain("␛[2J");
		});
	}
});
