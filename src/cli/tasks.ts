/**
 * The explorer's tasks outside itself, run by the launcher: continue in pi (`pi --session <file>`, with the event to
 * land on in the environment for our extension in pi 1.x), copy Markdown, the pager, the editor, a branch export.
 * Programs get the terminal through `handOff` (the explorer leaves the alternate screen and comes back when they
 * exit). Nothing here writes into a session file: the pager and editor get temporary copies, exports new files.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, relative } from "node:path";
import { idTail } from "../../components/core/session-label.js";
import type { TaskOutcome } from "../../components/ink/App.js";
import type { TaskRequest } from "../../components/prompts/task-loads.js";
import { neutralizeLine } from "../present/terminal-safe.js";
import { LAND_ENV } from "../shared/landing.js";
import { copyText } from "./clipboard.js";

/** What the tasks need from the launcher: the terminal handoff, the environment, where exports go, the clipboard. */
export interface TaskHost {
	/** Runs a program with the terminal: leaves the explorer's screen, restores it when `run` returns. */
	handOff<T>(run: () => T): T;
	env: NodeJS.ProcessEnv;
	/** The folder exports are written to (default: the current directory, else the temp folder). */
	exportDir: string;
	/** Sends text to the terminal (OSC 52 when no clipboard tool works). */
	write(s: string): void;
}

/** A command line for a POSIX shell: each argument quoted when it needs it. */
export function shellCommand(args: string[]): string {
	return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(" ");
}

/** A command line for display: quoted for a shell, controls made visible. */
export function shellLine(args: string[]): string {
	return neutralizeLine(shellCommand(args));
}

/** The executable `name` on PATH (the user's, not a shell's alias or function), or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
	for (const dir of (env.PATH ?? "").split(delimiter)) {
		if (!dir) continue;
		const candidate = join(dir, name);
		try {
			if (!statSync(candidate).isFile()) continue;
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {}
	}
	return null;
}

function exitText(r: ReturnType<typeof spawnSync>): string {
	if (r.error) return `could not start: ${neutralizeLine(r.error.message)}`;
	return r.signal ? `ended by ${r.signal}` : `exit ${r.status}`;
}

function resume(r: Extract<TaskRequest, { kind: "resume" }>, host: TaskHost): TaskOutcome {
	const args = ["pi", "--session", r.file];
	const pi = findOnPath("pi", host.env);
	if (!pi) {
		// The status line may be too narrow for a long path: the command goes to the clipboard too, when it can.
		const copied = copyText(shellCommand(args), "the command", host.write, host.env);
		return { text: `pi is not on PATH; to continue there run: ${shellLine(args)} (${copied.text})`, tone: "warn" };
	}
	// pi opens a session in its own cwd; start it there when that folder still exists, as pi's /resume would.
	const cwd = r.cwd && existsSync(r.cwd) ? r.cwd : process.cwd();
	const env = { ...host.env, [LAND_ENV.entry]: r.ref.entryId, [LAND_ENV.file]: r.file };
	const out = host.handOff(() => spawnSync(pi, args.slice(1), { stdio: "inherit", cwd, env }));
	return { text: `back from pi (${exitText(out)}): ${shellLine(args)}`, tone: out.error || out.status ? "warn" : "info" };
}

/** A private temporary file with `text`, in a folder of its own. */
function tempFile(name: string, text: string): { file: string; dir: string } {
	const dir = mkdtempSync(join(tmpdir(), "pi-history-"));
	const file = join(dir, name);
	try {
		writeFileSync(file, text, { mode: 0o600 });
	} catch (error) {
		// No empty folder left behind when the write fails (a full disk, a name the file system refuses).
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	return { file, dir };
}

/** Runs `$VAR file` the way git runs $PAGER and $EDITOR: the variable is shell words, the file one argument. */
function runWith(command: string, file: string, host: TaskHost): ReturnType<typeof spawnSync> {
	return host.handOff(() => spawnSync("/bin/sh", ["-c", `${command} "$1"`, "sh", file], { stdio: "inherit", env: host.env }));
}

/** A new file in `dir` for `base` (never overwriting one: -1, -2, … before the extension). */
function newFile(dir: string, base: string, text: string): string {
	for (let i = 0; ; i++) {
		const file = join(dir, i === 0 ? `${base}.md` : `${base}-${i}.md`);
		try {
			writeFileSync(file, text, { flag: "wx" });
			return file;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST" || i > 999) throw error;
		}
	}
}

/** Runs one task and says what happened. */
export function runTask(r: TaskRequest, host: TaskHost): TaskOutcome {
	// Entry ids come from session files and can be any length: file names take a bounded part (NAME_MAX is 255 bytes).
	// The session's id part is its random end: a UUIDv7 starts with its creation time, which a session, its --fork and
	// its /clone made the same minute share, so their exports would be told apart by -1, -2 only.
	const tag = `${idTail(r.ref.sessionId)}-${r.ref.entryId.slice(0, 40)}`.replace(/[^\w.-]/g, "_");
	switch (r.kind) {
		case "resume":
			return resume(r, host);
		case "copy-md": {
			const outcome = copyText(r.markdown, `the event as Markdown (${r.markdown.length} characters)`, host.write, host.env);
			// Unlike a ref, Markdown cannot be shown to select by hand: say where else it can go.
			const text = outcome.text.startsWith("not copied") ? `${outcome.text}; e opens it in your editor, E exports the branch to a file` : outcome.text;
			return { text, tone: outcome.copied ? "info" : "warn" };
		}
		case "pager": {
			const pager = host.env.PAGER?.trim() || "less";
			const { file, dir } = tempFile(`event-${tag}.txt`, r.text);
			try {
				const out = runWith(pager, file, host);
				return { text: `back from the pager (${exitText(out)})`, tone: out.error || out.status ? "warn" : "info" };
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		}
		case "editor": {
			const editor = host.env.VISUAL?.trim() || host.env.EDITOR?.trim() || "vi";
			// A copy: the session file is never opened for writing. It stays, so edits made to it are not lost.
			const { file } = tempFile(`event-${tag}.txt`, r.text);
			const out = runWith(editor, file, host);
			return { text: `back from the editor (${exitText(out)}); the copy is ${neutralizeLine(file)}`, tone: out.error || out.status ? "warn" : "info" };
		}
		case "export": {
			const file = newFile(host.exportDir, `pi-branch-${tag}`, r.markdown);
			const shown = relative(process.cwd(), file);
			const where = shown.startsWith("..") || shown === "" ? file : `./${shown}`;
			return { text: `exported ${r.events} event(s), root → event, as Markdown to ${neutralizeLine(where)}`, tone: "info" };
		}
	}
}

/** Where exports go: the current directory when it is writable, else the temp folder. */
export function defaultExportDir(cwd: string = process.cwd()): string {
	try {
		accessSync(cwd, constants.W_OK);
		return cwd;
	} catch {
		return tmpdir();
	}
}
