/**
 * Authorization of the model-facing tools (I16): which sessions a caller may see. A session is visible when its
 * header cwd, normalized and canonicalized, equals the authorization root or lies under it on a path-component
 * boundary. Everything else does not exist for the caller.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve, win32 } from "node:path";
import { isWindowsPath } from "../shared/paths.js";

/** Windows paths compare case-insensitively only on Windows itself; elsewhere they are compared literally. */
const WINDOWS_CASE_INSENSITIVE = process.platform === "win32";

/** Symlinks followed in one path before giving up (as the kernel's ELOOP). */
const MAX_LINKS = 40;

/**
 * Resolves an absolute POSIX path the way the kernel does: component by component, symlinks before `..`, so
 * `/ws/proj/link-out/../secret` is the `secret` next to where `link-out` points, not `/ws/proj/secret`. Components
 * that do not exist (a cwd from another machine) are taken as text; null for a symlink loop.
 */
function resolvePhysically(p: string): string | null {
	const pending = p.split("/").filter(Boolean).reverse();
	const parts: string[] = [];
	// True while every component so far exists: only then can the next one be a symlink.
	let real = true;
	let links = 0;
	while (pending.length) {
		const name = pending.pop() as string;
		if (name === ".") continue;
		if (name === "..") {
			parts.pop();
			continue;
		}
		parts.push(name);
		if (!real) continue;
		const here = `/${parts.join("/")}`;
		let st: ReturnType<typeof lstatSync>;
		try {
			st = lstatSync(here);
		} catch {
			real = false;
			continue;
		}
		if (!st.isSymbolicLink()) continue;
		if (++links > MAX_LINKS) return null;
		let target: string;
		try {
			target = readlinkSync(here);
		} catch {
			real = false;
			continue;
		}
		parts.pop();
		if (target.startsWith("/")) parts.length = 0;
		pending.push(...target.split("/").filter(Boolean).reverse());
	}
	return `/${parts.join("/")}`;
}

/**
 * Canonical form of a session cwd or root, or null when it cannot be placed (empty, relative).
 * POSIX: absolute, symlinks resolved component by component where the path exists, then `..` (as the kernel does). Windows: separators and `..`
 * normalized, case kept, trailing separator dropped.
 */
export function canonicalPath(p: string): string | null {
	if (!p || typeof p !== "string") return null;
	if (isWindowsPath(p)) {
		let n = win32.normalize(p);
		if (n.length > 3 && /[\\]$/.test(n)) n = n.slice(0, -1);
		return WINDOWS_CASE_INSENSITIVE ? n.toLowerCase() : n;
	}
	if (!isAbsolute(p)) return null;
	return resolvePhysically(p);
}

const CANONICAL_TTL_MS = 10_000;
const canonicalCache = new Map<string, { value: string | null; at: number }>();

/** canonicalPath() with a short-lived cache: a search checks every session's cwd, and most share a few folders. */
export function canonicalPathCached(p: string): string | null {
	const now = Date.now();
	const hit = canonicalCache.get(p);
	if (hit && now - hit.at < CANONICAL_TTL_MS) return hit.value;
	const value = canonicalPath(p);
	if (canonicalCache.size > 10_000) canonicalCache.clear();
	canonicalCache.set(p, { value, at: now });
	return value;
}

/** True when `path` equals `root` or lies under it on a path-component boundary (`/a/b` does not cover `/a/bc`). */
export function isWithin(root: string, path: string): boolean {
	if (path === root) return true;
	const sep = isWindowsPath(root) ? "\\" : "/";
	if (isWindowsPath(root) !== isWindowsPath(path)) return false;
	const base = root.endsWith(sep) ? root : root + sep;
	return path.startsWith(base);
}

/** The git worktree root containing `dir` (a `.git` directory or a `.git` file of a linked worktree), if any. */
export function gitWorktreeRoot(dir: string): string | null {
	let current = resolve(dir);
	for (;;) {
		try {
			const st = statSync(`${current}/.git`);
			if (st.isDirectory() || st.isFile()) return current;
		} catch {
			// not here
		}
		const parent = dirname(current);
		if (parent === current) return null;
		current = parent;
	}
}

