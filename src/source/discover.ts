/** Finds session files (`*.jsonl`) under the configured roots, and says which parts of each root were observed. */
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SourceRoot } from "../shared/config.js";

/** A candidate session file with the stat fields that fingerprint it. */
export interface DiscoveredFile {
	path: string;
	root: string;
	size: number;
	mtimeMs: number;
	ctimeMs: number;
	ino: number;
}

/** What a walk of one root saw; removal is only allowed under observed, readable directories (I9). */
export interface RootObservation {
	root: SourceRoot;
	/** The root exists and could be listed. */
	present: boolean;
	/** Directories below the root that could not be listed: nothing under them may be removed. */
	unreadable: string[];
	/** Paths of a file found under another path too (a symlink to another session): indexed once, at the other path. */
	aliases?: string[];
	error?: string;
}

/** A directory as it was when listed: a listing is current while these still match (quick-check.ts). */
export interface DirStamp {
	path: string;
	mtimeMs: number;
	ctimeMs: number;
	ino: number;
}

/** What discovery found: the session files and what was seen of each root. */
export interface Discovery {
	files: DiscoveredFile[];
	observations: RootObservation[];
	/** Every directory listed, stamped before its listing. */
	dirs?: DirStamp[];
	/** Date.now() when the walk began: a directory changed since may share its stamp with a later change. */
	startedAt?: number;
	/**
	 * False when a directory stamp cannot tell that the file set is unchanged: a symlink was followed, a file was found
	 * twice, a directory could not be listed or a root is no directory.
	 */
	plain?: boolean;
}

/** Walks all roots; files reachable twice (symlinks, nested roots) are reported once. */
export function discover(roots: SourceRoot[], maxDepth = 8): Discovery {
	const steps = discoverySteps(roots, maxDepth);
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
	}
}

/** Whether the roots hold any session file: the walk stops after the first directory listing that found one. */
export function hasSessionFile(roots: SourceRoot[], maxDepth = 8): boolean {
	const steps = discoverySteps(roots, maxDepth);
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value.files.length > 0;
		if (step.value > 0) return true;
	}
}

/**
 * Like discover(), but hands the event loop back (`pause`) whenever a stretch of the walk took `sliceMs`: a root of
 * thousands of files is listed and stat'ed synchronously, hundreds of milliseconds on a busy disk, and inside pi's
 * process no single step may hold its event loop that long.
 */
export async function discoverSliced(roots: SourceRoot[], pause: () => Promise<void>, sliceMs: number, maxDepth = 8): Promise<Discovery> {
	const steps = discoverySteps(roots, maxDepth);
	let started = performance.now();
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
		if (performance.now() - started >= sliceMs) {
			await pause();
			started = performance.now();
		}
	}
}

/** The walk, one step per directory listed, so a caller can stop between them; a step yields the files found so far. */
function* discoverySteps(roots: SourceRoot[], maxDepth: number): Generator<number, Discovery> {
	const files: DiscoveredFile[] = [];
	/** The index in `files` of each file (device and inode) found so far. */
	const seenFiles = new Map<string, number>();
	// Of two paths to one file, the file's own path (not through a symlink) is kept, else the first in path order:
	// the same whatever order the directories list in, so a refresh and a fresh build keep the same one.
	const rank = (path: string) => {
		let real = "";
		try {
			real = realpathSync(path);
		} catch {
			// gone meanwhile
		}
		return real === path ? 0 : 1;
	};
	const better = (a: string, b: string) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
	const observations: RootObservation[] = [];
	const dirs: DirStamp[] = [];
	const startedAt = Date.now();
	let plain = true;
	for (const root of roots) {
		const obs: RootObservation = { root, present: false, unreadable: [], aliases: [] };
		observations.push(obs);
		let rootStat: ReturnType<typeof statSync>;
		try {
			rootStat = statSync(root.path);
		} catch (error) {
			obs.error = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
			continue;
		}
		if (!rootStat.isDirectory()) {
			obs.error = "not a directory";
			plain = false;
			continue;
		}
		const visitedDirs = new Set<string>();
		function* walk(dir: string, depth: number): Generator<number, boolean> {
			let real: string;
			try {
				real = realpathSync(dir);
			} catch {
				return false;
			}
			if (visitedDirs.has(real)) {
				plain = false;
				return true;
			}
			visitedDirs.add(real);
			let entries: Dirent[];
			try {
				// Stamped before the listing: a change in between shows as a newer stamp next time, never as none.
				const st = statSync(dir);
				dirs.push({ path: dir, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino });
				entries = readdirSync(dir, { withFileTypes: true });
			} catch {
				plain = false;
				return false;
			}
			for (const entry of entries) {
				const path = join(dir, entry.name);
				let isDir = entry.isDirectory();
				let isFile = entry.isFile();
				if (entry.isSymbolicLink()) {
					plain = false;
					try {
						const st = statSync(path);
						isDir = st.isDirectory();
						isFile = st.isFile();
					} catch {
						continue;
					}
				}
				if (isDir) {
					if (depth < maxDepth && !(yield* walk(path, depth + 1))) obs.unreadable.push(path);
				} else if (isFile && entry.name.endsWith(".jsonl")) {
					let st: ReturnType<typeof statSync>;
					try {
						st = statSync(path);
					} catch {
						continue;
					}
					const key = `${st.dev}:${st.ino}`;
					const found: DiscoveredFile = { path, root: root.path, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
					const at = seenFiles.get(key);
					if (at !== undefined) {
						const other = files[at] as DiscoveredFile;
						const keep = better(path, other.path) < 0 ? found : other;
						files[at] = keep;
						obs.aliases?.push(keep === found ? other.path : path);
						continue;
					}
					seenFiles.set(key, files.length);
					files.push(found);
					// A directory of thousands of files is itself a long step: a chance to pause every 64 files.
					if (files.length % 64 === 0) yield files.length;
				}
			}
			yield files.length;
			return true;
		}
		obs.present = yield* walk(root.path, 0);
		if (!obs.present) obs.error = "cannot list the directory";
		if ((obs.aliases?.length ?? 0) > 0 || obs.unreadable.length > 0) plain = false;
	}
	return { files, observations, dirs, startedAt, plain };
}

/** True when `path` lies inside one of the unreadable directories of an observation. */
export function underUnreadable(path: string, obs: RootObservation): boolean {
	return obs.unreadable.some((dir) => path === dir || path.startsWith(`${dir}/`) || path.startsWith(`${dir}\\`));
}
