/**
 * The tree view on huge sessions (issue 32 item 3): opening the tree of a session of N entries (a branch every
 * 1,000 entries, written straight as pi v3 JSONL like bench/huge.ts) and scrolling it window by window, in a fresh
 * process per size so its peak RSS is the tree view's own. Sizes double; the growth of the open per doubling is
 * printed. Targets: ≤ 100 ms per open or scroll, ≤ 300 MB peak RSS, at every size. With `--family 1` the session is a
 * fork family's root instead: a --fork copy of every entry with turns of its own, and a new session naming the root as
 * its parent; the first open of the root and of the fork is measured after indexing and after turns appended to the
 * fork. Not part of `npm test`:
 *   npm run build && node dist/bench/tree-window.js [--sizes 125000,250000,500000,1000000] [--dir <scratch>] [--keep 1] [--reuse 1] [--family 1]
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, closeSync, copyFileSync, mkdirSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { HistoryService } from "../src/service/service.js";
import { TREE_FILTER_MODES } from "../src/shared/types.js";
import { benchConfig, median, parseArgs } from "./child.js";
import { branchEntry, entryId, HUGE_SESSION_ID, hugePaths, linearEntry } from "./huge.js";

/** A branch off the entry this many back, every BRANCH_EVERY entries (pi's /tree, then a new prompt). */
const BRANCH_EVERY = 1000;
const BRANCH_BACK = 10;
/** A filter typed in the tree view (a tool call's path, src/file4*.ts: about one entry in 26 holds it). */
const TYPED = "file4";
/** Rows of one screen, and windows read while scrolling. */
const HEIGHT = 40;
const SCROLLS = 20;

/** The family's fork (a --fork copy of every entry, then turns of its own) and new session after the root. */
const FORK_ID = "0199a000-0000-7000-8000-00000000f0e4";
const NEXT_ID = "0199a000-0000-7000-8000-00000000e0e7";
const FORK_OWN = 1000;

/** Writes the fork and the new session of `--family` beside the root session of `n` entries. */
function writeFamily(dir: string, n: number): { fork: string } {
	const { file } = hugePaths(dir);
	const folder = join(hugePaths(dir).root, "--tmp-huge--");
	const header = (id: string, day: number) =>
		`${JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(Date.UTC(2026, 0, day)).toISOString(), cwd: "/tmp/huge", parentSession: file })}\n`;
	const fork = join(folder, "2026-01-06T09-00-00-000Z_fork.jsonl");
	const out = openSync(fork, "w");
	const from = openSync(file, "r");
	try {
		writeSync(out, header(FORK_ID, 6));
		// Every line of the root but its header, byte for byte (what pi's --fork copies), then the fork's own turns.
		const buf = Buffer.alloc(8 * 1024 * 1024);
		let pos = 0;
		let skip = true;
		for (let got = readSync(from, buf, 0, buf.length, pos); got > 0; got = readSync(from, buf, 0, buf.length, pos)) {
			pos += got;
			let start = 0;
			if (skip) {
				start = buf.indexOf(10) + 1;
				skip = false;
			}
			writeSync(out, buf, start, got - start);
		}
		let own = "";
		for (let i = n + 1; i <= n + FORK_OWN; i++) own += linearEntry(i, 0);
		writeSync(out, own);
	} finally {
		closeSync(from);
		closeSync(out);
	}
	let next = header(NEXT_ID, 7);
	for (let i = n + 5001; i <= n + 5010; i++) next += linearEntry(i, 0);
	appendFileSync(join(folder, "2026-01-07T09-00-00-000Z_next.jsonl"), next);
	return { fork };
}

/** In a child: the first open of the family's root and of its fork (on an entry the fork wrote), each from a fresh process. */
function openFamily(root: string, index: string, sessionId: string, entryId: string | undefined): void {
	const service = HistoryService.open({ config: benchConfig([root], index) });
	try {
		const t = performance.now();
		const c = process.cpuUsage();
		const w = service.treeWindow({ sessionId, ...(entryId ? { entryId } : {}), count: 3 * HEIGHT });
		const open = performance.now() - t;
		const d = process.cpuUsage(c);
		process.stdout.write(
			`${JSON.stringify({ open, cpu: (d.user + d.system) / 1000, forks: w.forks, total: w.total, rss: process.resourceUsage().maxRSS / 1024 })}\n`,
		);
	} finally {
		service.close();
	}
}

