/**
 * What a user waits for, measured from outside in fresh processes (DESIGN §7, issue 29): the explorer started as a
 * person starts it (a pseudo-terminal, no arguments) until it lists the recent events, until it echoes keys typed at
 * start, and until its own first frame (from which every key acts); `pi-history search` as a command against
 * `rg -l -F` as a command; each beside a bare `node -e 0` run interleaved with it, so a busy machine slows the
 * reference as much as the measured.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { percentile } from "./child.js";
import { encodeCwd, FLAT_SESSIONS_DIR, type MixQuery, QUERY_MIX } from "./vocabulary.js";

/** Keys typed at the explorer's start (a word of the corpus, so its search has hits). */
export const START_KEYS = "ledger";

/** Per run, interleaved: `node -e 0` in the same pty, the explorer until its list, the explorer until its echo. */
export interface ExplorerStartResult {
	nodeMs: number[];
	/** Process start → the first frame listing the recent events. */
	listMs: number[];
	/** Process start (keys typed at once) → the first frame whose query line shows them. */
	echoMs: number[];
	/** Process start → the hand-drawn placeholder frame (the `❯` prompt, nothing listed yet). */
	placeholderMs: number[];
	/** Process start → the explorer's own first frame (Ink's, from its frame trace): from then every key acts, not only typing. */
	readyMs: number[];
	failed: number;
}

// argv: reps, keys, timeout seconds, node, main, a folder for frame traces. One JSON line per run: {"mode", "ms",
// "placeholder", "ready"} or {"mode", "error"}. Both clocks are the machine's monotonic one (Python's, process.hrtime).
const PTY_SCRIPT = String.raw`
import os, pty, sys, time, select, fcntl, termios, struct, re, json, signal
reps = int(sys.argv[1]); keys = sys.argv[2]; limit = float(sys.argv[3]); node = sys.argv[4]; main = sys.argv[5]; trace_dir = sys.argv[6]
ansi = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>78]")
prompt = "\u276f".encode()
def run(mode, i):
    cmd = [node, "-e", "0"] if mode == "node" else [node, main]
    env = dict(os.environ)
    if mode == "list": env["PI_HISTORY_FRAME_TRACE"] = trace_dir + "/start-" + str(i) + ".json"
    t0 = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        os.execvpe(cmd[0], cmd, env)
    if mode == "echo": os.write(fd, keys.encode())
    want = ("\u276f " + keys).encode() if mode == "echo" else b"recent events"
    buf = b""; placeholder = None; done = None
    while time.monotonic() - t0 < limit and done is None:
        r, _, _ = select.select([fd], [], [], 0.05)
        if not r: continue
        try: chunk = os.read(fd, 65536)
        except OSError: chunk = b""
        now = time.monotonic()
        if not chunk:
            if mode == "node": done = now
            break
        buf += chunk
        if mode == "node": continue
        if placeholder is None and prompt in buf: placeholder = now
        if want in ansi.sub(b"", buf[-200000:]): done = now
    if mode == "list" and done is not None:
        # The explorer's own first frame may come after the listed one: its trace file appears with it.
        while not os.path.exists(env["PI_HISTORY_FRAME_TRACE"]) and time.monotonic() - t0 < limit:
            r, _, _ = select.select([fd], [], [], 0.02)
            if not r: continue
            try:
                if not os.read(fd, 65536): break
            except OSError: break
    if mode != "node":
        try: os.write(fd, b"\x03")
        except OSError: pass
    end = time.monotonic() + 10
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                if not os.read(fd, 65536): break
            except OSError: break
    try: os.kill(pid, signal.SIGKILL)
    except OSError: pass
    try: os.waitpid(pid, 0)
    except ChildProcessError: pass
    os.close(fd)
    if done is None: return {"mode": mode, "error": "timeout"}
    ready = None
    if mode == "list":
        try:
            with open(env["PI_HISTORY_FRAME_TRACE"]) as f: renders = json.load(f)["renders"]
            if renders: ready = renders[0] - t0 * 1000
        except (OSError, ValueError, KeyError): pass
    return {"mode": mode, "ms": (done - t0) * 1000, "placeholder": None if placeholder is None else (placeholder - t0) * 1000, "ready": ready}
for i in range(reps):
    for mode in ["node", "list", "echo"]:
        print(json.dumps(run(mode, i)), flush=True)
`;

/** The environment a person's shell gives `pi-history`: pi's variables name the history, ours the index. */
export function userEnv(roots: string[], indexPath: string): NodeJS.ProcessEnv {
	const [first, second, ...others] = roots;
	if (!first || basename(first) !== "sessions" || others.length > 0)
		throw new Error(`expected <agent>/sessions and at most one more root: ${roots.join(", ")}`);
	const home = join(tmpdir(), "pi-event-search-bench-home");
	mkdirSync(home, { recursive: true });
	const { CI: _ci, NO_COLOR: _nc, ...env } = process.env;
	return {
		...env,
		HOME: home,
		PI_CODING_AGENT_DIR: dirname(first),
		...(second ? { PI_CODING_AGENT_SESSION_DIR: second } : {}),
		PI_EVENT_SEARCH_INDEX: indexPath,
		TERM: "xterm-256color",
	};
}

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "cli", "main.cjs");

