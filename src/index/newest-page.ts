/** The SQL of a newest-first page over a set of matching fragments, and how far a walk for one reads (candidates.ts). */
import { FRAGMENT_SLOTS } from "../shared/bounds.js";

const SLOTS = FRAGMENT_SLOTS;

/**
 * Matches below which a newest-first page scores every match without trying a walk (CandidateQuery.newestByWalk):
 * scoring every match of a common word took a quarter of a second on the large bench corpus, seconds at 5 GB.
 */
export const NEWEST_WALK_MIN = 256;
/** Events a newest-first walk reads first, and at most before it scores every match instead. */
export const NEWEST_WALK_FIRST = 256;
export const NEWEST_WALK = 16_384;

/**
 * A newest-first page over the matches `m` (fid, score) that a statement defines after the CTEs `before`: their
 * events, best fragment and match count, forked copies ranked by score, ordered by time, copy rank and identity.
 */
export function newestPageSql(matches: string, before: string[] = []): string {
	return `
		WITH ${[...before, `m AS MATERIALIZED (${matches})`].join(",\n")},
		grouped AS MATERIALIZED (
			SELECT e.id AS eid, min(m.score) AS best, count(*) AS n, e.entry_id, e.line_hash, e.ts_ms, e.session_id, e.seq
			FROM m JOIN events e ON e.id = m.fid / ${SLOTS}
			GROUP BY e.id
		),
		-- The matches' sessions numbered in IDENTITY_ORDER: every event carries a number through the sorts, not two
		-- texts. Only those sessions: numbering all of them cost a page tens of milliseconds with 25,000 sessions.
		sk AS MATERIALIZED (SELECT id, row_number() OVER (ORDER BY created DESC, public_id DESC) AS k FROM sessions
			WHERE id IN (SELECT session_id FROM grouped)),
		hits AS (SELECT g.*, sk.k FROM grouped g JOIN sk ON sk.id = g.session_id),
		ranked AS (SELECT *, row_number() OVER (PARTITION BY entry_id, line_hash ORDER BY best, ts_ms DESC, k, seq DESC) AS copy_rank FROM hits),
		page AS MATERIALIZED (SELECT eid, best, n, copy_rank, ts_ms, k, seq FROM ranked ORDER BY ts_ms DESC, copy_rank, k, seq DESC LIMIT ? OFFSET ?),
		-- Of an event's equally good fragments, its first: looked up among the page's events' matches only (one pass).
		pm AS MATERIALIZED (SELECT fid, score FROM m WHERE fid / ${SLOTS} IN (SELECT eid FROM page))
		SELECT eid, best, n, (SELECT min(fid) FROM pm WHERE fid / ${SLOTS} = page.eid AND score = page.best) AS fid, copy_rank
		FROM page ORDER BY ts_ms DESC, copy_rank, k, seq DESC`;
}
