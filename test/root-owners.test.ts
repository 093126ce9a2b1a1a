/**
 * Which roots the index keeps (root-owners.ts): a root no agent dir names any more leaves, one still named by
 * anyone (another agent dir sharing the index, a project's or the environment's sessionDir, --sessions-dir) stays.
 */
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RootClaim, type RootOwner, settleRoots } from "../src/index/root-owners.js";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";
import { CORPUS_DIR, loadManifest, tempDir } from "./helpers/corpus.js";

const P = "/a/pi-event-search/index.sqlite";
const claimOf = (over: Partial<RootClaim> = {}): RootClaim => ({
	agentDir: "/a",
	index: P,
	indexIsDefault: true,
	stable: ["/a/sessions"],
	situational: [],
	...over,
});
const owner = (root: string, agentDir: string | null = "/a", index = P, stable = true): RootOwner => ({ root, agentDir, index, stable });

describe("settleRoots: the roots an index keeps", () => {
	it.each<[string, string[], RootOwner[] | null, RootClaim, Array<{ path: string; copiedFrom: string | null }>]>([
		[
			"a copied agent dir: the old folder, held through the original index file, leaves",
			["/a/sessions", "/b/sessions"],
			[owner("/a/sessions")],
			claimOf({ agentDir: "/b", index: "/b/pi-event-search/index.sqlite", stable: ["/b/sessions"] }),
			[{ path: "/a/sessions", copiedFrom: P }],
		],
		["the same agent dir again: nothing leaves", ["/a/sessions"], [owner("/a/sessions")], claimOf(), []],
		[
			"an index shared by two agent dirs (--index): the other one's root stays",
			["/a/sessions", "/b/sessions"],
			[owner("/a/sessions"), owner("/b/sessions", "/b")],
			claimOf({ indexIsDefault: false }),
			[],
		],
		[
			"an extra dir taken out of our config: it leaves, as no longer configured",
			["/a/sessions", "/archive"],
			[owner("/a/sessions"), owner("/archive")],
			claimOf(),
			[{ path: "/archive", copiedFrom: null }],
		],
		[
			"pi's global sessionDir still set (a project's overrides it in this cwd): it stays",
			["/a/sessions", "/global", "/project"],
			[owner("/a/sessions"), owner("/global")],
			claimOf({ stable: ["/a/sessions", "/global"], situational: ["/project"] }),
			[],
		],
		[
			"a project's or the environment's sessionDir seen in another run: it stays",
			["/a/sessions", "/project"],
			[owner("/a/sessions"), owner("/project", "/a", P, false)],
			claimOf(),
			[],
		],
		["--sessions-dir: its dirs join, the configured ones stay", ["/a/sessions", "/tmp/x"], [owner("/a/sessions")], claimOf({ situational: ["/tmp/x"] }), []],
		[
			"an index written before owners were recorded, at the agent dir's own location: what it does not name leaves",
			["/old/sessions", "/a/sessions"],
			null,
			claimOf(),
			[{ path: "/old/sessions", copiedFrom: null }],
		],
		[
			"an index written before owners were recorded, at a path that may be shared: nothing leaves",
			["/other/sessions", "/a/sessions"],
			null,
			claimOf({ indexIsDefault: false }),
			[],
		],
	])("%s", (_name, indexed, owners, claim, dropped) => {
		expect(settleRoots(indexed, owners, claim).dropped).toEqual(dropped);
	});

	it("keeps the holds of a shared index: each agent dir settles only its own", () => {
		const b = claimOf({ agentDir: "/b", stable: ["/b/sessions"] });
		const afterB = settleRoots(["/a/sessions", "/b/sessions"], [owner("/a/sessions")], b).owners;
		const afterA = settleRoots(["/a/sessions", "/b/sessions"], afterB, claimOf());
		expect(afterA.dropped).toEqual([]);
		expect(afterA.owners.map((o) => [o.agentDir, o.root]).sort()).toEqual([
			["/a", "/a/sessions"],
			["/b", "/b/sessions"],
		]);
	});
});

describe("a copied agent dir, refreshed in slices (pi's extension)", () => {
	it("drops the old folder: every session once, the copy's files only", async () => {
		const tmp = tempDir("pes-owners-");
		try {
			const open = (agentDir: string) =>
				HistoryService.open({ config: resolveConfig({ env: { PI_CODING_AGENT_DIR: agentDir }, home: tmp.dir, cwd: tmp.dir }) });
			const a = join(tmp.dir, "agent");
			mkdirSync(a);
			cpSync(join(CORPUS_DIR, "sessions"), join(a, "sessions"), { recursive: true });
			const original = open(a);
			await original.refreshSliced();
			original.close();
			const b = join(tmp.dir, "agent2");
			cpSync(a, b, { recursive: true });
			const copy = open(b);
			try {
				const summary = await copy.refreshSliced();
				expect(summary.notes.join("\n")).toMatch(/the index was copied from .*the old folder is no longer indexed/);
				const listed = copy.sessions({}).sessions;
				const ids = new Set(loadManifest().files.flatMap((f) => (f.isSession && f.sessionId ? [f.sessionId] : [])));
				expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort());
				expect(copy.status().roots.map((r) => r.path)).toEqual([join(b, "sessions")]);
			} finally {
				copy.close();
			}
		} finally {
			tmp.cleanup();
		}
	});
});
