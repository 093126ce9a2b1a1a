/** Removal of indexed files that are really gone (I9): only under an observed, readable root, and never a file that is still there. */
import { statSync } from "node:fs";
import type { RefreshSummary } from "../shared/types.js";
import { type RootObservation, underUnreadable } from "../source/discover.js";
import type { RefreshPlan } from "./refresh-plan.js";
import { type DroppedRoot, droppedReason, ROOTS_DROPPED_KEY } from "./root-owners.js";
import type { SessionWriter } from "./session-writer.js";
import { type IndexStore, isBusyError } from "./store.js";

/** Removes the plan's known files that discovery did not see and that are gone; true when any was removed (busy sets `summary.busy`). */
export function removeGoneFiles(store: IndexStore, writer: SessionWriter, plan: RefreshPlan, summary: RefreshSummary): boolean {
	const steps = goneFileSteps(store, writer, plan, summary);
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
	}
}

/**
 * removeGoneFiles one file at a time (each removal its own transaction), so a sliced refresh can hand the event
 * loop back between them: a deleted folder of thousands of sessions is thousands of removals.
 */
export function* goneFileSteps(store: IndexStore, writer: SessionWriter, plan: RefreshPlan, summary: RefreshSummary): Generator<void, boolean> {
	let removed = false;
	const discovered = new Set(plan.files.map((f) => f.path));
	const aliases = new Set(plan.observations.flatMap((o) => o.aliases ?? []));
	const obsByRootId = new Map<number, RootObservation>();
	for (const obs of plan.observations) {
		const id = plan.rootIds.get(obs.root.path);
		if (id !== undefined) obsByRootId.set(id, obs);
	}
	const remove = store.db.transaction((row: { id: number; path: string }) => {
		const session = store.prepare<[number], { id: number }>("SELECT id FROM sessions WHERE file_id = ?").get(row.id);
		if (session) {
			writer.removeSession(session.id);
			summary.sessionsRemoved++;
		}
		store.prepare("DELETE FROM files WHERE id = ?").run(row.id);
		store.setMeta("linked", "0");
	});
	const rootOf = new Map(plan.files.map((f) => [f.path, plan.rootIds.get(f.root) ?? null]));
	const droppedSessions = new Map<number, number>();
	for (const row of plan.known.values()) {
		if (row.root_id !== null && plan.dropped.has(row.root_id)) {
			// A root no agent dir holds: its files go, except one a configured root found too (it moves to that root).
			try {
				if (discovered.has(row.path)) store.prepare("UPDATE files SET root_id = ? WHERE id = ?").run(rootOf.get(row.path) ?? null, row.id);
				else {
					const before = summary.sessionsRemoved;
					remove.immediate(row);
					removed = true;
					droppedSessions.set(row.root_id, (droppedSessions.get(row.root_id) ?? 0) + summary.sessionsRemoved - before);
				}
			} catch (error) {
				if (!isBusyError(error)) throw error;
				summary.busy = true;
				return removed;
			}
			yield;
			continue;
		}
		if (discovered.has(row.path) || row.root_id === null) continue;
		const obs = obsByRootId.get(row.root_id);
		if (!obs?.present || underUnreadable(row.path, obs)) continue;
		// Only a regular file that discovery missed (created meanwhile) is kept: a directory, FIFO, device or a
		// symlink to one at a session path is no session, exactly as a fresh build sees it.
		// A path discovery found to be another path to a file it has (a symlink to another session) goes, as in a fresh build.
		if (isRegularFile(row.path) && !aliases.has(row.path)) continue;
		try {
			remove.immediate(row);
			removed = true;
		} catch (error) {
			if (!isBusyError(error)) throw error;
			summary.busy = true;
			break;
		}
		yield;
	}
	if (plan.dropped.size > 0 && !summary.busy) forgetDroppedRoots(store, plan, droppedSessions, summary);
	return removed;
}

/** Deletes the dropped roots left without files, and says once (summary, status) why they left. */
function forgetDroppedRoots(store: IndexStore, plan: RefreshPlan, sessions: Map<number, number>, summary: RefreshSummary): void {
	const gone: Array<DroppedRoot & { kind: string; sessions: number }> = [];
	try {
		store.db
			.transaction(() => {
				for (const [id, root] of plan.dropped) {
					if (store.prepare<[number], { n: number }>("SELECT count(*) AS n FROM files WHERE root_id = ?").get(id)?.n) continue;
					store.prepare("DELETE FROM roots WHERE id = ?").run(id);
					gone.push({ ...root, sessions: sessions.get(id) ?? 0 });
				}
				if (gone.length > 0) store.setMeta(ROOTS_DROPPED_KEY, JSON.stringify({ at: new Date().toISOString(), roots: gone }));
			})
			.immediate();
	} catch (error) {
		if (!isBusyError(error)) throw error;
		summary.busy = true;
		return;
	}
	for (const root of gone) summary.notes.push(`${root.path}: ${droppedReason(root)} (${root.sessions} session(s) left the index)`);
}

function isRegularFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}
