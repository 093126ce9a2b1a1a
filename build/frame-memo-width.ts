/**
 * The CLI bundle's stand-in for `string-width` (build/bundle.ts puts it where Ink and its helpers import it): the same
 * function, remembering its answers. Ink measures every line of the screen on every frame, and a keystroke changes a
 * line or two of forty, so nearly every line it measures is one it measured a frame before.
 */
import stringWidth, { type Options } from "string-width";

/** Lines remembered; a full cache is dropped whole (a screen holds well under a hundred lines). */
const LIMIT = 4000;
const widths = new Map<string, number>();

/** string-width's answer for `text`, remembered when no options change it. */
export default function memoStringWidth(text: string, options?: Options): number {
	if (options !== undefined) return stringWidth(text, options);
	let width = widths.get(text);
	if (width === undefined) {
		if (widths.size >= LIMIT) widths.clear();
		width = stringWidth(text);
		widths.set(text, width);
	}
	return width;
}
