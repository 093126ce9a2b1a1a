/**
 * Child process for the size-independent rows (bench/huge.ts writes the inputs; the cold index of each runs in
 * measure-worker.js cold). One task per run, so each peak RSS is that task's own:
 *   huge-worker.js append     --index P --roots R --file F --entries N     one entry appended to a session of N, then refresh
 *   huge-worker.js read       --index P --roots R --entry E [--needle W] [--window N]  search W, read and trace entry E
 *                             through the service; --window: also read 4,000 characters of its first fragment at N
 *   huge-worker.js branch     --index P --roots R --file F --id I --parent Q    entry I appended under entry Q (an old one), then refresh
 *   huge-worker.js compact    --index P --roots R --file F --id I --parent Q --kept K [--lead L]   compaction I under Q keeping K
 *                             on (after L linear entries I-L..I-1, Q = I-1), the extension's sliced refresh, then trace the compaction
 *   huge-worker.js unfinished --index P --roots R --file F --grow BYTES   refresh over an unfinished last line, grow it, refresh
 */
import { appendFileSync } from "node:fs";
import { REFRESH_SLICE } from "../src/extension/index-handle.js";
import { HistoryService } from "../src/service/service.js";
import type { RefreshSummary } from "../src/shared/types.js";
import { benchConfig, maxRssBytes, parseArgs, report, threadCpuMs } from "./child.js";
import { branchEntry, compactionEntry, growUnfinished, HUGE_SESSION_ID, entryId as idOf, linearEntry } from "./huge.js";

const { options, rest } = parseArgs(process.argv.slice(2));
const task = rest[0];
const indexPath = options.get("index");
const roots = (options.get("roots") ?? "").split(",").filter(Boolean);
if (!task || !indexPath || roots.length === 0) {
	process.stderr.write("usage: huge-worker.js append|read|unfinished --index PATH --roots DIR [task options]\n");
	process.exit(2);
}

function timed<T>(run: () => T): { ms: number; cpuMs: number; value: T } {
	const started = performance.now();
	const cpu = process.cpuUsage();
	const value = run();
	const used = process.cpuUsage(cpu);
	return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, value };
}

/** Like timed(), but an operation that throws is reported (its message) instead of ending the child. */
function attempt<T>(run: () => T): { ms: number; value?: T; error?: string } {
	const started = performance.now();
	try {
		const value = run();
		return { ms: performance.now() - started, value };
	} catch (error) {
		return { ms: performance.now() - started, error: error instanceof Error ? error.message.slice(0, 200) : String(error) };
	}
}

/** Times every turn of the event loop (setImmediate to setImmediate) until stopped: the longest is how long pi waited. */
function turnTimer(): { stop: () => { turnMs: number; turnCpuMs: number; turns: number; slowestCpuMs: number[] } } {
	let on = true;
	let turns = 0;
	const cpus: number[] = [];
	let turnMs = 0;
	let turnCpuMs = 0;
	let last = performance.now();
	// This thread's CPU: the index's checkpoint worker runs beside the loop, not in its turns.
	let lastCpu = threadCpuMs();
	const tick = () => {
		const used = threadCpuMs() - lastCpu;
		turnMs = Math.max(turnMs, performance.now() - last);
		turnCpuMs = Math.max(turnCpuMs, used);
		cpus.push(used);
		turns++;
		last = performance.now();
		lastCpu = threadCpuMs();
		if (on) setImmediate(tick);
	};
	setImmediate(tick);
	return {
		stop: () => {
			on = false;
			return { turnMs, turnCpuMs, turns, slowestCpuMs: cpus.sort((a, b) => b - a).slice(0, 5) };
		},
	};
}

const counts = (s: RefreshSummary) => ({
	eventsIngested: s.eventsIngested,
	sessionsAppended: s.sessionsAppended,
	sessionsRebuilt: s.sessionsRebuilt,
	errors: s.errors.length,
	pending: s.pending,
});

