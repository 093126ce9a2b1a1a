/**
 * Typing as a user types (issue 29): `pi-history` with no arguments in a pseudo-terminal, a fresh process per pass,
 * the keys of TYPED_QUERY one by one at a fixed pace once the explorer shows its list. Every key counts:
 *   echo    key written → the first frame read from the terminal whose query line shows the text typed so far;
 *   results key written → the first frame Ink draws after the answer to the first search asked at or after the key
 *           (from the explorer's frame trace, src/cli/frame-trace.ts: a frame that comes out as the last one did is
 *           written by no one, yet the answer is on screen); a key whose last word is one letter searches nothing
 *           (searchesFor) and waits for its echo only.
 * Both clocks are the machine's monotonic clock (Python's time.monotonic_ns, Node's process.hrtime).
 *
 *   node dist/bench/typing.js --index PATH --roots <agent>/sessions[,<agent>/flat-sessions] [--paces 150,80,20] [--passes 1] [--text QUERY] [--keys]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { searchesFor } from "../components/root/state.js";
import type { FrameTraceFile } from "../src/cli/frame-trace.js";
import { percentile } from "./child.js";
import type { TypingResult } from "./results.js";
import { userEnv } from "./user-wait.js";
import { TYPED_QUERY } from "./vocabulary.js";

// argv: pace ms, text, node, main. Prints one JSON object: when each key was written, and each query line drawn.
const PTY_SCRIPT = String.raw`
import os, pty, sys, time, select, fcntl, termios, struct, re, json, signal, codecs
pace = float(sys.argv[1]) / 1000; text = sys.argv[2]; node = sys.argv[3]; main = sys.argv[4]
ansi = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>78]")
BSU = "\x1b[?2026h"; ESU = "\x1b[?2026l"
now = lambda: time.monotonic_ns() / 1e6
t0 = now()
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.execvp(node, [node, main])
dec = codecs.getincrementaldecoder("utf-8")(errors="replace")
buf = ""; frames = []; last_read = now(); listed = None; eof = False
def query_of(frame):
    for line in frame.split("\n"):
        at = line.find("\u276f ")
        if at == -1: continue
        rest = line[at + 2:]
        cursor = rest.find("\x1b[7m")
        return ansi.sub("", rest[:cursor]) if cursor != -1 else ansi.sub("", rest).rstrip()
    return None
def pump(until):
    global buf, last_read, listed, eof
    while not eof:
        wait = until - now()
        if wait <= 0: return
        r, _, _ = select.select([fd], [], [], wait / 1000)
        if not r: continue
        try: chunk = os.read(fd, 65536)
        except OSError: chunk = b""
        if not chunk:
            eof = True; return
        t = now(); last_read = t
        buf += dec.decode(chunk)
        while True:
            start = buf.find(BSU)
            if start == -1: break
            end = buf.find(ESU, start)
            if end == -1: break
            frame = buf[start + len(BSU):end]; buf = buf[end + len(ESU):]
            frames.append((t, query_of(frame)))
            if listed is None and "recent events" in ansi.sub("", frame): listed = t
def quiet(ms, cap):
    stop = now() + cap
    while now() < stop and not eof:
        pump(min(stop, last_read + ms))
        if now() - last_read >= ms: return
# A person starts once the explorer (Ink's frames, not the hand-drawn first screen) lists the recent events, and
# reads the list a moment (the preview loads meanwhile).
stop = now() + 30000
while listed is None and now() < stop and not eof: pump(min(stop, now() + 50))
quiet(300, 10000)
sent = []
base = now()
for i, ch in enumerate(text):
    pump(base + i * pace * 1000)
    sent.append(now())
    os.write(fd, ch.encode())
quiet(1500, 30000)
try: os.write(fd, b"\x03")
except OSError: pass
stop = now() + 10000
while not eof and now() < stop: pump(min(stop, now() + 100))
try: os.kill(pid, signal.SIGKILL)
except OSError: pass
try: os.waitpid(pid, 0)
except ChildProcessError: pass
echo = []
for i, t in enumerate(sent):
    want = text[:i + 1]
    hit = next((f for f in frames if f[0] >= t and f[1] is not None and f[1].startswith(want)), None)
    echo.append(None if hit is None else hit[0] - t)
print(json.dumps({"sent": sent, "echo": echo, "listedMs": None if listed is None else listed - t0, "frames": len([f for f in frames if f[0] >= base]), "queryShown": any(f[1] == text for f in frames)}))
`;

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "cli", "main.cjs");

/** One pass at `paceMs` per key into a fresh `pi-history`; throws when python3 or the trace is missing. */
export function measureTyping(roots: string[], indexPath: string, paceMs: number, text = TYPED_QUERY): TypingResult {
	const dir = mkdtempSync(join(tmpdir(), "pi-event-search-typing-"));
	const tracePath = join(dir, "trace.json");
	try {
		const out = execFileSync("python3", ["-c", PTY_SCRIPT, String(paceMs), text, process.execPath, MAIN], {
			encoding: "utf8",
			env: { ...userEnv(roots, indexPath), PI_HISTORY_FRAME_TRACE: tracePath },
			timeout: 120_000,
		});
		const pty = JSON.parse(out) as { sent: number[]; echo: Array<number | null>; listedMs: number | null; frames: number; queryShown: boolean };
		const trace = JSON.parse(readFileSync(tracePath, "utf8")) as FrameTraceFile;
		const firstPages = trace.searches.filter((s) => s.offset === 0);
		const keys = pty.sent.map((t, i) => {
			const prefix = text.slice(0, i + 1);
			const echoMs = pty.echo[i] ?? null;
			const arrived = trace.keys.find((k) => k >= t);
			const searched = searchesFor(prefix);
			const search = searched ? firstPages.find((s) => s.asked >= t && s.answered !== null) : undefined;
			const drawn = search?.answered != null ? trace.renders.find((r) => r >= (search.answered as number)) : undefined;
			const resultsMs = !searched ? echoMs : drawn !== undefined ? drawn - t : null;
			return {
				prefix,
				echoMs,
				resultsMs,
				searched,
				// Where the wait went: until the explorer read the key, until its search was asked, the search, the frame after it.
				parts: {
					readMs: arrived === undefined ? null : arrived - t,
					askedMs: search ? search.asked - t : null,
					searchMs: search?.answered != null ? search.answered - search.asked : null,
					drawMs: drawn !== undefined && search?.answered != null ? drawn - search.answered : null,
				},
			};
		});
		const base = pty.sent[0] ?? 0;
		// CPU from the first key read to the last key's last frame: the explorer's whole work for the keys, all threads.
		const lastKey = keys.at(-1);
		const end = (pty.sent.at(-1) ?? 0) + Math.max(lastKey?.echoMs ?? 0, lastKey?.resultsMs ?? 0);
		const during = trace.cpu.filter(([at]) => at >= base && at <= end + 0.001);
		const cpuMsPerKey = during.length > 1 ? ((during.at(-1)?.[1] ?? 0) - (during[0]?.[1] ?? 0)) / keys.length : Number.NaN;
		return {
			paceMs,
			text,
			keys,
			listedMs: pty.listedMs ?? Number.NaN,
			queryShown: pty.queryShown,
			renders: trace.renders.filter((r) => r >= base).length,
			frames: pty.frames,
			searches: trace.searches.filter((s) => s.asked >= base).length,
			cpuMsPerKey,
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** p50 / p95 / max of one field over every key (a key never shown counts as infinitely slow). */
export function keyStats(t: TypingResult, field: "echoMs" | "resultsMs"): { p50: number; p95: number; max: number } {
	const v = t.keys.map((k) => k[field] ?? Number.POSITIVE_INFINITY);
	return { p50: percentile(v, 50), p95: percentile(v, 95), max: Math.max(...v) };
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "∞");

/** The medians of each part of a key's wait (read, asked, search, frame after), and the CPU a key cost. */
export function typingParts(t: TypingResult): string {
	const part = (name: keyof TypingResult["keys"][number]["parts"]) => {
		const v = t.keys.map((k) => k.parts[name]).filter((x): x is number => x !== null);
		return v.length ? f0(percentile(v, 50)) : "–";
	};
	return `${part("readMs")}, ${part("askedMs")}, ${part("searchMs")}, ${part("drawMs")}; ${f0(t.cpuMsPerKey)}`;
}

/** One line per key: its prefix, echo and results ms, and where its wait went (read, asked, search, frame after). */
export function typingKeys(t: TypingResult): string {
	const n = (x: number | null) => (x === null ? "–" : x.toFixed(0));
	return t.keys
		.map((k) => {
			const p = k.parts;
			return `  ${JSON.stringify(k.prefix).padEnd(30)} echo ${n(k.echoMs).padStart(4)} results ${n(k.resultsMs).padStart(4)}  read ${n(p.readMs)} asked ${n(p.askedMs)} search ${n(p.searchMs)} frame ${n(p.drawMs)}`;
		})
		.join("\n");
}

/** One line per pass: the pace, echo and results p50 / p95 / max, where a key's wait goes, frames and searches. */
export function typingLine(t: TypingResult): string {
	const e = keyStats(t, "echoMs");
	const r = keyStats(t, "resultsMs");
	return `${t.paceMs} ms/key: echo ${f0(e.p50)} / ${f0(e.p95)} / ${f0(e.max)}, results ${f0(r.p50)} / ${f0(r.p95)} / ${f0(r.max)} (p50 / p95 / max ms, ${t.keys.length} keys); medians read, asked, search, frame after; CPU a key: ${typingParts(t)}; ${t.renders} frames drawn, ${t.frames} written, ${t.searches} searches`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
	const option = (name: string) => {
		const i = process.argv.indexOf(`--${name}`);
		return i === -1 ? undefined : process.argv[i + 1];
	};
	const index = option("index");
	const roots = option("roots")?.split(",");
	const text = option("text") ?? TYPED_QUERY;
	if (!index || !roots || text === "") throw new Error("usage: typing --index PATH --roots DIR[,DIR] [--paces 150,80,20] [--passes 1] [--text QUERY] [--keys]");
	const paces = (option("paces") ?? "150,80,20").split(",").map(Number);
	const passes = Number(option("passes") ?? "1");
	const perKey = process.argv.includes("--keys");
	for (let p = 0; p < passes; p++)
		for (const pace of paces) {
			const t = measureTyping(roots, index, pace, text);
			console.log(typingLine(t));
			if (perKey) console.log(typingKeys(t));
		}
}
