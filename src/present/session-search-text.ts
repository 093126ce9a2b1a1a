/**
 * `session_search` for prompts written for hermes / session-search-lite (seed 003): its arguments clamped into the
 * seed's bounds, and its fixed result contract: a header line, `note:` lines, one line per hit followed by its
 * snippet, and `details: {count, results}`. Pure: no index, no pi.
 */
import { type Bounds, clamp, SESSION_SEARCH_LIMITS } from "../shared/bounds.js";
import type { SessionSearchHit } from "../shared/types.js";
import { neutralizeLine } from "./terminal-safe.js";

/** The tool's arguments as the model may send them (numbers as strings too: they are clamped, never rejected). */
export interface RawSessionSearchArgs {
	query?: unknown;
	limit?: unknown;
	cwd?: unknown;
	after?: unknown;
	before?: unknown;
	snippetChars?: unknown;
}

/** Arguments after clamping: what the search runs with and what the header reports. */
export interface SessionSearchArgs {
	query: string;
	limit: number;
	snippetChars: number;
	cwd?: string;
	after?: string;
	before?: string;
}

/** What the index pass before the query did, for the `note:` lines. */
export type IndexingOutcome = { ran: true; indexed: number; pending: number } | { ran: false; reason: string; pending: number };

/** Everything the text is made of. */
export interface SessionSearchView {
	query: string;
	limit: number;
	/** Notes in order: index creation, indexing, then query problems and reasons for an empty result. */
	notes: string[];
	hits: SessionSearchHit[];
}

/** `details` of a session_search result, field for field the seed's shape. */
export interface SessionSearchDetails {
	count: number;
	results: SessionSearchHit[];
}

/** Pi's tool-output limit (DEFAULT_MAX_BYTES); what an extension tool returns is persisted verbatim. */
const MAX_TEXT_BYTES = 50 * 1024;
const MAX_QUERY_ECHO = 200;

function numberOf(value: unknown): number | undefined {
	if (typeof value === "number") return value;
	if (typeof value === "string" && value.trim() !== "") return Number(value);
	return undefined;
}

function clampArg(value: unknown, bounds: Bounds): number {
	const n = numberOf(value);
	// Infinity is out of range, not missing: it clamps to the nearer bound like any other large number.
	if (n === Number.POSITIVE_INFINITY) return bounds.max;
	if (n === Number.NEGATIVE_INFINITY) return bounds.min;
	return clamp(n, bounds);
}

function textArg(value: unknown): string | undefined {
	return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Clamps limit (default 5, 1–50) and snippetChars (default 200, 40–2000); blank optional strings count as unset. */
export function sessionSearchArgs(raw: RawSessionSearchArgs): SessionSearchArgs {
	const out: SessionSearchArgs = {
		query: typeof raw.query === "string" ? raw.query : "",
		limit: clampArg(raw.limit, SESSION_SEARCH_LIMITS.limit),
		snippetChars: clampArg(raw.snippetChars, SESSION_SEARCH_LIMITS.snippetChars),
	};
	const cwd = textArg(raw.cwd);
	const after = textArg(raw.after);
	const before = textArg(raw.before);
	if (cwd !== undefined) out.cwd = cwd;
	if (after !== undefined) out.after = after;
	if (before !== undefined) out.before = before;
	return out;
}

/** The `note:` lines about the index pass: whether it created the index, what it indexed, what is still pending. */
export function indexingNotes(outcome: IndexingOutcome, createdAt?: string): string[] {
	const notes = createdAt ? [`session index not found at ${createdAt}; created it`] : [];
	notes.push(
		outcome.ran
			? `indexed ${outcome.indexed} transcript(s), ${outcome.pending} still pending`
			: `indexing did not run: ${outcome.reason}; ${outcome.pending} still pending`,
	);
	return notes;
}

/** Session text as inert visible text (I21), through the one neutralizer every face uses. */
export function visibleText(s: string): string {
	return neutralizeLine(s);
}

/** One line of visible text: whitespace runs (newlines included) become one space. */
function line(s: string): string {
	return visibleText(s.replace(/\s+/g, " ").trim());
}

function queryEcho(query: string): string {
	const q = line(query);
	return q.length > MAX_QUERY_ECHO ? `${q.slice(0, MAX_QUERY_ECHO - 1)}…` : q;
}

/** `score -1.8703`: the raw bm25 value, negative, lower is better; tiny values (few sessions) keep 4 significant digits. */
export function scoreText(score: number): string {
	if (!Number.isFinite(score)) return String(score);
	return score === 0 || Math.abs(score) >= 0.001 ? score.toFixed(4) : score.toPrecision(4);
}

/** The two lines of one hit: `- id | cwd | timestamp | role | score x` and the indented snippet. */
export function hitLines(hit: SessionSearchHit): [string, string] {
	const fields = [hit.session_id, hit.cwd ?? "-", hit.timestamp ?? "-", hit.role].map(line);
	return [`- ${fields.join(" | ")} | score ${scoreText(hit.score)}`, `  ${line(hit.snippet)}`];
}

/** The model text: header, notes, hits; cut at pi's 50 KB with a closing note that says how many hits it shows. */
export function formatSessionSearch(view: SessionSearchView): string {
	const lines = [`session_search "${queryEcho(view.query)}" — ${view.hits.length} hit(s) (limit ${view.limit})`];
	for (const note of [...new Set(view.notes)]) lines.push(`note: ${line(note)}`);
	let bytes = Buffer.byteLength(lines.join("\n"));
	// Room for the closing note, so a cut result can always say so.
	const room = MAX_TEXT_BYTES - 200;
	let shown = 0;
	for (const hit of view.hits) {
		const block = hitLines(hit).join("\n");
		const cost = Buffer.byteLength(block) + 1;
		if (bytes + cost > room) break;
		lines.push(block);
		bytes += cost;
		shown++;
	}
	if (shown < view.hits.length) {
		lines.push(`note: output cut at 50 KB: ${shown} of ${view.hits.length} hit(s) shown above (all are in details); lower limit or snippetChars`);
	}
	return lines.join("\n");
}

/** `details` in the seed's shape; hits keep their order and raw scores. */
export function sessionSearchDetails(hits: SessionSearchHit[]): SessionSearchDetails {
	return {
		count: hits.length,
		results: hits.map((h) => ({
			session_id: h.session_id,
			cwd: h.cwd,
			started_at: h.started_at,
			role: h.role,
			timestamp: h.timestamp,
			snippet: h.snippet,
			score: h.score,
		})),
	};
}
