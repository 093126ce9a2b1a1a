/**
 * Watching the session folders: the explorer asks for a refresh when pi writes, debounced so a burst of appended
 * lines costs one refresh, naming the session files that changed (a large history's check stats only a sample of
 * its files, and an append to an old session must show at once); where watching fails it polls instead. A long-lived
 * service (pi's extension) takes every change at once to vouch for the files nobody wrote (freshness-watch.ts).
 *
 * One watch per folder, none per file: a folder's watch also reports writes to the files in it. Node's recursive
 * watch on Linux stats and watches every file on the main thread before returning (a pause before the explorer's
 * first keys that grows with the history, and a kernel watch per session against the user's inotify limit).
 */
import { type Dirent, existsSync, type FSWatcher, readdirSync, realpathSync, statSync, watch } from "node:fs";
import { join, sep } from "node:path";

/** A running watch; `mode` says which way changes are noticed ("off": watching failed and no polling was asked). */
export interface SessionWatch {
	mode: "watch" | "poll" | "off";
	/** Folders watched (0 when polling). */
	readonly folders: number;
	/** True while `folder` (a path as the roots' walk makes it) is watched. */
	covers(folder: string): boolean;
	stop(): void;
}

/** Session files named at most per change: past it, `more` asks the refresh to check every file. */
const NAMED = 256;

/** Folder depth below a root that is watched: the depth the index's discovery walks (src/source/discover.ts). */
const MAX_DEPTH = 8;

/** A folder to watch: its path, its real path and how many levels below it are watched too. */
interface Folder {
	path: string;
	real: string;
	depth: number;
}

/** The folders under `dir` to `depth` more levels (symlinked ones followed, each real folder once), `dir` first. */
function foldersUnder(dir: string, depth: number, seen: Set<string>, out: Folder[]): void {
	let real: string;
	try {
		real = realpathSync(dir);
	} catch {
		return;
	}
	if (seen.has(real)) return;
	seen.add(real);
	out.push({ path: dir, real, depth });
	if (depth <= 0) return;
	try {
		// A folder's link count is 2 + its subfolders on most Linux file systems (1, "unknown", on btrfs): a working
		// directory's folder, which holds only sessions, is not listed. A symlinked folder in it goes unwatched, as
		// with Node's own recursive watch; the refresh still finds its sessions.
		if (statSync(dir).nlink === 2) return;
	} catch {
		return;
	}
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return;
	}
	for (const entry of entries) {
		// Most entries are session files: no path is made for them.
		if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
		const path = join(dir, entry.name);
		if (entry.isSymbolicLink()) {
			try {
				if (!statSync(path).isDirectory()) continue;
			} catch {
				continue;
			}
		}
		foldersUnder(path, depth - 1, seen, out);
	}
}

/**
 * Calls `onChange` (debounced; at once with `debounceMs` 0) when anything under `roots` changes, with the session
 * files (`.jsonl`) the watch named and whether more changed than it names; polls every `pollMs` when watching fails
 * (then no file is named), or with `pollMs` 0 stops and says so in `mode`.
 */
export function watchSessions(
	roots: string[],
	onChange: (files: string[], more: boolean) => void,
	options: { debounceMs?: number; pollMs?: number; forcePoll?: boolean; named?: number; maxFolders?: number } = {},
): SessionWatch {
	const debounceMs = options.debounceMs ?? 250;
	const most = options.named ?? NAMED;
	let timer: NodeJS.Timeout | undefined;
	let named = new Set<string>();
	let more = false;
	let stopped = false;
	const fire = () => {
		const files = [...named];
		const all = more;
		named = new Set();
		more = false;
		onChange(files, all);
	};
	const later = () => {
		if (debounceMs <= 0) return fire();
		clearTimeout(timer);
		timer = setTimeout(fire, debounceMs);
	};
	/** Watched folders by path; `seen` holds the real folders watched under one root (a symlink loop ends there). */
	const watchers = new Map<string, { watcher: FSWatcher; folder: Folder; seen: Set<string>; root: boolean }>();
	let poll: NodeJS.Timeout | undefined;
	let off = false;
	const startPolling = () => {
		for (const w of watchers.values()) w.watcher.close();
		watchers.clear();
		if (options.pollMs === 0) {
			off = true;
			return;
		}
		poll ??= setInterval(() => onChange([], false), options.pollMs ?? 2000);
		poll.unref();
	};
	const unwatch = (path: string) => {
		const w = watchers.get(path);
		if (!w) return;
		w.watcher.close();
		w.seen.delete(w.folder.real);
		watchers.delete(path);
	};
	const changed = (folder: string, name: string | null) => {
		if (poll || off || stopped) return;
		if (name?.endsWith(".jsonl")) {
			const path = join(folder, name);
			if (named.size < most) named.add(path);
			else if (!named.has(path)) more = true;
		} else if (name !== null) {
			const at = watchers.get(folder);
			if (at && !existsSync(folder)) {
				// The watched folder itself went: a root's watch cannot tell when it comes back, polling can.
				if (at.root) return startPolling();
				unwatch(folder);
				more = true;
				return later();
			}
			// A folder made (a new working directory's), moved or removed: its sessions may have been written before
			// its watch began, or went with it, so every file is checked.
			const path = join(folder, name);
			let isDir = false;
			try {
				isDir = statSync(path).isDirectory();
			} catch {
				// gone
			}
			const gone = isDir ? [] : [...watchers.keys()].filter((w) => w === path || w.startsWith(path + sep));
			if (isDir && at && at.folder.depth > 0 && !watchers.has(path)) {
				more = true;
				add(path, at.folder.depth - 1, at.seen, false);
			} else if (gone.length > 0) {
				more = true;
				for (const w of gone) unwatch(w);
			}
		}
		later();
	};
	/** Watches `dir` and the folders under it; a root's failure is the whole watch's, a subfolder's only its own. */
	function add(dir: string, depth: number, seen: Set<string>, root: boolean): void {
		const found: Folder[] = [];
		foldersUnder(dir, depth, seen, found);
		// A kernel watch per folder counts against the user's limit, shared with every other watching program.
		if (options.maxFolders !== undefined && watchers.size + found.length > options.maxFolders) {
			for (const folder of found) seen.delete(folder.real);
			if (root) throw new Error("too many folders to watch");
			more = true;
			return;
		}
		for (const folder of found) {
			let watcher: FSWatcher;
			try {
				watcher = watch(folder.path, { persistent: false }, (_event, file) => changed(folder.path, file));
			} catch (error) {
				seen.delete(folder.real);
				if (root && folder.path === dir) throw error;
				continue;
			}
			watcher.on("error", () => {
				if (root && folder.path === dir) return startPolling();
				unwatch(folder.path);
				more = true;
				later();
			});
			watchers.set(folder.path, { watcher, folder, seen, root: root && folder.path === dir });
		}
	}
	try {
		if (options.forcePoll) throw new Error("polling asked for");
		for (const root of roots.filter((r) => existsSync(r))) add(root, MAX_DEPTH, new Set(), true);
		if (watchers.size === 0) startPolling();
	} catch {
		startPolling();
	}
	return {
		get mode() {
			return poll ? ("poll" as const) : off || stopped ? ("off" as const) : ("watch" as const);
		},
		get folders() {
			return watchers.size;
		},
		covers: (folder: string) => watchers.has(folder),
		stop: () => {
			stopped = true;
			clearTimeout(timer);
			clearInterval(poll);
			for (const w of watchers.values()) w.watcher.close();
			watchers.clear();
		},
	};
}
