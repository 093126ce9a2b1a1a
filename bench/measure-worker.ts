/**
 * Child process that measures the index through HistoryService, the same core every face uses. One task per run,
 * so each starts in a fresh process (cold caches, its own peak RSS):
 *   measure-worker.js cold    --index P --roots A,B [--mode sync|pipelined] [--fts-config k=v,…]   cold index into an empty index file
 *   measure-worker.js query   --index P --roots A,B [--runs N]                query mix and search-as-you-type
 *   measure-worker.js tui     --index P --roots A,B                           keystroke → frame through <App/>
 *   measure-worker.js refresh --index P --roots A,B --append1 F,… --append10 F,… --rewrite F,…
 *   measure-worker.js first   --index P --roots A,B --query-index I [--mix agent]   one query's first run, then repeats
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import type { ExplorerService } from "../components/core/explorer-service.js";
import { HistoryService } from "../src/service/service.js";
import type { RefreshSummary } from "../src/shared/types.js";
import { benchConfig, parseArgs, percentile, report } from "./child.js";
import type { RefreshBrief, Stats } from "./results.js";
import { AGENT_MIX, QUERY_MIX, TYPED_QUERY } from "./vocabulary.js";

/** Times each keystroke of TYPED_QUERY is searched through the service (query task) and typed into <App/> (tui task). */
const SERVICE_TYPING_REPS = 5;
const TUI_TYPING_REPS = 3;

const { options, rest } = parseArgs(process.argv.slice(2));
const task = rest[0];
const indexPath = options.get("index");
const roots = (options.get("roots") ?? "").split(",").filter(Boolean);
if (!task || !indexPath || roots.length === 0) {
	process.stderr.write("usage: measure-worker.js cold|query|tui|refresh --index PATH --roots DIR[,DIR] [task options]\n");
	process.exit(2);
}

/** Opens the service on exactly these roots (see benchConfig). */
function openService(): HistoryService {
	return HistoryService.open({ config: benchConfig(roots, indexPath) });
}

/** Bytes this process wrote through write(2) so far (Linux /proc/self/io wchar), or null elsewhere: the WAL and page
 * writes of a build, less noisy than time on a shared machine. */
function writtenBytes(): number | null {
	try {
		const m = /^wchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"));
		return m ? Number(m[1]) : null;
	} catch {
		return null;
	}
}

function fileBytes(path: string): number {
	try {
		return statSync(path).size;
	} catch {
		return 0;
	}
}

function indexBytes(): { main: number; wal: number } {
	return { main: fileBytes(indexPath as string), wal: fileBytes(`${indexPath}-wal`) };
}

/** The counters of a refresh summary worth keeping (notes and error lists can be long). */
function brief(s: RefreshSummary): RefreshBrief {
	return {
		files: s.files,
		filesChanged: s.filesChanged,
		sessionsAdded: s.sessionsAdded,
		sessionsRebuilt: s.sessionsRebuilt,
		sessionsAppended: s.sessionsAppended,
		eventsIngested: s.eventsIngested,
		linesIngested: s.linesIngested,
		bytesRead: s.bytesRead,
		errors: s.errors.length,
		pending: s.pending,
		busy: s.busy === true,
	};
}

function timed<T>(run: () => T): { ms: number; value: T } {
	const started = performance.now();
	const value = run();
	return { ms: performance.now() - started, value };
}

