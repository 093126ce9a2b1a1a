/**
 * Which matches a search ranks: the newest RANK_WINDOW of a common query scored by bm25, and a query of one term so
 * common that bm25's count of its matches would cost more than the window listed newest first instead, with a note.
 */
import type { Candidate, CandidateQuery } from "../index/candidates.js";
import { grouped } from "../shared/numbers.js";
import type { ParsedQuery } from "./query-parse.js";

/**
 * Matching fragments ranked at first: a query that matches more (after its filters) ranks only its newest matches.
 * A common word is in a fifth of all fragments, and bm25 costs per scored row, so ranking every match made the
 * query mix's slowest queries; within the newest 2,048 matches a page of hits is ranked exactly (see runSearch).
 */
export const RANK_WINDOW = 2048;

/**
 * Matches in scope past which a query of one word is listed newest first. bm25 counts every fragment holding the word
 * before it scores one, a cost that grows with the history (a word in every tenth fragment of a 5 GB history: most of
 * the query's first run), while the window it then ranks is the newest RANK_WINDOW matches whatever their number. A
 * word is cheaper to count than a phrase (no positions), so it is scored far longer than a phrase (`window`).
 */
export const LONE_WORD_SCORED = 32 * RANK_WINDOW;

/**
 * Ranked, coalesced candidates for one page. Exhaustive while the query matches at most `window` fragments: the
 * page is then exactly the bm25 ranking of every match. Beyond that, the page is the exact bm25 ranking of the
 * newest matches (the window, whole events), widened fourfold until it holds `limit + offset` distinct events:
 * an older event can be missing from the page even where its score is better; a better event of the window never is.
 */
export function runSearch(query: CandidateQuery, limit: number, offset = 0, window = RANK_WINDOW): Candidate[] {
	return pageOfWindows(query, limit, offset, window, true) ?? [];
}

/**
 * A page of a query of one term, newest first and unscored, with its note, when the term is common: a phrase of
 * several tokens (a snake_case identifier, a quoted phrase, CJK text) matching more than `window` fragments in scope,
 * a word more than LONE_WORD_SCORED. Null otherwise, and runSearch ranks it. bm25 counts every fragment holding each
 * phrase (checking positions) before it scores a row: for a term that common, that count was most of the query's
 * time, and on a large history it exceeded the whole of `rg` over the same files, while the window ranked only a
 * fraction of the matches anyway.
 */
export function newestIfCommon(
	query: CandidateQuery,
	parsed: ParsedQuery,
	limit: number,
	offset: number,
	window: number,
): { page: Candidate[]; note: string } | null {
	const above = commonAbove(parsed, window);
	// A phrase's first window tells whether it is common; a word is counted first.
	if (above === null || (above !== window && !matchesMore(query, above))) return null;
	const page = pageOfWindows(query, limit, offset, window, false);
	return page === null ? null : { page, note: newestNote(parsed, above) };
}

/** True for a query of one term that newestIfCommon lists newest first (what its newest-order page leaves unscored). */
export function commonLoneTerm(query: CandidateQuery, parsed: ParsedQuery, window: number): boolean {
	const above = commonAbove(parsed, window);
	return above !== null && matchesMore(query, above);
}

/** The note of a page that newestIfCommon listed: its term has more than `above` matches. */
export function newestNote(parsed: ParsedQuery, above: number): string {
	return `\`${parsed.terms[0]?.raw ?? ""}\` has more than ${grouped(above)} matches here: newest first (add a word to rank by relevance)`;
}

/**
 * Matches past which a query of one term is common: `window` for a phrase of several tokens, LONE_WORD_SCORED for a
 * word; null for a query of several terms. Its last token may be a prefix (search as you type), so the explorer and
 * the command line order it alike.
 */
function commonAbove(parsed: ParsedQuery, window: number): number | null {
	const [only, ...rest] = parsed.terms;
	if (only === undefined || rest.length > 0) return null;
	return only.tokens.length > 1 ? window : LONE_WORD_SCORED;
}

function matchesMore(query: CandidateQuery, n: number): boolean {
	return query.indexMatches(n + 1) > n;
}

/**
 * runSearch's page, scored by bm25 or not; unscored, null when the first window already holds every match (the
 * caller ranks them all instead).
 */
function pageOfWindows(query: CandidateQuery, limit: number, offset: number, window: number, scored: boolean): Candidate[] | null {
	const need = limit + offset;
	// The best `top` fragments of the window become events: room for fragments of one event and forked copies (on
	// the bench corpus, with a fork for every fourth session, the best 64 fragments of a common word are ~58
	// distinct entries). Each of them is joined to its event, so a larger first guess costs every query; too few
	// distinct events only widen it below, at the price of one more pass.
	let top = Math.max(64, need * 6);
	// Without a query the window is the newest events themselves: no more rows than the page needs.
	let fragments = query.textual ? window : top;
	for (let first = true; ; first = false) {
		const w = query.window(fragments, top, need, scored);
		if (!scored && first && w.exhausted) return null;
		const distinct = w.rows.reduce((n, r) => n + (r.copy_rank === 1 ? 1 : 0), 0);
		if (distinct >= need || (w.exhausted && w.complete)) return w.rows.slice(offset, offset + limit);
		if (w.complete) fragments *= 4;
		else top *= 4;
	}
}
