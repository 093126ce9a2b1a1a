/**
 * Ink's line caches kept across frames (components/ink/frame-cache.ts) must not change a single cell of what is drawn:
 * sequences of frames whose lines repeat, change and move (ASCII, CJK, emoji, combining marks, escapes of our own
 * styling, lines cut at a wide character), drawn by Ink as it comes and with the shared caches, are the same text.
 * And <Line/>, which Ink measures as a plain stand-in of the line's width, draws what Ink draws of the styled text.
 */
import { stripVTControlCharacters } from "node:util";
import fc from "fast-check";
import { Box, renderToString, Text } from "ink";
import { render } from "ink-testing-library";
import stringWidth from "string-width";
import { afterAll, describe, expect, it } from "vitest";
import { type StyledLine, seg, type Tone } from "../components/core/styled.js";
import { lineAnsi } from "../components/core/theme.js";
import { shareFrameCaches, unshareFrameCaches } from "../components/ink/frame-cache.js";
import { Line } from "../components/ink/Line.js";

afterAll(() => unshareFrameCaches());

const TEXTS = ["wombat", "调查内存泄漏", "😱 deploy", "e\u0301cole", "a\tb", "ｶﾀｶﾅ", "│ · … ❯ ▌", "x".repeat(70), "宽".repeat(40), ""];
const TONES: Tone[] = ["plain", "dim", "match", "error", "accent"];

const segment = fc.record({ text: fc.constantFrom(...TEXTS), tone: fc.constantFrom(...TONES), inverse: fc.boolean() });
const line = fc.array(segment, { maxLength: 4 }).map((segs): StyledLine => segs.map((s) => seg(s.text, s.tone, s.inverse)));
/** A frame: rows of a left and a right pane, each row's lines drawn in boxes narrower than some of them. */
const frame = fc.array(fc.tuple(line, line), { minLength: 1, maxLength: 8 });

/** A line as Ink draws it on its own: the styled text in a <Text> that cuts what does not fit. */
function InkLine({ line }: { line: StyledLine }) {
	return <Text wrap="truncate-end">{line.length === 0 ? " " : lineAnsi(line, true)}</Text>;
}

function Screen({ rows, left, own = false }: { rows: Array<[StyledLine, StyledLine]>; left: number; own?: boolean }) {
	const L = own ? InkLine : ({ line }: { line: StyledLine }) => <Line line={line} color={true} />;
	return (
		<Box flexDirection="column" width={60}>
			{rows.map(([a, b], i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions on screen
				<Box key={i}>
					<Box width={left}>
						<L line={a} />
					</Box>
					<Text>│</Text>
					<Box flexGrow={1}>
						<L line={b} />
					</Box>
				</Box>
			))}
		</Box>
	);
}

const draw = (frames: Array<Array<[StyledLine, StyledLine]>>, left: number, own = false) =>
	frames.map((rows) => renderToString(<Screen rows={rows} left={left} own={own} />, { columns: 60 }));

describe("Ink's line caches shared across frames", () => {
	it("take hold on the Ink this project pins", async () => {
		expect(await shareFrameCaches()).toBe(true);
		unshareFrameCaches();
	});

	it("draw every frame exactly as Ink draws it on its own", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(frame, { minLength: 2, maxLength: 6 }), fc.integer({ min: 3, max: 40 }), async (frames, left) => {
				unshareFrameCaches();
				const own = draw(frames, left);
				await shareFrameCaches();
				// Twice: the second pass finds every line in the caches the first pass filled.
				expect(draw(frames, left)).toEqual(own);
				expect(draw(frames, left)).toEqual(own);
			}),
			{ numRuns: 60 },
		);
	});

	it("draws a line that fits its box as Ink draws the styled text itself", () => {
		fc.assert(
			fc.property(frame, fc.integer({ min: 3, max: 40 }), (rows, left) => {
				// Fits as drawn: control characters show as symbols one cell wide (lineWidth measures the raw text).
				const cells = (l: StyledLine) => stringWidth(lineAnsi(l, true));
				fc.pre(rows.every(([a, b]) => cells(a) <= left && cells(b) <= 60 - left - 1));
				expect(draw([rows], left)).toEqual(draw([rows], left, true));
			}),
			{ numRuns: 200 },
		);
	});

	it.each([
		["ASCII", "x".repeat(30)],
		["wide characters", "宽".repeat(15)],
	])("cuts a line of %s too long for its box with an ellipsis, and keeps the border in its column", (_, text) => {
		const rows: Array<[StyledLine, StyledLine]> = [[[seg(text, "match")], [seg("right")]]];
		const [ours = ""] = draw([rows], 9);
		const row = stripVTControlCharacters(ours);
		expect(row).toMatch(/…\s*│right$/);
		expect(stringWidth(row.split("│")[0] ?? "")).toBe(9);
	});

	it("gives a screen reader the line's text, not the spaces Ink measures", () => {
		// Ink reads INK_SCREEN_READER when an instance starts; its screen reader output skips transforms.
		const was = process.env.INK_SCREEN_READER;
		process.env.INK_SCREEN_READER = "true";
		try {
			const r = render(<Line line={[seg("调查内存泄漏 wombat", "match")]} color={true} />);
			expect(stripVTControlCharacters(r.lastFrame() ?? "")).toContain("调查内存泄漏 wombat");
			r.unmount();
		} finally {
			if (was === undefined) delete process.env.INK_SCREEN_READER;
			else process.env.INK_SCREEN_READER = was;
		}
	});
});
