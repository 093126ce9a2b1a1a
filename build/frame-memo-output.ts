/**
 * The CLI bundle's stand-in for Ink's Output (build/bundle.ts puts it where Ink's renderer imports `./output.js`): the
 * same frame, built row by row and remembered per row. Ink's own Output fills a grid of styled characters (a fresh
 * object for every cell of the screen) and turns every row back into a string on every frame; a keystroke changes a
 * row or two. Here the writes that land on a row (where, and the text after clipping and transforming, in order)
 * name it: a row written as in an earlier frame is that frame's string, and a new one is built exactly as Ink does.
 */
import { type StyledChar, styledCharsToString } from "@alcalzone/ansi-tokenize";
import sliceAnsi from "slice-ansi";
import { memoStyledCharsFromTokens, memoTokenize } from "./frame-memo-ansi.js";
import memoStringWidth from "./frame-memo-width.js";

type Transformer = (s: string, index: number) => string;
type Clip = { x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined };
type Operation = { type: "write"; x: number; y: number; text: string; transformers: Transformer[] } | { type: "clip"; clip: Clip } | { type: "unclip" };

/** Rows remembered; a full cache is dropped whole (a screen holds well under a hundred rows). */
const LIMIT = 2000;
const rows = new Map<string, string>();

/** One write's line on a row: its column and its text as drawn. */
type Piece = { x: number; line: string };

/** A row as Ink's Output builds it: blank cells, each piece's characters over them in order, trailing blanks cut. */
function buildRow(width: number, pieces: Piece[]): string {
	const row: StyledChar[] = [];
	for (let x = 0; x < width; x++) row.push({ type: "char", value: " ", fullWidth: false, styles: [] });
	for (const { x, line } of pieces) {
		let offsetX = x;
		for (const character of memoStyledCharsFromTokens(memoTokenize(line))) {
			row[offsetX] = character;
			const characterWidth = Math.max(1, memoStringWidth(character.value));
			for (let i = 1; i < characterWidth; i++) row[offsetX + i] = { type: "char", value: "", fullWidth: false, styles: character.styles };
			offsetX += characterWidth;
		}
	}
	return styledCharsToString(row.filter((c) => c !== undefined)).trimEnd();
}

/** Ink's Output, remembering rows: write, clip and unclip as Ink calls them; get() the frame. */
export default class Output {
	width: number;
	height: number;
	operations: Operation[] = [];

	constructor(options: { width: number; height: number }) {
		this.width = options.width;
		this.height = options.height;
	}

	write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
		if (!text) return;
		this.operations.push({ type: "write", x, y, text, transformers: options.transformers });
	}

	clip(clip: Clip): void {
		this.operations.push({ type: "clip", clip });
	}

	unclip(): void {
		this.operations.push({ type: "unclip" });
	}

	get(): { output: string; height: number } {
		const pieces: Piece[][] = Array.from({ length: this.height }, () => []);
		const clips: Clip[] = [];
		for (const operation of this.operations) {
			if (operation.type === "clip") clips.push(operation.clip);
			if (operation.type === "unclip") clips.pop();
			if (operation.type !== "write") continue;
			const { text, transformers } = operation;
			let { x, y } = operation;
			let lines = text.split("\n");
			const clip = clips.at(-1);
			if (clip) {
				const clipHorizontally = typeof clip.x1 === "number" && typeof clip.x2 === "number";
				const clipVertically = typeof clip.y1 === "number" && typeof clip.y2 === "number";
				if (clipHorizontally) {
					const widest = Math.max(0, ...lines.map((l) => memoStringWidth(l)));
					if (x + widest < (clip.x1 as number) || x > (clip.x2 as number)) continue;
				}
				if (clipVertically && (y + lines.length < (clip.y1 as number) || y > (clip.y2 as number))) continue;
				if (clipHorizontally) {
					const [x1, x2] = [clip.x1 as number, clip.x2 as number];
					lines = lines.map((line) => {
						const width = memoStringWidth(line);
						return sliceAnsi(line, x < x1 ? x1 - x : 0, x + width > x2 ? x2 - x : width);
					});
					if (x < x1) x = x1;
				}
				if (clipVertically) {
					const [y1, y2] = [clip.y1 as number, clip.y2 as number];
					const from = y < y1 ? y1 - y : 0;
					lines = lines.slice(from, y + lines.length > y2 ? y2 - y : lines.length);
					if (y < y1) y = y1;
				}
			}
			let offsetY = 0;
			for (let [index, line] of lines.entries()) {
				const row = pieces[y + offsetY];
				// A line below the frame's height is dropped, as Ink drops it.
				if (!row) continue;
				for (const transformer of transformers) line = transformer(line, index);
				row.push({ x, line });
				offsetY++;
			}
		}
		const out = pieces.map((row) => {
			const key = `${this.width}\u0001${row.map((p) => `${p.x}\u0000${p.line}`).join("\u0001")}`;
			let text = rows.get(key);
			if (text === undefined) {
				if (rows.size >= LIMIT) rows.clear();
				text = buildRow(this.width, row);
				rows.set(key, text);
			}
			return text;
		});
		return { output: out.join("\n"), height: this.height };
	}
}
