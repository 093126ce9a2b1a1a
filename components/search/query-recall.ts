/**
 * The query line's memory (issue 31.9): queries the user searched with, newest first, recalled with ↑ on an empty query
 * line or Ctrl+R (which also matches the typed text, as a shell's reverse search does). Only what was typed is kept,
 * and only a bounded number of bounded lines: the launcher stores the list next to the index.
 */

/** How many queries are kept. */
export const RECALL_MAX = 100;
/** A longer query (a pasted log, say) is not kept: it is not one a user types again, and the file stays small. */
export const RECALL_CHARS = 200;

/** The remembered queries and where a recall is in them. */
export interface QueryRecall {
	/** Newest first. */
	entries: string[];
	/** The entry on the query line now (null: none recalled, or the user edited it since). */
	at: number | null;
	/** What Ctrl+R matches entries against (the text typed before the first recall). */
	needle: string;
}

/** A fresh memory holding `entries` (as read from the store: cleaned, bounded). */
export function initialRecall(entries: readonly string[] = []): QueryRecall {
	return { entries: cleanEntries(entries), at: null, needle: "" };
}

/** The entries a store may hold: one line each, not empty, not too long, no duplicates, at most RECALL_MAX. */
export function cleanEntries(entries: readonly unknown[]): string[] {
	const out: string[] = [];
	for (const e of entries) {
		if (typeof e !== "string") continue;
		const q = e.trim();
		if (q === "" || q.length > RECALL_CHARS || /[\u0000-\u001f\u007f]/.test(q) || out.includes(q)) continue;
		out.push(q);
		if (out.length >= RECALL_MAX) break;
	}
	return out;
}

/** Remembers `text` as the newest query (moved up if it was there); the same object when nothing changes. */
export function recordQuery(r: QueryRecall, text: string): QueryRecall {
	const q = text.trim();
	if (q === "" || q.length > RECALL_CHARS || /[\u0000-\u001f\u007f]/.test(q)) return r.at === null ? r : { ...r, at: null };
	if (r.entries[0] === q) return r.at === null ? r : { ...r, at: null };
	return { entries: [q, ...r.entries.filter((e) => e !== q)].slice(0, RECALL_MAX), at: null, needle: "" };
}

/**
 * The next older query for the query line holding `current`: after a recall (the line still shows it) the one after
 * it that holds the needle; else, from the newest, one that holds `current` when `search` (Ctrl+R), or any when the
 * line is empty (↑). Null: there is none (or ↑ on a line with text of its own, which ↑ leaves alone).
 */
export function recallOlder(r: QueryRecall, current: string, search: boolean): QueryRecall | null {
	const recalling = r.at !== null && r.entries[r.at] === current;
	if (!recalling && !search && current.trim() !== "") return null;
	const needle = recalling ? r.needle : search ? current.trim() : "";
	const from = recalling ? (r.at as number) + 1 : 0;
	const lower = needle.toLowerCase();
	for (let i = from; i < r.entries.length; i++) {
		const e = r.entries[i] as string;
		if (e === current && !recalling) continue;
		if (e.toLowerCase().includes(lower)) return { ...r, at: i, needle };
	}
	return null;
}
