/**
 * Terminal cell widths and the string fitting built on them: sanitizing, truncating with an ellipsis, padding and
 * soft-wrapping. Our own small implementation (components may import only model, present, ink and react), kept in
 * step with string-width (what Ink measures with) by a test that compares both on CJK, emoji and combining text.
 */

// East Asian Wide (W) and Fullwidth (F) ranges, as pairs [from, to], from Unicode's EastAsianWidth.txt
// (the same table get-east-asian-width ships). Ambiguous characters count as narrow, like string-width's default.
const WIDE: readonly number[] = [
	4352, 4447, 8986, 8987, 9001, 9002, 9193, 9196, 9200, 9200, 9203, 9203, 9725, 9726, 9748, 9749, 9776, 9783, 9800, 9811, 9855, 9855, 9866, 9871, 9875, 9875,
	9889, 9889, 9898, 9899, 9917, 9918, 9924, 9925, 9934, 9934, 9940, 9940, 9962, 9962, 9970, 9971, 9973, 9973, 9978, 9978, 9981, 9981, 9989, 9989, 9994, 9995,
	10024, 10024, 10060, 10060, 10062, 10062, 10067, 10069, 10071, 10071, 10133, 10135, 10160, 10160, 10175, 10175, 11035, 11036, 11088, 11088, 11093, 11093,
	11904, 11929, 11931, 12019, 12032, 12245, 12272, 12287, 12288, 12288, 12289, 12350, 12353, 12438, 12441, 12543, 12549, 12591, 12593, 12686, 12688, 12773,
	12783, 12830, 12832, 12871, 12880, 42124, 42128, 42182, 43360, 43388, 44032, 55203, 63744, 64255, 65040, 65049, 65072, 65106, 65108, 65126, 65128, 65131,
	65281, 65376, 65504, 65510, 94176, 94180, 94192, 94198, 94208, 101594, 101631, 101664, 101760, 101874, 101888, 102801, 102816, 102866, 110576, 110579, 110581,
	110587, 110589, 110590, 110592, 110888, 110898, 110898, 110928, 110930, 110933, 110933, 110948, 110952, 110960, 111355, 119552, 119638, 119648, 119670,
	126980, 126980, 127183, 127183, 127374, 127374, 127377, 127386, 127406, 127406, 127488, 127490, 127504, 127547, 127552, 127560, 127568, 127569, 127584,
	127589, 127744, 127776, 127789, 127797, 127799, 127868, 127870, 127891, 127904, 127946, 127951, 127955, 127968, 127984, 127988, 127988, 127992, 128062,
	128064, 128064, 128066, 128252, 128255, 128317, 128331, 128334, 128336, 128359, 128378, 128378, 128405, 128406, 128420, 128420, 128507, 128591, 128640,
	128709, 128716, 128716, 128720, 128722, 128725, 128729, 128732, 128735, 128747, 128748, 128756, 128764, 128986, 128986, 128992, 129003, 129008, 129008,
	129292, 129338, 129340, 129349, 129351, 129535, 129648, 129660, 129664, 129734, 129736, 129736, 129740, 129757, 129759, 129771, 129775, 129786, 131072,
	196605, 196608, 262141,
];

function isWide(cp: number): boolean {
	if (cp < 4352) return false;
	let lo = 0;
	let hi = WIDE.length / 2 - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const from = WIDE[mid * 2] as number;
		const to = WIDE[mid * 2 + 1] as number;
		if (cp < from) hi = mid - 1;
		else if (cp > to) lo = mid + 1;
		else return true;
	}
	return false;
}

const segmenter = new Intl.Segmenter();
// The `v` flag (Unicode sets, needed for \p{RGI_Emoji}) is newer than our compile target, hence RegExp().
// biome-ignore lint/complexity/useRegexLiterals: the v flag is newer than our compile target
const VISIBLE = new RegExp("[^\\p{Default_Ignorable_Code_Point}\\p{Control}\\p{Format}\\p{Nonspacing_Mark}\\p{Enclosing_Mark}\\p{Surrogate}]", "v");
// biome-ignore lint/complexity/useRegexLiterals: the v flag is newer than our compile target
const RGI_EMOJI = new RegExp("^\\p{RGI_Emoji}$", "v");
const PICTOGRAPHIC = /\p{Extended_Pictographic}/gu;
const ASCII = /^[\u0020-\u007e]*$/;

