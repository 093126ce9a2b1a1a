/** Styled lines as data: segments with a tone, fitted to a width. Screens are built from these, then drawn by <Line/>. */
import { clusters, clusterWidth, stringWidth } from "./text-width.js";

/** What a segment means; the theme decides how that looks (colors, or none under NO_COLOR). */
export type Tone = "plain" | "dim" | "bold" | "match" | "error" | "warn" | "accent" | "ok" | "key" | "title" | "banner";

/** A run of text with one tone; `inverse` marks the selection and the query cursor. */
export interface Seg {
	text: string;
	tone?: Tone;
	inverse?: boolean;
}

/** One screen line. */
export type StyledLine = Seg[];

/** Shorthand for a segment. */
export function seg(text: string, tone: Tone = "plain", inverse = false): Seg {
	return inverse ? { text, tone, inverse } : { text, tone };
}

/** Cells a styled line takes. */
export function lineWidth(line: StyledLine): number {
	let w = 0;
	for (const s of line) w += stringWidth(s.text);
	return w;
}

/** The plain text of a line (for tests and copying). */
export function lineText(line: StyledLine): string {
	return line.map((s) => s.text).join("");
}

/**
 * Fits a line into exactly `width` cells: cuts with an ellipsis when too long (the ellipsis takes the tone of the
 * segment it ends), pads with spaces when `pad` is set. Lines never wrap, so the frame height stays what we planned.
 */
export function fitLine(line: StyledLine, width: number, pad = false, padInverse = false): StyledLine {
	if (width <= 0) return [];
	const total = lineWidth(line);
	if (total <= width) {
		if (!pad || total === width) return line;
		return [...line, { text: " ".repeat(width - total), tone: "plain", ...(padInverse ? { inverse: true } : {}) }];
	}
	const out: StyledLine = [];
	let used = 0;
	const room = width - 1;
	for (const s of line) {
		const w = stringWidth(s.text);
		if (used + w <= room) {
			out.push(s);
			used += w;
			continue;
		}
		let text = "";
		for (const c of clusters(s.text)) {
			const cw = clusterWidth(c);
			if (used + cw > room) break;
			text += c;
			used += cw;
		}
		out.push({ ...s, text: `${text}…` });
		used += 1;
		break;
	}
	if (pad && used < width) out.push({ text: " ".repeat(width - used), tone: "plain", ...(padInverse ? { inverse: true } : {}) });
	return out;
}

/** Splits `text` into segments, giving `ranges` (sorted or not, possibly overlapping) the match tone. */
export function markRanges(text: string, ranges: Array<[number, number]>, tone: Tone = "plain", matchTone: Tone = "match"): StyledLine {
	const sorted = ranges.filter(([a, b]) => b > a && a < text.length).sort((x, y) => x[0] - y[0]);
	const out: StyledLine = [];
	let at = 0;
	for (const [a0, b0] of sorted) {
		const a = Math.max(a0, at);
		const b = Math.min(b0, text.length);
		if (b <= a) continue;
		if (a > at) out.push({ text: text.slice(at, a), tone });
		out.push({ text: text.slice(a, b), tone: matchTone });
		at = b;
	}
	if (at < text.length) out.push({ text: text.slice(at), tone });
	return out;
}

/** Case-insensitive occurrences of any of `needles` in `text`, as [start, end) ranges. */
export function findRanges(text: string, needles: readonly string[]): Array<[number, number]> {
	const out: Array<[number, number]> = [];
	if (needles.length === 0 || text.length === 0) return out;
	const hay = text.toLowerCase();
	// toLowerCase keeps length for almost all text; when it does not, matching positions would drift, so skip.
	if (hay.length !== text.length) return out;
	for (const n of needles) {
		const needle = n.toLowerCase();
		if (needle.length === 0) continue;
		let from = 0;
		for (;;) {
			const i = hay.indexOf(needle, from);
			if (i === -1) break;
			out.push([i, i + needle.length]);
			from = i + needle.length;
		}
	}
	return out;
}

/** Left and right parts on one line: the right part is kept whole when possible, the left part is cut. */
export function spread(left: StyledLine, right: StyledLine, width: number): StyledLine {
	const rw = lineWidth(right);
	if (rw + 2 > width) return fitLine(left, width, true);
	const l = fitLine(left, width - rw - 1, true);
	return [...l, { text: " " }, ...right];
}
