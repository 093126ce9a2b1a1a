import { describe, expect, it } from "vitest";
import { boundFragment, describeEntry, FRAGMENT_EDGE, FRAGMENT_INDEX_LIMIT, normalizeArguments, previewText, projectEntry } from "../src/project/entry.js";
import { scanEntry } from "../src/project/file-scan.js";
import type { ParsedEntry } from "../src/source/parse.js";

const entry = (raw: Record<string, unknown>): ParsedEntry => ({
	id: (raw.id as string) ?? "x",
	parentId: null,
	synthetic: false,
	type: raw.type as string,
	raw,
	lineNo: 2,
	offset: 0,
	length: 1,
	lineHash: "h",
});
const frags = (raw: Record<string, unknown>) => projectEntry(entry(raw)).fragments.map((f) => [f.id, f.text]);

// Shapes as pi 0.73.1 writes them (docs/design.md §10).
describe("projectEntry: one event per entry, fragments by semantic kind", () => {
	it.each([
		[
			"user text blocks",
			{
				type: "message",
				message: {
					role: "user",
					content: [
						{ type: "text", text: "hi" },
						{ type: "image", data: "AAAA", mimeType: "image/png" },
						{ type: "text", text: "there" },
					],
				},
			},
			[
				["user.text:0", "hi"],
				["user.text:2", "there"],
			],
		],
		["user string content", { type: "message", message: { role: "user", content: "plain" } }, [["user.text:0", "plain"]]],
		[
			"assistant text and tool calls, never thinking",
			{
				type: "message",
				message: {
					role: "assistant",
					content: [
						{ type: "thinking", thinking: "secret plan", thinkingSignature: "sig" },
						{ type: "text", text: "Looking." },
						{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } },
					],
				},
			},
			[
				["assistant.text:1", "Looking."],
				["tool.call:2", "bash\ncommand: npm test"],
			],
		],
		[
			"assistant error reply",
			{ type: "message", message: { role: "assistant", content: [], stopReason: "error", errorMessage: "529 overloaded" } },
			[["assistant.error:0", "529 overloaded"]],
		],
		[
			"tool result text only, no details",
			{
				type: "message",
				message: {
					role: "toolResult",
					toolCallId: "c1",
					toolName: "read",
					content: [{ type: "text", text: "file body" }],
					details: { secret: "d" },
					isError: false,
				},
			},
			[["tool.result:0", "file body"]],
		],
		[
			"bash execution",
			{ type: "message", message: { role: "bashExecution", command: "ls", output: "a\nb", exitCode: 1 } },
			[
				["bash.command:0", "ls"],
				["bash.output:0", "a\nb"],
			],
		],
		[
			"v3 custom role and v2 hookMessage",
			{ type: "message", message: { role: "hookMessage", customType: "x", content: "hook text" } },
			[
				["custom.message:0", "hook text"],
				["custom.message:type", "x"],
			],
		],
		[
			"custom_message entry",
			{ type: "custom_message", customType: "note", content: [{ type: "text", text: "visible" }], display: true, details: { k: "hidden" } },
			[
				["custom.message:0", "visible"],
				["custom.message:type", "note"],
			],
		],
		[
			"compaction summary",
			{ type: "compaction", summary: "## Goal", firstKeptEntryId: "a", tokensBefore: 1, details: { readFiles: ["a.ts"] } },
			[["summary.compaction:0", "## Goal"]],
		],
		["branch summary", { type: "branch_summary", fromId: "b", summary: "explored" }, [["summary.branch:0", "explored"]]],
		["session name", { type: "session_info", name: "Fix webhook" }, [["session.name:0", "Fix webhook"]]],
		["custom entry data is never searchable", { type: "custom", customType: "state", data: { note: "secret" } }, []],
		["labels are metadata, not text", { type: "label", targetId: "a", label: "important" }, []],
		["model and thinking-level changes have no text", { type: "model_change", provider: "p", modelId: "m" }, []],
		["unknown types stay opaque", { type: "hologram", payload: { text: "nope" } }, []],
		["unknown roles stay opaque", { type: "message", message: { role: "robot", content: "nope" } }, []],
	])("%s", (_name, raw, expected) => {
		expect(frags(raw)).toEqual(expected);
	});

	it("leaves the entry it projects untouched", () => {
		const raw = {
			type: "message",
			message: {
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "t" },
					{ type: "text", text: "a" },
					{ type: "toolCall", id: "c", name: "read", arguments: { path: "x", edits: [{ oldText: "o" }] } },
				],
			},
		};
		const before = structuredClone(raw);
		const deepFreeze = (v: unknown): void => {
			if (v && typeof v === "object") {
				for (const x of Object.values(v)) deepFreeze(x);
				Object.freeze(v);
			}
		};
		deepFreeze(raw);
		// Frozen: any write into the entry throws (ES modules are strict); afterwards it is still what pi wrote.
		const projected = projectEntry(entry(raw), "/w");
		expect(projected.fragments.map((f) => [f.id, f.text])).toEqual([
			["assistant.text:1", "a"],
			["tool.call:2", "read\npath: x\nedits[0].oldText: o"],
		]);
		expect(raw).toEqual(before);
	});

	it.each([
		["toolResult", { role: "toolResult", toolName: "bash", isError: true, content: [] }, { toolName: "bash", isError: true }],
		["assistant error", { role: "assistant", stopReason: "error", content: [] }, { isError: true, stopReason: "error" }],
		["bash non-zero exit", { role: "bashExecution", command: "x", output: "", exitCode: 2 }, { isError: true, exitCode: 2 }],
		["bash cancelled without exit code", { role: "bashExecution", command: "x", output: "", cancelled: true }, { isError: false, exitCode: null }],
	])("error state of %s", (_name, message, expected) => {
		expect(projectEntry(entry({ type: "message", message }))).toMatchObject(expected);
	});

	it("infers file evidence from read/edit/write calls and summary details, resolving relative paths", () => {
		const call = projectEntry(
			entry({
				type: "message",
				message: {
					role: "assistant",
					content: [
						{ type: "toolCall", id: "1", name: "read", arguments: { path: "src/a.ts" } },
						{ type: "toolCall", id: "2", name: "edit", arguments: { path: "/abs/b.ts" } },
					],
				},
			}),
			"/work/p",
		);
		expect(call.files).toEqual([
			{ path: "/work/p/src/a.ts", rel: "read", via: "tool.call:0" },
			{ path: "/abs/b.ts", rel: "changed", via: "tool.call:1" },
		]);
		const summary = projectEntry(
			entry({ type: "compaction", summary: "s", firstKeptEntryId: "a", details: { readFiles: ["x.ts"], modifiedFiles: ["y.ts"] } }),
			"C:\\w",
		);
		expect(summary.files.map((f) => [f.path, f.rel])).toEqual([
			["C:\\w\\x.ts", "read"],
			["C:\\w\\y.ts", "changed"],
		]);
	});
});

