/** Cell widths, truncation and wrapping: CJK, emoji and control characters must never break a line's width. */
import fc from "fast-check";
import stringWidthRef from "string-width";
import { describe, expect, it } from "vitest";
import { findRanges, fitLine, lineText, lineWidth, markRanges, seg } from "../components/core/styled.js";
import {
	clusters,
	clusterWidth,
	fit as fitWidth,
	oneLine,
	plain,
	sanitizeLine,
	stringWidth,
	truncate,
	withClusterWidth,
	wrapLine,
} from "../components/core/text-width.js";
import { hitRows, normalizeSnippet, queryLine } from "../components/search/search-view.js";
import { makeHit } from "./helpers/ink.js";

const SAMPLES = [
	"plain ascii",
	"银色水獭00010号 finished",
	"銀色のカワウソ00001",
	"プロジェクト/検索エンジン",
	"🐢⚡00013",
	"👨‍👩‍👧 family",
	"e\u0301cole (combining)",
	"ｶﾀｶﾅ half-width",
	"한국어 텍스트",
	"→ arrows ← and • bullets",
	"keycap 1\u20e3",
	"zero\u200bwidth",
	"tab\there",
];

describe("stringWidth", () => {
	it.each(SAMPLES)("agrees with string-width (what Ink measures with): %s", (s) => {
		expect(stringWidth(s)).toBe(stringWidthRef(s));
	});

	it.each<[string, number]>([
		["abc", 3],
		["青铜", 4],
		["🐢", 2],
		["", 0],
	])("%j is %i cells", (s, w) => {
		expect(stringWidth(s)).toBe(w);
	});

	it("keeps grapheme clusters together", () => {
		expect(clusters("e\u0301x")).toEqual(["e\u0301", "x"]);
	});

	// Inside pi the host's widths measure clusters of several code points; `measured` records what it was asked.
	it.each<[string, number, string[]]>([
		["⚠\ufe0f ok", 5 + 3, ["⚠\ufe0f"]],
		["a👍🏽b", 5 + 2, ["👍🏽"]],
		["👨‍👩‍👧 family", 5 + 7, ["👨‍👩‍👧"]],
		["🐢 银 abc", 2 + 1 + 2 + 4, []],
		["plain ascii", 11, []],
	])("with the host's cluster widths, %j is %i cells, asking the host for %j", (s, w, asked) => {
		const measured: string[] = [];
		const host = (cluster: string) => {
			measured.push(cluster);
			return 5;
		};
		expect(withClusterWidth(host, () => stringWidth(s))).toBe(w);
		expect(measured).toEqual(asked);
		// Outside the call, string-width's widths again, also after a draw that threw.
		expect(() =>
			withClusterWidth(host, () => {
				throw new Error("draw failed");
			}),
		).toThrow("draw failed");
		expect(stringWidth(s)).toBe(stringWidthRef(s));
	});

	// ASCII runs skip the segmenter: the clusters must still be the segmenter's, also where ASCII meets other text.
	it.each([...SAMPLES, "…abc", "ab\u0301cd", "x\r\ny", "a\u200d🐢b", "\u0600ab", "🇯🇵🇯🇵 ok", "#\ufe0f\u20e3x", "ab\u0903c"])(
		"splits %j like Intl.Segmenter",
		(s) => {
			expect(clusters(s)).toEqual(Array.from(new Intl.Segmenter().segment(s), (x) => x.segment));
		},
	);
});

describe("text of one kind of character beside an ellipsis (a cut snippet)", () => {
	it("splits and measures every BMP character as Intl.Segmenter's clusters do, each cluster measured alone", () => {
		// clusterWidth is held to string-width above; here the whole string's width must be the sum of its clusters'.
		const segmenter = new Intl.Segmenter();
		const wrong: string[] = [];
		for (let code = 0x20; code <= 0xffff; code++) {
			if (code >= 0xd800 && code <= 0xdfff) continue;
			const c = String.fromCharCode(code);
			const s = `…${c}${c}ab${c}…`;
			const segments = Array.from(segmenter.segment(s), (x) => x.segment);
			const width = segments.reduce((w, g) => w + clusterWidth(g), 0);
			if (clusters(s).join("\u0000") !== segments.join("\u0000") || stringWidth(s) !== width) wrong.push(code.toString(16));
		}
		expect(wrong).toEqual([]);
	});
});

