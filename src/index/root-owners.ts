/**
 * Which session roots the index keeps: each root is held by the agent dirs whose configuration names it, through the
 * index path they name. A root nobody holds any more leaves the index, as a fresh build would have it: a copied
 * agent dir (its index names the old folder) or a session dir taken out of the configuration. An index shared by
 * two agent dirs keeps the roots of both.
 */
import { realpathSync } from "node:fs";
import type { ResolvedConfig } from "../shared/config.js";

/** One agent dir's hold on a root, kept in the index's meta table. */
export interface RootOwner {
	root: string;
	/** null: held since before owners were recorded, by an agent dir we cannot name (kept). */
	agentDir: string | null;
	/** The index file as that agent dir named it (real path): another path means this file was copied or moved. */
	index: string;
	/** Named by the agent dir whatever the cwd and environment: it goes when the agent dir no longer names it. */
	stable: boolean;
}

/** What the agent dir refreshing now says about roots. */
export interface RootClaim {
	agentDir: string;
	/** The real path of the index file it opened. */
	index: string;
	/** The index is at the agent dir's own default location (no other agent dir is expected to use it). */
	indexIsDefault: boolean;
	/** Roots it names whatever the cwd and environment (ResolvedConfig.agentRoots). */
	stable: string[];
	/** Roots of this run only (a project's or the environment's sessionDir, --sessions-dir): added, never taken away. */
	situational: string[];
}

/** The meta key of the roots' owners. */
export const ROOT_OWNERS_KEY = "rootOwners";

/** The meta key of the last roots that left the index, with when and why: status says it. */
export const ROOTS_DROPPED_KEY = "rootsDropped";

/** A root that leaves the index; `copiedFrom` names the index file it was held through when that was another file. */
export interface DroppedRoot {
	path: string;
	copiedFrom: string | null;
}

/** The claim of a resolved configuration. */
export function rootClaim(config: ResolvedConfig): RootClaim {
	let index = config.indexPath;
	try {
		index = realpathSync(config.indexPath);
	} catch {
		// not created yet: the path as named
	}
	const stable = config.agentRoots;
	return {
		agentDir: config.agentDir,
		index,
		indexIsDefault: config.indexIsDefault,
		stable,
		situational: config.roots.map((r) => r.path).filter((p) => !stable.includes(p)),
	};
}

/**
 * Settles the owners of the `indexed` roots after `claim`'s refresh: the claiming agent dir's stable holds become
 * what it names now, holds recorded through another index path (a copy of the file) end, and every root left with
 * no hold is dropped. `owners` null: an index written before owners were recorded.
 */
export function settleRoots(
	indexed: readonly string[],
	owners: readonly RootOwner[] | null,
	claim: RootClaim,
): { owners: RootOwner[]; dropped: DroppedRoot[] } {
	const all = owners ?? indexed.map((root) => adopted(root, claim));
	const here = all.filter((o) => o.index === claim.index);
	const next = here.filter((o) => o.agentDir !== claim.agentDir);
	const hold = (root: string, stable: boolean) => {
		const mine = next.find((o) => o.root === root && o.agentDir === claim.agentDir);
		if (!mine) next.push({ root, agentDir: claim.agentDir, index: claim.index, stable });
		else if (stable) mine.stable = true;
	};
	for (const root of claim.stable) hold(root, true);
	for (const o of here) if (o.agentDir === claim.agentDir && !o.stable) hold(o.root, false);
	for (const root of claim.situational) hold(root, false);
	const known = new Set([...indexed, ...claim.situational]);
	const dropped = indexed
		.filter((root) => !next.some((o) => o.root === root))
		.map((path) => ({ path, copiedFrom: all.find((o) => o.root === path && o.index !== claim.index)?.index ?? null }));
	return { owners: next.filter((o) => known.has(o.root)), dropped };
}

/**
 * A root of an index written before owners were recorded: at the agent dir's own location the index is its alone
 * (a root it does not name now came with a copy, or left its configuration); elsewhere the file may be shared, so a
 * root the agent dir does not name stays, held by nobody we know.
 */
function adopted(root: string, claim: RootClaim): RootOwner {
	const named = claim.stable.includes(root) || claim.situational.includes(root);
	return { root, agentDir: named || claim.indexIsDefault ? claim.agentDir : null, index: claim.index, stable: true };
}

/** The owners recorded in the index's meta value, or null when there are none (or they cannot be read). */
export function parseOwners(value: string | null): RootOwner[] | null {
	if (value === null) return null;
	try {
		const parsed: unknown = JSON.parse(value);
		return Array.isArray(parsed) ? (parsed as RootOwner[]) : null;
	} catch {
		return null;
	}
}

/** Why a root leaves the index, in words. */
export function droppedReason(root: DroppedRoot): string {
	return root.copiedFrom ? `the index was copied from ${root.copiedFrom}; the old folder is no longer indexed` : "no longer configured, so no longer indexed";
}