/** The family's first opens (root, then the fork on its last entry) after indexing, each in a fresh process. */
function familyOpens(self: string, root: string, index: string, forkLast: string): string {
	const parts: string[] = [];
	for (const [what, id, entry] of [
		["root", HUGE_SESSION_ID, ""],
		["fork", FORK_ID, forkLast],
	] as const) {
		const out = spawnSync(process.execPath, [self, "child-family", root, index, id, entry], { encoding: "utf8" });
		if (out.status !== 0) throw new Error(`opening the family failed: ${out.stderr}`);
		const r = JSON.parse(out.stdout.trim().split("\n").at(-1) as string) as { open: number; cpu: number; forks: number; total: number; rss: number };
		parts.push(
			`${what} ${r.open.toFixed(1)} ms (CPU ${r.cpu.toFixed(1)} ms, ${r.forks} forks, ${r.total.toLocaleString("en-US")} rows, peak RSS ${r.rss.toFixed(0)} MB)`,
		);
	}
	return parts.join(" · ");
}

function writeSession(dir: string, n: number): string {
	rmSync(dir, { recursive: true, force: true });
	const { root, file } = hugePaths(dir);
	mkdirSync(join(root, "--tmp-huge--"), { recursive: true });
	const fd = openSync(file, "w");
	let buf = `${JSON.stringify({ type: "session", version: 3, id: HUGE_SESSION_ID, timestamp: new Date(Date.UTC(2026, 0, 5)).toISOString(), cwd: "/tmp/huge" })}\n`;
	try {
		for (let i = 1; i <= n; i++) {
			buf += i % BRANCH_EVERY === 0 ? branchEntry(i, i - BRANCH_BACK) : linearEntry(i, Math.floor(n / 2));
			if (buf.length > 8 * 1024 * 1024) {
				writeSync(fd, buf);
				buf = "";
			}
		}
		writeSync(fd, buf);
	} finally {
		closeSync(fd);
	}
	return root;
}

/** In a child: open the tree at the leaf, then scroll it window by window from top to bottom. */
function measure(root: string, index: string, readonly: boolean): void {
	const service = HistoryService.open({ config: benchConfig([root], index), readonly });
	try {
		const t0 = performance.now();
		const c0 = process.cpuUsage();
		const first = service.treeWindow({ sessionId: HUGE_SESSION_ID, count: 3 * HEIGHT });
		const open = performance.now() - t0;
		const c1 = process.cpuUsage(c0);
		const openCpu = (c1.user + c1.system) / 1000;
		const rssOpen = process.resourceUsage().maxRSS / 1024;
		const scrolls: number[] = [];
		for (let k = 0; k < SCROLLS; k++) {
			const top = Math.floor((first.total * k) / SCROLLS);
			const t = performance.now();
			const w = service.treeWindow({ sessionId: HUGE_SESSION_ID, top, count: 3 * HEIGHT });
			scrolls.push(performance.now() - t);
			if (w.rows.length === 0) throw new Error("an empty window");
		}
		// An unfold lays the rows out again (a fold's first row), then the view centred on it.
		const fold = first.rows.find((r) => r.type === "fold");
		const t1 = performance.now();
		if (fold) service.treeWindow({ sessionId: HUGE_SESSION_ID, unfolded: [fold.stretch], cursor: fold.stretch, count: 3 * HEIGHT });
		const unfold = performance.now() - t1;
		// Each other filter mode lays the tree out again (the open was `default`); the walk opens it on a deep entry.
		const modes: Record<string, number> = {};
		for (const filter of TREE_FILTER_MODES.filter((f) => f !== "default")) {
			const t = performance.now();
			service.treeWindow({ sessionId: HUGE_SESSION_ID, filter, count: 3 * HEIGHT });
			modes[filter] = performance.now() - t;
		}
		const deepId = entryId(Math.max(1, first.entries - 5));
		const t2 = performance.now();
		service.treeWindow({ sessionId: HUGE_SESSION_ID, entryId: deepId, filter: "no-tools", count: 3 * HEIGHT });
		const deep = performance.now() - t2;
		// A filter typed in the tree view: never kept, laid out at each new text.
		const t3 = performance.now();
		service.treeWindow({ sessionId: HUGE_SESSION_ID, text: TYPED, count: 3 * HEIGHT });
		const typed = performance.now() - t3;
		const rss = process.resourceUsage().maxRSS / 1024;
		process.stdout.write(
			`${JSON.stringify({ total: first.total, entries: first.entries, open, openCpu, scroll: median(scrolls), scrollMax: Math.max(...scrolls), unfold, modes, deep, typed, rssOpen, rss })}\n`,
		);
	} finally {
		service.close();
	}
}

