import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Authorizer, authorizationRoot, canonicalPath, isWithin } from "../src/query/authorize.js";
import type { HistoryService } from "../src/service/service.js";
import { NotFoundError } from "../src/shared/errors.js";
import type { Caller } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { assistant, createSession, user } from "./helpers/pi-sessions.js";

describe("path-component boundary", () => {
	it.each([
		["/a/b", "/a/b", true],
		["/a/b", "/a/b/c", true],
		["/a/b", "/a/bc", false],
		["/a/b", "/a", false],
		["/", "/anything", true],
		["C:\\Users\\dave", "C:\\Users\\dave\\src", true],
		["C:\\Users\\dave", "C:\\Users\\dave2", false],
		["C:\\Users\\dave", "c:\\users\\dave\\src", process.platform === "win32"],
		["/a/b", "C:\\a\\b", false],
	])("%s covers %s: %s", (root, path, expected) => {
		const r = canonicalPath(root) as string;
		const p = canonicalPath(path) as string;
		expect(isWithin(r, p)).toBe(expected);
	});

	it("resolves a symlink before the `..` that follows it, as the kernel does", () => {
		const t = tempDir();
		try {
			const base = realpathSync(t.dir);
			mkdirSync(join(base, "ws", "proj"), { recursive: true });
			mkdirSync(join(base, "elsewhere", "deep"), { recursive: true });
			symlinkSync(join(base, "elsewhere", "deep"), join(base, "ws", "proj", "link-out"));
			expect(canonicalPath(`${base}/ws/proj/link-out/../secret`)).toBe(join(base, "elsewhere", "secret"));
			expect(isWithin(join(base, "ws"), canonicalPath(`${base}/ws/proj/link-out/../secret`) as string)).toBe(false);
			// A relative link, and a loop.
			symlinkSync("../../elsewhere", join(base, "ws", "proj", "rel"));
			expect(canonicalPath(`${base}/ws/proj/rel/deep/../x`)).toBe(join(base, "elsewhere", "x"));
			symlinkSync(join(base, "loop"), join(base, "loop"));
			expect(canonicalPath(`${base}/loop/x`)).toBeNull();
		} finally {
			t.cleanup();
		}
	});

	it("cannot place empty or relative cwds, and resolves `..` before comparing", () => {
		expect(canonicalPath("")).toBeNull();
		expect(canonicalPath("proj/sub")).toBeNull();
		expect(canonicalPath("/no/such/root/../../etc")).toBe("/no/etc");
		expect(isWithin("/no/such/root", canonicalPath("/no/such/root/../x") as string)).toBe(false);
	});
});

describe("authorization root", () => {
	let tmp: ReturnType<typeof tempDir>;
	beforeAll(() => {
		tmp = tempDir();
	});
	afterAll(() => tmp.cleanup());

	it("uses the configured root, else the git worktree root (also a .git file), else the cwd", () => {
		const base = realpathSync(tmp.dir);
		const repo = join(base, "repo");
		mkdirSync(join(repo, ".git"), { recursive: true });
		mkdirSync(join(repo, "pkg", "nested"), { recursive: true });
		expect(authorizationRoot(join(repo, "pkg", "nested"))).toBe(repo);
		const worktree = join(base, "wt");
		mkdirSync(join(worktree, "src"), { recursive: true });
		writeFileSync(join(worktree, ".git"), "gitdir: ../repo/.git/worktrees/wt\n");
		expect(authorizationRoot(join(worktree, "src"))).toBe(worktree);
		const plain = join(base, "plain");
		mkdirSync(plain);
		expect(authorizationRoot(plain)).toBe(plain);
		expect(authorizationRoot(join(repo, "pkg"), join(repo, "pkg"))).toBe(join(repo, "pkg"));
	});
});

