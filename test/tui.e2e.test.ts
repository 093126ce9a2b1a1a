/**
 * The built CLI in a real terminal (tmux, CI unset: Ink draws nothing until exit under CI): search as you type,
 * open the exact event, walk parent / sibling / fork candidates, back to the same hit, scope, help, resize, and
 * quit with the shell screen restored. Queries come from the corpus manifest, so the answers are known.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringWidth } from "../components/core/text-width.js";
import { CLI } from "./helpers/build.js";
import { loadManifest, needleById } from "./helpers/corpus.js";
import { explorerOnCorpus } from "./helpers/explorer-e2e.js";
import { hasTmux, type TmuxSession } from "./helpers/tmux.js";

// dist/ is brought up to date by vitest's globalSetup (test/support/global-setup.ts).
const manifest = loadManifest();
/** An abandoned-branch needle ("lunar-pangolin-00033") whose first 9 characters match exactly its 2 occurrences. */
const abandoned = needleById(manifest, "N00033");

const timings: Array<[string, number]> = [];

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
	const t = Date.now();
	const out = await run();
	timings.push([label, Date.now() - t]);
	return out;
}

/** Every line of the screen fits the width; the app leaves the last row free (frame height ≤ rows − 1). */
function expectFits(screen: string, columns: number, rows: number) {
	const lines = screen.replace(/\n$/, "").split("\n");
	for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(columns);
	expect(lines.length).toBeLessThanOrEqual(rows);
	expect(lines[rows - 1] ?? "").toBe("");
}

