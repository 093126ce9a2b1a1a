/**
 * The status bar's two lines (issue 31.6): a message the user must read (a ref to select, a command to run, what a
 * copy did) is never cut at its end. It takes the whole first line when `where` leaves too little room, and both lines
 * when it is longer than one (the key hints come back with the next key, which clears it); paths in it are shortened
 * in their middle before anything is cut.
 */
import { fitLine, lineWidth, type StyledLine, seg, spread, type Tone } from "../core/styled.js";
import { clusters, stringWidth, wrapLine } from "../core/text-width.js";

/** Words of `text` on at most `lines` lines of `width` cells, broken at spaces only; null when they do not fit. */
export function wrapWords(text: string, width: number, lines: number): string[] | null {
	const out: string[] = [];
	let line = "";
	for (const word of text.split(" ")) {
		const next = line === "" ? word : `${line} ${word}`;
		if (stringWidth(next) <= width) {
			line = next;
			continue;
		}
		if (stringWidth(word) > width) return null;
		out.push(line);
		line = word;
		if (out.length >= lines) return null;
	}
	out.push(line);
	return out;
}

/** A path-like word (it holds a "/") shortened to `width` cells by taking out its middle: `/home/u/…/019c…jsonl`. */
export function shortenMiddle(word: string, width: number): string {
	if (stringWidth(word) <= width) return word;
	const parts = clusters(word);
	// The end says which file; the start where it lives. The end gets the larger share.
	const tail = Math.ceil((width - 1) * 0.6);
	const head = width - 1 - tail;
	const take = (from: string[], n: number) => {
		let w = 0;
		let out = "";
		for (const c of from) {
			w += stringWidth(c);
			if (w > n) break;
			out += c;
		}
		return out;
	};
	return `${take(parts, head)}…${[...take([...parts].reverse(), tail)].reverse().join("")}`;
}

/**
 * `text` on at most `lines` lines of `width`: words wrapped, and when `shorten`, its paths shortened in the middle (all to
 * the same bound, the least that makes it fit); null when it cannot fit.
 */
export function fitMessage(text: string, width: number, lines: number, shorten: boolean): string[] | null {
	const direct = wrapWords(text, width, lines);
	if (direct || !shorten) return direct;
	const words = text.split(" ");
	const paths = new Set(words.flatMap((w, i) => (w.includes("/") && stringWidth(w) > 16 ? [i] : [])));
	if (paths.size === 0) return null;
	const longest = Math.max(...[...paths].map((i) => stringWidth(words[i] as string)));
	for (let bound = Math.min(width - 2, longest - 2); bound >= 16; bound -= 2) {
		const tried = words.map((w, i) => (paths.has(i) ? shortenMiddle(w, bound) : w)).join(" ");
		const wrapped = wrapWords(tried, width, lines);
		if (wrapped) return wrapped;
	}
	return null;
}

/**
 * The two lines of the status bar: the message (or the index state) with `where` at the right, and the key hints.
 * `whole`: a message the user must read; the index state (not whole) gives way to `where` instead.
 */
export function statusLines(status: { text: string; tone: Tone }, where: string, hints: StyledLine, width: number, whole = true): [StyledLine, StyledLine] {
	const message = [seg(status.text, status.tone)];
	const room = where ? width - stringWidth(where) - 1 : width;
	if (lineWidth(message) <= room || !whole) return [where ? spread(message, [seg(where, "dim")], width) : fitLine(message, width), hints];
	// One line (the hints stay), else two whole lines, else two with paths shortened in their middle.
	const one = fitMessage(status.text, width, 1, false);
	if (one) return [fitLine([seg(one[0] as string, status.tone)], width), hints];
	const two = fitMessage(status.text, width, 2, false) ?? fitMessage(status.text, width, 2, true);
	if (two) return [fitLine([seg(two[0] as string, status.tone)], width), fitLine([seg(two[1] ?? "", status.tone)], width)];
	// Longer than two lines even with its paths shortened: its start, and its end (where a ref or a command is).
	const pieces = wrapLine(status.text, width);
	const end = (pieces.at(-1) as string).trim();
	const last = stringWidth(end) < width - 1 ? `…${end}` : end;
	return [fitLine([seg(pieces[0] as string, status.tone)], width), fitLine([seg(last, status.tone)], width)];
}
