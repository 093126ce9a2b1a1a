/**
 * Hits grouped by session (a presentation option, never the ranking unit: seed 000): one row per session, that
 * session's strongest hit as it came from the core, so the row is still that exact event; sessions in the order
 * their first hit came.
 */
import type { Hit } from "../../src/shared/types.js";

/** The grouped rows and, per session id, how many of the loaded hits the row stands for. */
export interface SessionGroups {
	hits: Hit[];
	counts: Record<string, number>;
}

/** One row per session: its highest-scoring hit (the first one on a tie, so without a query the newest). */
export function groupBySession(hits: readonly Hit[]): SessionGroups {
	const best = new Map<string, Hit>();
	const counts: Record<string, number> = {};
	for (const h of hits) {
		counts[h.sessionId] = (counts[h.sessionId] ?? 0) + 1;
		const cur = best.get(h.sessionId);
		if (!cur || h.score > cur.score) best.set(h.sessionId, h);
	}
	return { hits: [...best.values()], counts };
}
