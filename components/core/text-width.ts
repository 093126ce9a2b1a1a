/**
 * Terminal cell widths and the string fitting built on them: sanitizing, truncating with an ellipsis, padding and
 * soft-wrapping. Widths come from get-east-asian-width and string-width (what Ink measures with); a test compares
 * ours with string-width on CJK, emoji and combining text.
 */
import { createRequire } from "node:module";
import { eastAsianWidth } from "get-east-asian-width";

// Neither is loaded up front: string-width compiles its emoji regex and Intl.Segmenter loads ICU's break data as
// they start (~35 ms together), which the explorer's hand-drawn first frame cannot afford (DESIGN §7). The
// segmenter is made when first needed; string-width is imported in the background, which lands after the first
// frame is written and long before Ink draws.
let libStringWidth: ((s: string) => number) | undefined;
let segmenter: Intl.Segmenter | undefined;
void import("string-width").then((m) => {
	libStringWidth ??= m.default;
});
const load = createRequire(import.meta.url);

/** string-width's width of a cluster of several code points, loaded now if the background import has not landed. */
function clusterWidthOfMany(cluster: string): number {
	if (!libStringWidth) {
		try {
			libStringWidth = (load("string-width") as typeof import("string-width")).default;
		} catch {
			// Node 22.0–22.11 cannot require an ES module: until the import lands, the width of its first code point.
			return eastAsianWidth(cluster.codePointAt(0) as number);
		}
	}
	return libStringWidth(cluster);
}
// A printing character: a cluster without one takes no cells (string-width's rule, needed for the fast path below).
// biome-ignore lint/complexity/useRegexLiterals: the v flag is newer than our compile target
const VISIBLE = new RegExp("[^\\p{Default_Ignorable_Code_Point}\\p{Control}\\p{Format}\\p{Nonspacing_Mark}\\p{Enclosing_Mark}\\p{Surrogate}]", "v");
const ASCII = /^[\u0020-\u007e]*$/;
/**
 * Text all of whose code units are in plain()'s common blocks (printable ASCII, Latin-1 and Latin Extended, dashes,
 * quotes and the ellipsis, arrows and technical signs, box drawing and dingbats, CJK ideographs): each code unit is
 * a cluster of its own. A snippet cut with "…" is such text; walking it cluster by cluster made an object per
 * character, which the first frames of a fresh explorer paid for every hit row.
 */
const COMMON_PLAIN = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2190-\u23ff\u2500-\u27bf\u4e00-\u9fff]*$/;

/** Clusters of several code points measured once the first frame is on screen, a turn apart (warmClusterWidths). */
const WARM_CLUSTERS = ["⚠\ufe0f", "👍🏽"];
let clustersWarmed = false;

/**
 * For a host that measures with string-width (Ink), once its first frame is on screen: measures an emoji sequence
 * in a turn of the event loop of its own, then another. string-width compiles its emoji pattern on its first use and
 * again, to machine code, on its next: tens of milliseconds that otherwise fell on the first frame showing a
 * sequence such as ⚠️, a frame a person types into.
 */
export function warmClusterWidths(): void {
	if (clustersWarmed) return;
	clustersWarmed = true;
	const next = (i: number) => {
		const cluster = WARM_CLUSTERS[i];
		if (cluster === undefined) return;
		setTimeout(() => {
			clusterWidthOfMany(cluster);
			next(i + 1);
		}, 0).unref?.();
	};
	next(0);
}

/** The host's width of a cluster of several code points while it draws (see withClusterWidth). */
let hostClusterWidth: ((cluster: string) => number) | undefined;

/**
 * Runs `draw` with clusters of several code points (⚠️, 👍🏽, ZWJ sequences) measured by the host's width function
 * instead of string-width's. Inside pi, pi's TUI lays the lines out by its own widths, and its emoji pattern is
 * compiled already; string-width's, compiled on its first use, held pi's event loop for tens of milliseconds on the
 * first frame showing such a cluster. Scoped to the call, so nothing else in the process measures differently.
 */
export function withClusterWidth<T>(width: (cluster: string) => number, draw: () => T): T {
	const before = hostClusterWidth;
	hostClusterWidth = width;
	try {
		return draw();
	} finally {
		hostClusterWidth = before;
	}
}

