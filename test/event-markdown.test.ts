/**
 * Events as Markdown (the explorer's `m` copy and `E` branch export), against hand-written expected Markdown: the
 * metadata list, one fenced block per fragment, fences no backtick run in the text can close, inline code that
 * survives backticks, control characters as visible symbols, cut fragments and omitted parts said, branch order.
 */
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { branchMarkdown, eventMarkdown, fence, inlineCode } from "../src/present/event-markdown.js";
import type { FragmentWindow, ReadResult } from "../src/shared/types.js";

const S = "019be2c2-9f33-7094-a319-1274f826a4f8";

function frag(text: string, over: Partial<FragmentWindow> = {}): FragmentWindow {
	return { id: "user.text:0", kind: "user.text", text, range: [0, text.length], totalChars: text.length, truncated: false, ...over };
}

function read(entryId: string, role: string, fragments: FragmentWindow[], over: Partial<ReadResult> = {}): ReadResult {
	return {
		event: { sessionId: S, entryId, type: "message", timestamp: "2026-01-21T22:55:01.123Z", message: { role } },
		fragments,
		omitted: [],
		source: { file: "/h/.pi/agent/sessions/--w--/s.jsonl", line: 3, byteOffset: 100, byteLength: 80 },
		neighbors: { order: "branch", before: [], after: [], forkCandidates: [] },
		classification: { branchState: "selected", contextRole: "conversation", selectionState: "direct", onMaterializedLeafPath: true, materializedLeafId: "x" },
		session: { id: S, cwd: "/w/app", name: "fix login", file: "/h/.pi/agent/sessions/--w--/s.jsonl" },
		notes: [],
		...over,
	};
}

const META = (entryId: string) => [
	`- ref: \`${S} ${entryId}\``,
	"- session: `fix login` in `/w/app`",
	"- state: selected branch · direct",
	"- source: `/h/.pi/agent/sessions/--w--/s.jsonl:3`",
];

describe("inlineCode and fence", () => {
	const cases: Array<[string, string, string]> = [
		["plain", "abc", "`abc`"],
		["one backtick inside", "a`b", "``a`b``"],
		["starts with a backtick", "`x", "`` `x ``"],
		["newline and ESC become symbols", "a\nb\u001b[2J", "`a␊b␛[2J`"],
		["empty", "", "` `"],
	];
	it.each(cases)("inlineCode: %s", (_name, input, expected) => expect(inlineCode(input)).toBe(expected));

	const fences: Array<[string, string, string]> = [
		["plain text gets a newline before the fence", "hello", "```text\nhello\n```"],
		["a ``` line in the text gets a longer fence", "a\n```\nb\n", "````text\na\n```\nb\n````"],
		["a run of five backticks", "x `````` y", "```````text\nx `````` y\n```````"],
		["controls are visible, tabs and newlines kept", "\tin\u0007\r\n", "```text\n\tin␇␍\n```"],
	];
	it.each(fences)("fence: %s", (_name, input, expected) => expect(fence(input)).toBe(expected));

	it("no text can close the fence early: a Markdown parser sees one code block with the exact (neutralized) text", () => {
		for (const text of ["```\n# not a heading\n```", "````\n`````\n~~~\n", "<script>x</script>\n```js"]) {
			// marked (pi's own Markdown parser, a CommonMark/GFM lexer) sees one code block holding the whole text.
			const tokens = marked.lexer(fence(text)).filter((t) => t.type !== "space");
			expect(tokens.map((t) => t.type)).toEqual(["code"]);
			expect((tokens[0] as { text: string }).text).toBe(text.replace(/\n$/, ""));
		}
	});
});

describe("eventMarkdown", () => {
	it("one fragment: heading, metadata, one block", () => {
		expect(eventMarkdown(read("be96970a", "user", [frag("Why does `npm test` fail?")]))).toBe(
			["## message/user · 2026-01-21T22:55:01.123Z", "", ...META("be96970a"), "", "```text", "Why does `npm test` fail?", "```", ""].join("\n"),
		);
	});

	it("several fragments are labelled; a cut one says which characters it has; omitted parts are listed", () => {
		const r = read(
			"a1b2c3d4",
			"assistant",
			[
				frag("Let me look.", { id: "assistant.text:0", kind: "assistant.text" }),
				frag("ls -la", { id: "tool.call:1", kind: "tool.call", range: [0, 6], totalChars: 900 }),
			],
			{
				omitted: [{ path: "content[2]", reason: "image", mimeType: "image/png", bytes: 12 }],
				classification: {
					branchState: "alternate",
					contextRole: "conversation",
					selectionState: "summarized",
					onMaterializedLeafPath: false,
					materializedLeafId: "x",
				},
			},
		);
		expect(eventMarkdown(r)).toBe(
			[
				"## message/assistant · 2026-01-21T22:55:01.123Z",
				"",
				`- ref: \`${S} a1b2c3d4\``,
				"- session: `fix login` in `/w/app`",
				"- state: alternate branch · summarized (alternate branch; summarized)",
				"- source: `/h/.pi/agent/sessions/--w--/s.jsonl:3`",
				"- not shown: `content[2]` (image, image/png)",
				"",
				"`assistant.text` (fragment `assistant.text:0`)",
				"",
				"```text",
				"Let me look.",
				"```",
				"",
				"`tool.call` (fragment `tool.call:1`)",
				"",
				"```text",
				"ls -la",
				"```",
				"",
				"*(characters 0–6 of 900)*",
				"",
			].join("\n"),
		);
	});

	it("hostile text stays data: an OSC 52 write and a closing fence inside the text are inert", () => {
		const md = eventMarkdown(read("e1", "toolResult", [frag("ok\n```\n\u001b]52;c;ZXZpbA==\u0007\n")]));
		expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
		expect(md).toContain("````text\nok\n```\n␛]52;c;ZXZpbA==␇\n````");
	});
});

describe("branchMarkdown", () => {
	it("root first, numbered in branch order, with the session and file", () => {
		const events = [
			read("r00t0001", "user", [frag("start")]),
			read("c41d0002", "assistant", [frag("done", { id: "assistant.text:0", kind: "assistant.text" })]),
		];
		expect(branchMarkdown(events)).toBe(
			[
				`# Branch of fix login (\`${S}\`): root → \`c41d0002\``,
				"",
				"2 events in branch order, from the root to the event. Session file: `/h/.pi/agent/sessions/--w--/s.jsonl`.",
				"",
				"## 1/2 · message/user · 2026-01-21T22:55:01.123Z",
				"",
				...META("r00t0001"),
				"",
				"```text",
				"start",
				"```",
				"",
				"## 2/2 · message/assistant · 2026-01-21T22:55:01.123Z",
				"",
				...META("c41d0002"),
				"",
				"```text",
				"done",
				"```",
				"",
			].join("\n"),
		);
	});
});
