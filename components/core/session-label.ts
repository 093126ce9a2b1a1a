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

/** How many characters `a` and `b` end alike in. */
function commonTail(a: string, b: string): number {
	let n = 0;
	while (n < a.length && n < b.length && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
	return n;
}

/** Orders strings by their characters read from the end. */
function byTail(a: string, b: string): number {
	const n = commonTail(a, b);
	if (n === a.length || n === b.length) return a.length - b.length;
	return a.charCodeAt(a.length - 1 - n) - b.charCodeAt(b.length - 1 - n);
}

/**
 * For each id, the shortest tail (at least 4 digits) that no other id in the set shares. Sorted by their digits read
 * from the end, an id shares its longest tail with a neighbour: one pass instead of every pair at every length,
 * which the hit list paid on every frame.
 */
export function shortIds(ids: Iterable<string>): Map<string, string> {
	const unique = [...new Set(ids)];
	const hex = unique.map((id) => id.replace(/-/g, ""));
	const order = hex.map((_, i) => i).sort((a, b) => byTail(hex[a] as string, hex[b] as string));
	const shared = new Array<number>(unique.length).fill(0);
	for (let k = 1; k < order.length; k++) {
		const a = order[k - 1] as number;
		const b = order[k] as number;
		const n = commonTail(hex[a] as string, hex[b] as string);
		shared[a] = Math.max(shared[a] as number, n);
		shared[b] = Math.max(shared[b] as number, n);
	}
	const out = new Map<string, string>();
	unique.forEach((id, i) => {
		out.set(id, (hex[i] as string).slice(-Math.max(MIN, (shared[i] as number) + 1)));
	});
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
