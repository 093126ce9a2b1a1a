/**
 * Agent-style queries over the generator's needles (issue 28): a needle wrapped in the words a model puts around it,
 * written with spaces instead of its hyphens, misspelled, or with its animal in the plural. The ground truth of each
 * query is its needle's searchable occurrences in the manifest.
 */
import { KIND_OF, type Manifest } from "./corpus.js";

/** One query and the events (`sessionId/entryId`) it is about. */
export interface AgentQuery {
	query: string;
	style: "filler" | "spaced" | "misspelled" | "inflected";
	needle: string;
	wanted: string[];
}

const FILLERS: Array<(x: string) => string> = [
	(x) => `where was ${x} discussed before`,
	(x) => `${x} error root cause and solution`,
	(x) => `how did we fix the ${x} issue`,
	(x) => `what happened with ${x} last time`,
	(x) => `find the session that mentions ${x}`,
	(x) => `${x} previous discussion and context`,
];

/** The needle with one letter of its longest letters-only part left out (a typo a model makes copying it). */
function misspell(text: string): string | null {
	const parts = text.split("-");
	const longest = parts.reduce((best, p, i) => (/^[a-z]{5,}$/.test(p) && p.length > (parts[best]?.length ?? 0) ? i : best), -1);
	if (longest < 0) return null;
	const word = parts[longest] as string;
	parts[longest] = word.slice(0, 3) + word.slice(4);
	return parts.join("-");
}

/** The needle with its animal (the second part) in the plural, words separated by spaces. */
function pluralize(text: string): string | null {
	const parts = text.split("-");
	if (parts.length !== 3 || !/^[a-z]+$/.test(parts[1] as string)) return null;
	const animal = parts[1] as string;
	parts[1] = /(?:x|s|ch|sh)$/.test(animal) ? `${animal}es` : `${animal}s`;
	return parts.join(" ");
}

/** The query set: every `found` needle with searchable occurrences, in each style it can be written in. */
export function agentQueries(manifest: Manifest): AgentQuery[] {
	const out: AgentQuery[] = [];
	let turn = 0;
	const filler = (x: string) => (FILLERS[turn++ % FILLERS.length] as (x: string) => string)(x);
	for (const n of manifest.needles.filter((x) => x.expect === "found")) {
		const wanted = n.occurrences.filter((o) => o.searchable && KIND_OF[o.kind]).map((o) => `${o.sessionId}/${o.entryId ?? `L${o.line}`}`);
		if (wanted.length === 0) continue;
		const add = (style: AgentQuery["style"], query: string | null) => {
			if (query !== null) out.push({ query, style, needle: n.id, wanted: [...new Set(wanted)] });
		};
		add("filler", filler(n.text));
		if (n.script === "ascii") {
			add("spaced", filler(n.text.replaceAll("-", " ")));
			const typo = misspell(n.text);
			add("misspelled", typo === null ? null : filler(typo));
			add("inflected", pluralize(n.text) === null ? null : filler(pluralize(n.text) as string));
		}
	}
	return out;
}