describe("plain characters (split without Intl.Segmenter)", () => {
	const segments = (s: string) => Array.from(new Intl.Segmenter().segment(s), (x) => x.segment);
	// Neighbours of every grapheme class a plain character can have: Other, Hangul LV and LVT, an Indic consonant,
	// an emoji pictograph, spaces.
	const NEIGHBOURS = ["a", "é", "가", "각", "❯", "中", "ก", "क", "☀", " ", "\u00a0", "…"];

	it("every plain BMP character is a cluster of its own next to any plain neighbour", () => {
		const wrong: string[] = [];
		let count = 0;
		for (let code = 0; code <= 0xffff; code++) {
			if (!plain(code)) continue;
			count++;
			const c = String.fromCharCode(code);
			const s = c + NEIGHBOURS.join(c) + c;
			if (segments(s).length !== s.length) wrong.push(code.toString(16));
		}
		expect(wrong).toEqual([]);
		// Most of the BMP is plain (letters, CJK, symbols): the fast path covers ordinary text.
		expect(count).toBeGreaterThan(50_000);
	});

	it.each(["0301", "200d", "fe0f", "0d4e", "0e33", "ff9e", "1100", "0903", "000a", "d83d"])("U+%s is not plain", (hex) => {
		expect(plain(Number.parseInt(hex, 16))).toBe(false);
	});

	it("clusters equal Intl.Segmenter's on random text mixing plain and joining characters", () => {
		const tricky = [
			"\u0301",
			"\u200d",
			"\ufe0f",
			"\u20e3",
			"\r",
			"\n",
			"\u0d4e",
			"\u0e33",
			"\uff9e",
			"\u1100",
			"\u1161",
			"\u11a8",
			"\u0903",
			"\u094d",
			"🇯",
			"🐢",
			"👍🏽",
			"\u0600",
			"\ud83d",
		];
		const piece = fc.oneof(
			fc.constantFrom(...tricky, ...NEIGHBOURS, "x", "1"),
			fc.integer({ min: 0xa0, max: 0xffff }).map((c) => String.fromCharCode(c)),
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
				const s = parts.join("");
				expect(clusters(s)).toEqual(segments(s));
			}),
			{ numRuns: 2000 },
		);
	});
});

describe("truncate and fit", () => {
	it.each<[string, number, string]>([
		["hello world", 20, "hello world"],
		["hello world", 8, "hello w…"],
		["银色水獭00010号", 6, "银色…"],
		["银色水獭", 5, "银色…"],
		["🐢🐢🐢", 4, "🐢…"],
		["abc", 0, ""],
		["abc", 1, "…"],
	])("%j in %i cells → %j", (s, w, out) => {
		expect(truncate(s, w)).toBe(out);
		expect(stringWidth(truncate(s, w))).toBeLessThanOrEqual(w);
	});

	it.each(SAMPLES)("fit(%j) is exactly the width, for every width", (s) => {
		for (let w = 1; w <= 30; w++) expect(stringWidth(fitWidth(sanitizeLine(s), w))).toBe(w);
	});
});

describe("wrapLine", () => {
	it.each<[string, number, string[]]>([
		["short", 10, ["short"]],
		["the quick brown fox jumps", 10, ["the quick ", "brown fox ", "jumps"]],
		["abcdefghij", 4, ["abcd", "efgh", "ij"]],
		["青铜狐狸青铜狐狸", 5, ["青铜", "狐狸", "青铜", "狐狸"]],
	])("%j at %i", (s, w, out) => {
		expect(wrapLine(s, w)).toEqual(out);
	});

	// Hand-written lines per script: the one-pass wrap must break exactly where the earlier per-piece wrap did.
	it.each<[string, string, number, string[]]>([
		["ascii, breaking after a space", "fix the flaky test in ci", 10, ["fix the ", "flaky test", " in ci"]],
		["ascii, one long word", "supercalifragilistic", 8, ["supercal", "ifragili", "stic"]],
		["wide CJK with ascii", "银色水獭 finished", 6, ["银色水", "獭 fin", "ished"]],
		["wide CJK in an odd width", "青铜狐狸", 3, ["青", "铜", "狐", "狸"]],
		["a wide glyph wider than the line goes alone", "青a", 1, ["青", "a"]],
		["combining marks stay on their letter", "e\u0301cole e\u0301te\u0301", 5, ["e\u0301cole", " e\u0301te\u0301"]],
		["combining marks, breaking after a space", "cre\u0300me bru\u0302le\u0301e", 8, ["cre\u0300me ", "bru\u0302le\u0301e"]],
		["emoji and a ZWJ family", "🐢⚡ done 👨‍👩‍👧", 4, ["🐢⚡", " don", "e 👨‍👩‍👧"]],
	])("%s: %j at %i", (_name, s, w, out) => {
		expect(wrapLine(s, w)).toEqual(out);
	});

	it("stops after maxLines pieces (the preview needs only its first lines)", () => {
		expect(wrapLine("abcdefghij", 4, 2)).toEqual(["abcd", "efgh"]);
		expect(wrapLine(`…${"é".repeat(10)}`, 3, 2)).toEqual(["…éé", "ééé"]);
	});

	it.each(SAMPLES)("never exceeds the width and loses nothing: %s", (s) => {
		const clean = sanitizeLine(s);
		for (let w = 2; w <= 12; w++) {
			const parts = wrapLine(clean, w);
			expect(parts.join("")).toBe(clean);
			for (const p of parts) expect(stringWidth(p)).toBeLessThanOrEqual(w);
		}
	});
});

