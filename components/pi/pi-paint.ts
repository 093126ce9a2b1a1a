/**
 * Styled lines in pi's colors: each tone goes through pi's theme (`theme.fg(color, text)`, `theme.bold`), and every
 * piece of text is neutralized first, because session text reaches the terminal here (I21).
 */
import { neutralizeLine } from "../../src/present/terminal-safe.js";
import type { Seg, StyledLine, Tone } from "../core/styled.js";

/** pi-tui's functions a painted line is measured and cut with. */
export interface PiWidths {
	visibleWidth(text: string): number;
	truncateToWidth(text: string, width: number, ellipsis?: string, pad?: boolean): string;
}

/** What the painter needs of pi's Theme (a structural subset, so components/ import no Pi package). */
export interface PiPaint {
	fg(color: string, text: string): string;
	bold(text: string): string;
}

const COLOR: Partial<Record<Tone, string>> = {
	dim: "dim",
	match: "warning",
	error: "error",
	warn: "warning",
	accent: "accent",
	ok: "success",
	key: "accent",
	banner: "accent",
};
const BOLD = new Set<Tone>(["bold", "match", "key", "title", "banner"]);

/** One styled line as pi's theme draws it. */
export function paintLine(line: StyledLine, paint: PiPaint): string {
	let out = "";
	for (const s of line) {
		let text = neutralizeLine(s.text);
		const tone = s.tone ?? "plain";
		const color = COLOR[tone];
		if (color) text = paint.fg(color, text);
		if (BOLD.has(tone)) text = paint.bold(text);
		// Inverse (the selection, the query cursor): SGR 7 and its own off switch, so the theme's colors survive.
		if (s.inverse) text = `\u001b[7m${text}\u001b[27m`;
		out += text;
	}
	return out;
}

/**
 * The line without the blank cells it ends with: pi-tui pads an overlay's line to its width itself, and measures
 * every cell it is given at every frame (pi 0.73's pi-tui grapheme by grapheme). A blank drawn inverse (the
 * selection, the cursor) is seen, so it stays.
 */
export function trimTrailingBlank(line: StyledLine): StyledLine {
	for (let end = line.length; end > 0; end--) {
		const s = line[end - 1] as Seg;
		if (s.inverse) return line.slice(0, end);
		const text = s.text.replace(/ +$/, "");
		if (text.length === s.text.length) return end === line.length ? line : line.slice(0, end);
		if (text.length > 0) return [...line.slice(0, end - 1), { ...s, text }];
	}
	return [];
}

/** Lines as pi draws them: painted, blank ends left for pi-tui to pad, none wider than `width` as pi-tui measures. */
export function piLines(lines: readonly StyledLine[], width: number, paint: PiPaint, widths: PiWidths): string[] {
	return lines.map((l) => {
		const line = paintLine(trimTrailingBlank(l), paint);
		return widths.visibleWidth(line) > width ? widths.truncateToWidth(line, width, "…") : line;
	});
}
