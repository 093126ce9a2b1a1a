/**
 * What classifying a whole session costs (issue 32 item 2): appends the append path cannot classify (a turn back past
 * a compaction, among others) reclassify the session in memory. Per size, in fresh
 * processes: the first index of a session with a compaction every 1,000 entries (keeping 20) and, every 5,000, a turn
 * back to before the latest one; then one appended turn back past the latest two, refreshed as pi's extension does
 * (in its slices, with the longest turn of the event loop); then a line repeating an indexed
 * entry's id with other content (replaced in place, the session classified whole). Prints time and peak RSS, and the
 * growth per doubling. Not part of `npm test`:
 *   npm run build && node dist/bench/reclassify.js [--sizes 50000,100000,200000] [--dir <scratch>] [--keep 1]
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { REFRESH_SLICE } from "../src/extension/index-handle.js";
import { HistoryService } from "../src/service/service.js";
import { benchConfig, parseArgs } from "./child.js";

const SESSION = "0199f000-0000-7000-8000-0000000f0f0f";
const FILE = "2026-06-01T00-00-00-000Z_reclassify.jsonl";
const ts = (i: number) => new Date(Date.UTC(2026, 5, 1) + i * 1000).toISOString();

/** The session of `n` entries, written line by line to its file. */
function writeSession(root: string, n: number): void {
	mkdirSync(join(root, "--f--"), { recursive: true });
	const file = join(root, "--f--", FILE);
	writeFileSync(file, `${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: ts(0), cwd: "/tmp/f" })}\n`);
	let leaf: string | null = null;
	let beforeCompaction: string | null = null;
	let batch = "";
	for (let i = 1; i <= n; i++) {
		const parent = i % 5000 === 0 && beforeCompaction ? beforeCompaction : leaf;
		if (i % 1000 === 0) {
			batch += `${JSON.stringify({ type: "compaction", id: `c${i}`, parentId: parent, timestamp: ts(i), summary: `up to ${i}`, firstKeptEntryId: `e${i - 20}`, tokensBefore: 1000 })}\n`;
			beforeCompaction = `e${i - 30}`;
			leaf = `c${i}`;
		} else {
			const message = { role: i % 2 ? "user" : "assistant", content: [{ type: "text", text: `step ${i}` }], timestamp: i };
			batch += `${JSON.stringify({ type: "message", id: `e${i}`, parentId: parent, timestamp: ts(i), message })}\n`;
			leaf = `e${i}`;
		}
		if (batch.length > 1 << 20) {
			appendFileSync(file, batch);
			batch = "";
		}
	}
	appendFileSync(file, batch);
}

/**
 * In a child: one refresh of the index, its time and the process's peak RSS; `sliced`, as pi's extension refreshes
 * (its slices and budget), with the longest turn of the event loop during it (setImmediate to setImmediate).
 */
async function child(root: string, index: string, sliced: boolean): Promise<void> {
	const service = HistoryService.open({ config: benchConfig([root], index) });
	try {
		let longest = 0;
		let last = performance.now();
		let on = sliced;
		const tick = () => {
			const now = performance.now();
			longest = Math.max(longest, now - last);
			last = now;
			if (on) setImmediate(tick);
		};
		if (sliced) setImmediate(tick);
		const t0 = performance.now();
		if (sliced) {
			const { ms, bytes, entries } = REFRESH_SLICE;
			// Until nothing is pending, as the extension's background refresh goes on turn after turn.
			for (let pending = 1; pending > 0; )
				pending = (await service.refreshSliced({ budgetMs: ms, sliceBytes: bytes, sliceEntries: entries, batchMs: ms })).pending;
		} else service.refresh();
		const ms = performance.now() - t0;
		on = false;
		process.stdout.write(`${JSON.stringify({ ms, rss: process.resourceUsage().maxRSS / 1024, turn: sliced ? longest : undefined })}\n`);
	} finally {
		service.close();
	}
}

async function main(): Promise<void> {
	const { options, rest } = parseArgs(process.argv.slice(2));
	if (rest[0] === "child") {
		await child(rest[1] as string, rest[2] as string, rest[3] === "sliced");
		return;
	}
	const sizes = (options.get("sizes") ?? "50000,100000,200000").split(",").map(Number);
	const scratch = options.get("dir") ?? join(tmpdir(), "pes-bench-reclassify");
	const self = fileURLToPath(import.meta.url);
	const refresh = (root: string, index: string, sliced = false) => {
		const out = spawnSync(process.execPath, [self, "child", root, index, sliced ? "sliced" : "sync"], { encoding: "utf8" });
		if (out.status !== 0) throw new Error(`refresh failed: ${out.stderr}`);
		return JSON.parse(out.stdout.trim().split("\n").at(-1) as string) as { ms: number; rss: number; turn?: number };
	};
	process.stdout.write("a session classified whole: a compaction every 1,000 entries, a turn back past one every 5,000 (target ≤ 300 MB)\n");
	type Run = { ms: number; rss: number; turn?: number };
	let prev: Record<"first" | "again" | "copy", Run> | null = null;
	const growth = (now: Run, was: Run | undefined) => (was ? ` (×${(now.ms / was.ms).toFixed(2)} time, ×${(now.rss / was.rss).toFixed(2)} RSS)` : "");
	const row = (what: string, run: Run, was: Run | undefined) =>
		`${what} ${(run.ms / 1000).toFixed(1)} s, peak ${run.rss.toFixed(0)} MB${run.turn === undefined ? "" : `, longest turn ${run.turn.toFixed(0)} ms`}${growth(run, was)}`;
	for (const n of sizes) {
		const dir = join(scratch, `s${n}`);
		rmSync(dir, { recursive: true, force: true });
		const root = join(dir, "sessions");
		writeSession(root, n);
		const index = join(dir, "index.sqlite");
		const first = refresh(root, index);
		// A turn back past the latest two compactions: the append path leaves it to a whole classification.
		const message = { role: "user", content: [{ type: "text", text: "again" }], timestamp: n + 1 };
		const back = `e${Math.floor(n / 1000) * 1000 - 1030}`;
		appendFileSync(join(root, "--f--", FILE), `${JSON.stringify({ type: "message", id: "again", parentId: back, timestamp: ts(n + 1), message })}\n`);
		const again = refresh(root, index, true);
		// The second to last entry again with other content: pi follows the last copy, where the first one stood.
		const copy = { role: "assistant", content: [{ type: "text", text: "a second copy" }], timestamp: n + 2 };
		appendFileSync(
			join(root, "--f--", FILE),
			`${JSON.stringify({ type: "message", id: `e${n - 1}`, parentId: `e${n - 2}`, timestamp: ts(n + 2), message: copy })}\n`,
		);
		const replaced = refresh(root, index);
		process.stdout.write(
			`${n.toLocaleString("en-US")} entries: ${row("first index", first, prev?.first)} · ${row("a turn back past a compaction, refreshed as pi's extension does", again, prev?.again)} · ${row("an entry's id repeated", replaced, prev?.copy)}\n`,
		);
		prev = { first, again, copy: replaced };
		if (!options.has("keep")) rmSync(dir, { recursive: true, force: true });
	}
}

await main();
