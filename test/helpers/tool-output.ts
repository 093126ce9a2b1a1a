/** Reading the text the extension's tools return to the model (the format pi records in the session). */

/** The `sessionId/entryId` refs of the hit lines of an event_search text, in the order listed. */
export function hitRefs(text: string): string[] {
	return [...text.matchAll(/^ {3}sessionId=(\S+) entryId=(\S+)/gm)].map((m) => `${m[1]}/${m[2]}`);
}