const service = HistoryService.open({ config: benchConfig(roots, indexPath) });
const opened = maxRssBytes();
if (task === "append") {
	const file = options.get("file") as string;
	const entries = Number(options.get("entries"));
	// A refresh with nothing changed first: the append's refresh must not pay for anything else.
	const noop = timed(() => service.refresh());
	appendFileSync(file, linearEntry(entries + 1, 0));
	const refresh = timed(() => service.refresh());
	report("huge", { task, noopMs: noop.ms, ms: refresh.ms, summary: counts(refresh.value), openRssBytes: opened });
} else if (task === "read") {
	const entryId = options.get("entry") as string;
	const needle = options.get("needle");
	const search = needle ? attempt(() => service.search({ query: needle, limit: 10 })) : null;
	const read = attempt(() => service.read({ sessionId: HUGE_SESSION_ID, entryId }));
	const trace = attempt(() => service.trace({ sessionId: HUGE_SESSION_ID, entryId }));
	const at = options.get("window");
	const fragmentId = read.value?.fragments[0]?.id;
	const window =
		at !== undefined && fragmentId
			? attempt(() => service.read({ sessionId: HUGE_SESSION_ID, entryId, fragmentId, offset: Number(at), maxChars: 4000 }))
			: null;
	const errors = [
		search?.error && `search: ${search.error}`,
		read.error && `read: ${read.error}`,
		trace.error && `trace: ${trace.error}`,
		window?.error && `window: ${window.error}`,
	].filter(Boolean);
	report("huge", {
		task,
		searchMs: search?.ms ?? null,
		searchHit: search?.value ? search.value.hits.some((h) => h.entryId === entryId) : null,
		ms: read.ms,
		readChars: read.value ? JSON.stringify(read.value).length : 0,
		traceMs: trace.ms,
		...(window ? { windowMs: window.ms, windowChars: window.value?.fragments[0]?.text.length ?? 0, windowOffset: Number(at) } : {}),
		openRssBytes: opened,
		...(errors.length ? { error: errors.join("; ") } : {}),
	});
} else if (task === "branch" || task === "compact") {
	const file = options.get("file") as string;
	const id = Number(options.get("id"));
	const parent = Number(options.get("parent"));
	const noop = timed(() => service.refresh());
	const lead = Number(options.get("lead") ?? "0");
	let lines = "";
	for (let i = id - lead; i < id; i++) lines += linearEntry(i, 0);
	appendFileSync(file, lines + (task === "branch" ? branchEntry(id, parent) : compactionEntry(id, parent, Number(options.get("kept")))));
	let turns: ReturnType<ReturnType<typeof turnTimer>["stop"]> | null = null;
	let refresh: { ms: number; cpuMs: number; value: RefreshSummary };
	let visible: { ms: number; cpuMs: number } | undefined;
	if (task === "compact") {
		// The extension's refresh (index-handle.ts): sliced, REFRESH_SLICE per transaction, here without a budget.
		const started = performance.now();
		const cpu = process.cpuUsage();
		const timer = turnTimer();
		// When a reader first finds the compaction: the slices before it are what the append costs before it answers;
		// the summary runs after it change what older entries say, and readers see them made already (summary-runs.ts).
		const onSlice = () => {
			if (visible !== undefined) return;
			const at = performance.now();
			const used = process.cpuUsage(cpu);
			try {
				service.read({ sessionId: HUGE_SESSION_ID, entryId: idOf(id) });
				visible = { ms: at - started, cpuMs: (used.user + used.system) / 1000 };
			} catch {
				// Not indexed yet.
			}
		};
		const value = await service.refreshSliced({ batchMs: REFRESH_SLICE.ms, batchBytes: REFRESH_SLICE.bytes, sliceBytes: REFRESH_SLICE.bytes, onSlice });
		turns = timer.stop();
		const used = process.cpuUsage(cpu);
		refresh = { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, value };
	} else refresh = timed(() => service.refresh());
	const cpu = process.cpuUsage();
	const trace = task === "compact" ? attempt(() => service.trace({ sessionId: HUGE_SESSION_ID, entryId: idOf(id) })) : null;
	const traceCpu = process.cpuUsage(cpu);
	report("huge", {
		task,
		noopMs: noop.ms,
		ms: refresh.ms,
		cpuMs: refresh.cpuMs,
		summary: counts(refresh.value),
		...(turns ?? {}),
		...(visible ? { visibleMs: visible.ms, visibleCpuMs: visible.cpuMs } : {}),
		...(trace
			? {
					traceMs: trace.ms,
					traceCpuMs: (traceCpu.user + traceCpu.system) / 1000,
					traced: trace.value?.edges.filter((e) => e.rel === "compacts").length ?? null,
				}
			: {}),
		openRssBytes: opened,
		...(trace?.error ? { error: `trace: ${trace.error}` } : {}),
	});
} else if (task === "unfinished") {
	const file = options.get("file") as string;
	const grow = Number(options.get("grow") ?? String(1024 * 1024));
	const first = timed(() => service.refresh());
	growUnfinished(file, grow);
	const again = timed(() => service.refresh());
	report("huge", { task, ms: first.ms, summary: counts(first.value), grownMs: again.ms, grownSummary: counts(again.value), openRssBytes: opened });
} else {
	process.stderr.write(`unknown task ${task}\n`);
	process.exit(2);
}
service.close();
