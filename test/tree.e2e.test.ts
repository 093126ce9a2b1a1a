/**
 * The tree view in a real terminal (tmux, the built CLI) on a fork family written by the real pi 0.73.1 CLI: a session
 * with a /tree-style move (branch summary, label), its /clone and a --fork of it into another folder. Search, Ctrl+T
 * on a hit: both branches, the two forked files attached as sub-trees; n steps through the query's hits, into the
 * fork's own entries; Enter lands on that event; Esc comes back to the tree, and again to the hits.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { idTail } from "../components/core/session-label.js";
import { explorerE2e } from "./helpers/explorer-e2e.js";
import { type FamilyFile, type ForkFamily, writeForkFamily } from "./helpers/fork-family.js";
import { hasTmux } from "./helpers/tmux.js";

let family: ForkFamily;

const text = (e: FamilyFile["entries"][number]) => JSON.stringify((e.message as { content?: unknown } | undefined)?.content ?? "");
/** Entries a member wrote itself: ids the original does not hold (pi copies entries with their ids). */
const own = (f: FamilyFile) => f.entries.filter((e) => !family.original.entries.some((o) => o.id === e.id));
/** The line of the screen under the cursor. */
const cursorLine = (screen: string) => screen.split("\n").find((l) => l.startsWith("❯")) ?? "";

describe.skipIf(!hasTmux)("the tree view on a fork family written by pi (tmux)", () => {
	const explorer = explorerE2e("pes-tree-e2e-", async (dir) => {
		family = await writeForkFamily(join(dir, "family"));
		return family.sessionsDir;
	});

	it("shows both branches and the attached forks, steps hits with n, Enter lands on the event, Esc comes back", async () => {
		// Ground truth from pi's files: the replies ("Answer to: …") the family holds once each, the fork's own reply.
		const answers = [...family.original.entries, ...own(family.clone), ...own(family.fork)].filter((e) => text(e).includes("Answer to:"));
		const forkReply = own(family.fork).find((e) => text(e).includes(family.needles.fork) && (e.message as { role: string }).role === "assistant");
		expect(answers.length).toBe(4);
		expect(forkReply).toBeDefined();
		const summary = family.original.entries.find((e) => e.type === "branch_summary");
		expect(summary).toBeDefined();

		const s = explorer.start({ size: { columns: 120, rows: 32 } });
		await s.waitFor("recent events");
		s.type("answer");
		await s.waitFor(/hit 1 of \d/);
		s.keys("C-t");
		let screen = await s.waitFor(`${answers.length} hit(s) for answer`);

		// Both branches of the original leave the same point; the branch summary carries its label.
		expect(screen).toMatch(/├─ user: Why does the webhook retry loop fail with ECONNRESETFAMILY\?/);
		expect(screen).toMatch(/└─ • \[family-branch\] ◇ branch summary: /);
		expect(screen).toContain(`user: Try the other approach: ${family.needles.second} on the port.`);
		// The --fork (every entry, another folder) and the /clone (one path) hang at the leaf, each with its own entries.
		expect(screen).toMatch(
			new RegExp(
				`└─ ⑂ fork #${idTail(family.fork.sessionId)} .*other-proj · copied every entry \\(${family.original.entries.length}\\) · ${own(family.fork).length} own`,
			),
		);
		expect(screen).toMatch(new RegExp(`├─ ⑂ fork #${idTail(family.clone.sessionId)} .*proj · copied one path`));
		expect(screen).toContain(`user: A forked follow-up: ${family.needles.fork}`);

		// n from the top steps through every reply in tree order, the fork's own last.
		// (pi's /tree default view: the model and thinking changes above the first prompt are hidden, it is the first row.)
		s.keys("Home");
		await s.waitFor((x) => cursorLine(x).includes("user: Why does the webhook retry loop fail"));
		for (let k = 1; k <= answers.length; k++) {
			s.keys("n");
			screen = await s.waitFor(`hit ${k} of ${answers.length}`);
			expect(cursorLine(screen)).toContain("Answer to:");
		}
		expect(cursorLine(screen)).toContain(family.needles.fork);

		// Enter opens that event of the forked file; Esc comes back to the same row, Esc again to the hits.
		s.keys("Enter");
		screen = await s.waitFor((x) => x.includes(forkReply?.id as string) && x.includes(`Answer to: A forked follow-up: ${family.needles.fork}`));
		expect(screen).toContain(`#${idTail(family.fork.sessionId)}`);
		s.keys("Escape");
		screen = await s.waitFor("⑂ tree");
		expect(cursorLine(screen)).toContain(family.needles.fork);
		s.keys("Escape");
		await s.waitFor((x) => !x.includes("⑂ tree") && /hit \d+ of \d/.test(x));
	});
});
