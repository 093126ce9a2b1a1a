/**
 * The explorer inside pi, drawn as pi draws it (DESIGN §7: the overlay never holds pi's event loop longer than a
 * frame): components/pi's ExplorerOverlay shown by pi-tui's own TUI (pi 1.6's, the main-screen renderer pi's
 * interactive mode uses; pi 0.73's composites overlays with slower width functions) over a screen of pi's (piScreen), on a 120×40 terminal that discards what it is sent, searching on the query worker
 * through the extension's own adapter
 * (src/extension/in-pi.ts), scoped to a workspace as `/history` is. A fresh process per pace, like a pi whose first
 * `/history` this is; the keys of TYPED_QUERY go to pi-tui's input handler at fixed times once the overlay lists
 * events. On one clock (performance.now), in that process:
 *   listed  `/history` (the overlay's modules loaded, the worker started) → pi-tui's first frame listing events;
 *   echo    key due → the first frame whose query line shows it (a key due while the loop is held waits, and counts);
 *   results key due → the first frame with an answer to a search asked at or after it (searchesFor: a last word of
 *           one letter searches nothing, and waits for its echo only);
 *   hold    the longest turn of the event loop from one key to the next: the longest gap between two runs of a 1 ms
 *           timer (perf_hooks' event-loop delay), so what pi waited for, whatever ran.
 *   node dist/bench/overlay.js --index PATH --roots DIR[,DIR] [--paces 150,80,20] [--workspace DIR] [--text QUERY] [--keys]
 * (`--text`: what is typed, TYPED_QUERY by default; e.g. a query whose hits hold emoji sequences, which the bench
 * corpus has none of.)
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import * as tui from "@earendil-works/pi-tui";
import { searchesFor } from "../components/root/state.js";
import { explorerService } from "../src/extension/in-pi.js";
import { QueryThread } from "../src/service/query-thread.js";
import { benchConfig, parseArgs, percentile, report, runChild } from "./child.js";
import type { OverlayResult } from "./results.js";
import { PROJECTS, TYPED_QUERY } from "./vocabulary.js";

/** The workspace `/history` opens on: the bench corpus's busiest project (the heaviest of PROJECTS). */
export const OVERLAY_WORKSPACE = [...PROJECTS].sort((a, b) => b.w - a.w)[0]?.cwd ?? "/";
const COLUMNS = 120;
const ROWS = 40;
/** How long the last key may wait for its results before the pass ends without them. */
const LAST_KEY_WAIT_MS = 5000;

/** One frame pi-tui drew: when, the query line's text, and whether the hits on it answer that query. */
interface Frame {
	at: number;
	query: string;
	ready: boolean;
	hits: number;
	/** pi-tui's whole frame, and the overlay's lines in it. */
	ms: number;
	linesMs: number;
}

/** A pi-tui terminal that discards what pi would write and hands the bench pi's input handler. */
class BlankTerminal {
	input: (data: string) => void = () => {};
	start(onInput: (data: string) => void): void {
		this.input = onInput;
	}
	stop(): void {}
	async drainInput(): Promise<void> {}
	write(): void {}
	get columns(): number {
		return COLUMNS;
	}
	get rows(): number {
		return ROWS;
	}
	get kittyProtocolActive(): boolean {
		return false;
	}
	moveBy(): void {}
	hideCursor(): void {}
	showCursor(): void {}
	clearLine(): void {}
	clearFromCursor(): void {}
	clearScreen(): void {}
	setTitle(): void {}
	setProgress(): void {}
	setProgramStatus(): void {}
}

/** Lines of pi's own screen under the overlay (a chat of styled text and rules), drawn before `/history` as pi has. */
const BASE_LINES = 200;

/** pi's screen before `/history`: BASE_LINES of styled chat text and rules, each within the terminal's width. */
function piScreen(): { render(width: number): string[]; invalidate(): void } {
	const words = "the webhook handler retried the request after a timeout and the ledger reconciled on the next run".split(" ");
	const lines = Array.from({ length: BASE_LINES }, (_, i) => {
		if (i % 12 === 0) return `\u001b[2m${"─".repeat(COLUMNS)}\u001b[22m`;
		const text = Array.from({ length: 14 }, (_, k) => words[(i * 7 + k) % words.length])
			.join(" ")
			.slice(0, COLUMNS - 4);
		return i % 12 === 1 ? `\u001b[1m\u001b[36m> ${text}\u001b[39m\u001b[22m` : `  ${text}`;
	});
	return { render: () => lines, invalidate: () => {} };
}