/** Roots pinned by the `workspaceRoot` config: exactly that folder, never widened to a repository's worktrees. */
const pinnedRoots = new Set<string>();

/** The `gitdir:` a linked worktree's `.git` file names, resolved against the worktree; null when unreadable. */
function gitdirOf(gitFile: string): string | null {
	try {
		const m = /^gitdir: *(.+?)\s*$/m.exec(readFileSync(gitFile, "utf8"));
		return m ? resolve(dirname(gitFile), m[1] as string) : null;
	} catch {
		return null;
	}
}

/**
 * The checkouts of the repository whose worktree root is `root`: the main checkout and its linked worktrees (one
 * git common dir), read from the `.git` files and `<common>/worktrees/*` without running git. A worktree counts only
 * when its own `.git` file points back into the same common dir, so a forged entry cannot widen the workspace.
 */
export function repositoryCheckouts(root: string): string[] {
	const dotGit = `${root}/.git`;
	let common: string | null = null;
	try {
		const st = statSync(dotGit);
		if (st.isDirectory()) common = dotGit;
		else if (st.isFile()) {
			const gitdir = gitdirOf(dotGit);
			if (gitdir) common = resolve(gitdir, readFileSync(`${gitdir}/commondir`, "utf8").trim());
		}
	} catch {
		return [root];
	}
	if (!common) return [root];
	const commonReal = canonicalPath(common);
	if (!commonReal) return [root];
	const checkouts = new Set<string>([root]);
	if (commonReal.endsWith("/.git")) {
		const main = dirname(commonReal);
		if (canonicalPath(`${main}/.git`) === commonReal) checkouts.add(main);
	}
	let names: string[] = [];
	try {
		names = readdirSync(`${commonReal}/worktrees`);
	} catch {
		// no linked worktrees
	}
	for (const name of names) {
		let target: string;
		try {
			target = readFileSync(`${commonReal}/worktrees/${name}/gitdir`, "utf8").trim();
		} catch {
			continue;
		}
		if (!isAbsolute(target) || !target.endsWith("/.git")) continue;
		const back = gitdirOf(target);
		if (!back || canonicalPath(back) !== canonicalPath(`${commonReal}/worktrees/${name}`)) continue;
		const checkout = canonicalPath(dirname(target));
		if (checkout) checkouts.add(checkout);
	}
	return [...checkouts];
}

/**
 * The authorization root: the configured absolute workspace root, else the git worktree root of `cwd`, else
 * `cwd` itself; canonicalized.
 */
export function authorizationRoot(cwd: string, configuredRoot?: string): string {
	if (configuredRoot && (isAbsolute(configuredRoot) || isWindowsPath(configuredRoot))) {
		const canonical = canonicalPath(configuredRoot);
		if (canonical) {
			pinnedRoots.add(canonical);
			return canonical;
		}
	}
	const absolute = resolve(cwd || ".");
	const root = gitWorktreeRoot(absolute) ?? absolute;
	return canonicalPath(root) ?? root;
}

/** Decides visibility of session cwds under one root, caching each distinct cwd's canonical form. */
export class Authorizer {
	private readonly cache = new Map<string, boolean>();

	/** The root and, when it is a git checkout not pinned by config, the repository's other checkouts. */
	private readonly roots: string[];

	constructor(readonly root: string) {
		this.roots = pinnedRoots.has(root) ? [root] : repositoryCheckouts(root);
	}

	/** True when a session created in `cwd` is visible under the root. */
	allows(cwd: string): boolean {
		let ok = this.cache.get(cwd);
		if (ok === undefined) {
			const canonical = canonicalPathCached(cwd);
			ok = canonical !== null && this.roots.some((r) => isWithin(r, canonical));
			this.cache.set(cwd, ok);
		}
		return ok;
	}
}
