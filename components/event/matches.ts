/** Where a hit's match is: the texts its snippet marks, and where the first of them occurs in a text. */
import type { Hit } from "../../src/shared/types.js";

/** The match texts of a hit's snippet (what the preview and the event view highlight). */
export function hitHighlights(hit: Pick<Hit, "snippet" | "marks">): string[] {
	const out = new Set<string>();
	for (const [a, b] of hit.marks) {
		const t = hit.snippet.slice(a, b).trim();
		if (t) out.add(t.toLowerCase());
	}
	return [...out];
}

/** Where in `text` the first highlight occurs (0 when none does). */
export function locateMatch(text: string, highlights: readonly string[]): number {
	let best = -1;
	const hay = text.toLowerCase();
	for (const h of highlights) {
		const i = hay.indexOf(h.toLowerCase());
		if (i !== -1 && (best === -1 || i < best)) best = i;
	}
	return Math.max(0, best);
}
