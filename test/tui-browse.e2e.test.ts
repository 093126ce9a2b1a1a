/**
 * The session browser, the go-to-ref prompt and `pi-history open` in a real terminal (tmux, the built CLI, CI unset)
 * on a fork family written by the real pi 0.73.1 CLI: a session with a /tree-style branch and a summary, its /clone,
 * and a --fork into another folder. What the screens must show comes from the files pi wrote (ids, names, parents,
 * fork points counted from the raw entries), never from our own output.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI } from "./helpers/build.js";
import { explorerE2e } from "./helpers/explorer-e2e.js";
import { type FamilyFile, type ForkFamily, writeForkFamily } from "./helpers/fork-family.js";
import { hasTmux, tmuxServer } from "./helpers/tmux.js";

let family: ForkFamily;

/** Fork points of a file, from its raw entries: parent ids named by two or more entries. */
function forkPoints(f: FamilyFile): number {
	const kids = new Map<string, number>();
	for (const e of f.entries) if (e.parentId) kids.set(e.parentId, (kids.get(e.parentId) ?? 0) + 1);
	return [...kids.values()].filter((n) => n > 1).length;
}

/** The entry whose user text holds `needle` (pi's message content). */
function entryWith(f: FamilyFile, needle: string): string {
	const e = f.entries.find((x) => x.type === "message" && JSON.stringify(x.message ?? "").includes(needle));
	if (!e) throw new Error(`no entry of ${f.path} holds ${needle}`);
	return e.id;
}

describe.skipIf(!hasTmux)("session browser, go to a ref and pi-history open in a real terminal", () => {
	// pi runs three times on a possibly busy machine (the helper's timeout is a safety net, not a measure).
	const explorer = explorerE2e("pes-browse-e2e-", async (dir) => {
		family = await writeForkFamily(dir);
		const indexed = spawnSync("node", [CLI, "--sessions-dir", family.sessionsDir, "--index", join(dir, "index.sqlite"), "index"], { encoding: "utf8" });
		expect(indexed.status, indexed.stderr).toBe(0);
		return family.sessionsDir;
	});
	// In the original's folder, as a person who ran pi there would start it.
	const start = (args = "") => explorer.start({ flags: args, size: { columns: 120, rows: 36 }, cwd: family.mainCwd });

	it("F2 lists the family with its lineage and branches; Enter opens a session at its leaf; Esc comes back", async () => {
		const { original, clone, fork } = family;
		// What pi wrote: the clone and the fork name the original as their parent; the original has a branch.
		expect(clone.parentSession).toBe(original.path);
		expect(fork.parentSession).toBe(original.path);
		expect(forkPoints(original)).toBeGreaterThan(0);

		const s = start();
		await s.waitFor("recent events");
		s.keys("F2");
		let screen = await s.waitFor("3 of 3");
		expect(screen).toContain("webhook retries");
		expect(screen).toContain("clone of webhook retries");
		expect(screen).toContain("fork of webhook retries");
		expect(screen).toContain("2 forks");
		const branches = forkPoints(original);
		expect(screen).toContain(`${branches} branch${branches === 1 ? "" : "es"}`);

		// Filter to the --fork (its folder), open it: its tree over the event of its materialized leaf (its last entry).
		s.type("other-proj");
		screen = await s.waitFor("1 of 3");
		s.keys("Enter");
		screen = await s.waitFor("⑂ tree");
		s.keys("Escape");
		const leaf = fork.entries.at(-1)?.id as string;
		screen = await s.waitFor(`◆ ${leaf}`);
		s.keys("Escape");
		screen = await s.waitFor("1 of 3");
		expect(screen).toContain("filter ❯ other-proj");
		s.keys("Escape");
		await s.waitFor("recent events");
		// After a walk the first Esc at the top only asks.
		s.keys("Escape");
		await s.waitFor("Esc again to quit");
		s.keys("Escape");
		await s.waitFor("__EXIT__=0");
	});

	it("F3 takes a pasted ref (the tools' labelled form) and lands on the event; an unknown one says why", async () => {
		const { original, needles } = family;
		const target = entryWith(original, needles.first);
		const s = start();
		await s.waitFor("recent events");
		s.keys("F3");
		await s.waitFor("Go to a reference");
		s.type(`${original.sessionId} 0badc0de`);
		s.keys("Enter");
		await s.waitFor(`no event ${original.sessionId}/0badc0de in the index`);
		// Ctrl+U clears the prompt (and is not inserted as a "u", as a text field reading Ink's useInput would).
		s.keys("C-u");
		await s.waitFor((x) => /ref ❯ *\n/.test(x) && !x.includes("0badc0de"));
		// A real paste: tmux's buffer, bracketed because the explorer asks for bracketed paste.
		tmuxServer(["set-buffer", "-b", "pesref", `   sessionId=${original.sessionId} entryId=${target} fragmentId=user.text:0`]);
		tmuxServer(["paste-buffer", "-p", "-b", "pesref", "-t", s.name]);
		let screen = await s.waitFor(`entryId=${target}`);
		expect(screen).not.toContain("[200~");
		s.keys("Enter");
		screen = await s.waitFor(needles.first);
		expect(screen).toContain(`◆ ${target}`);
		s.keys("Escape");
		await s.waitFor("recent events");
	});

	it("pi-history open <sessionId> <entryId> starts on the event; usage errors exit 2; without a terminal it says what to run", async () => {
		const { fork, needles } = family;
		const target = entryWith(fork, needles.fork);
		const s = start(`open ${fork.sessionId} ${target}`);
		const screen = await s.waitFor(needles.fork);
		expect(screen).toContain(`◆ ${target}`);
		s.keys("Escape");
		await s.waitFor("recent events");
		s.keys("Escape");
		await s.waitFor("__EXIT__=0");
		s.kill();

		// The short id the explorer shows for the fork's session (#tail) works too.
		const tail = fork.sessionId.replace(/-/g, "").slice(-8);
		const short = start(`open '#${tail}' ${target}`);
		await short.waitFor(needles.fork);

		const usage = spawnSync("node", [CLI, "open", fork.sessionId], { encoding: "utf8", input: "" });
		expect(usage.status).toBe(2);
		expect(usage.stderr).toContain("usage: pi-history open <sessionId> <entryId>");
		const noTty = spawnSync(
			"node",
			[CLI, "--sessions-dir", family.sessionsDir, "--index", join(explorer.dir, "index.sqlite"), "open", fork.sessionId, target],
			{
				encoding: "utf8",
				input: "",
			},
		);
		expect(noTty.status).toBe(2);
		expect(noTty.stderr).toContain(`needs a terminal; use \`pi-history read ${fork.sessionId} ${target} --sessions-dir`);
	});
});