describe("sanitizing", () => {
	it("makes escape sequences and control characters visible instead of executing them", () => {
		expect(sanitizeLine("\u001b[31mred\u001b[0m\u0007")).toBe("␛[31mred␛[0m␇");
		expect(oneLine("a\n\n  b\tc")).toBe("a b c");
	});

	it("keeps a mark that ends in trimmed trailing whitespace on its word", () => {
		const { text, marks } = normalizeSnippet("fix bar ", [[4, 8]]);
		expect(marks.map(([a, b]) => text.slice(a, b))).toEqual(["bar"]);
		const [, snippetLine] = hitRows(makeHit({ snippet: "fix bar ", marks: [[4, 8]] }), 60, 0, false, 2);
		expect(snippetLine?.filter((s) => s.tone === "match").map((s) => s.text)).toEqual(["bar"]);
	});

	it("collapses and sanitizes as one character at a time would, marks included, on random snippets", () => {
		// The rule written out character by character: a whitespace run is one space (none before the first word), a
		// control character its visible picture, trailing space trimmed, a mark moved with the text it covers.
		const reference = (snippet: string, marks: Array<[number, number]>) => {
			const map: number[] = [];
			let text = "";
			let lastSpace = true;
			for (let i = 0; i < snippet.length; i++) {
				map[i] = text.length;
				const c = snippet[i] as string;
				if (/\s/.test(c)) {
					if (!lastSpace) text += " ";
					lastSpace = true;
				} else {
					lastSpace = false;
					const code = c.charCodeAt(0);
					text += code === 0x1b ? "␛" : code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? "␡" : code >= 0x80 && code <= 0x9f ? "�" : c;
				}
			}
			map[snippet.length] = text.length;
			const trimmed = text.trimEnd();
			// A mark moves with its characters, no further than the trimmed text, and one left empty is dropped.
			const at = (i: number) => Math.min(map[Math.min(i, snippet.length)] ?? 0, trimmed.length);
			const moved = marks.map(([a, b]) => [at(a), at(b)] as [number, number]).filter(([a, b]) => b > a);
			return { text: trimmed, marks: moved };
		};
		const chars = ["a", "B", "7", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u001b", "\u0007", "\u007f", "\u0085", "…", "銀", "🐢", "é"];
		const snippet = fc.array(fc.constantFrom(...chars), { maxLength: 40 }).map((parts) => parts.join(""));
		fc.assert(
			fc.property(
				snippet.chain((s) => fc.tuple(fc.constant(s), fc.array(fc.tuple(fc.nat(s.length + 2), fc.nat(s.length + 2)), { maxLength: 4 }))),
				([s, marks]) => {
					expect(normalizeSnippet(s, marks)).toEqual(reference(s, marks));
				},
			),
			{ numRuns: 500 },
		);
	});

	it("keeps snippet marks on the same text after whitespace is collapsed", () => {
		const snippet = "error:\n\n   ECONNREFUSED   here";
		const { text, marks } = normalizeSnippet(snippet, [[11, 23]]);
		expect(text).toBe("error: ECONNREFUSED here");
		expect(marks.map(([a, b]) => text.slice(a, b))).toEqual(["ECONNREFUSED"]);
	});
});

describe("styled lines", () => {
	it("fits across segments with one ellipsis and pads to the width", () => {
		const line = [seg("abc", "bold"), seg("青铜狐狸", "match"), seg("tail")];
		const cut = fitLine(line, 7);
		expect(lineText(cut)).toBe("abc青…"); // 铜 would need 2 cells, only 1 is left before the ellipsis
		expect(lineWidth(fitLine([seg("ab")], 6, true))).toBe(6);
	});

	it("marks ranges and finds them case-insensitively", () => {
		const ranges = findRanges("Error and ERROR", ["error"]);
		expect(ranges).toEqual([
			[0, 5],
			[10, 15],
		]);
		expect(markRanges("Error and ERROR", ranges).map((s) => s.tone)).toEqual(["match", "plain", "match"]);
	});

	it("keeps the query cursor visible in a long query", () => {
		const q = "a very long query that does not fit into a narrow terminal at all";
		const line = queryLine(q, q.length, true, 30, "");
		expect(lineWidth(line)).toBeLessThanOrEqual(30);
		expect(line.some((s) => s.inverse)).toBe(true);
		expect(lineText(line)).toContain("at all");
	});
});
