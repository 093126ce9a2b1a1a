/**
 * The CLI bundle draws Ink's frames through remembering stand-ins for string-width, @alcalzone/ansi-tokenize and Ink's
 * Output (build/frame-memo-*.ts): they must answer exactly as the modules they stand in for, the first time and every time
 * after (a remembered answer), including for a row that starts like a remembered one and then differs; and the built
 * bundle must really draw through them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as ansi from "@alcalzone/ansi-tokenize";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import * as memo from "../build/frame-memo-ansi.js";
import MemoOutput from "../build/frame-memo-output.js";
import memoStringWidth, { ASTRAL_WIDE_RANGES, NARROW_RANGES, WIDE_RANGES } from "../build/frame-memo-width.js";
import { type StyledLine, seg } from "../components/core/styled.js";
import { lineAnsi } from "../components/core/theme.js";
import InkOutput from "../node_modules/ink/build/output.js";
import { DIST } from "./helpers/build.js";

/** Lines as the explorer draws them: tones, the selection and the cursor inverse, wide and combining characters. */
const LINES: StyledLine[] = [
	[seg("pi-history", "title"), seg("   "), seg("[all sessions]", "dim"), seg("  "), seg("10,000+ hits", "dim")],
	[seg("❯ ", "accent"), seg("handleWebhook ECONN"), seg(" ", "plain", true)],
	[seg("▌", "accent"), seg("✗ error", "error", true), seg("  "), seg("never sent to the model", "warn"), seg("  #68ac Dashboard 内存泄漏 🧾", "dim")],
	[seg(" …"), seg("cafe\u0301 ", "dim"), seg("has", "match"), seg(" exceeded │ preview · char 0 of 133")],
	[seg("")],
];