/** In a child: the first open in each filter mode after the session changed (the kept layouts are brought up to it). */
function openAfterChange(root: string, index: string): void {
	const service = HistoryService.open({ config: benchConfig([root], index) });
	try {
		const modes: Record<string, number> = {};
		let cpu = 0;
		for (const filter of TREE_FILTER_MODES) {
			const t = performance.now();
			const c = process.cpuUsage();
			service.treeWindow({ sessionId: HUGE_SESSION_ID, filter, count: 3 * HEIGHT });
			modes[filter] = performance.now() - t;
			const d = process.cpuUsage(c);
			cpu = Math.max(cpu, (d.user + d.system) / 1000);
		}
		process.stdout.write(`${JSON.stringify({ modes, cpu, rss: process.resourceUsage().maxRSS / 1024 })}\n`);
	} finally {
		service.close();
	}
}

/** Indexes in a child; what it took: the refresh, the kept layouts brought up to it, and its peak RSS. */
function indexing(root: string, index: string): string {
	const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "child-index", root, index], { encoding: "utf8" });
	if (out.status !== 0) throw new Error(`indexing failed: ${out.stderr}`);
	const r = JSON.parse(out.stdout.trim().split("\n").at(-1) as string) as {
		index: number;
		layouts: number;
		kept: Record<string, number>;
		rssIndex: number;
		rss: number;
	};
	const kept = `${r.kept.whole ?? 0} laid out whole, ${r.kept.appended ?? 0} from the tail`;
	return `indexed in ${r.index.toFixed(0)} ms + layouts ${r.layouts.toFixed(0)} ms (${kept}), indexer peak RSS ${r.rssIndex.toFixed(0)} MB, ${r.rss.toFixed(0)} MB with the layouts`;
}