/** sync: HistoryService.refresh() (the Pi tools' budgeted refresh); pipelined: refreshAsync() (reader thread + writer). */
async function cold(): Promise<void> {
	const modeOption = options.get("mode") ?? "sync";
	if (modeOption !== "sync" && modeOption !== "pipelined") {
		process.stderr.write(`unknown --mode ${modeOption} (sync or pipelined)\n`);
		process.exit(2);
	}
	const mode: "sync" | "pipelined" = modeOption;
	const service = openService();
	// --fts-config automerge=16,crisismerge=64: FTS5 settings tried before changing schema.ts (they persist in the
	// index; FTS5 rereads them when they change, so a second connection may set them under the service's).
	const ftsConfig = (options.get("fts-config") ?? "").split(",").filter(Boolean);
	if (ftsConfig.length > 0) {
		const db = new Database(indexPath as string);
		for (const kv of ftsConfig) {
			const [key, value] = kv.split("=");
			// FTS5 rejects a REAL value, and better-sqlite3 binds every number as one: write the integer literal.
			if (!/^[a-z]+$/.test(key ?? "") || !Number.isInteger(Number(value))) throw new Error(`bad --fts-config ${kv}`);
			db.exec(`INSERT INTO fts(fts, rank) VALUES ('${key}', ${Number(value)})`);
		}
		db.close();
	}
	const started = performance.now();
	const cpuStart = process.cpuUsage();
	const writtenStart = writtenBytes();
	const summary = mode === "pipelined" ? await service.refreshAsync() : service.refresh();
	const refresh = { ms: performance.now() - started, value: summary };
	// CPU time of all threads: less sensitive than wall time to other work on the machine.
	const cpu = process.cpuUsage(cpuStart);
	const writtenEnd = writtenBytes();
	const status = service.status();
	const live = indexBytes();
	const heapUsed = process.memoryUsage().heapUsed;
	service.close();
	// The steady-state size: everything checkpointed into the main file, the WAL truncated.
	const db = new Database(indexPath as string);
	db.pragma("wal_checkpoint(TRUNCATE)");
	db.close();
	report("cold", {
		mode,
		ms: refresh.ms,
		cpuMs: (cpu.user + cpu.system) / 1000,
		writtenBytes: writtenStart !== null && writtenEnd !== null ? writtenEnd - writtenStart : null,
		summary: brief(refresh.value),
		sessions: status.sessions,
		events: status.events,
		fragments: status.fragments,
		files: status.files,
		sourceBytes: status.sourceBytes,
		liveBytes: live,
		checkpointedBytes: indexBytes(),
		heapUsedAtEnd: heapUsed,
	});
}

function stats(values: number[]): Stats {
	return { p50: percentile(values, 50), p95: percentile(values, 95), max: Math.max(...values), first: values[0] ?? Number.NaN, runs: values.length };
}

function query(): void {
	const runs = Number(options.get("runs") ?? "20");
	const service = openService();
	const mix = QUERY_MIX.map((q) => {
		const times: number[] = [];
		let hits = 0;
		for (let i = 0; i < runs; i++) {
			const t = timed(() => service.search({ query: q.query, filters: q.filters, limit: 10 }));
			times.push(t.ms);
			hits = t.value.hits.length;
		}
		return { name: q.name, query: q.query, filters: q.filters ?? null, hits, ...stats(times) };
	});
	// Search as you type: every keystroke of TYPED_QUERY issues a prefix search, as the TUI's query line does.
	const reps = SERVICE_TYPING_REPS;
	const perKey: Array<{ prefix: string; times: number[]; hits: number }> = [];
	for (let i = 1; i <= TYPED_QUERY.length; i++) perKey.push({ prefix: TYPED_QUERY.slice(0, i), times: [], hits: 0 });
	for (let r = 0; r < reps; r++) {
		for (const key of perKey) {
			const t = timed(() => service.search({ query: key.prefix, prefix: true, limit: 30 }));
			key.times.push(t.ms);
			key.hits = t.value.hits.length;
		}
	}
	const all = perKey.flatMap((k) => k.times);
	const slowest = [...perKey].sort((a, b) => percentile(b.times, 50) - percentile(a.times, 50))[0];
	service.close();
	report("query", {
		mix,
		typing: {
			text: TYPED_QUERY,
			keystrokes: perKey.length,
			reps,
			...stats(all),
			slowestKey: slowest ? { prefix: slowest.prefix, p50: percentile(slowest.times, 50), max: Math.max(...slowest.times) } : null,
			perKey: perKey.map((k) => ({ prefix: k.prefix, p50: percentile(k.times, 50), max: Math.max(...k.times), hits: k.hits })),
		},
	});
}

