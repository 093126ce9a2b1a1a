import { describe, expect, it } from "vitest";
import { documentText, GAP_TOKEN, queryTokens, tokenize } from "../src/project/tokens.js";

const texts = (s: string) => tokenize(s).map((t) => [t.text, t.role]);

describe("tokenize", () => {
	it.each([
		[
			"plain words fold to lower case",
			"Hello World",
			[
				["hello", "whole"],
				["world", "whole"],
			],
		],
		[
			"camelCase keeps the whole word, then its parts",
			"handleWebhook",
			[
				["handlewebhook", "whole"],
				["handle", "part"],
				["webhook", "part"],
			],
		],
		[
			"acronym seams split before the last capital",
			"XMLHttpRequest",
			[
				["xmlhttprequest", "whole"],
				["xml", "part"],
				["http", "part"],
				["request", "part"],
			],
		],
		[
			"snake_case splits on the underscore",
			"retry_with_backoff",
			[
				["retry", "whole"],
				["with", "whole"],
				["backoff", "whole"],
			],
		],
		["error codes stay one word", "ECONNREFUSED", [["econnrefused", "whole"]]],
		[
			"paths split on separators",
			"src/App.tsx",
			[
				["src", "whole"],
				["app", "whole"],
				["tsx", "whole"],
			],
		],
		[
			"diacritics and full-width forms fold",
			"Ｅrror café",
			[
				["error", "whole"],
				["cafe", "whole"],
			],
		],
		[
			"CJK runs become overlapping bigrams",
			"検索エンジン",
			[
				["検索", "cjk"],
				["索エ", "cjk"],
				["エン", "cjk"],
				["ンジ", "cjk"],
				["ジン", "cjk"],
			],
		],
		["a lone CJK character stays itself", "猫", [["猫", "cjk"]]],
		[
			"CJK next to digits splits into segments",
			"水獭00010号",
			[
				["水獭", "cjk"],
				["00010", "whole"],
				["号", "cjk"],
			],
		],
	])("%s", (_name, input, expected) => {
		expect(texts(input)).toEqual(expected);
	});

	it("gives every emoji a token of its own and drops variation selectors", () => {
		const tokens = tokenize("deploy 🚀⚡️ done");
		expect(tokens.map((t) => t.role)).toEqual(["whole", "emoji", "emoji", "whole"]);
		expect(tokenize("🚀")[0]?.text).toBe(tokens[1]?.text);
		expect(tokens[1]?.text).not.toBe(tokens[2]?.text);
	});

	it("splits ASCII punctuation, symbols and digits the same way in ASCII text and beside other scripts", () => {
		// Every printable ASCII character between words: only letters and digits belong to a word.
		const ascii = `a!b"c#d$e%f&g'h(i)j*k+l,m-n.o/p:q;r<s=t>u?v@w[x\\y]z^A_B\`C{D|E}F~G 0 9x`;
		const letters = [..."abcdefghijklmnopqrstuvwxyz", ..."abcdefg", "0", "9x"];
		expect(texts(ascii)).toEqual(letters.map((w) => [w, "whole"]));
		// The same text after a CJK word: the ASCII part splits alike.
		expect(texts(`検索 ${ascii}`).slice(1)).toEqual(letters.map((w) => [w, "whole"]));
		const spans = tokenize("retry_with_backoff(x2, 127.0.0.1)").map((t) => [t.start, t.end]);
		expect(spans).toEqual([
			[0, 5],
			[6, 10],
			[11, 18],
			[19, 21],
			[23, 26],
			[27, 28],
			[29, 30],
			[31, 32],
		]);
	});

	it("reports source spans that slice back to the original text", () => {
		const text = "Fix handleWebhook in 検索エンジン now";
		const spans = tokenize(text).map((t) => text.slice(t.start, t.end));
		expect(spans).toEqual(["Fix", "handleWebhook", "handle", "Webhook", "in", "検索", "索エ", "エン", "ンジ", "ジン", "now"]);
		const whole = tokenize(text).find((t) => t.text === "handlewebhook");
		expect(whole && text.slice(whole.start, whole.end)).toBe("handleWebhook");
	});

	it("folds every character of the common CJK blocks the way NFKC does (the fast path skips normalize for them)", () => {
		const blocks: Array<[number, number]> = [
			[0x3041, 0x30ff],
			[0x3400, 0x4dbf],
			[0x4e00, 0x9fff],
			[0xac00, 0xd7af],
			[0xf900, 0xfaff],
		];
		let checked = 0;
		for (const [a, b] of blocks) {
			for (let cp = a; cp <= b; cp++) {
				const c = String.fromCodePoint(cp);
				// Paired with 漢, so every character of a block gives one bigram; NFKC is the platform's own oracle.
				const got = tokenize(`漢${c}`).map((t) => t.text);
				const folded = c.normalize("NFKC").replace(/[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]/g, "");
				if (tokenize(c)[0]?.role !== "cjk" || folded.length === 0) continue;
				expect(got[0]).toBe(`漢${folded}`);
				checked++;
			}
		}
		expect(checked).toBeGreaterThan(39_000);
	});

	it("never produces the gap token from text", () => {
		expect(tokenize(`a ${GAP_TOKEN} b \u{F0001}`).map((t) => t.text)).toEqual(["a", "b"]);
	});
});

describe("documentText", () => {
	it("passes ASCII through and appends camelCase parts after a gap", () => {
		const doc = documentText("call handleWebhook now");
		expect(doc.startsWith("call handleWebhook now")).toBe(true);
		expect(doc).toContain(`${GAP_TOKEN} handle webhook`);
	});
	it("writes non-ASCII text as folded tokens", () => {
		expect(documentText("Café 検索").trim().split(/\s+/)).toEqual(["cafe", "検索"]);
	});
	it("query tokens never contain camelCase parts", () => {
		expect(queryTokens("handleWebhook failed").map((t) => t.text)).toEqual(["handlewebhook", "failed"]);
	});
});