describe.skipIf(!hasTmux)("pi-history in a real terminal (tmux)", () => {
	const explorer = explorerOnCorpus("pes-tui-e2e-");
	// A marker before the explorer starts, so the quit test can see the shell screen restored.
	const start = (size: { columns: number; rows: number }, env = ""): TmuxSession => explorer.start({ size, env, before: "printf '__SHELL__\\n'; " });

	afterAll(() => {
		// Measured step times, for the record (the test asserts behaviour, never speed).
		process.stdout.write(`tui e2e timings (ms): ${timings.map(([l, ms]) => `${l} ${ms}`).join(", ")}\n`);
	});

	it("searches, opens, walks the tree, comes back, cycles scope, shows help, resizes and quits cleanly", async () => {
		expect(abandoned.plantedAs).toBe("user.text(abandoned-branch)");
		expect(abandoned.occurrences).toHaveLength(2);
		const s = start({ columns: 100, rows: 30 });
		await timed("start → first frame", () => s.waitFor("recent events"));

		// Type a query: hits as you type.
		s.type(abandoned.text.slice(0, 9));
		// Its two occurrences are one entry and its copy in a forked session: one row, "same entry in 2 sessions".
		await timed("type → hits", () => s.waitFor("same entry in 2 sessions"));

		// Show the copy as its own row (→), move to it and open it: the exact text, the trace panel with the path.
		s.keys("Tab", "Right");
		await s.waitFor("2 hits");
		s.keys("Down");
		await timed("move", () => s.waitFor("hit 2 of 2"));
		s.keys("Enter");
		let screen = await timed("open → exact text", () => s.waitFor("── user.text:0 · "));
		expect(screen).toContain(abandoned.text);
		expect(screen).toMatch(/path ⌂ \w+ › … \d+ › \w+ › \w+ › ● here/);

		// Next sibling: the branch summary written for the other branch at the same parent.
		s.keys("j");
		await timed("sibling", () => s.waitFor(/◆ \w+ {2}summary\.branch/));

		// Parent: the compaction both branches continue from.
		s.keys("h");
		screen = await timed("parent", () => s.waitFor(/◆ \w+ {2}summary\.compaction/));
		expect(screen).toContain("2 branches continue here (f to choose)");

		// Child at an unresolved fork: every candidate with a preview; pick the first.
		s.keys("l");
		screen = await timed("child at fork → candidates", () => s.waitFor("fork: 2 branches continue from here"));
		expect(screen).toContain(abandoned.text);
		s.keys("1");
		await timed("pick", () => s.waitFor(/◆ \w+ {2}user\.text/));

		// Back through the stack to the results, with the same hit selected. One Esc at a time: two ESC bytes in
		// one read are Alt+Esc to a terminal parser, as they would be for a person.
		for (const depth of [3, 2, 1]) {
			s.keys("Escape");
			await timed(`back → ${depth}`, () => s.waitFor(`back stack ${depth}`));
		}
		s.keys("Escape");
		screen = await timed("back → results", () => s.waitFor("hits · hit 2 of 2"));
		expect(screen).toContain("❯ ");

		// Scope cycle (Ctrl+S: letters on the search screen are text): workspace, session, all.
		s.keys("C-s");
		await timed("scope", () => s.waitFor("[workspace "));
		s.keys("C-s");
		await s.waitFor(/\[session [^\]]+\]/);
		s.keys("C-s");
		await s.waitFor("[all sessions]");

		// Help.
		s.keys("F1");
		await timed("help", () => s.waitFor("Query line (typing searches as you type)"));
		s.keys("Escape");
		await s.waitFor("hits · hit");

		// Resize: 80×24 (stacked, within rows − 1), then wide (side by side).
		s.resize(80, 24);
		// Only a frame drawn for 24 rows has the status line on row 22 (tmux merely cuts the old 30-row frame).
		screen = await timed("resize 80×24", () => s.waitFor((x) => /hits · hit \d+ of \d+\+?$/.test(x.split("\n")[21] ?? "") && x.includes("── preview")));
		expectFits(screen, 80, 24);
		s.resize(140, 30);
		screen = await timed("resize 140×30", () => s.waitFor((x) => x.includes("│preview") && /hits · hit \d+ of \d+\+?$/.test(x.split("\n")[27] ?? "")));
		expectFits(screen, 140, 30);

		// Quit at the top: Esc to the query line, Esc clears it, Esc on the empty query asks once after a walk, Esc
		// again quits. The shell screen comes back (the alternate screen is gone) and the exit code is 0.
		s.keys("Escape");
		await s.waitFor((x) => x.includes(" query") && !x.includes("hits · hit"));
		s.keys("Escape");
		await s.waitFor("recent events");
		s.keys("Escape");
		await s.waitFor("Esc again to quit");
		s.keys("Escape");
		screen = await timed("quit", () => s.waitFor("__EXIT__=0"));
		expect(screen).toContain("__SHELL__");
		expect(screen).not.toContain("pi-history");
	});

	it("restores the screen on Ctrl+C (exit 130) and draws no color with NO_COLOR", async () => {
		const s = start({ columns: 100, rows: 30 }, "NO_COLOR=1");
		await s.waitFor("recent events");
		s.type("ECONNREFUSED");
		await s.waitFor(/\d+ hits/);
		// Colors are SGR 30–37/90–97 (foreground); bold, dim and inverse are not colors and stay.
		expect(s.capture(true)).not.toMatch(/\u001b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7])(?:;[0-9;]*)?m/);
		s.keys("C-c");
		const screen = await s.waitFor("__EXIT__=130");
		expect(screen).toContain("__SHELL__");
		expect(screen).not.toContain("pi-history");
	});

	it("shows errors in color and opens one with its parent turn", async () => {
		const s = start({ columns: 100, rows: 30 });
		await s.waitFor("recent events");
		s.keys("Tab");
		await s.waitFor("hits · hit 1");
		s.keys("C-x");
		await s.waitFor((x) => x.includes("[errors only]") && x.includes("✗ error"));
		expect(s.capture(true)).toMatch(/\u001b\[31m✗ error/);
		s.keys("Enter");
		await s.waitFor("◆ ");
		s.keys("h");
		await s.waitFor((x) => x.includes("back stack 2") && x.includes("↓ child"));
		// q steps back (never quits from inside): back stack 1, then the hit list.
		s.keys("q");
		await s.waitFor((x) => x.includes("back stack 1"));
		s.keys("q");
		await s.waitFor("hits · hit 1");
		expect(s.capture()).not.toContain("__EXIT__");
		s.keys("C-c");
		await s.waitFor("__EXIT__=130");
	});

	it("restores the screen when terminated (SIGTERM, exit 143)", async () => {
		const s = start({ columns: 80, rows: 24 });
		await s.waitFor("recent events");
		process.kill(s.childPid(), "SIGTERM");
		const screen = await s.waitFor("__EXIT__=143");
		expect(screen).toContain("__SHELL__");
		expect(screen).not.toContain("pi-history");
	});

	it("without a terminal, points to `pi-history search` and exits 2", () => {
		const r = spawnSync("node", [CLI, "--sessions-dir", join(explorer.dir, "corpus"), "--index", join(explorer.dir, "index.sqlite")], {
			encoding: "utf8",
			input: "",
		});
		expect(r.status).toBe(2);
		expect(r.stderr).toMatch(/pi-history search/);
	});
});
