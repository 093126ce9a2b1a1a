/**
 * The launcher's side of the tasks, with real programs: $PAGER and $EDITOR are shell scripts here that copy the file
 * they are given, so the test sees exactly what they got; the export never overwrites; pi missing from PATH gives
 * the command to run (shell-quoted, controls visible); mouse reporting only where the terminal has it. And the
 * extension's landing: only in pi 1.x (0.x would send the slash command to the model), once, for the right file.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mouseWanted } from "../src/cli/screen.js";
import { findOnPath, runTask, shellLine, type TaskHost } from "../src/cli/tasks.js";
import { LAND_COMMAND, type LandingContext, type LandingRegistrar, offerLanding } from "../src/extension/land.js";
import { tempDir } from "./helpers/corpus.js";

const REF = { sessionId: "019be2c2-9f33-7094-a319-1274f826a4f8", entryId: "be96970a" };

function host(dir: string, env: NodeJS.ProcessEnv, handed: string[] = []): TaskHost {
	return {
		handOff: (run) => {
			handed.push("leave");
			try {
				return run();
			} finally {
				handed.push("back");
			}
		},
		env: { PATH: "/usr/bin:/bin", ...env },
		exportDir: dir,
		write: () => {},
	};
}

/** A script that copies the file it is given (its last argument) to `copy` and records that file's path in `copy.path`. */
function copier(dir: string, name: string, copy: string): string {
	const file = join(dir, name);
	writeFileSync(file, `#!/bin/sh\nfor a; do last="$a"; done\ncp "$last" ${JSON.stringify(copy)}\nprintf '%s' "$last" > ${JSON.stringify(`${copy}.path`)}\n`);
	chmodSync(file, 0o755);
	return file;
}

