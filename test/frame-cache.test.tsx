/**
 * Ink's line caches kept across frames (components/frame-cache.ts) must not change a single cell of what is drawn:
 * sequences of frames whose lines repeat, change and move (ASCII, CJK, emoji, combining marks, escapes of our own
 * styling, lines cut at a wide character), drawn by Ink as it comes and with the shared caches, are the same text.
 */
import fc from "fast-check";
import { Box, renderToString, Text } from "ink";
import { afterAll, describe, expect, it } from "vitest";
import { shareFrameCaches, unshareFrameCaches } from "../components/frame-cache.js";
import { Line } from "../components/Line.js";
import { type StyledLine, seg, type Tone } from "../components/styled.js";

afterAll(() => unshareFrameCaches());

const TEXTS = ["wombat", "调查内存泄漏", "😱 deploy", "e\u0301cole", "a\tb", "ｶﾀｶﾅ", "│ · … ❯ ▌", "x".repeat(70), "宽".repeat(40), ""];
const TONES: Tone[] = ["plain", "dim", "match", "error", "accent"];

const segment = fc.record({ text: fc.constantFrom(...TEXTS), tone: fc.constantFrom(...TONES), inverse: fc.boolean() });
const line = fc.array(segment, { maxLength: 4 }).map((segs): StyledLine => segs.map((s) => seg(s.text, s.tone, s.inverse)));
/** A frame: rows of a left and a right pane, each row's lines drawn in boxes narrower than some of them. */
const frame = fc.array(fc.tuple(line, line), { minLength: 1, maxLength: 8 });

function Screen({ rows, left }: { rows: Array<[StyledLine, StyledLine]>; left: number }) {
	return (
		<Box flexDirection="column" width={60}>
			{rows.map(([a, b], i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions on screen
				<Box key={i}>
					<Box width={left}>
						<Line line={a} color={true} />
					</Box>
					<Text>│</Text>
					<Box flexGrow={1}>
						<Line line={b} color={true} />
					</Box>
				</Box>
			))}
		</Box>
	);
}

const draw = (frames: Array<Array<[StyledLine, StyledLine]>>, left: number) =>
	frames.map((rows) => renderToString(<Screen rows={rows} left={left} />, { columns: 60 }));

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
});
