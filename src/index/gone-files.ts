/** Removal of indexed files that are really gone (I9): only under an observed, readable root, and never a file that is still there. */
import { statSync } from "node:fs";
import type { RefreshSummary } from "../shared/types.js";
import { type RootObservation, underUnreadable } from "../source/discover.js";
import type { RefreshPlan } from "./refresh-plan.js";
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
	for (const row of plan.known.values()) {
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
	return removed;
}

function isRegularFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}
