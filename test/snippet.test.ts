import { describe, expect, it } from "vitest";
import { parseQuery } from "../src/query/query-parse.js";
import { buildSnippet, CUT } from "../src/query/snippet.js";

const marked = (text: string, query: string, max = 80, omitted: [number, number] | null = null) => {
	const s = buildSnippet(text, parseQuery(query).terms, max, omitted);
	return { ...s, spans: s.marks.map(([a, b]) => s.snippet.slice(a, b)) };
};

describe("buildSnippet", () => {
	it("marks every match span and stays within the budget", () => {
		const text = `${"lorem ipsum ".repeat(40)}the server said ECONNREFUSED on port 5432 ${"dolor sit ".repeat(40)}`;
		const s = marked(text, "econnrefused port", 60);
		expect(s.snippet.length).toBeLessThanOrEqual(60);
		expect(s.spans).toEqual(["ECONNREFUSED", "port"]);
		expect(s.snippet.startsWith(CUT)).toBe(true);
		expect(s.snippet.endsWith(CUT)).toBe(true);
	});

	it("finds a match in a 128 KiB tail however its word is written (case, accents, fullwidth, camelCase part)", () => {
		const filler = "lorem ipsum dolor sit amet ".repeat(5000);
		for (const [word, query] of [
			["ECONNREFUSED", "econnrefused"],
			["ÉRROR", "error"],
			["Ｅrror", "error"],
			["handleWebhook", "webhook"],
		] as const) {
			const text = `${filler.slice(0, 131072)}${filler.slice(0, 100000)} ${word} ${filler.slice(0, 30000)}`;
			const s = marked(text, query, 80, [131072, 131072]);
			expect(s.spans.map((m) => m.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase())).toEqual([word === "handleWebhook" ? "webhook" : query]);
		}
		// No match in either part: the snippet is the head's start.
		expect(marked(`${filler}${filler}`, "absentword", 40, [131072, 131072]).marks).toEqual([]);
	});

	it("finds a CJK phrase deep in prose without spaces, split only where no token is cut", () => {
		// 60,000 characters of CJK prose with punctuation but no whitespace; the phrase sits near the end and once
		// across the first chunk's edge (2 KiB), so a chunk cut through a run of CJK would lose it.
		const prose = "我们检查了服务的日志，发现请求超时。".repeat(3400);
		const text = `${prose.slice(0, 2040)}内存泄漏${prose.slice(2040)}结论：内存泄漏在工作线程。`;
		const s = marked(text, "内存泄漏", 40);
		expect(s.spans).toEqual(["内存泄漏"]);
		const deep = marked(`${prose}最后发现内存泄漏。`, "内存泄漏", 40);
		expect(deep.spans).toEqual(["内存泄漏"]);
		expect(deep.snippet).toContain("最后发现内存泄漏");
	});

	it("normalizes whitespace and keeps marks aligned", () => {
		const s = marked("first\n\n   line\tthen   handleWebhook\nfails", "webhook", 200);
		expect(s.snippet).toBe("first line then handleWebhook fails");
		expect(s.spans).toEqual(["Webhook"]);
	});

	it("marks phrases as one span and CJK substrings exactly", () => {
		expect(marked("we saw connection refused twice", '"connection refused"').spans).toEqual(["connection refused"]);
		expect(marked("調査の結果、検索エンジンが落ちた", "エンジン").spans).toEqual(["エンジン"]);
	});

	it("never shows text from across an omission gap and names the gap", () => {
		const head = `${"a ".repeat(50)}needle at the end of the head`;
		const text = `${head}${"X".repeat(1000)}tail text after the gap`;
		const s = marked(text, "needle", 200, [head.length, head.length + 1000]);
		expect(s.snippet).not.toContain("tail text");
		expect(s.snippet).not.toContain("XXX");
		expect(s.snippet).toMatch(/\[1000 chars omitted\]$/);
		expect(s.spans).toEqual(["needle"]);
		const t = marked(text, "tail", 200, [head.length, head.length + 1000]);
		expect(t.snippet.startsWith("[1000 chars omitted]")).toBe(true);
		expect(t.snippet).not.toContain("needle");
	});

	it("falls back to the start of the text when nothing matches", () => {
		const s = marked("short text", "absent", 80);
		expect(s.snippet).toBe("short text");
		expect(s.marks).toEqual([]);
	});

	it("highlights a prefix in interactive mode", () => {
		const s = buildSnippet("retry_with_backoff exhausted", parseQuery("backo", { prefix: true }).terms, 80);
		expect(s.marks.map(([a, b]) => s.snippet.slice(a, b))).toEqual(["backoff"]);
	});
});
