/**
 * The explorer's first frame as a person sees it: runs the real `pi-history` (dist/src/cli/main.js) on the bench
 * index in a pseudo-terminal (python3's pty module: Node has none) and times, from just before the fork, the first
 * frame on the screen (the query prompt `❯`) and the first frame Ink draws (after the screen clear that hands the
 * hand-drawn first frame over to it); then Ctrl+C. The time includes starting Node and every import.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { percentile } from "./child.js";

/** Process start → first frame, and → Ink's first frame, per run (ms). */
export interface CliStartResult {
	firstFrameMs: number[];
	inkFrameMs: number[];
	p50: number;
	inkP50: number;
}

// argv: timeout seconds, then the command. Prints "first ink" in ms, or "timeout".
const PTY_SCRIPT = `
import os, pty, sys, time, select, fcntl, termios, struct
limit = float(sys.argv[1]); cmd = sys.argv[2:]
t0 = time.monotonic()
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.execvp(cmd[0], cmd)
buf = b""; first = None; ink = None
prompt = "\\u276f".encode()
while time.monotonic() - t0 < limit and ink is None:
    r, _, _ = select.select([fd], [], [], 0.05)
    if not r: continue
    try: chunk = os.read(fd, 65536)
    except OSError: break
    if not chunk: break
    buf += chunk; now = time.monotonic()
    if first is None and prompt in buf: first = now
    cut = buf.find(b"\\x1b[2J")
    if first is not None and cut != -1 and prompt in buf[cut:]: ink = now
os.write(fd, b"\\x03")
end = time.monotonic() + 10
while time.monotonic() < end:
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            if not os.read(fd, 65536): break
        except OSError: break
try: os.waitpid(pid, 0)
except ChildProcessError: pass
if first is None or ink is None: print("timeout")
else: print("%.1f %.1f" % ((first - t0) * 1000, (ink - t0) * 1000))
`;

/**
 * Runs the explorer `reps` times on the index; null when python3 is missing or a run did not draw. It is started
 * as a person starts it, `pi-history` with no arguments: pi's environment names the history (the agent dir whose
 * `sessions` is the first root, the session dir for the second) and ours the index.
 */
export function measureCliStart(roots: string[], indexPath: string, reps = 5): CliStartResult | null {
	const [first, second, ...others] = roots;
	if (!first || basename(first) !== "sessions" || others.length > 0)
		throw new Error(`expected <agent>/sessions and at most one more root: ${roots.join(", ")}`);
	const main = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "cli", "main.js");
	const home = join(tmpdir(), "pi-event-search-bench-home");
	mkdirSync(home, { recursive: true });
	const { CI: _ci, ...env } = process.env;
	const firstFrameMs: number[] = [];
	const inkFrameMs: number[] = [];
	for (let i = 0; i < reps; i++) {
		let out: string;
		try {
			out = execFileSync("python3", ["-c", PTY_SCRIPT, "30", process.execPath, main], {
				encoding: "utf8",
				env: {
					...env,
					HOME: home,
					PI_CODING_AGENT_DIR: dirname(first),
					...(second ? { PI_CODING_AGENT_SESSION_DIR: second } : {}),
					PI_EVENT_SEARCH_INDEX: indexPath,
					TERM: "xterm-256color",
				},
				timeout: 60_000,
			}).trim();
		} catch {
			return null;
		}
		const m = /^([\d.]+) ([\d.]+)$/.exec(out);
		if (!m) return null;
		firstFrameMs.push(Number(m[1]));
		inkFrameMs.push(Number(m[2]));
	}
	return { firstFrameMs, inkFrameMs, p50: percentile(firstFrameMs, 50), inkP50: percentile(inkFrameMs, 50) };
}