describe("arguments, bounds and omissions", () => {
	it("flattens nested tool arguments into readable key: value lines", () => {
		expect(normalizeArguments({ path: "a.ts", edits: [{ oldText: "x", newText: "y" }], n: 3, on: true })).toBe(
			"path: a.ts\nedits[0].oldText: x\nedits[0].newText: y\nn: 3\non: true",
		);
		expect(normalizeArguments('{"command":"ls"}')).toBe("command: ls");
		expect(normalizeArguments("not json")).toBe("not json");
	});

	it("previews collapse every kind of white space, trim, and cut with an ellipsis", () => {
		// Hand-checked: line breaks, tabs, no-break, ideographic and BOM spaces all count as white space (as \s does).
		expect(previewText("\n\t  run\u00a0 the\r\n\u3000tests\ufeff \u2028")).toBe("run the tests");
		expect(previewText("abc def", 5)).toBe("abc …");
		expect(previewText("  abcd  ", 4)).toBe("abcd");
		expect(previewText("ab   cd", 5)).toBe("ab cd");
		expect(previewText("ab   cde", 5)).toBe("ab c…");
		// Only the start is looked at: a long text costs what its first characters cost.
		expect(previewText(`${" ".repeat(700)}late`)).toBe("");
		expect(previewText(`word ${"x".repeat(10_000)}`)).toBe(`word ${"x".repeat(154)}…`);
	});

	it("keeps fragments up to the limit whole, and head and tail beyond it (I20)", () => {
		expect(boundFragment("a".repeat(FRAGMENT_INDEX_LIMIT)).omitted).toBeNull();
		const big = `${"h".repeat(FRAGMENT_EDGE)}${"m".repeat(1000)}${"t".repeat(FRAGMENT_EDGE)}`;
		const b = boundFragment(big);
		expect(b.omitted).toEqual([FRAGMENT_EDGE, FRAGMENT_EDGE + 1000]);
		expect(b.head).toBe("h".repeat(FRAGMENT_EDGE));
		expect(b.tail).toBe("t".repeat(FRAGMENT_EDGE));
	});

	it("lists what a read leaves out: images, thinking, signatures, details, custom data", () => {
		const { metadata, omitted } = describeEntry(
			entry({
				type: "message",
				id: "m1",
				message: {
					role: "assistant",
					model: "claude",
					content: [
						{ type: "thinking", thinking: "abc", thinkingSignature: "SIG" },
						{ type: "text", text: "t", textSignature: "TS" },
					],
					usage: { input: 1 },
				},
			}),
		);
		expect(omitted.map((o) => [o.path, o.reason])).toEqual([
			["message.content.0.thinking", "thinking (private reasoning, never shown or indexed)"],
			["message.content.0.thinkingSignature", "signature"],
			["message.content.1.textSignature", "signature"],
		]);
		expect(metadata).toMatchObject({ id: "m1", message: { role: "assistant", model: "claude", usage: { input: 1 } } });
		expect(JSON.stringify(metadata)).not.toContain("abc");
		const img = describeEntry(entry({ type: "message", message: { role: "user", content: [{ type: "image", data: "QUJD", mimeType: "image/png" }] } }));
		expect(img.omitted).toEqual([{ path: "message.content.0", reason: "image", mimeType: "image/png", bytes: 3 }]);
		const custom = describeEntry(entry({ type: "custom", customType: "s", data: { x: 1 } }));
		expect(custom.omitted[0]).toMatchObject({ path: "data", reason: expect.stringMatching(/custom data/) });
	});

	it("never indexes the results of pi-event-search's own tools, but still reads them", () => {
		const raw = {
			type: "message",
			message: { role: "toolResult", toolCallId: "c", toolName: "event_search", content: [{ type: "text", text: "3 hits: …" }], isError: false },
		};
		expect(scanEntry(entry(raw), "/w").fts).toEqual([]);
		expect(frags(raw)).toEqual([["tool.result:0", "3 hits: …"]]);
	});
});