/**
 * Cells one grapheme cluster takes: 0 for non-printing clusters, 2 for wide characters and emoji, else 1.
 * A cluster of one code point (ASCII, CJK, most text) is answered by get-east-asian-width directly; longer clusters
 * (emoji sequences, combining marks, jamo) go to string-width, which Ink measures with. Calling string-width for every
 * cluster measured ~80× slower on é/銀/🐢/a (36 vs 0.4 µs a cluster: it strips ANSI codes and segments on each call),
 * and wrapLine and truncate measure cluster by cluster; a 4,500-char mixed line measures in 5 ms here, 32 ms there.
 */
export function clusterWidth(cluster: string): number {
	const cp = cluster.codePointAt(0) as number;
	if (cluster.length > (cp > 0xffff ? 2 : 1)) return hostClusterWidth ? hostClusterWidth(cluster) : clusterWidthOfMany(cluster);
	if (cp >= 0x20 && cp <= 0x7e) return 1;
	return VISIBLE.test(cluster) ? eastAsianWidth(cp) : 0;
}

// Letters, digits, punctuation, symbols and spaces: Grapheme_Cluster_Break=Other, except the few listed below.
const OTHER = /[\p{L}\p{N}\p{P}\p{S}\p{Zs}]/u;

/**
 * A code unit no grapheme rule joins to a neighbour that is also plain: printable ASCII, or a BMP letter, digit,
 * punctuation, symbol or space (Grapheme_Cluster_Break=Other: a cluster boundary lies between two of them, UAX #29
 * GB999). Excluded: Hangul jamo (they join each other), U+0D4E (Prepend), U+0E33 and U+0EB3 (SpacingMark) and
 * U+FF9E–FF9F (Extend). A test compares the splits with Intl.Segmenter's on random text.
 */
export function plain(code: number): boolean {
	if (code >= 0x20 && code <= 0x7e) return true;
	if (code < 0xa0 || (code >= 0xd800 && code <= 0xdfff)) return false;
	if ((code >= 0x1100 && code <= 0x11ff) || (code >= 0xa960 && code <= 0xa97f) || (code >= 0xd7b0 && code <= 0xd7ff)) return false;
	if (code === 0x0d4e || code === 0x0e33 || code === 0x0eb3 || code === 0xff9e || code === 0xff9f) return false;
	// Common blocks without a joining character answer without the regex (its Unicode tables take ~2 ms to build):
	// Latin-1 and Latin Extended, dashes, quotes and bullets, arrows and technical signs, box drawing, shapes and
	// dingbats (our own glyphs: ❯ · … ─ │), CJK ideographs.
	if ((code <= 0x2ff && code !== 0xad) || (code >= 0x2010 && code <= 0x2027) || (code >= 0x2190 && code <= 0x23ff)) return true;
	if ((code >= 0x2500 && code <= 0x27bf) || (code >= 0x4e00 && code <= 0x9fff)) return true;
	return OTHER.test(String.fromCharCode(code));
}

/**
 * Grapheme clusters of `s` with their offsets, produced as they are needed. No rule joins two plain characters
 * (printable ASCII, most letters and symbols) into one cluster, so only the stretches around other characters
 * (combining marks, emoji sequences, controls) go through Intl.Segmenter, which costs microseconds per cluster and
 * ~15 ms to start: mostly-ASCII tool output with a few "é" or a leading "…" stays cheap.
 */
function* clusterSpans(s: string): Generator<{ segment: string; index: number }> {
	const n = s.length;
	let i = 0;
	while (i < n) {
		if (plain(s.charCodeAt(i)) && (i + 1 === n || plain(s.charCodeAt(i + 1)))) {
			yield { segment: s[i] as string, index: i };
			i++;
			continue;
		}
		// The stretch ends between two plain characters: a cluster boundary whatever surrounds them.
		let j = i + 1;
		while (j < n && !(plain(s.charCodeAt(j - 1)) && plain(s.charCodeAt(j)))) j++;
		segmenter ??= new Intl.Segmenter();
		for (const x of segmenter.segment(s.slice(i, j))) yield { segment: x.segment, index: i + x.index };
		i = j;
	}
}

/** Grapheme clusters of a string (what a terminal draws as one glyph). */
export function clusters(s: string): string[] {
	if (COMMON_PLAIN.test(s)) return s.split("");
	return Array.from(clusterSpans(s), (x) => x.segment);
}

/** Terminal cells a plain string (no escape sequences) takes. */
export function stringWidth(s: string): number {
	if (ASCII.test(s)) return s.length;
	let w = 0;
	if (COMMON_PLAIN.test(s)) {
		for (let i = 0; i < s.length; i++) w += s.charCodeAt(i) <= 0x7e ? 1 : clusterWidth(s[i] as string);
		return w;
	}
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
