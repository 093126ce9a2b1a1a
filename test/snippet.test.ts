import { describe, expect, it } from "vitest";
import { tokenize } from "../src/project/tokens.js";
import { parseQuery, type QueryTerm } from "../src/query/query-parse.js";
import { buildSnippet, CUT, findMatches } from "../src/query/snippet.js";

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

/** Every match of the terms in the whole text, from its whole token stream: what findMatches may report. */
function everyMatch(text: string, terms: QueryTerm[]): string[] {
	const tokens = tokenize(text, true);
	const main = tokens.filter((t) => t.role !== "part");
	const out: string[] = [];
	terms.forEach((term, ti) => {
		const n = term.tokens.length;
		for (let i = 0; i + n <= main.length; i++)
			if (term.tokens.every((want, k) => main[i + k]?.text === want)) out.push(`${main[i]?.start}:${main[i + n - 1]?.end}:${ti}`);
		if (n === 1) for (const t of tokens) if (t.role === "part" && t.text === term.tokens[0]) out.push(`${t.start}:${t.end}:${ti}`);
	});
	return out;
}

describe("findMatches", () => {
	it("reports only true matches, never misses the first one nor any term, in long texts of every kind", () => {
		let seed = 7;
		const next = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return Math.floor(seed / 65536) % n;
		};
		const words = [
			"retry",
			"with",
			"backoff",
			"Cannot",
			"read",
			"ECONNREFUSED",
			"handleWebhook",
			"ÉRROR",
			"Ｅrror",
			"error",
			"cafe\u0301",
			"内存泄漏",
			"lorem",
			"ipsum",
		];
		const separators = [" ", "  ", "_", ".", "\n", "-", "/", ""];
		const queries = [
			"error",
			"retry_with_backoff",
			'"cannot read"',
			"webhook",
			"econnrefused",
			"cafe",
			"内存",
			"ipsum lorem",
			"read",
			"with error cafe",
			"lorem 内存 webhook",
		];
		let found = 0;
		for (let round = 0; round < 60; round++) {
			const parts: string[] = [];
			// Mostly filler, so the matches sit deep in the text, past many chunks.
			const length = 500 + next(4000);
			for (let i = 0; i < length; i++)
				parts.push(next(8) === 0 ? (words[next(words.length)] as string) : "lorem", separators[next(separators.length)] as string);
			// A word held once, late, in most texts: found however far behind the other terms it is.
			const late = next(4) === 0 ? "" : `${" lorem".repeat(next(3000))} Zebrafish`;
			const text = parts.join("") + late;
			for (const query of queries) {
				const terms = parseQuery(query).terms;
				const all = everyMatch(text, terms);
				const got = findMatches(text, terms).map((m) => `${m.start}:${m.end}:${m.term}`);
				for (const m of got) expect(all, `${query} in round ${round}`).toContain(m);
				const key = (m: string) => m.split(":").map(Number) as [number, number, number];
				const first = (list: string[]) => [...list].sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1] || key(a)[2] - key(b)[2])[0];
				expect(first(got), `${query} in round ${round}`).toBe(first(all));
				// Every term the text holds is found, however late its first match.
				const termsOf = (list: string[]) => [...new Set(list.map((m) => key(m)[2]))].sort();
				expect(termsOf(got), `${query} in round ${round}`).toEqual(termsOf(all));
				if (got.length > 0) found++;
			}
		}
		expect(found).toBeGreaterThan(200);
	});
});
