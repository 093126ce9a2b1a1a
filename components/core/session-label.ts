/**
 * Telling sessions apart. A UUIDv7 session id starts with its creation time, so the first 8 hex digits of a
 * session, its /clone and its --fork made the same minute are all the same: ids are shortened from the random end
 * instead, to the fewest digits that still differ among the sessions shown together.
 */

const MIN = 4;

import type { SessionLineage } from "../../src/shared/types.js";

/** The last `n` hex digits of an id (dashes dropped), or the id's own tail when it is not hex. */
export function idTail(id: string, n = 8): string {
	const hex = id.replace(/-/g, "");
	return hex.slice(-n);
}

/** For each id, the shortest tail (at least 4 digits) that no other id in the set shares. */
export function shortIds(ids: Iterable<string>): Map<string, string> {
	const unique = [...new Set(ids)];
	const out = new Map<string, string>();
	for (const id of unique) {
		let n = MIN;
		const full = id.replace(/-/g, "").length;
		while (n < full && unique.some((other) => other !== id && idTail(other, n) === idTail(id, n))) n++;
		out.set(id, idTail(id, n));
	}
	return out;
}

/** The last folder of a path ("payments-api" of "/home/a/code/payments-api"). */
export function cwdTail(cwd: string | null | undefined): string {
	if (!cwd) return "?";
	const parts = cwd.split(/[\\/]+/).filter(Boolean);
	return parts.at(-1) ?? cwd;
}

/** A session's label: its name, else its folder, then `#` and the id part that tells it apart. */
export function sessionLabel(session: { name?: string | null; cwd?: string | null }, id: string, short: string = idTail(id)): string {
	return `${session.name || cwdTail(session.cwd)} #${short}`;
}

/**
 * A session file's lineage in words, for the event header: how it came from its parent (`fork of <label> at <entry>`,
 * `clone of …`, `copy of … (pi --fork)`), a parent file that is not indexed, or that it has none; then how many
 * sessions were forked from it.
 */
export function lineageText(l: SessionLineage | undefined): string {
	if (!l) return "";
	const parts: string[] = [];
	const p = l.parent ? sessionLabel(l.parent, l.parent.id) : null;
	if (p && l.how === "copy") parts.push(`copy of ${p} (pi --fork: every entry)${l.at ? ` from its leaf ${l.at}` : ""}`);
	else if (p && l.how === "clone") parts.push(`clone of ${p} at its leaf ${l.at ?? "?"}`);
	else if (p && l.how === "fork") parts.push(`fork of ${p}${l.at ? ` at ${l.at}` : ""}`);
	else if (p) parts.push(`new session from ${p}`);
	else if (l.parentFile) parts.push(`parent file not indexed: ${l.parentFile}`);
	else parts.push("no parent session");
	if (l.children > 0) parts.push(`${l.children} session${l.children === 1 ? "" : "s"} forked from it`);
	return parts.join(" · ");
}
