/** The one-line preview of an event: white space collapsed, cut to a width with an ellipsis. */

/** Characters of a preview. */
export const PREVIEW_CHARS = 160;

/** Collapses whitespace and cuts to `max` characters with an ellipsis. */
export function previewText(text: string, max = PREVIEW_CHARS): string {
	// Only the start matters: at most max * 4 characters are looked at, and the walk stops once max + 1 are kept
	// (a regex replace over the whole start ran for every event of a cold index).
	const limit = Math.min(text.length, max * 4);
	let flat = "";
	let runStart = -1;
	let space = false;
	let kept = 0;
	let i = 0;
	for (; i < limit && kept <= max; i++) {
		if (isSpace(text.charCodeAt(i))) {
			if (runStart !== -1) {
				flat += text.slice(runStart, i);
				runStart = -1;
			}
			space = flat.length > 0;
			continue;
		}
		if (runStart === -1) {
			if (space) {
				flat += " ";
				kept++;
				space = false;
			}
			runStart = i;
		}
		kept++;
	}
	if (runStart !== -1) flat += text.slice(runStart, i);
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What `\s` matches (and trim() removes): ASCII and Unicode white space and line terminators. */
function isSpace(c: number): boolean {
	if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
	if (c < 0xa0) return false;
	return (
		c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
	);
}