const sleepUntil = (at: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

/** Waits (on timers, as pi's loop would run) until `done` holds or `limitMs` passed; true when it held. */
async function waitFor(done: () => boolean, limitMs: number): Promise<boolean> {
	const end = performance.now() + limitMs;
	while (!done()) {
		if (performance.now() > end) return false;
		await sleepUntil(performance.now() + 2);
	}
	return true;
}

/** The child: one pass at `paceMs` per key in this fresh process. */
async function pass(roots: string[], indexPath: string, paceMs: number, workspace: string, text: string): Promise<OverlayResult> {
	const terminal = new BlankTerminal();
	const screen = new tui.TuiMainScreen(terminal);
	screen.addChild(piScreen());
	screen.start();
	await sleepUntil(performance.now() + 100);
	const opened = performance.now();
	const loop = monitorEventLoopDelay({ resolution: 1 });
	loop.enable();
	// What in-pi.ts loads on the first /history, loaded the same way (pi starts without them; pi-tui is pi's own).
	const [{ ExplorerOverlay }] = await Promise.all([import("../components/pi/explorer-overlay.js"), import("../components/pi/prompt-recall.js")]);
	const thread = QueryThread.start(benchConfig(roots, indexPath));
	const frames: Frame[] = [];
	const paint = { fg: (_c: string, t: string) => `\u001b[36m${t}\u001b[39m`, bold: (t: string) => `\u001b[1m${t}\u001b[22m` };
	const overlay = new ExplorerOverlay({
		service: explorerService(thread),
		kit: { visibleWidth: tui.visibleWidth, truncateToWidth: tui.truncateToWidth, parseKey: tui.parseKey as never },
		paint,
		workspace,
		threaded: thread.threaded,
		height: () => Math.max(10, Math.floor(ROWS * 0.9)),
		host: { land: () => {}, close: () => {}, paste: async () => "", requestRender: () => screen.requestRender() },
	});
	// pi-tui calls render for every frame it draws: the frame's time, what it shows and the overlay's lines' cost are
	// taken there; pi-tui's whole frame (doRender: those lines composited over pi's and written) just below.
	const render = overlay.render.bind(overlay);
	overlay.render = (width: number) => {
		const t = performance.now();
		const lines = render(width);
		const at = performance.now();
		const s = overlay.driver.state;
		frames.push({ at, query: s.query.text, ready: s.hits.results.status === "ready", hits: s.hits.results.hits.length, ms: 0, linesMs: at - t });
		return lines;
	};
	const host = screen as unknown as { doRender(): void };
	if (typeof host.doRender !== "function") throw new Error("pi-tui's renderer has no doRender to time");
	const doRender = host.doRender.bind(screen);
	host.doRender = () => {
		const t = performance.now();
		doRender();
		const last = frames.at(-1);
		if (last && last.at >= t) last.ms = performance.now() - t;
	};
	screen.showOverlay(overlay, { width: "100%", maxHeight: "90%", anchor: "top-center" });
	const listedAt = (await waitFor(() => frames.some((f) => f.ready && f.hits > 0), 60_000))
		? (frames.find((f) => f.ready && f.hits > 0)?.at ?? Number.NaN)
		: Number.NaN;
	const openHoldMs = loop.max / 1e6;
	await sleepUntil(performance.now() + 300);
	const due: number[] = [];
	const holds: number[] = [];
	const start = performance.now();
	for (let i = 0; i < text.length; i++) {
		const at = start + i * paceMs;
		await sleepUntil(at);
		if (i > 0) holds.push(loop.max / 1e6);
		loop.reset();
		due.push(at);
		terminal.input(text[i] as string);
	}
	await waitFor(() => frames.some((f) => f.at >= (due.at(-1) ?? 0) && f.ready && f.query === text), LAST_KEY_WAIT_MS);
	holds.push(loop.max / 1e6);
	loop.disable();
	const keys = due.map((t, i) => {
		const prefix = text.slice(0, i + 1);
		const echo = frames.find((f) => f.at >= t && f.query.startsWith(prefix));
		const searched = searchesFor(prefix);
		const answered = frames.find((f) => f.at >= t && f.ready && f.query.startsWith(prefix));
		const echoMs = echo ? echo.at - t : null;
		return { prefix, echoMs, resultsMs: searched ? (answered ? answered.at - t : null) : echoMs, searched, holdMs: holds[i] ?? Number.NaN };
	});
	screen.stop();
	await thread.close();
	const typed = frames.filter((f) => f.at >= start);
	return {
		paceMs,
		workspace,
		threaded: thread.threaded,
		listedMs: listedAt - opened,
		openHoldMs,
		keys,
		frames: typed.length,
		frameMs: typed.map((f) => f.ms),
		linesMs: typed.map((f) => f.linesMs),
	};
}

/** One pass at `paceMs` in a fresh process (the child reports an OverlayResult). */
export async function measureOverlay(
	roots: string[],
	indexPath: string,
	paceMs: number,
	workspace = OVERLAY_WORKSPACE,
	text = TYPED_QUERY,
): Promise<OverlayResult> {
	return runChild(
		"overlay",
		"overlay.js",
		["--child", String(paceMs), "--index", indexPath, "--roots", roots.join(","), "--workspace", workspace, "--text", text],
		[],
		120_000,
	);
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "∞");
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "∞");