function main(): void {
	const { options, rest } = parseArgs(process.argv.slice(2));
	if (rest[0] === "child-index") {
		// A refresh, then the kept layouts brought up to it (what the CLI's `index` and the explorer's indexer do).
		const service = HistoryService.open({ config: benchConfig([rest[1] as string], rest[2] as string) });
		const t0 = performance.now();
		service.refresh();
		const t1 = performance.now();
		const rssIndex = process.resourceUsage().maxRSS / 1024;
		const kept = service.keepTreeLayouts();
		const t2 = performance.now();
		service.close();
		process.stdout.write(`${JSON.stringify({ index: t1 - t0, layouts: t2 - t1, kept, rssIndex, rss: process.resourceUsage().maxRSS / 1024 })}\n`);
		return;
	}
	if (rest[0] === "child-measure") {
		measure(rest[1] as string, rest[2] as string, rest[3] === "readonly");
		return;
	}
	if (rest[0] === "child-family") {
		openFamily(rest[1] as string, rest[2] as string, rest[3] as string, rest[4] || undefined);
		return;
	}
	if (rest[0] === "child-open") {
		openAfterChange(rest[1] as string, rest[2] as string);
		return;
	}
	const sizes = (options.get("sizes") ?? "125000,250000,500000,1000000").split(",").map(Number);
	const scratch = options.get("dir") ?? join(tmpdir(), "pes-bench-tree-window");
	const self = fileURLToPath(import.meta.url);
	const prev: Record<string, number> = {};
	process.stdout.write(`tree view of one session, a branch every ${BRANCH_EVERY} entries; a window is ${3 * HEIGHT} rows (target ≤ 100 ms, ≤ 300 MB)\n`);
	for (const n of sizes) {
		const dir = join(scratch, `s${n}`);
		// --reuse: a session and index kept by an earlier --keep run (the refresh finds nothing to do).
		const root = options.has("reuse") ? hugePaths(dir).root : writeSession(dir, n);
		const index = join(dir, "index.sqlite");
		if (options.get("family") === "1") {
			// A fork family: indexed, the first opens; turns appended to the fork, indexed again, the first opens again.
			const { fork } = options.has("reuse") ? { fork: join(root, "--tmp-huge--", "2026-01-06T09-00-00-000Z_fork.jsonl") } : writeFamily(dir, n);
			process.stdout.write(`${n.toLocaleString("en-US")} entries and a --fork copy with ${FORK_OWN} of its own, ${indexing(root, index)}\n`);
			process.stdout.write(`    first open after indexing: ${familyOpens(self, root, index, entryId(n + FORK_OWN))}\n`);
			let more = "";
			for (let i = n + FORK_OWN + 1; i <= n + FORK_OWN + 3; i++) more += linearEntry(i, 0);
			appendFileSync(fork, more);
			process.stdout.write(
				`    after a turn appended to the fork (${indexing(root, index)}), the first open: ${familyOpens(self, root, index, entryId(n + FORK_OWN + 3))}\n`,
			);
			if (!options.has("keep")) rmSync(dir, { recursive: true, force: true });
			continue;
		}
		process.stdout.write(`${n.toLocaleString("en-US")} entries, ${indexing(root, index)}\n`);
		// Each in a fresh process: the first open after indexing (the indexer kept each filter mode's layout), then again.
		let entries = n;
		// Then with no kept layout (an open before the indexer's pass, or a family past its bound), on a copy of the
		// index without them, read-only as the explorer's query thread opens it: the open lays the tree out itself.
		const unkept = join(dir, "unkept.sqlite");
		copyFileSync(index, unkept);
		const db = new Database(unkept);
		db.exec("DELETE FROM tree_layout");
		db.close();
		for (const pass of ["first open after indexing", "kept", "no kept layout, read-only"]) {
			const args = pass.startsWith("no kept") ? [unkept, "readonly"] : [index];
			const out = spawnSync(process.execPath, [self, "child-measure", root, ...args], { encoding: "utf8" });
			if (out.status !== 0) throw new Error(`measuring ${n} entries failed: ${out.stderr}`);
			const r = JSON.parse(out.stdout.trim().split("\n").at(-1) as string) as Record<string, number> & { modes: Record<string, number> };
			const growth = prev[pass] === undefined ? "" : `  ×${((r.open as number) / (prev[pass] as number)).toFixed(2)} per doubling`;
			prev[pass] = r.open as number;
			entries = r.entries ?? n;
			const ms = (x: number | undefined) => `${(x ?? 0).toFixed(1)} ms`;
			process.stdout.write(
				`${n.toLocaleString("en-US")} entries (${entryId(n)}), ${(r.total ?? 0).toLocaleString("en-US")} rows, ${pass}: open ${ms(r.open)} (CPU ${ms(r.openCpu)}) · scroll p50 ${ms(r.scroll)} (max ${ms(r.scrollMax)}) · unfold ${ms(r.unfold)} · peak RSS ${(r.rssOpen ?? 0).toFixed(0)} MB at the open, ${(r.rss ?? 0).toFixed(0)} MB at the end${growth}\n`,
			);
			const modes = Object.entries(r.modes ?? {}).map(([mode, t]) => `${mode} ${ms(t)}`);
			if (modes.length > 0)
				process.stdout.write(
					`    each filter mode: ${modes.join(" · ")} · on a deep entry (no-tools) ${ms(r.deep)} · a filter typed ("${TYPED}") ${ms(r.typed)}\n`,
				);
		}
		for (const f of [unkept, `${unkept}-wal`, `${unkept}-shm`]) rmSync(f, { force: true });
		// The common change: pi appends a turn at the leaf, or goes back up the path and prompts there.
		const { file } = hugePaths(dir);
		let last = entries;
		const changes: Array<[string, () => string]> = [
			["a turn appended at the leaf", () => [1, 2, 3].map(() => linearEntry(++last, 0)).join("")],
			// Back to the leaf's grandparent (an entry of the current path), then a turn there.
			["a turn back up the path", () => branchEntry(++last, last - 3) + [1, 2].map(() => linearEntry(++last, 0)).join("")],
			// A branch off an entry far up the session (pi's /tree to an old prompt, then a turn there).
			["a branch off an old entry", () => branchEntry(++last, Math.floor(last / 3)) + [1, 2].map(() => linearEntry(++last, 0)).join("")],
		];
		for (const [what, lines] of changes) {
			appendFileSync(file, lines());
			const again = indexing(root, index);
			const out = spawnSync(process.execPath, [self, "child-open", root, index], { encoding: "utf8" });
			if (out.status !== 0) throw new Error(`opening ${n} entries failed: ${out.stderr}`);
			const r = JSON.parse(out.stdout.trim().split("\n").at(-1) as string) as { modes: Record<string, number>; cpu: number; rss: number };
			const modes = Object.entries(r.modes).map(([mode, t]) => `${mode} ${t.toFixed(1)} ms`);
			process.stdout.write(
				`    after ${what} (${again}), the first open: ${modes.join(" · ")} (most CPU ${r.cpu.toFixed(1)} ms) · peak RSS ${r.rss.toFixed(0)} MB\n`,
			);
		}
		if (!options.has("keep")) rmSync(dir, { recursive: true, force: true });
	}
}

main();