async function refreshTask(): Promise<void> {
	const list = (name: string) => (options.get(name) ?? "").split(",").filter(Boolean);
	const append1 = list("append1");
	const append10 = list("append10");
	const rewrite = list("rewrite");
	// pi appends entries the way it does in a live session (appendFileSync of one JSON line per entry).
	const { SessionManager } = await import("@mariozechner/pi-coding-agent");
	const service = openService();

	const noopFirst = timed(() => service.refresh());
	const noop: number[] = [];
	for (let i = 0; i < 10; i++) noop.push(timed(() => service.refresh()).ms);

	let seq = 0;
	const appendEntries = (file: string, n: number): string => {
		const sm = SessionManager.open(file);
		const token = `benchappend${process.pid}x${seq++}`;
		for (let i = 0; i < n; i++) {
			if (i % 2 === 0)
				sm.appendMessage({
					role: "user",
					content: [{ type: "text", text: `Follow-up ${i}: does ${token} still fail with ECONNREFUSED?` }],
					timestamp: Date.now(),
				});
			else
				sm.appendMessage({
					role: "assistant",
					content: [{ type: "text", text: `Checked ${token}: the pool retries now.` }],
					api: "anthropic-messages",
					provider: "anthropic",
					model: "claude-sonnet-4-5",
					usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 20, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
					stopReason: "stop",
					timestamp: Date.now(),
				});
		}
		return token;
	};

	// Each change is refreshed naming its files, as the explorer's watch and pi's extension (the model's own session)
	// do: with more files than a check samples (quick-check.ts), a search's own check finds an append to an old session
	// only within a few checks.
	const one = append1.map((file) => {
		const token = appendEntries(file, 1);
		const r = timed(() => service.refresh({ priority: [file] }));
		const s = timed(() => service.search({ query: token, limit: 10 }));
		return { file, bytes: statSync(file).size, ms: r.ms, summary: brief(r.value), visible: s.value.hits.length > 0, searchMs: s.ms };
	});

	let hundred: { ms: number; summary: RefreshBrief; files: number } | null = null;
	if (append10.length > 0) {
		for (const file of append10) appendEntries(file, 10);
		const r = timed(() => service.refresh({ priority: append10 }));
		hundred = { ms: r.ms, summary: brief(r.value), files: append10.length };
	}

	const rewrites = rewrite.map((file) => {
		// An in-place rewrite of the same entries with the header in another form (its `version` moved to the end),
		// as a migration or another tool's rewrite would leave it: same inode, same size, every later byte the same.
		const text = readFileSync(file, "utf8");
		const nl = text.indexOf("\n");
		const { version, ...header } = JSON.parse(text.slice(0, nl)) as Record<string, unknown>;
		writeFileSync(file, `${JSON.stringify({ ...header, version })}${text.slice(nl)}`);
		const r = timed(() => service.refresh({ priority: [file] }));
		return { file, bytes: statSync(file).size, ms: r.ms, summary: brief(r.value) };
	});

	const noopAfter = timed(() => service.refresh());

	// As pi's extension checks before each tool call: the service watches the session folders and its asynchronous
	// refresh stats only what the watch saw written (service/freshness-watch.ts). The first, complete, lets the next
	// ones take the watch's word; each is timed as the call waits for it, its turns of the event loop included.
	const watchMode = service.watchFolders();
	await service.refreshSliced();
	const watched: number[] = [];
	let vouched = 0;
	for (let i = 0; i < 10; i++) {
		const start = performance.now();
		const summary = await service.refreshSliced();
		watched.push(performance.now() - start);
		if (summary.watched) vouched++;
	}
	service.close();
	report("refresh", {
		noopFirstMs: noopFirst.ms,
		noopFirstSummary: brief(noopFirst.value),
		noop: stats(noop),
		noopWatched: { ...stats(watched), mode: watchMode, vouched },
		append1: one,
		append100: hundred,
		rewrites,
		noopAfterMs: noopAfter.ms,
	});
}

/**
 * Keystroke → results frame through the real explorer: renders components/App with ink-testing-library on the
 * service as the launcher wires it (searches, reads and traces in the query worker thread, React in production mode
 * as `pi-history` runs it) and types TYPED_QUERY like a person who waits for each frame. A keystroke's time runs from
 * writing the key to the first frame written after the answer to the search it caused arrived, so it includes the
 * App's debounce, the worker round trip, the search, React and Ink. The App, React and Ink are imported here, not at
 * the top, so the other tasks' children (the cold index's peak RSS above all) do not load them.
 */
