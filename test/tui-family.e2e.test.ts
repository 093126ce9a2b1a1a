/**
 * A fork family written by the real pi 0.73.1 CLI (a session, its `/clone`, its `--fork` into another folder), in
 * the explorer in a real terminal (tmux): the entry all three files hold is one row ("same entry in 3 sessions")
 * whose copies, expanded, are told apart by their id parts; the event header names each copy's file and lineage;
 * and crossing from the clone into its parent's file through the trace panel keeps the back stack, so Esc comes back.
 * Ground truth: the files pi wrote (their headers and entries).
 */
import { describe, expect, it } from "vitest";
import { idTail } from "../components/core/session-label.js";
import { explorerE2e } from "./helpers/explorer-e2e.js";
import { type ForkFamily, writeForkFamily } from "./helpers/fork-family.js";
import { hasTmux } from "./helpers/tmux.js";

let family: ForkFamily;

/** The files holding the entry that first carries `needle` (by entry id, as pi copied it), from the files themselves. */
function holders(needle: string): ForkFamily["original"][] {
	const files = [family.original, family.clone, family.fork];
	const first = files.flatMap((f) => f.entries).find((e) => JSON.stringify(e).includes(needle));
	if (!first) throw new Error(`no entry holds ${needle}`);
	return files.filter((f) => f.entries.some((e) => e.id === first.id && JSON.stringify(e).includes(needle)));
}

/** The hit list shows the needle's hits only: every row's snippet line holds it (typing has settled). */
function onlyHitsOf(screen: string, needle: string): boolean {
	// A hit's first line holds its session's `#id` (a narrow row drops its age and kind before that).
	const lines = screen.split("\n");
	const rows = lines.map((l, i) => [l, lines[i + 1] ?? ""] as const).filter(([l]) => /^[▌ ]\S.* #[0-9a-f]{4,} /.test(l));
	return rows.length > 0 && rows.every(([, snippet]) => snippet.split("│")[0]?.includes(needle));
}

/** A row's `#id` part for a session: a tail of its id, 4 digits or more. */
const idShown = (id: string) => new RegExp(`#[0-9a-f]*${idTail(id, 4)}\\b`);

describe.skipIf(!hasTmux)("a fork family in the explorer (tmux)", () => {
	const explorer = explorerE2e("pes-tui-family-", async (dir) => {
		family = await writeForkFamily(dir);
		return family.sessionsDir;
	});
	const start = () => explorer.start({ size: { columns: 160, rows: 40 } });

	it("shows the entry the three files share as one row, and its copies told apart by id", async () => {
		const s = start();
		// Indexing done first: a new index generation searches again and folds expanded copies back into their row.
		await s.waitFor((x) => x.includes("recent events") && /index up to date|indexed \d+ changed/.test(x));
		// The second branch's prompt: on the path the clone copied, and in the fork (which copied every entry).
		const files = holders(family.needles.second);
		expect(files).toHaveLength(3);
		s.type(family.needles.second);
		await s.waitFor((x) => onlyHitsOf(x, family.needles.second) && x.includes("same entry in 3 sessions"));
		// The three sessions were made the same minute: UUIDv7 heads are alike, the tails tell them apart.
		const ids = files.map((f) => f.sessionId);
		expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBeLessThan(3);
		s.keys("Down", "Right");
		// Each copy's row names its session by the shortest id tail that differs (at least 4 digits).
		await s.waitFor((x) => ids.every((id) => idShown(id).test(x)));
	});

	it("opens the clone's copy with its file and lineage in the header; crossing into the parent's file and Esc keep the back stack", async () => {
		const s = start();
		// Indexing done first: a new index generation searches again and folds expanded copies back into their row.
		await s.waitFor((x) => x.includes("recent events") && /index up to date|indexed \d+ changed/.test(x));
		s.type(family.needles.second);
		await s.waitFor((x) => onlyHitsOf(x, family.needles.second) && x.includes("same entry in 3 sessions"));
		s.keys("Down", "Right");
		// Go down to the clone's row (the copies are listed right under the row they were folded into), then open it.
		const clone = idShown(family.clone.sessionId);
		const listed = await s.waitFor((x) => clone.test(x));
		const metas = listed.split("\n").filter((l) => /^[▌ ]\S.* #[0-9a-f]{4,} /.test(l));
		const at = metas.findIndex((l) => clone.test(l));
		expect(at).toBeGreaterThan(0);
		for (let i = 0; i < at; i++) s.keys("Down");
		let screen = await s.waitFor((x) => x.split("\n").some((l) => l.startsWith("▌") && clone.test(l)));
		s.keys("Enter");
		screen = await s.waitFor((x) => x.includes("back stack 1") && x.includes("clone of"));
		const header = screen.split("\n").slice(0, 3).join("\n");
		expect(header).toContain(family.clone.path.split("/").at(-1));
		expect(header).toContain(`clone of webhook retries #${idTail(family.original.sessionId)}`);
		// The clone's first own entry has its parent in the original's file (pi re-creates labels in a clone): the
		// trace panel's parent row crosses into that file, and Esc comes back to the clone's event.
		s.keys("Tab");
		await s.waitFor((x) => x.split("\n").some((l) => /[▌›]↑ parent/.test(l)));
		s.keys("Enter");
		screen = await s.waitFor((x) => x.includes("back stack 2") && x.includes("forked from it"));
		expect(screen.split("\n").slice(0, 3).join("\n")).toContain(family.original.path.split("/").at(-1));
		expect(screen).toContain("2 sessions forked from it");
		s.keys("Escape");
		screen = await s.waitFor((x) => x.includes("back stack 1") && x.includes("clone of"));
		expect(screen).toContain(family.clone.path.split("/").at(-1));
	});
});