describe("frame memo stand-ins", () => {
	for (const color of [true, false]) {
		it(`measure and tokenize ${color ? "coloured" : "plain"} lines as string-width and ansi-tokenize do, again and again`, () => {
			for (let round = 0; round < 3; round++) {
				for (const line of LINES) {
					const text = lineAnsi(line, color);
					expect(memoStringWidth(text)).toBe(stringWidth(text));
					expect(memoStringWidth(text, { countAnsiEscapeCodes: true })).toBe(stringWidth(text, { countAnsiEscapeCodes: true }));
					expect(memo.tokenize(text)).toEqual(ansi.tokenize(text));
					expect(memo.tokenize(text, 5)).toEqual(ansi.tokenize(text, 5));
					expect(memo.styledCharsFromTokens(memo.tokenize(text))).toEqual(ansi.styledCharsFromTokens(ansi.tokenize(text)));
				}
			}
		});
	}

	it("measure every character it counts without string-width as string-width does, alone, among others and coloured", () => {
		for (const [a, b] of NARROW_RANGES)
			for (let c = a; c <= b; c++) {
				const ch = String.fromCharCode(c);
				for (const text of [ch, `a${ch}b`, `\u001b[31m${ch}\u001b[39m${ch}`, `${ch}\u0301`, `${ch}\ufe0f`, `${ch}\u200d${ch}`])
					expect([c, memoStringWidth(text)]).toEqual([c, stringWidth(text)]);
			}
		// Tens of thousands of ideographs and syllables: each alone and between two others.
		for (const [a, b] of [...WIDE_RANGES, ...ASTRAL_WIDE_RANGES])
			for (let c = a; c <= b; c++) {
				const ch = String.fromCodePoint(c);
				for (const text of [ch, `a${ch}\u001b[2m${ch}\u001b[0m`]) expect([c, memoStringWidth(text)]).toEqual([c, stringWidth(text)]);
			}
	});

	it("measure and tokenize lines of narrow, wide, combining and emoji characters and colour codes as string-width and ansi-tokenize do", () => {
		// Mostly characters it counts itself, with now and then one string-width must measure: a combining accent,
		// a kana sound mark, a variation selector, an emoji and a symbol shown as emoji of another range, a zero-width joiner,
		// a soft hyphen, another escape, Hangul jamo, a skin tone, a regional indicator, a text symbol, an emoji tag.
		const counted = [...NARROW_RANGES, ...WIDE_RANGES, ...ASTRAL_WIDE_RANGES]
			.flatMap(([a, b]) => [a, b, Math.floor((a + b) / 2)])
			.map((c) => String.fromCodePoint(c));
		const other = [
			"\u3099",
			"\u0301",
			"\ufe0f",
			"🛟",
			"◽",
			"\u200d",
			"\u00ad",
			"\u001b]8;;x\u0007",
			"\u009b31m",
			"\t",
			"\u1100",
			"\u11a8",
			"🏻",
			"🇺",
			"☁",
			"\u{e0067}",
		];
		let seed = 7;
		const next = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed % n;
		};
		for (let i = 0; i < 2000; i++) {
			let text = "";
			for (let k = next(40); k > 0; k--) {
				const r = next(20);
				text += r === 0 ? (other[next(other.length)] as string) : r === 1 ? `\u001b[${next(100)};1m` : (counted[next(counted.length)] as string);
			}
			expect([text, memoStringWidth(text)]).toEqual([text, stringWidth(text)]);
			expect([text, memo.tokenize(text)]).toEqual([text, ansi.tokenize(text)]);
			expect(memo.styledCharsToString(memo.styledCharsFromTokens(memo.tokenize(text)))).toBe(
				ansi.styledCharsToString(ansi.styledCharsFromTokens(ansi.tokenize(text))),
			);
		}
	});

	it("turn a row into text as ansi-tokenize does, also a row that starts like a remembered one and then differs", () => {
		const chars = LINES.map((l) => memo.styledCharsFromTokens(memo.tokenize(lineAnsi(l, true))));
		const [title, query, hit, snippet] = chars as [ansi.StyledChar[], ansi.StyledChar[], ansi.StyledChar[], ansi.StyledChar[]];
		// Ink's Output builds each row anew from the characters of the lines written into it.
		const rows = [[...hit, ...snippet], [...hit, ...snippet], [...hit, ...query], [...title], [...hit, ...snippet]];
		for (const row of rows) expect(memo.styledCharsToString(row)).toBe(ansi.styledCharsToString(row));
		// The same characters but one, a fresh one of another style (as Ink pads a wide character): not the remembered text.
		const changed = [...hit, ...snippet];
		changed[3] = { type: "char", value: "x", fullWidth: false, styles: [] };
		expect(memo.styledCharsToString(changed)).toBe(ansi.styledCharsToString(changed));
		expect(memo.styledCharsToString(changed)).not.toBe(memo.styledCharsToString([...hit, ...snippet]));
		// Cells no line covers are fresh unstyled spaces on every frame: a row padded so is remembered all the same,
		// and a fresh cell of another value or style is not.
		const space = (): ansi.StyledChar => ({ type: "char", value: " ", fullWidth: false, styles: [] });
		const padded = () => [...query, space(), space()];
		expect(memo.styledCharsToString(padded())).toBe(ansi.styledCharsToString(padded()));
		expect(memo.styledCharsToString(padded())).toBe(ansi.styledCharsToString(padded()));
		const styled = [...query, space(), { ...space(), styles: (hit[1] as ansi.StyledChar).styles }];
		expect(memo.styledCharsToString(styled)).toBe(ansi.styledCharsToString(styled));
		expect(memo.styledCharsToString(padded())).toBe(ansi.styledCharsToString(padded()));
		const other = [...query, space(), { ...space(), value: "y" }];
		expect(memo.styledCharsToString(other)).toBe(ansi.styledCharsToString(other));
		expect(memo.styledCharsToString([])).toBe("");
	});

	it("draw a frame row by row as Ink's Output does, frame after frame: clips, wide characters, transforms, overlaps", () => {
		type Out = {
			write(x: number, y: number, t: string, o: { transformers: ((s: string, i: number) => string)[] }): void;
			clip(c: object): void;
			unclip(): void;
			get(): { output: string; height: number };
		};
		const texts = LINES.map((l) => lineAnsi(l, true));
		const upper = (s: string) => s.toUpperCase();
		const numbered = (s: string, i: number) => `${i}${s}`;
		/** One frame's writes: `shift` moves some of them, as a keystroke changes a row or two. */
		const draw = (o: Out, shift: number) => {
			o.write(0, 0, texts[0] as string, { transformers: [] });
			o.write(0, 1, `${texts[1]}${"x".repeat(shift)}`, { transformers: [] });
			o.write(2, 2, `${texts[2]}\n${texts[3]}\n${texts[4]}`, { transformers: [numbered] });
			o.clip({ x1: 5, x2: 30, y1: 3, y2: 6 });
			o.write(1 + shift, 4, `${texts[2]}\n${texts[3]}\n内存泄漏内存泄漏`, { transformers: [upper] });
			o.write(40, 0, "outside the clip", { transformers: [] });
			o.unclip();
			o.clip({ x1: undefined, x2: undefined, y1: 7, y2: 8 });
			o.write(0, 6, "above\nin 7\nin 8\nbelow", { transformers: [] });
			o.unclip();
			o.write(10, 9, `🧾 wide ${shift}`, { transformers: [] });
			o.write(12, 9, "over", { transformers: [] });
			o.write(70, 10, "past the right edge", { transformers: [] });
			o.write(0, -1, "above the top\nnever drawn", { transformers: [] });
			o.write(0, 11, "last\nbelow the bottom", { transformers: [] });
			o.write(0, 3, "", { transformers: [] });
		};
		for (const shift of [0, 0, 1, 2, 0, 1]) {
			const ink = new InkOutput({ width: 80, height: 12 }) as unknown as Out;
			const ours = new MemoOutput({ width: 80, height: 12 });
			draw(ink, shift);
			draw(ours, shift);
			expect(ours.get()).toEqual(ink.get());
		}
		// The same rows at another width are other rows.
		const narrow = () => [new InkOutput({ width: 20, height: 12 }) as unknown as Out, new MemoOutput({ width: 20, height: 12 })] as const;
		const [ink, ours] = narrow();
		draw(ink, 0);
		draw(ours, 0);
		expect(ours.get()).toEqual(ink.get());
	});

	it("are what the built explorer draws with (its Output, and widest-line, call them)", () => {
		const pack = join(DIST, "pack");
		const text = readdirSync(pack)
			.filter((f) => f.endsWith(".js"))
			.map((f) => readFileSync(join(pack, f), "utf8"))
			.join("\n");
		// Ink's renderer builds frames with the stand-in Output, which builds new rows from the remembered characters.
		expect(text).toMatch(/function buildRow\([^)]*\) \{[\s\S]*?memoStyledCharsFromTokens\(memoTokenize\(line\)\)/);
		expect(text).not.toMatch(/class OutputCaches/);
		expect(text).toMatch(/function widestLine\([^)]*\) \{[^}]*memoStringWidth\(line\)/);
	});
});