/** The explorer's start, `reps` times each way; null when python3 is missing. */
export function measureExplorerStart(roots: string[], indexPath: string, reps: number): ExplorerStartResult | null {
	let out: string;
	const traces = mkdtempSync(join(tmpdir(), "pes-start-trace-"));
	try {
		out = execFileSync("python3", ["-c", PTY_SCRIPT, String(reps), START_KEYS, "30", process.execPath, MAIN, traces], {
			encoding: "utf8",
			env: userEnv(roots, indexPath),
			timeout: reps * 3 * 45_000,
		});
	} catch {
		return null;
	} finally {
		rmSync(traces, { recursive: true, force: true });
	}
	const r: ExplorerStartResult = { nodeMs: [], listMs: [], echoMs: [], placeholderMs: [], readyMs: [], failed: 0 };
	for (const line of out.split("\n").filter(Boolean)) {
		const run = JSON.parse(line) as { mode: string; ms?: number; placeholder?: number | null; ready?: number | null; error?: string };
		if (run.ms === undefined) {
			r.failed++;
			continue;
		}
		if (run.mode === "node") r.nodeMs.push(run.ms);
		else if (run.mode === "list") {
			r.listMs.push(run.ms);
			if (typeof run.placeholder === "number") r.placeholderMs.push(run.placeholder);
			if (typeof run.ready === "number") r.readyMs.push(run.ready);
		} else r.echoMs.push(run.ms);
	}
	return r;
}

/** One query of the mix as commands: `pi-history search` and `rg -l -F`, beside `node -e 0`, interleaved. */
export interface SearchProcessResult {
	name: string;
	searchMs: number[];
	rgMs: number[];
	nodeMs: number[];
	/** Exit status of the last `pi-history search` (0 unless something broke). */
	status: number | null;
	/** What the last search printed on stderr (a refresh that was not a no-op would say so). */
	stderr: string;
}

/** The command line of a mix query: its text, and its filters as flags. */
function searchArgs(q: MixQuery): string[] {
	const args = ["search", "--json", q.query];
	for (const c of q.filters?.cwds ?? []) args.push("--cwd", c);
	for (const k of q.filters?.kinds ?? []) args.push("--kind", k);
	for (const b of q.filters?.branchStates ?? []) args.push("--branch", b);
	return args;
}

/** rg as a person runs it for the query: a process per term, each over the previous one's files. */
function rgArgs(agentDir: string, q: MixQuery): string[] {
	if (!q.rgCwds) return [agentDir];
	const dirs = q.rgCwds.map((cwd) => join(agentDir, "sessions", encodeCwd(cwd))).filter((d) => existsSync(d));
	const flat = join(agentDir, FLAT_SESSIONS_DIR);
	if (existsSync(flat)) dirs.push(flat);
	return dirs;
}

function timedRun(cmd: string, args: string[], env?: NodeJS.ProcessEnv): { ms: number; stdout: string; stderr: string; status: number | null } {
	const t0 = performance.now();
	const r = spawnSync(cmd, args, { encoding: "utf8", env, maxBuffer: 256 * 1024 * 1024 });
	return { ms: performance.now() - t0, stdout: r.stdout ?? "", stderr: r.stderr ?? "", status: r.status };
}

/** Bytes of file names per rg command line: Linux refuses a command line much over 2 MB (E2BIG). */
const RG_ARG_BYTES = 512 * 1024;

/**
 * The files among `paths` holding `term`, as `rg -l -F` lists them; a list of files too long for one command line
 * goes through several rg processes in turn, as xargs would run them (the second term of a query on 25,000 files).
 */
export function rgList(term: string, paths: string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < paths.length; ) {
		const batch: string[] = [];
		for (let bytes = 0; i < paths.length && (batch.length === 0 || bytes < RG_ARG_BYTES); i++) {
			batch.push(paths[i] as string);
			bytes += Buffer.byteLength(paths[i] as string) + 1;
		}
		const g = spawnSync("rg", ["-l", "-F", "--no-messages", "-e", term, "--", ...batch], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
		if (g.error) throw new Error(`rg failed: ${g.error.message}`);
		out.push(...(g.stdout ?? "").split("\n").filter(Boolean));
	}
	return out;
}

/** Every query of the mix, `reps` rounds of node → pi-history search → rg (unless `withRg` is false), interleaved. */
export function measureSearchProcess(agentDir: string, roots: string[], indexPath: string, reps: number, withRg = true): SearchProcessResult[] {
	const env = userEnv(roots, indexPath);
	const results = QUERY_MIX.map((q) => ({
		name: q.name,
		searchMs: [] as number[],
		rgMs: [] as number[],
		nodeMs: [] as number[],
		status: 0 as number | null,
		stderr: "",
	}));
	for (let rep = 0; rep < reps; rep++) {
		QUERY_MIX.forEach((q, i) => {
			const r = results[i] as SearchProcessResult;
			r.nodeMs.push(timedRun(process.execPath, ["-e", "0"]).ms);
			const s = timedRun(process.execPath, [MAIN, ...searchArgs(q)], env);
			r.searchMs.push(s.ms);
			r.status = s.status;
			r.stderr = s.stderr.trim();
			// Without rg the command is still timed beside node -e 0 (its own target); only the comparison is left out.
			if (!withRg) return;
			const t0 = performance.now();
			let paths = rgArgs(agentDir, q);
			for (const term of q.rg) {
				if (paths.length === 0) break;
				paths = rgList(term, paths);
			}
			r.rgMs.push(performance.now() - t0);
		});
	}
	return results;
}

/** p50 of a list (NaN when empty). */
export function p50(values: number[]): number {
	return values.length ? percentile(values, 50) : Number.NaN;
}