/** p50 / p95 / max of `values` (a key never shown, null, counts as infinitely slow). */
export function spreadOf(values: ReadonlyArray<number | null>): { p50: number; p95: number; max: number } {
	const v = values.map((x) => x ?? Number.POSITIVE_INFINITY);
	return { p50: percentile(v, 50), p95: percentile(v, 95), max: Math.max(...v) };
}

/** One line per pass: echo, results and the longest hold of the loop per key, and the open. */
export function overlayLine(r: OverlayResult): string {
	const s = (field: "echoMs" | "resultsMs" | "holdMs") => {
		const x = spreadOf(r.keys.map((k) => k[field]));
		return `${f0(x.p50)} / ${f0(x.p95)} / ${f0(x.max)}`;
	};
	const frame = (v: number[]) => {
		const x = spreadOf(v);
		return `${f1(x.p50)} / ${f1(x.p95)} / ${f1(x.max)}`;
	};
	return `${r.paceMs} ms/key: echo ${s("echoMs")}, results ${s("resultsMs")}, longest hold of the loop ${s("holdMs")} (p50 / p95 / max ms, ${r.keys.length} keys); a frame ${frame(r.frameMs)} ms, the overlay's lines ${frame(r.linesMs)} (${r.frames} frames); /history → listed ${f0(r.listedMs)} ms (hold ${f0(r.openHoldMs)})${r.threaded ? "" : ", NO query worker"}`;
}

/** One line per key. */
export function overlayKeys(r: OverlayResult): string {
	const n = (x: number | null) => (x === null ? "–" : x.toFixed(0));
	return r.keys
		.map(
			(k) => `  ${JSON.stringify(k.prefix).padEnd(30)} echo ${n(k.echoMs).padStart(4)} results ${n(k.resultsMs).padStart(4)} hold ${n(k.holdMs).padStart(4)}`,
		)
		.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
	const { options, flags } = parseArgs(process.argv.slice(2));
	const index = options.get("index");
	const roots = options.get("roots")?.split(",").filter(Boolean);
	const workspace = options.get("workspace") ?? OVERLAY_WORKSPACE;
	const text = options.get("text") ?? TYPED_QUERY;
	if (!index || !roots?.length || text === "")
		throw new Error("usage: overlay --index PATH --roots DIR[,DIR] [--paces 150,80,20] [--workspace DIR] [--text QUERY] [--keys]");
	const child = options.get("child");
	if (child !== undefined) {
		report("overlay", await pass(roots, index, Number(child), workspace, text));
		process.exit(0);
	}
	for (const pace of (options.get("paces") ?? "150,80,20").split(",").map(Number)) {
		const r = await measureOverlay(roots, index, pace, workspace, text);
		console.log(overlayLine(r));
		if (flags.has("keys")) console.log(overlayKeys(r));
	}
}
