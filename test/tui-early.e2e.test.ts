/**
 * The explorer's screen before React and Ink load, in a real terminal (tmux): a module hook holds Ink's loading until
 * the test lets it go, so what the launcher drew on its own is on screen for as long as the test looks, whatever the
 * machine's speed. It lists the recent events and echoes the keys typed meanwhile; once Ink is in, the explorer shows
 * the same rows and has every key, in order (the cursor is where those keys left it).
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI } from "./helpers/build.js";
import { explorerOnCorpus } from "./helpers/explorer-e2e.js";
import { hasTmux } from "./helpers/tmux.js";

/** The rows of the hit list (a selected or plain hit's first line: age, kind, session), from the third line on. */
const listRows = (screen: string) =>
	screen
		.split("\n")
		.slice(2, 12)
		.map((l) => (l.split("│")[0] ?? "").trimEnd());

describe.skipIf(!hasTmux)("the explorer before React and Ink load (tmux)", () => {
	const explorer = explorerOnCorpus("pes-tui-early-");

	it("lists the recent events and echoes keys typed at start; the explorer then shows the same rows and keeps the keys in order", async () => {
		const index = join(explorer.dir, "index.sqlite");
		const built = spawnSync(process.execPath, [CLI, "index", "--sessions-dir", explorer.sessionsDir, "--index", index], { encoding: "utf8" });
		expect(built.status, built.stderr).toBe(0);
		// Ink waits for the release file: nothing of it runs until the test has seen the launcher's screen. Ink's entry
		// is held when the CLI runs unbundled, the bundle's explorer chunk (Ink is inside) when it runs bundled.
		const release = join(explorer.dir, "release");
		const held = join(explorer.dir, "held");
		const hook = join(explorer.dir, "hold-ink.mjs");
		const register = join(explorer.dir, "register.mjs");
		writeFileSync(
			hook,
			`import { existsSync, writeFileSync } from "node:fs";
export async function load(url, context, next) {
	if (/\\/(node_modules\\/ink\\/build\\/index|pack\\/explorer-[\\w-]+)\\.js$/.test(url)) {
		writeFileSync(${JSON.stringify(held)}, url);
		while (!existsSync(${JSON.stringify(release)})) await new Promise((r) => setTimeout(r, 20));
	}
	return next(url, context);
}
`,
		);
		writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
		const s = explorer.start({ env: `NODE_OPTIONS=--import=${pathToFileURL(register).href}`, size: { columns: 120, rows: 30 } });
		const before = await s.waitFor("recent events");
		const rows = listRows(before);
		expect(rows[0]).toMatch(/^▌\S/);
		// e r r ← o: "eror", the cursor on the last r.
		s.type("err");
		s.keys("Left");
		s.type("o");
		const echoed = await s.waitFor((x) => (x.split("\n")[1] ?? "").includes("❯ eror"));
		// The hold took: Ink is waiting, so what is on screen is the launcher's own (a renamed chunk would fail here).
		await s.waitFor(() => existsSync(held));
		expect(echoed).not.toContain("Enter opens");
		expect(listRows(echoed)).toEqual(rows);
		writeFileSync(release, "");
		// Ink's frames: the status line says what the indexer found (the launcher's never does), then a key typed now
		// lands where the early keys left the cursor.
		await s.waitFor(/index up to date|indexed \d+/);
		s.type("x");
		await s.waitFor((x) => (x.split("\n")[1] ?? "").includes("❯ eroxr"));
	});
});
