/** Linking after ingest: each session's public id (one file per session id keeps it plain) and its parent session. */
import { basename } from "node:path";
import { shortHash } from "./ingest.js";
import type { IndexStore } from "./store.js";

/**
 * Gives every session its public id. A session id claimed by several files (pi's /export and /import copy it) is
 * never merged: the file whose path sorts first keeps the plain id, every other one is `<id>~<8 hex of its path>`.
 */
export function assignPublicIds(store: IndexStore): void {
	const conflicted = store
		.prepare<[], { n: number }>(
			"SELECT count(*) AS n FROM (SELECT header_id FROM sessions GROUP BY header_id HAVING count(*) > 1 OR sum(public_id <> header_id) > 0)",
		)
		.get();
	if (!conflicted?.n) return;
	// Decided over all sessions at once, so the result depends only on the set of files (a fresh build agrees):
	// every header id goes to the first file claiming it; the others get derived ids that avoid every id in use,
	// even a hostile header id that looks like a derived one.
	const all = store
		.prepare<[], { id: number; public_id: string; header_id: string; path: string }>(
			"SELECT s.id, s.public_id, s.header_id, f.path FROM sessions s JOIN files f ON f.id = s.file_id ORDER BY s.header_id, f.path",
		)
		.all();
	const used = new Set<string>();
	const wanted = new Map<number, string>();
	const rest: typeof all = [];
	for (const s of all) {
		if (!used.has(s.header_id)) {
			used.add(s.header_id);
			wanted.set(s.id, s.header_id);
		} else rest.push(s);
	}
	for (const s of rest) {
		let candidate = `${s.header_id}~${shortHash(s.path)}`;
		for (let n = 1; used.has(candidate); n++) candidate = `${s.header_id}~${shortHash(`${s.path}#${n}`)}`;
		used.add(candidate);
		wanted.set(s.id, candidate);
	}
	const changed = all.filter((s) => s.public_id !== wanted.get(s.id));
	for (const s of changed) store.prepare("UPDATE sessions SET public_id = ? WHERE id = ?").run(`\u0000${s.id}`, s.id);
	for (const s of changed) store.prepare("UPDATE sessions SET public_id = ? WHERE id = ?").run(wanted.get(s.id) as string, s.id);
}

/**
 * Session ids a pi file name may carry: `<timestamp>_<id>.jsonl`, where since pi 0.76 the id may be a custom one
 * (`[A-Za-z0-9._-]`, not a UUID), and `/import` on a clash appends `-N` to the name. Most likely first.
 */
export function idsInName(name: string): string[] {
	const m = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9-]+Z_([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\.jsonl$/.exec(name);
	if (!m) return [];
	const id = m[1] as string;
	const clash = /^(.+)-[0-9]+$/.exec(id)?.[1];
	return clash ? [id, clash] : [id];
}

/** Resolves `parentSession` paths to indexed sessions: by path, else by file name, else by the session id in the name. */
export function resolveParents(store: IndexStore): void {
	const children = store
		.prepare<[], { id: number; parent_path: string; parent_session: number | null }>(
			"SELECT id, parent_path, parent_session FROM sessions WHERE parent_path IS NOT NULL",
		)
		.all();
	if (children.length === 0) return;
	const all = store
		.prepare<[], { id: number; path: string; header_id: string }>(
			"SELECT s.id, f.path, s.header_id FROM sessions s JOIN files f ON f.id = s.file_id ORDER BY f.path",
		)
		.all();
	const byPath = new Map(all.map((s) => [s.path, s.id]));
	const byName = new Map<string, number>();
	const byHeader = new Map<string, number>();
	for (const s of all) {
		const name = basename(s.path);
		if (!byName.has(name)) byName.set(name, s.id);
		if (!byHeader.has(s.header_id)) byHeader.set(s.header_id, s.id);
	}
	const update = store.prepare("UPDATE sessions SET parent_session = ? WHERE id = ?");
	for (const child of children) {
		const name = child.parent_path.split(/[\\/]/).pop() ?? "";
		let parent =
			byPath.get(child.parent_path) ??
			byName.get(name) ??
			idsInName(name).reduce<number | undefined>((found, id) => found ?? byHeader.get(id), undefined) ??
			null;
		if (parent === child.id) parent = null;
		if (parent !== child.parent_session) update.run(parent, child.id);
	}
}

/** Settles public ids and parents in one write transaction and marks the index linked; a busy index throws. */
export function linkSessions(store: IndexStore): void {
	store.db
		.transaction(() => {
			assignPublicIds(store);
			resolveParents(store);
			store.setMeta("linked", "1");
		})
		.immediate();
}
