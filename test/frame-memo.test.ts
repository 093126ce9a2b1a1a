/**
 * The CLI bundle draws Ink's frames through remembering stand-ins for string-width and @alcalzone/ansi-tokenize
 * (build/frame-memo-*.ts): they must answer exactly as the modules they stand in for, the first time and every time
 * after (a remembered answer), including for a row that starts like a remembered one and then differs; and the built
 * bundle must really draw through them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as ansi from "@alcalzone/ansi-tokenize";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import * as memo from "../build/frame-memo-ansi.js";
import memoStringWidth from "../build/frame-memo-width.js";
import { type StyledLine, seg } from "../components/core/styled.js";
import { lineAnsi } from "../components/core/theme.js";
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

	it("are what the built explorer draws with (Ink's Output and widest-line call them)", () => {
		const pack = join(DIST, "pack");
		const text = readdirSync(pack)
			.filter((f) => f.endsWith(".js"))
			.map((f) => readFileSync(join(pack, f), "utf8"))
			.join("\n");
		expect(text).toMatch(/getStyledChars\(line\) \{[^}]*memoStyledCharsFromTokens\(memoTokenize\(line\)\)/);
		expect(text).toMatch(/return memoStyledCharsToString\(/);
		expect(text).toMatch(/function widestLine\([^)]*\) \{[^}]*memoStringWidth\(line\)/);
	});
});