async function tui(): Promise<void> {
	const reps = TUI_TYPING_REPS;
	// What src/cli/tui-start.ts does before it loads React: the explorer runs React's production build.
	process.env.NODE_ENV ??= "production";
	// As the launcher (src/cli/tui-start.ts): the query worker starts before React and Ink load.
	const { QueryThread } = await import("../src/service/query-thread.js");
	const queries = QueryThread.start(benchConfig(roots, indexPath));
	const [{ App }, { searchesFor }, { createElement }, { render }] = await Promise.all([
		import("../components/ink/App.js"),
		import("../components/root/state.js"),
		import("react"),
		import("ink-testing-library"),
	]);
	const service = openService();
	const searches: Array<{ start: number; end: number; query: string }> = [];
	const frames: Array<{ at: number; text: string }> = [];
	const explorer: ExplorerService = {
		search: async (request) => {
			const start = performance.now();
			const result = await queries.search(request);
			searches.push({ start, end: performance.now(), query: request.query });
			woken();
			return result;
		},
		count: (request) => queries.count(request),
		read: (request) => queries.read(request),
		trace: (request) => queries.trace(request),
		forkAbove: (request) => queries.forkAbove(request),
		status: () => service.status(),
	};
	const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
	// Waiting for a frame or an answer must not spin: a setImmediate loop kept this thread busy, taking a core from
	// the query worker and React, and made searches 2-4x slower than the same searches alone. Frames and answers are
	// timed where they happen (the hooks below), so waking on them loses nothing.
	let wake: (() => void) | null = null;
	const woken = () => {
		wake?.();
		wake = null;
	};
	const nextEvent = (ms: number) => Promise.race([new Promise<void>((resolve) => (wake = resolve)), sleep(ms)]);
	// Waits until no frame was written for `quietMs` (the preview of the selected hit loads after the hits).
	const settle = async (quietMs: number, maxMs: number) => {
		const until = performance.now() + maxMs;
		while (performance.now() < until) {
			const last = frames[frames.length - 1]?.at ?? 0;
			if (performance.now() - last >= quietMs) return;
			await sleep(5);
		}
	};
	/** The text on the query line of a frame (after the `❯ ` prompt), or null when the frame shows none. */
	const queryOf = (frame: string): string | null => {
		// Ink still writes bold, dim and inverse (the cursor) with color off.
		for (const line of frame.replace(/\x1b\[[0-9;]*m/g, "").split("\n")) {
			const at = line.indexOf("❯ ");
			if (at !== -1) return line.slice(at + 2).trimEnd();
		}
		return null;
	};
	const keys: Array<{ prefix: string; ms: number; searchMs: number; renderMs: number }> = [];
	const echoes: number[] = [];
	const firstFrames: number[] = [];
	let firstFrameFromStart = Number.NaN;
	let lastFrame = "";
	let stalled = 0;
	for (let r = 0; r < reps; r++) {
		const rendered = performance.now();
		const inst = render(createElement(App, { service: explorer, size: { columns: 120, rows: 40 }, color: false }));
		const write = inst.stdout.write.bind(inst.stdout);
		inst.stdout.write = (frame: string) => {
			frames.push({ at: performance.now(), text: frame });
			woken();
			write(frame);
		};
		// ink-testing-library writes the first frame inside render(), before the hook above: take it from lastFrame().
		if (inst.lastFrame()) frames.push({ at: performance.now(), text: inst.lastFrame() ?? "" });
		const first = frames.find((f) => f.at >= rendered);
		if (first) {
			firstFrames.push(first.at - rendered);
			// performance.now() counts from process start: imports of App, React and Ink and opening the service included.
			if (r === 0) firstFrameFromStart = first.at;
		}
		// A person starts typing once the explorer shows what it opened with (the recent events), not while the
		// list is still loading: the first key would time the start-up's own search and first list instead.
		const listed = performance.now() + 10_000;
		while (!frames.some((f) => f.at >= rendered && f.text.includes("recent events")) && performance.now() < listed) await nextEvent(50);
		await sleep(50);
		await settle(100, 10_000);
		for (let i = 0; i < TYPED_QUERY.length; i++) {
			const prefix = TYPED_QUERY.slice(0, i + 1);
			const t0 = performance.now();
			inst.stdin.write(TYPED_QUERY[i] as string);
			// A one-letter last word keeps the previous hits (no search to wait for): only its echo frame follows.
			if (!searchesFor(TYPED_QUERY.slice(0, i + 1))) {
				await settle(60, 5_000);
				continue;
			}
			const deadline = t0 + 10_000;
			let done: { start: number; end: number } | undefined;
			let frameAt: number | undefined;
			while (performance.now() < deadline) {
				done ??= searches.find((s) => s.start >= t0);
				if (done) frameAt = frames.find((f) => f.at >= (done as { end: number }).end)?.at;
				if (frameAt !== undefined) break;
				await nextEvent(20);
			}
			if (!done || frameAt === undefined) stalled++;
			else keys.push({ prefix, ms: frameAt - t0, searchMs: done.end - done.start, renderMs: frameAt - done.end });
			// The echo: the first frame after the key whose query line shows the new text. A trailing space cannot be
			// told from the line's padding, so that keystroke has no echo time.
			if (prefix.trimEnd() === prefix) {
				const echo = frames.find((f) => f.at >= t0 && queryOf(f.text) === prefix);
				if (echo) echoes.push(echo.at - t0);
			}
			await settle(60, 5_000);
		}
		lastFrame = inst.lastFrame() ?? "";
		inst.unmount();
	}
	await queries.close();
	service.close();
	const ms = keys.map((k) => k.ms);
	const slowest = [...keys].sort((a, b) => b.ms - a.ms)[0];
	report("tui", {
		text: TYPED_QUERY,
		keystrokes: keys.length,
		stalled,
		reps,
		...stats(ms),
		searchP50: percentile(
			keys.map((k) => k.searchMs),
			50,
		),
		renderP50: percentile(
			keys.map((k) => k.renderMs),
			50,
		),
		renderP95: percentile(
			keys.map((k) => k.renderMs),
			95,
		),
		echo: echoes.length ? stats(echoes) : null,
		firstFrameMs: firstFrames.length ? stats(firstFrames) : null,
		firstFrameFromStartMs: firstFrameFromStart,
		slowestKey: slowest ? { prefix: slowest.prefix, ms: slowest.ms } : null,
		// A sanity check that the keystrokes reached the query line.
		queryShown: lastFrame.includes(TYPED_QUERY),
	});
}

/**
 * One query of the mix as a fresh process meets it (`--query-index I`; of the agent-style rows with `--mix agent`): open
 * the service, run the query once (the headline: no statement, page-cache-only or line cache warmed by an earlier
 * query), then a few repeats apart.
 */
function firstRun(): void {
	const i = Number(options.get("query-index") ?? "0");
	const agent = options.get("mix") === "agent";
	const q = agent ? AGENT_MIX[i] : QUERY_MIX[i];
	if (!q) throw new Error(`no query ${i} in the ${agent ? "agent " : ""}mix`);
	const opened = timed(() => openService());
	const service = opened.value;
	const caller = "caller" in q ? q.caller : undefined;
	const request = { query: q.query, filters: q.filters, limit: 10, ...(caller ? { caller } : {}) };
	const first = timed(() => service.search(request));
	const repeats: number[] = [];
	for (let r = 0; r < 5; r++) repeats.push(timed(() => service.search(request)).ms);
	service.close();
	report("first", { name: q.name, openMs: opened.ms, firstMs: first.ms, repeats, hits: first.value.hits.length, match: first.value.match ?? "all" });
}

if (task === "cold") await cold();
else if (task === "query") query();
else if (task === "tui") await tui();
else if (task === "refresh") await refreshTask();
else if (task === "first") firstRun();
else {
	process.stderr.write(`unknown task ${task}\n`);
	process.exit(2);
}
