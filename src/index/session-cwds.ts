/**
 * Sessions by working directory, without reading their rows: a search scoped to a cwd (the Pi tools always scope by
 * workspace) decides per distinct cwd, of which a history has few, instead of per session.
 */
import type { IndexStore } from "./store.js";

/** A working directory as the sessions' headers write it, and how many sessions have it. */
export interface CwdCount {
	cwd: string;
	sessions: number;
	/** Their entries together. */
	entries: number;
}

/** The distinct cwds of the index's sessions with their session and entry counts; cached until the index changes. */
export function cwdCounts(store: IndexStore): readonly CwdCount[] {
	return store.cached("cwd-counts", () =>
		store.prepare<[], CwdCount>("SELECT cwd, count(*) AS sessions, sum(entries) AS entries FROM sessions GROUP BY cwd ORDER BY cwd").all(),
	);
}

/** Row ids of the sessions whose cwd is one of `cwds`, in row order; cached until the index changes (a search asks twice). */
export function sessionIdsWithCwds(store: IndexStore, cwds: readonly string[]): readonly number[] {
	if (cwds.length === 0) return [];
	const list = JSON.stringify(cwds);
	return store.cached(`cwd-ids:${list}`, () =>
		store.prepare<[string], number>("SELECT id FROM sessions WHERE cwd IN (SELECT value FROM json_each(?)) ORDER BY id").pluck().all(list),
	);
}

/** The cwd of one session, by row id. */
export function sessionCwd(store: IndexStore, id: number): string | undefined {
	return store.prepare<[number], string>("SELECT cwd FROM sessions WHERE id = ?").pluck().get(id);
}
