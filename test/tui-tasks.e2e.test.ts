/**
 * Tasks on an event and the mouse wheel in a real terminal (tmux): `c` runs the `pi` on PATH (here a script that
 * records its arguments, the landing variables and tmux's mouse flag, then exits) and the explorer comes back on
 * the same event; `m` copies the event as Markdown (OSC 52 into tmux's buffer); `E` writes the branch from the root
 * to the event as Markdown to a new file in the current folder; wheel reports sent as raw SGR bytes move the hit
 * selection and scroll the event text, and never reach the query line. Ground truth: the corpus manifest and the
 * session file's own parent links.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyCorpus, loadManifest, needleById } from "./helpers/corpus.js";
import { explorerE2e } from "./helpers/explorer-e2e.js";
import { hasTmux, shellQuote, type TmuxSession, tmuxServer } from "./helpers/tmux.js";

const manifest = loadManifest();
/** A bash tool call deep in its session (line 8), on the leaf path. */
const needle = needleById(manifest, "N00055");
const at = needle.occurrences[0] as { file: string; sessionId: string; entryId: string };

/** Sends bytes to the pane as the terminal would (tmux send-keys -H). */
function sendBytes(s: TmuxSession, bytes: string): void {
	tmuxServer(["send-keys", "-t", s.name, "-H", ...(Buffer.from(bytes, "latin1").toString("hex").match(/../g) ?? [])]);
}
const wheelDown = "\x1b[<65;40;12M";
const wheelUp = "\x1b[<64;40;12M";

const queryRow = (screen: string) => (screen.split("\n")[1] ?? "").trim();
const mouseFlag = (s: TmuxSession) => tmuxServer(["display-message", "-p", "-t", s.name, "#{mouse_any_flag}"]).trim();

/** The ids from the session's root to `entryId`, root first, from the file's own parentId links. */
function pathInFile(file: string, entryId: string): string[] {
	const entries = readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l) as { id?: string; parentId?: string | null; type: string })
		.filter((e) => e.type !== "session");
	const byId = new Map(entries.map((e) => [e.id, e]));
	const out: string[] = [];
	for (let e = byId.get(entryId); e; e = e.parentId ? byId.get(e.parentId) : undefined) out.unshift(e.id as string);
	return out;
}

async function openNeedle(s: TmuxSession): Promise<void> {
	await s.waitFor((x) => x.includes("recent events") && /index up to date|indexed \d+/.test(x));
	s.type(needle.text);
	await s.waitFor("hit 1 of 1");
	s.keys("Enter");
	await s.waitFor("● here");
}

