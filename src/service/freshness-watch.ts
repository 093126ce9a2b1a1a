/**
 * Freshness vouched for by a watch, for a service that lives long (pi's extension): the session folders are watched,
 * and while that watch covers every folder the last complete refresh listed and saw only writes to files it named,
 * and no other connection wrote the index, a refresh stats the named files instead of every indexed one (a stat a
 * file before each tool call: thousands on a large history, and there only a sample). Any doubt and the refresh
 * checks as it would without a watch: a folder made, moved or gone, more files than it names, a refresh left
 * incomplete, another process's commit, a failed watch, a history on a network file system (another machine's writes
 * are never reported), a synchronous refresh (it cannot wait for the watch's news), and every few minutes in any
 * case (a kernel queue that overflows drops its events without a word to Node).
 */
import { statfsSync } from "node:fs";
import type { RefreshOptions } from "../index/refresh-options.js";
import type { IndexStore } from "../index/store.js";
import type { RefreshSummary } from "../shared/types.js";
import { type SessionWatch, watchSessions } from "./folder-watch.js";

/** Files named between two refreshes at most; past it, the next refresh checks as without a watch. */
const NAMED = 256;
/** Session folders watched at most (a kernel watch each, against the user's limit): a larger history is not watched. */
export const MAX_FOLDERS = 2048;
/** A refresh checks as without a watch at least this often, whatever the watch saw. */
export const WATCH_TRUST_MS = 5 * 60_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * File systems whose files another machine may write (NFS, SMB/CIFS, 9p as WSL mounts Windows drives, FUSE as
 * sshfs and virtiofs, Ceph, AFS, Lustre, GFS2, OCFS2): the kernel's watch never hears of those writes.
 */
const REMOTE_FS_TYPES = new Set([0x6969, 0x517b, 0xfe534d42, 0xff534d42, 0x01021997, 0x65735546, 0x00c36400, 0x5346414f, 0x0bd00bd0, 0x01161970, 0x7461636f]);

/** True when a file system of this `statfs` type may be written by another machine, unseen by a watch. */
export function remoteFileSystem(type: number): boolean {
	return REMOTE_FS_TYPES.has(type);
}

/** True when every root that exists is on a file system whose writes a watch hears of. */
function watchable(roots: string[]): boolean {
	for (const root of roots) {
		try {
			if (remoteFileSystem(Number(statfsSync(root).type))) return false;
		} catch {
			// Missing now: the watch of its parent cannot tell when it comes back either, and says so itself.
		}
	}
	return true;
}

/** The session folders' watch of one service, and what it may vouch for at the next refresh. */
export class FreshnessWatch {
	private named = new Set<string>();
	private more = false;
	private readonly watch: SessionWatch;
	/** The connection and its count of other connections' commits when the last refresh ended complete. */
	private settled: { store: IndexStore; version: number } | null = null;
	private checkedAllAt = 0;

	constructor(
		roots: string[],
		private readonly now: () => number = Date.now,
	) {
		const options = { debounceMs: 0, pollMs: 0, maxFolders: MAX_FOLDERS, ...(watchable(roots) ? {} : { forcePoll: true }) };
		this.watch = watchSessions(roots, (files, more) => this.saw(files, more), options);
	}

	/** How changes are noticed ("off" when watching failed: refreshes then check as without a watch). */
	get mode(): SessionWatch["mode"] {
		return this.watch.mode;
	}

	private saw(files: string[], more: boolean): void {
		for (const file of files) {
			if (this.named.size < NAMED) this.named.add(file);
			else if (!this.named.has(file)) this.more = true;
		}
		if (more) this.more = true;
	}

	/**
	 * The options of an asynchronous refresh: the files written since the last one first, and the watch's word for
	 * the others when it can give it. Waits two turns of the event loop first: a poll for the watch's events then
	 * begins after this call, so every write finished before it has been seen.
	 */
	async before(store: IndexStore, options: RefreshOptions): Promise<RefreshOptions> {
		await nextTurn();
		await nextTurn();
		return this.take(store, options, true);
	}

	/** The options of a synchronous refresh: the files written since the last one first; every other file checked. */
	beforeSync(store: IndexStore, options: RefreshOptions): RefreshOptions {
		return this.take(store, options, false);
	}

	private take(store: IndexStore, options: RefreshOptions, mayVouch: boolean): RefreshOptions {
		const named = [...this.named];
		const more = this.more;
		this.named = new Set();
		this.more = false;
		const settled = this.settled;
		// Until this refresh ends complete, no other may vouch.
		this.settled = null;
		const vouch =
			mayVouch &&
			!more &&
			!options.full &&
			!options.everyFile &&
			this.watch.mode === "watch" &&
			settled?.store === store &&
			settled.version === store.othersVersion() &&
			this.now() - this.checkedAllAt < WATCH_TRUST_MS;
		const priority = named.length > 0 ? [...(options.priority ?? []), ...named] : options.priority;
		return { ...options, ...(priority ? { priority } : {}), ...(vouch ? { watched: this.watch } : {}) };
	}

	/** Records how a refresh ended: a complete one lets the next vouch for the files nobody wrote. */
	after(store: IndexStore, summary: RefreshSummary): void {
		const complete = summary.pending === 0 && !summary.busy && summary.errors.length === 0 && this.watch.mode === "watch";
		this.settled = complete ? { store, version: store.othersVersion() } : null;
		if (complete && !summary.watched) this.checkedAllAt = this.now();
	}

	/** Stops watching; refreshes then check as without a watch. */
	stop(): void {
		this.watch.stop();
		this.settled = null;
	}
}