/** Cells one grapheme cluster takes: 0 for non-printing clusters, 2 for wide characters and emoji, else 1. */
export function clusterWidth(cluster: string): number {
	const at = cluster.search(VISIBLE);
	if (at === -1) return 0;
	if (RGI_EMOJI.test(cluster)) return 2;
	if (cluster.length < 50 && cluster.includes("\u200d") && (cluster.match(PICTOGRAPHIC)?.length ?? 0) >= 2) return 2;
	if (/^[\d#*]\u20e3$/.test(cluster)) return 2;
	return isWide(cluster.codePointAt(at) as number) ? 2 : 1;
}

const printable = (code: number) => code >= 0x20 && code <= 0x7e;

/**
 * Grapheme clusters of `s` with their offsets, produced as they are needed. No rule joins two printable ASCII
 * characters into one cluster, so only the stretches around other characters go through Intl.Segmenter, which
 * costs microseconds per cluster: mostly-ASCII tool output with a few "é" or a leading "…" stays cheap.
 */
function* clusterSpans(s: string): Generator<{ segment: string; index: number }> {
	const n = s.length;
	let i = 0;
	while (i < n) {
		if (printable(s.charCodeAt(i)) && (i + 1 === n || printable(s.charCodeAt(i + 1)))) {
			yield { segment: s[i] as string, index: i };
			i++;
			continue;
		}
		// The stretch ends between two printable ASCII characters: a cluster boundary whatever surrounds them.
		let j = i + 1;
		while (j < n && !(printable(s.charCodeAt(j - 1)) && printable(s.charCodeAt(j)))) j++;
		for (const x of segmenter.segment(s.slice(i, j))) yield { segment: x.segment, index: i + x.index };
		i = j;
	}
}

/** Grapheme clusters of a string (what a terminal draws as one glyph). */
export function clusters(s: string): string[] {
	if (ASCII.test(s)) return s.split("");
	return Array.from(clusterSpans(s), (x) => x.segment);
}

/** Terminal cells a plain string (no escape sequences) takes. */
export function stringWidth(s: string): number {
	if (ASCII.test(s)) return s.length;
	let w = 0;
	for (const { segment } of clusterSpans(s)) w += clusterWidth(segment);
	return w;
}

/**
 * Makes source text safe to draw on one line: ESC and other control characters become visible pictures
 * (a tool result's ANSI codes must not restyle or move our screen), tabs and newlines become spaces.
 */
export function sanitizeLine(s: string): string {
	return s
		.replace(/\t/g, "  ")
		.replace(/\r?\n|\r/g, " ")
		.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
			const code = c.charCodeAt(0);
			if (code === 0x1b) return "␛";
			if (code < 0x20) return String.fromCharCode(0x2400 + code);
			return code === 0x7f ? "␡" : "�";
		});
}

/** Collapses every run of whitespace (newlines included) into one space, then sanitizes: for one-line snippets. */
export function oneLine(s: string): string {
	return sanitizeLine(s.replace(/\s+/g, " ").trim());
}

/** Cuts a string to at most `width` cells, ending in `ellipsis` when something was cut. */
export function truncate(s: string, width: number, ellipsis = "…"): string {
	if (width <= 0) return "";
	if (ASCII.test(s) && s.length <= width) return s;
	if (stringWidth(s) <= width) return s;
	const room = width - stringWidth(ellipsis);
	if (room < 0) return ellipsis.slice(0, width);
	let out = "";
	let w = 0;
	for (const c of clusters(s)) {
		const cw = clusterWidth(c);
		if (w + cw > room) break;
		out += c;
		w += cw;
	}
	return out + ellipsis;
}

/** Pads with spaces to exactly `width` cells (truncating first when it is wider). */
export function fit(s: string, width: number): string {
	const t = truncate(s, width);
	const w = stringWidth(t);
	return w < width ? t + " ".repeat(width - w) : t;
}

/**
 * Soft-wraps one line (no newlines) into pieces of at most `width` cells, preferring to break after a space, and
 * stops after `maxLines` pieces (the preview needs only its first few lines of a long text).
 * We wrap ourselves so that every line Ink draws already fits: Ink's own wrapping would change the frame height.
 * One pass over the clusters, found as it goes: a line of a large tool result must not be measured again per piece.
 */
export function wrapLine(s: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
	if (width <= 0) return [""];
	if (ASCII.test(s)) return wrapAscii(s, width, maxLines);
	const out: string[] = [];
	let start = 0; // where the current piece starts
	let end = 0; // where the clusters taken into it end
	let w = 0; // cells from start to end
	let space = -1; // offset of the piece's last space, or -1
	for (const { segment: c, index } of clusterSpans(s)) {
		const cw = clusterWidth(c);
		// The piece is full (a cluster wider than the whole line still goes alone into an empty piece).
		while (w + cw > width && end > start) {
			if (space - start > (end - start) / 2 && s[end] !== " ") {
				// Break after the space when that keeps more than half the piece and the next text starts a word.
				out.push(s.slice(start, space + 1));
				start = space + 1;
				w = stringWidth(s.slice(start, end));
			} else {
				out.push(s.slice(start, end));
				start = end;
				w = 0;
			}
			space = -1;
			if (out.length >= maxLines) return out;
		}
		const sp = c.lastIndexOf(" ");
		if (sp !== -1) space = index + sp;
		w += cw;
		end = index + c.length;
	}
	if (end > start || out.length === 0) out.push(s.slice(start));
	return out;
}

/** wrapLine for printable ASCII: one character is one cell, so pieces are cut by index. */
function wrapAscii(s: string, width: number, maxLines: number): string[] {
	if (s.length <= width) return [s];
	const out: string[] = [];
	let start = 0;
	while (start < s.length && out.length < maxLines) {
		const end = start + width;
		if (end >= s.length) {
			out.push(s.slice(start));
			break;
		}
		const space = s.lastIndexOf(" ", end - 1) - start;
		const cut = space > width / 2 && s[end] !== " " ? start + space + 1 : end;
		out.push(s.slice(start, cut));
		start = cut;
	}
	return out;
}