describe("authorized search, read and trace", () => {
	let tmp: ReturnType<typeof tempDir>;
	let service: HistoryService;
	let root: string;
	const sessions: Record<string, { id: string; entries: string[] }> = {};
	const NEEDLE = "quartz-heron-7731";

	beforeAll(() => {
		tmp = tempDir();
		const base = realpathSync(tmp.dir);
		root = join(base, "ws");
		mkdirSync(join(root, "nested"), { recursive: true });
		mkdirSync(join(base, "outside", "proj"), { recursive: true });
		symlinkSync(join(base, "outside"), join(root, "escape"));
		// A link from outside into the workspace: the session's written cwd is not under the root, its real one is.
		symlinkSync(root, join(base, "link-in"));
		const dir = join(base, "sessions");
		const cwds: Record<string, string> = {
			root,
			nested: join(root, "nested"),
			collision: `${root}c`,
			dotdot: join(root, "..", "outside", "proj").replace(`${base}/outside`, `${root}/../outside`),
			relative: "ws/nested",
			empty: "",
			symlink: join(root, "escape", "proj"),
			// Read as text, `escape/..` is the root itself; the kernel resolves `escape` first, so this is base/nested.
			linkDotdot: `${root}/escape/../nested`,
			linkedIn: join(base, "link-in", "nested"),
			current: root,
		};
		for (const [name, cwd] of Object.entries(cwds)) {
			const sm = createSession(cwd, dir);
			const entries = [sm.appendMessage(user(`${name}: where is ${NEEDLE}?`)), sm.appendMessage(assistant(`${name}: ${NEEDLE} is in the config`))];
			if (name === "current")
				entries.push(
					sm.appendMessage(user(`current: the invoking turn about ${NEEDLE}`)),
					sm.appendMessage(assistant(`current: calling event_search for ${NEEDLE}`)),
				);
			sessions[name] = { id: sm.getSessionId(), entries };
		}
		service = openService(dir, join(base, "index.sqlite"));
		service.refresh();
	});
	afterAll(() => {
		service.close();
		tmp.cleanup();
	});

	const caller = (): Caller => ({ root, currentSessionId: sessions.current?.id, cutoffEntryId: sessions.current?.entries[3] });
	const visibleSessions = (filters = {}) =>
		[...new Set(service.search({ query: NEEDLE, filters, caller: caller(), limit: 50 }).hits.map((h) => h.sessionId))].sort();

	it("returns only sessions whose cwd is the root or under it; the current session is excluded", () => {
		// linkedIn was created through a symlink into the workspace: its real cwd is inside, so it is visible.
		expect(visibleSessions()).toEqual([sessions.root?.id, sessions.nested?.id, sessions.linkedIn?.id].sort());
	});

	it("a model-supplied cwd or sessionId filter cannot widen the scope", () => {
		expect(visibleSessions({ cwds: ["/"] })).toEqual([sessions.root?.id, sessions.nested?.id, sessions.linkedIn?.id].sort());
		expect(visibleSessions({ cwds: [join(root, "nested")] })).toEqual([sessions.nested?.id, sessions.linkedIn?.id].sort());
		expect(visibleSessions({ sessionIds: [sessions.collision?.id as string] })).toEqual([]);
		const unauthorized = service.search({ query: NEEDLE, filters: { sessionIds: [sessions.symlink?.id as string] }, caller: caller() });
		const missing = service.search({ query: NEEDLE, filters: { sessionIds: ["00000000-0000-0000-0000-000000000000"] }, caller: caller() });
		expect(unauthorized.hits).toEqual([]);
		expect(unauthorized.notes).toEqual(missing.notes);
	});

	it("reads and traces of unauthorized sessions fail exactly like missing ones", () => {
		for (const name of ["collision", "dotdot", "relative", "empty", "symlink", "linkDotdot"]) {
			const s = sessions[name] as { id: string; entries: string[] };
			expect(() => service.read({ sessionId: s.id, entryId: s.entries[0] as string, caller: caller() })).toThrow(NotFoundError);
			expect(() => service.trace({ sessionId: s.id, entryId: s.entries[0] as string, caller: caller() })).toThrow(NotFoundError);
		}
	});

	it("the current session is visible by explicit id, but only before the invoking message", () => {
		const cur = sessions.current as { id: string; entries: string[] };
		const hits = service.search({ query: NEEDLE, filters: { sessionIds: [cur.id] }, caller: caller(), limit: 50 }).hits;
		expect(hits.map((h) => h.entryId).sort()).toEqual(cur.entries.slice(0, 3).sort());
		expect(() => service.read({ sessionId: cur.id, entryId: cur.entries[3] as string, caller: caller() })).toThrow(NotFoundError);
		const r = service.read({ sessionId: cur.id, entryId: cur.entries[2] as string, caller: caller(), after: 5 });
		expect(r.neighbors.after).toEqual([]);
		const note = service.search({ query: `"current: the invoking turn"`, caller: caller() }).notes.join(" ");
		expect(note).toMatch(/current session/);
	});

	it("the trusted human face sees every session", () => {
		const all = new Set(service.search({ query: NEEDLE, limit: 50 }).hits.map((h) => h.sessionId));
		expect(all.size).toBe(Object.keys(sessions).length);
	});
});

describe("worktrees are one workspace (real git worktree add)", () => {
	const tmp = tempDir("pes-worktrees-");
	const base = realpathSync(tmp.dir);
	const git = (cwd: string, ...args: string[]) =>
		execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "init.defaultBranch=main", ...args], { cwd, stdio: "pipe" });
	const main = join(base, "repo");
	const linked = join(base, "repo-wt");
	const clone = join(base, "clone");
	const evil = join(base, "evil");
	beforeAll(() => {
		mkdirSync(join(main, "sub"), { recursive: true });
		git(main, "init", "-q");
		writeFileSync(join(main, "f.txt"), "x\n");
		git(main, "add", ".");
		git(main, "commit", "-qm", "init");
		git(main, "worktree", "add", "-q", linked);
		git(base, "clone", "-q", main, clone);
		// A forged worktree entry whose folder does not point back into the repository: it must not widen the workspace.
		mkdirSync(join(main, ".git", "worktrees", "forged"), { recursive: true });
		writeFileSync(join(main, ".git", "worktrees", "forged", "gitdir"), `${join(evil, ".git")}\n`);
		mkdirSync(evil, { recursive: true });
		writeFileSync(join(evil, ".git"), "gitdir: /nonexistent\n");
	});
	afterAll(() => tmp.cleanup());

	it("the main checkout and its linked worktree see each other's sessions; a clone, a prefix twin and a forged entry do not", () => {
		const fromLinked = new Authorizer(authorizationRoot(join(linked)));
		const fromMain = new Authorizer(authorizationRoot(join(main, "sub")));
		expect(fromLinked.allows(join(main, "sub"))).toBe(true);
		expect(fromMain.allows(linked)).toBe(true);
		for (const a of [fromLinked, fromMain]) {
			expect(a.allows(clone)).toBe(false);
			expect(a.allows(`${main}-evil`)).toBe(false);
			expect(a.allows(evil)).toBe(false);
			expect(a.allows(join(linked, "..", "clone"))).toBe(false);
		}
		symlinkSync(clone, join(linked, "to-clone"));
		expect(fromLinked.allows(join(linked, "to-clone"))).toBe(false);
	});

	it("a configured workspaceRoot pins the workspace to that folder alone", () => {
		const pinned = new Authorizer(authorizationRoot(main, linked));
		expect(pinned.allows(linked)).toBe(true);
		expect(pinned.allows(main)).toBe(false);
	});
});