describe.skipIf(!hasTmux)("tasks on an event and the mouse wheel in a real terminal (tmux)", () => {
	const explorer = explorerE2e("pes-tui-tasks-", (dir) => {
		copyCorpus(join(dir, "corpus"));
		mkdirSync(join(dir, "bin"));
		mkdirSync(join(dir, "out"));
		// A stand-in for the user's pi: records its arguments, the landing variables and whether mouse reporting is
		// on while it runs, then exits.
		const fake = join(dir, "bin", "pi");
		writeFileSync(
			fake,
			[
				"#!/bin/sh",
				`for a in "$@"; do printf 'arg=%s\\n' "$a"; done > "$PI_ARGS_FILE"`,
				`printf 'land=%s\\nlandfile=%s\\ncwd=%s\\n' "$PI_EVENT_SEARCH_LAND" "$PI_EVENT_SEARCH_LAND_FILE" "$(pwd)" >> "$PI_ARGS_FILE"`,
				`printf 'mouse=%s\\n' "$(tmux display-message -p '#{mouse_any_flag}')" >> "$PI_ARGS_FILE"`,
				"echo fake pi ran",
				// Asked to, it waits to be interrupted (Ctrl+C reaches it and the explorer alike).
				'if [ -n "$PI_FAKE_WAIT" ]; then echo "fake pi waiting"; sleep 60; fi',
				"exit 3",
				"",
			].join("\n"),
		);
		chmodSync(fake, 0o755);
		return join(dir, "corpus");
	});
	const dir = () => explorer.dir;
	/** The explorer with the recording pi first on PATH, in the `out` folder (where `E` writes). */
	const start = (flags = "", extraEnv = ""): TmuxSession =>
		explorer.start({
			flags,
			env: `${extraEnv} PATH=${shellQuote(`${join(dir(), "bin")}:${process.env.PATH ?? ""}`)} PI_ARGS_FILE=${shellQuote(join(dir(), "pi-args.txt"))}`,
			size: { columns: 110, rows: 30 },
			cwd: join(dir(), "out"),
		});

	it("c hands the terminal to pi --session <the event's file> and comes back to the same event", async () => {
		const s = start();
		await openNeedle(s);
		expect(mouseFlag(s)).toBe("1");
		s.keys("F7");
		const back = await s.waitFor("back from pi (exit 3)");
		// The explorer is drawn again on the same event: its trace panel, its text.
		expect(back).toContain("● here");
		expect(back).toContain(needle.text);
		const file = join(dir(), "corpus", at.file);
		const recorded = readFileSync(join(dir(), "pi-args.txt"), "utf8").trim().split("\n");
		expect(recorded.filter((l) => l.startsWith("arg="))).toEqual(["arg=--session", `arg=${file}`]);
		expect(recorded).toContain(`land=${at.entryId}`);
		expect(recorded).toContain(`landfile=${file}`);
		// Mouse reporting was off while pi had the terminal, and is on again after; the cursor is hidden again.
		expect(recorded).toContain("mouse=0");
		expect(mouseFlag(s)).toBe("1");
		expect(tmuxServer(["display-message", "-p", "-t", s.name, "#{cursor_flag}"]).trim()).toBe("0");
		// Keys work again: back to the hit list; and quitting turns mouse reporting off.
		s.keys("q");
		await s.waitFor("hit 1 of 1");
		s.keys("C-c");
		await s.waitFor("__EXIT__=130");
		expect(mouseFlag(s)).toBe("0");
	});

	it("Ctrl+C in pi ends pi, not the explorer, which comes back", async () => {
		const s = start("", "PI_FAKE_WAIT=1");
		await openNeedle(s);
		s.keys("F7");
		await s.waitFor("fake pi waiting");
		s.keys("C-c");
		const back = await s.waitFor("back from pi (ended by SIGINT)");
		expect(back).toContain("● here");
		expect(back).not.toContain("__EXIT__");
		s.keys("q");
		await s.waitFor("hit 1 of 1");
	});

	it("without pi on PATH, c says the command to run instead", async () => {
		const session = explorer.start({ env: "PATH=/usr/bin:/bin", node: process.execPath, size: { columns: 250, rows: 30 }, cwd: join(dir(), "out") });
		await openNeedle(session);
		session.keys("F7");
		await session.waitFor(`pi is not on PATH; to continue there run: pi --session ${join(dir(), "corpus", at.file).slice(0, 60)}`);
	});

	it("m copies the event as Markdown (OSC 52 into tmux's buffer); E exports the branch root → event to a new file", async () => {
		tmuxServer(["set-option", "-s", "set-clipboard", "on"]);
		const s = start();
		await openNeedle(s);
		s.keys("m");
		await s.waitFor("sent the event as Markdown");
		const copied = tmuxServer(["show-buffer"]);
		expect(copied.startsWith("## message/assistant · ")).toBe(true);
		expect(copied).toContain(`- ref: \`${at.sessionId} ${at.entryId}\``);
		expect(copied).toContain(needle.text);

		s.keys("C-x");
		const screen = await s.waitFor(/exported \d+ event\(s\), root → event, as Markdown to \.\/pi-branch-/);
		const name = readdirSync(join(dir(), "out")).find((f) => f.startsWith("pi-branch-")) as string;
		expect(screen).toContain(name.slice(0, 30));
		const md = readFileSync(join(dir(), "out", name), "utf8");
		const refs = [...md.matchAll(/^- ref: `(\S+) (\S+)`$/gm)].map((m) => m[2]);
		const path = pathInFile(join(dir(), "corpus", at.file), at.entryId);
		// Every exported event is on the file's root → event path, in that order, ending at the event itself.
		expect(refs.at(-1)).toBe(at.entryId);
		expect(refs.every((id) => path.includes(id as string))).toBe(true);
		expect(refs.map((id) => path.indexOf(id as string))).toEqual([...refs.map((id) => path.indexOf(id as string))].sort((a, b) => a - b));
		expect(refs.length).toBeGreaterThan(2);
		expect(md).toContain(needle.text);
	});

	it("the wheel moves the hit selection and scrolls the event text; reports never reach the query line", async () => {
		// The query comes from the command line: one search, so no later answer (for "th" while "the" is typed) can
		// reset the selection the wheel moved.
		const s = start("-q the");
		await s.waitFor((x) => /hit 1 of \d+/.test(x) && /index up to date|indexed \d+/.test(x));
		sendBytes(s, wheelDown + wheelDown + wheelDown);
		await s.waitFor(/hits · hit 4 of \d+/);
		sendBytes(s, wheelUp);
		const screen = await s.waitFor(/hits · hit 3 of \d+/);
		expect(queryRow(screen)).toMatch(/the\s*$/);

		s.burst("BSpace", "BSpace", "BSpace");
		// The empty query's answer (the recent events) first, so the needle's hits are the last answer on screen.
		await s.waitFor((x) => (queryRow(x) === "❯" || queryRow(x).includes("search as you type")) && x.includes("recent events"));
		s.type(needle.text);
		await s.waitFor("hit 1 of 1");
		s.keys("Enter");
		const opened = await s.waitFor(/lines \d+–\d+ of \d+/);
		const [from = 0, to = 0, total = 0] = (/lines (\d+)–(\d+) of (\d+)/.exec(opened) ?? []).slice(1).map(Number);
		// Three lines a notch, down to the end of the event (the last first line shows the last line at the bottom).
		sendBytes(s, wheelDown);
		const expected = Math.min(from + 3, total - (to - from));
		await s.waitFor(`lines ${expected}–`);
		sendBytes(s, wheelUp);
		await s.waitFor(`lines ${Math.max(1, expected - 3)}–`);
	});

	it("--no-mouse leaves mouse reporting off", async () => {
		const s = start("--no-mouse");
		await s.waitFor("recent events");
		expect(mouseFlag(s)).toBe("0");
		s.keys("C-c");
		await s.waitFor("__EXIT__=130");
		expect(mouseFlag(s)).toBe("0");
	});
});