describe("tasks run by the launcher", () => {
	it("$PAGER (shell words, with options) gets the text in a temporary file, removed afterwards", () => {
		const t = tempDir("pes-run-");
		try {
			const pager = copier(t.dir, "pager.sh", join(t.dir, "paged"));
			const handed: string[] = [];
			const out = runTask({ kind: "pager", ref: REF, text: "line one\nline ␛ two\n" }, host(t.dir, { PAGER: `${pager} -R` }, handed));
			expect(out).toEqual({ text: "back from the pager (exit 0)", tone: "info" });
			expect(readFileSync(join(t.dir, "paged"), "utf8")).toBe("line one\nline ␛ two\n");
			expect(existsSync(readFileSync(join(t.dir, "paged.path"), "utf8"))).toBe(false);
			expect(handed).toEqual(["leave", "back"]);
		} finally {
			t.cleanup();
		}
	});

	it("$EDITOR gets the exact text in a private copy that stays (edits are not lost), and the status says where", () => {
		const t = tempDir("pes-run-");
		try {
			const editor = copier(t.dir, "editor.sh", join(t.dir, "edited"));
			const text = "exact \u001b[31m text\r\n";
			const out = runTask({ kind: "editor", ref: REF, text }, host(t.dir, { EDITOR: editor }));
			const path = readFileSync(join(t.dir, "edited.path"), "utf8");
			expect(readFileSync(join(t.dir, "edited"), "utf8")).toBe(text);
			expect(out.text).toBe(`back from the editor (exit 0); the copy is ${path}`);
			expect(readFileSync(path, "utf8")).toBe(text);
		} finally {
			t.cleanup();
		}
	});

	it("a 300-character entry id pages, edits and exports (bounded file names), leaving no temp folder behind", () => {
		const t = tempDir("pes-run-");
		const saved = process.env.TMPDIR;
		const tmp = join(t.dir, "tmp");
		mkdirSync(tmp);
		process.env.TMPDIR = tmp;
		try {
			const ref = { ...REF, entryId: "e".repeat(300) };
			const pager = copier(t.dir, "pager.sh", join(t.dir, "paged"));
			expect(runTask({ kind: "pager", ref, text: "paged" }, host(t.dir, { PAGER: pager })).text).toBe("back from the pager (exit 0)");
			expect(readdirSync(tmp)).toEqual([]);
			const editor = copier(t.dir, "editor.sh", join(t.dir, "edited"));
			expect(runTask({ kind: "editor", ref, text: "edited" }, host(t.dir, { EDITOR: editor })).text).toMatch(/^back from the editor \(exit 0\)/);
			expect(readFileSync(join(t.dir, "edited"), "utf8")).toBe("edited");
			expect(runTask({ kind: "export", ref, markdown: "# x\n", events: 1 }, host(t.dir, {})).text).toMatch(/^exported 1 event/);
		} finally {
			if (saved === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = saved;
			t.cleanup();
		}
	});

	it("a pager that fails says its exit code", () => {
		const t = tempDir("pes-run-");
		try {
			const out = runTask({ kind: "pager", ref: REF, text: "x" }, host(t.dir, { PAGER: "exit 4 #" }));
			expect(out).toEqual({ text: "back from the pager (exit 4)", tone: "warn" });
		} finally {
			t.cleanup();
		}
	});

	it("an export is a new file: a second export of the same event gets -1, the first is untouched", () => {
		const t = tempDir("pes-run-");
		try {
			const a = runTask({ kind: "export", ref: REF, markdown: "# one\n", events: 3 }, host(t.dir, {}));
			const b = runTask({ kind: "export", ref: REF, markdown: "# two\n", events: 3 }, host(t.dir, {}));
			// Named by the session id's random end (f826a4f8), not its UUIDv7 time prefix (019be2c2).
			const first = join(t.dir, "pi-branch-f826a4f8-be96970a.md");
			expect(a.text).toBe(`exported 3 event(s), root → event, as Markdown to ${first}`);
			expect(b.text).toBe(`exported 3 event(s), root → event, as Markdown to ${join(t.dir, "pi-branch-f826a4f8-be96970a-1.md")}`);
			expect(readFileSync(first, "utf8")).toBe("# one\n");
			// The same entry in a --fork copy made the same minute: the time prefix is the same, the name is not.
			const fork = { sessionId: "019be2c2-9f33-7094-a319-99990000c0de", entryId: REF.entryId };
			const c = runTask({ kind: "export", ref: fork, markdown: "# fork\n", events: 3 }, host(t.dir, {}));
			expect(c.text).toBe(`exported 3 event(s), root → event, as Markdown to ${join(t.dir, "pi-branch-0000c0de-be96970a.md")}`);
		} finally {
			t.cleanup();
		}
	});

	it("without pi on PATH: the command to run, quoted for a shell, controls visible; nothing handed over", () => {
		const handed: string[] = [];
		const file = "/s/it's here\u001b]0;x\u0007.jsonl";
		const out = runTask({ kind: "resume", ref: REF, file, cwd: null }, host("/tmp", { PATH: "/nonexistent" }, handed));
		expect(out.tone).toBe("warn");
		expect(out.text).toMatch(/^pi is not on PATH; to continue there run: pi --session '\/s\/it'\\''s here␛\]0;x␇\.jsonl' \((sent|not copied|copied)/);
		expect(handed).toEqual([]);
	});

	it.each<[string[], string]>([
		[["pi", "--session", "/a/b.jsonl"], "pi --session /a/b.jsonl"],
		[["pi", "--session", "/a b/c.jsonl"], "pi --session '/a b/c.jsonl'"],
		[["x", "$(rm -rf ~)"], "x '$(rm -rf ~)'"],
	])("shellLine %j", (args, line) => expect(shellLine(args)).toBe(line));

	it("findOnPath finds executables only, in PATH order", () => {
		const t = tempDir("pes-run-");
		try {
			for (const d of ["a", "b"]) mkdirSync(join(t.dir, d));
			writeFileSync(join(t.dir, "a", "pi"), "not executable");
			writeFileSync(join(t.dir, "b", "pi"), "#!/bin/sh\n");
			chmodSync(join(t.dir, "b", "pi"), 0o755);
			expect(findOnPath("pi", { PATH: `${join(t.dir, "a")}:${join(t.dir, "b")}` })).toBe(join(t.dir, "b", "pi"));
			expect(findOnPath("pi", { PATH: join(t.dir, "a") })).toBeNull();
		} finally {
			t.cleanup();
		}
	});

	it.each<[boolean | undefined, string | undefined, boolean]>([
		[undefined, "xterm-256color", true],
		[undefined, "tmux-256color", true],
		[false, "xterm-256color", false],
		[undefined, "dumb", false],
		[undefined, "linux", false],
		[undefined, undefined, false],
	])("mouse reporting with --mouse=%s and TERM=%s: %s", (option, term, on) => expect(mouseWanted(option, term === undefined ? {} : { TERM: term })).toBe(on));
});

describe("the extension's landing", () => {
	function fakePi() {
		const sent: Array<{ text: string; options: unknown }> = [];
		let start: ((e: { reason: string }, ctx: LandingContext) => unknown) | null = null;
		const commands: string[] = [];
		const pi: LandingRegistrar = {
			registerCommand: (name) => commands.push(name),
			on: (_event, handler) => (start = handler),
			sendUserMessage: (text, options) => sent.push({ text, options }),
		};
		const ctx = (mode: string | undefined, file = "/s/a.jsonl"): LandingContext => ({
			...(mode ? { mode } : {}),
			sessionManager: { getSessionFile: () => file, getEntry: (id) => (id === "e1" ? { id } : undefined) },
		});
		return { pi, sent, commands, ctx, start: (reason: string, c: LandingContext) => start?.({ reason }, c) };
	}

	it("pi 1.x (the context has a mode): sends its own command once, and removes the variables", () => {
		const f = fakePi();
		const env: NodeJS.ProcessEnv = { PI_EVENT_SEARCH_LAND: "e1", PI_EVENT_SEARCH_LAND_FILE: "/s/a.jsonl" };
		offerLanding(f.pi, env);
		expect(f.commands).toEqual([LAND_COMMAND]);
		f.start("startup", f.ctx("rpc"));
		f.start("startup", f.ctx("rpc"));
		expect(f.sent).toEqual([{ text: `/${LAND_COMMAND} e1`, options: { expandPromptTemplates: true } }]);
		expect(env).toEqual({});
	});

	it.each<[string, string | undefined, string, string]>([
		["pi 0.x (no mode): the command would reach the model as text", undefined, "startup", "/s/a.jsonl"],
		["a session switch, not pi's start", "rpc", "resume", "/s/a.jsonl"],
		["another session file than the one named", "rpc", "startup", "/s/b.jsonl"],
	])("no landing for %s", (_name, mode, reason, file) => {
		const f = fakePi();
		const env: NodeJS.ProcessEnv = { PI_EVENT_SEARCH_LAND: "e1", PI_EVENT_SEARCH_LAND_FILE: "/s/a.jsonl" };
		offerLanding(f.pi, env);
		f.start(reason, f.ctx(mode, file));
		expect(f.sent).toEqual([]);
		expect(env).toEqual({});
	});
});
