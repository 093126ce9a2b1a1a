/**
 * Drives the built CLI in a real terminal: a tmux session on a private server socket, literal typing and named
 * keys, screen captures, polling with a timeout that shows the screen, resize, and cleanup.
 */
import { execFileSync } from "node:child_process";

/** True when tmux is installed (the real-terminal tests skip otherwise). */
export const hasTmux = (() => {
	try {
		execFileSync("tmux", ["-V"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
})();

/** A private tmux server, so tests never touch the user's own sessions. */
const SOCKET = `pes-test-${process.pid}`;

function tmux(args: string[]): string {
	return execFileSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

let counter = 0;
let keeper = false;

/**
 * Keeps the private server alive between tests: when the last session of a server is killed the server exits,
 * and a new-session racing that exit fails now and then.
 */
function ensureServer(): void {
	if (keeper) return;
	tmux(["new-session", "-d", "-s", `keeper${process.pid}`, "-x", "20", "-y", "5", "sleep 3600"]);
	keeper = true;
}

/** One tmux session running one shell command. */
export class TmuxSession {
	private constructor(readonly name: string) {}

	/** More to print when waitFor gives up (what the program behind the screen had on disk, say). */
	diagnose: (() => string) | null = null;

	/** Starts `command` (a shell command line) in a detached session of the given size. */
	static start(command: string, size: { columns: number; rows: number }, cwd?: string): TmuxSession {
		ensureServer();
		const name = `pes${process.pid}x${++counter}`;
		tmux(["new-session", "-d", "-s", name, "-x", String(size.columns), "-y", String(size.rows), ...(cwd ? ["-c", cwd] : []), command]);
		// Keep the pane's size fixed to what we asked for, whatever other clients do.
		tmux(["set-option", "-t", name, "window-size", "manual"]);
		return new TmuxSession(name);
	}

	/** Sends named keys (Enter, Escape, Down, C-c, …), one tmux call per key so each arrives on its own. */
	keys(...keys: string[]): void {
		for (const k of keys) tmux(["send-keys", "-t", this.name, k]);
	}

	/** Sends named keys in one tmux call, so they reach the program together (one read, as a held key does). */
	burst(...keys: string[]): void {
		tmux(["send-keys", "-t", this.name, ...keys]);
	}

	/** Types literal text (after `--`, so text that starts with "-" is typed, not read as a flag). */
	type(text: string): void {
		tmux(["send-keys", "-t", this.name, "-l", "--", text]);
	}

	/** The visible screen as text (with escape sequences when `escapes`). */
	capture(escapes = false): string {
		return tmux(["capture-pane", "-p", ...(escapes ? ["-e"] : []), "-t", this.name]);
	}

	/**
	 * Polls the screen until it matches; fails with the screen after `timeoutMs`. Every poll starts a tmux client, so
	 * the pause grows from 50 ms to 250 ms: a quick change is seen at once, a long wait (an index being built) costs
	 * a fifth of the processes.
	 */
	async waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs = 30_000): Promise<string> {
		const ok = (s: string) => (typeof test === "string" ? s.includes(test) : test instanceof RegExp ? test.test(s) : test(s));
		const until = Date.now() + timeoutMs;
		for (let pause = 50; ; pause = Math.min(250, Math.round(pause * 1.5))) {
			const screen = this.capture();
			if (ok(screen)) return screen;
			if (Date.now() > until)
				throw new Error(`screen did not match ${String(test)} within ${timeoutMs} ms:\n${screen}${this.diagnose ? `\n${this.diagnose()}` : ""}`);
			await new Promise((resolve) => setTimeout(resolve, pause));
		}
	}

	/** Pid of the process the pane's shell is running (by parent pid, never by name). */
	childPid(): number {
		const shell = tmux(["list-panes", "-t", this.name, "-F", "#{pane_pid}"]).trim();
		const child = execFileSync("ps", ["-o", "pid=", "--ppid", shell], { encoding: "utf8" }).trim().split(/\s+/)[0];
		if (!child) throw new Error(`no process under the pane's shell ${shell}`);
		return Number(child);
	}

	/** The pane's title (what OSC 0/2 would set). */
	title(): string {
		return tmux(["display-message", "-p", "-t", this.name, "#{pane_title}"]).trim();
	}

	/** Resizes the window (the app gets SIGWINCH and a 'resize' event). */
	resize(columns: number, rows: number): void {
		tmux(["resize-window", "-t", this.name, "-x", String(columns), "-y", String(rows)]);
	}

	/** Ends the session (never throws: the session may be gone already). */
	kill(): void {
		try {
			tmux(["kill-session", "-t", this.name]);
		} catch {
			// already gone
		}
	}
}

/** Runs a tmux command on the private server (e.g. `set-option -s set-clipboard on`, `show-buffer`). */
export function tmuxServer(args: string[]): string {
	ensureServer();
	return tmux(args);
}

/** Stops the private tmux server (after all sessions of a test file). */
export function killServer(): void {
	keeper = false;
	try {
		tmux(["kill-server"]);
	} catch {
		// no server running
	}
}

/** Quotes a string for a POSIX shell command line. */
export function shellQuote(s: string): string {
	return `'${s.replace(/'/g, `'\\''`)}'`;
}
