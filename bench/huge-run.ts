/**
 * The size-independent rows (`npm run bench -- --huge`; DESIGN §7, issue 16 item 5): a 1,000,000-entry session,
 * a 500 MB single line, a 1 GB unfinished line. Each input is written outside the corpus cache, measured in fresh
 * children (cold index in measure-worker.js, the rest in huge-worker.js) and deleted again. A child that dies or
 * runs past its time limit is a row that says so: these inputs are exactly the ones that break an index.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { type ChildResult, runChild } from "./child.js";
import { LINE_NEEDLE, MIDDLE_NEEDLE, writeLinear, writeSingleLine, writeUnfinished } from "./huge.js";
import type { ColdResult, HugeResult } from "./results.js";
import { f0, f1, MB, ms, renderGrid, thousands } from "./table.js";

/** Full sizes of DESIGN §7; `--huge-scale` shrinks them (for trying the bench, never for the table). */
const FULL = { entries: 1_000_000, lineBytes: 500 * MB, unfinishedBytes: 1000 * MB };
/** DESIGN §7 targets of these rows. */
const TARGET = { ms: 50, rssMB: 300 };
/** A child past this is killed and its row says so. */
const TIME_LIMIT_MS = 10 * 60_000;
/** The branch row goes back this many entries from the leaf (pi's /tree to a few turns ago); the compaction keeps this many more. */
const BRANCH_BACK = 10;
const KEPT_BACK = 20;
/** The second compaction comes after this many more entries (a turn or two of pi's), keeping KEPT_BACK of them. */
const SECOND_AFTER = 40;

type Outcome<T> = { ok: true; r: ChildResult<T> } | { ok: false; error: string };

async function attempt<T>(run: () => Promise<ChildResult<T>>): Promise<Outcome<T>> {
	try {
		return { ok: true, r: await run() };
	} catch (error) {
		return { ok: false, error: (error instanceof Error ? error.message : String(error)).split("\n")[0] as string };
	}
}

/** Everything measured, for results.json and the table. */
export interface HugeResults {
	scale: number;
	/** Null with `--huge-lines` (only the huge-line rows). */
	linear: {
		entries: number;
		bytes: number;
		genMs: number;
		cold: Outcome<ColdResult>;
		append: Outcome<HugeResult>;
		read: Outcome<HugeResult>;
		/** A branch off the entry BRANCH_BACK above the leaf, then a compaction under it (with its trace). */
		branch?: Outcome<HugeResult>;
		compact?: Outcome<HugeResult>;
		/** SECOND_AFTER entries more, then a second compaction: most of the path was summarized by the first. */
		compactAgain?: Outcome<HugeResult>;
	} | null;
	/** Null with `--huge-session` (only the 1,000,000-entry session's rows). */
	line: { bytes: number; genMs: number; cold: Outcome<ColdResult>; read: Outcome<HugeResult> } | null;
	unfinished: { bytes: number; genMs: number; refresh: Outcome<HugeResult> } | null;
}

function removeIndex(path: string): void {
	for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
}

/** Writes each input, measures it, deletes it. */
/** Which of the size-independent inputs to measure: the 1M-entry session, the huge and unfinished lines. */
export interface HugeParts {
	linear: boolean;
	lines: boolean;
}

export async function runHuge(
	cacheDir: string,
	scale: number,
	log: (line: string) => void,
	parts: HugeParts = { linear: true, lines: true },
): Promise<HugeResults> {
	const dir = join(cacheDir, "huge");
	const index = join(cacheDir, "huge-index.sqlite");
	const worker = (task: string, root: string, extra: string[]) =>
		attempt(() => runChild("huge", "huge-worker.js", [task, "--index", index, "--roots", root, ...extra], [], TIME_LIMIT_MS));
	const cold = (root: string) =>
		attempt(() => runChild("cold", "measure-worker.js", ["cold", "--index", index, "--roots", root, "--mode", "sync"], [], TIME_LIMIT_MS));
	const note = (what: string, o: Outcome<{ ms: number; maxRssBytes: number }>) =>
		log(`  ${what}: ${o.ok ? `${ms(o.r.ms)} ms, peak RSS ${f0(o.r.maxRssBytes / MB)} MB` : `FAILED (${o.error})`}`);

	let linear: HugeResults["linear"] = null;
	if (parts.linear) {
		const entries = Math.max(10, Math.round(FULL.entries * scale));
		log(`\n[huge] linear session of ${thousands(entries)} entries`);
		const t0 = performance.now();
		const lin = writeLinear(join(dir, "linear"), entries);
		const genMs = performance.now() - t0;
		removeIndex(index);
		const linCold = await cold(lin.root);
		note("cold index", linCold);
		const append = linCold.ok
			? await worker("append", lin.root, ["--file", lin.file, "--entries", String(entries)])
			: { ok: false as const, error: "no index" };
		note("append one entry + refresh", append);
		const linRead = linCold.ok
			? await worker("read", lin.root, ["--entry", lin.middleId, "--needle", MIDDLE_NEEDLE])
			: { ok: false as const, error: "no index" };
		note("read + trace the middle entry", linRead);
		// After the append the file holds entries + 1: the branch is entry + 2, the compaction under it entry + 3.
		const last = entries + 1;
		const branch = linCold.ok
			? await worker("branch", lin.root, ["--file", lin.file, "--id", String(last + 1), "--parent", String(last - BRANCH_BACK)])
			: { ok: false as const, error: "no index" };
		note(`branch off the entry ${BRANCH_BACK} back + refresh`, branch);
		const compact = linCold.ok
			? await worker("compact", lin.root, [
					"--file",
					lin.file,
					"--id",
					String(last + 2),
					"--parent",
					String(last + 1),
					"--kept",
					String(last - BRANCH_BACK - KEPT_BACK),
				])
			: { ok: false as const, error: "no index" };
		note("compaction + sliced refresh, trace it", compact);
		const second = last + 3 + SECOND_AFTER;
		const compactAgain = linCold.ok
			? await worker("compact", lin.root, [
					"--file",
					lin.file,
					"--id",
					String(second),
					"--parent",
					String(second - 1),
					"--kept",
					String(second - 1 - KEPT_BACK),
					"--lead",
					String(SECOND_AFTER),
				])
			: { ok: false as const, error: "no index" };
		note(`${SECOND_AFTER} entries and a second compaction + sliced refresh`, compactAgain);
		rmSync(join(dir, "linear"), { recursive: true, force: true });
		linear = { entries, bytes: lin.bytes, genMs, cold: linCold, append, read: linRead, branch, compact, compactAgain };
	}
	if (!parts.lines) {
		rmSync(dir, { recursive: true, force: true });
		removeIndex(index);
		return { scale, linear, line: null, unfinished: null };
	}

	const lineBytes = Math.round(FULL.lineBytes * scale);
	log(`[huge] single line of ${f0(lineBytes / MB)} MB`);
	let t0 = performance.now();
	const line = writeSingleLine(join(dir, "line"), lineBytes);
	const lineGen = performance.now() - t0;
	removeIndex(index);
	const lineCold = await cold(line.root);
	note("cold index", lineCold);
	const lineRead = lineCold.ok
		? await worker("read", line.root, ["--entry", line.entryId, "--needle", LINE_NEEDLE, "--window", String(Math.floor(lineBytes / 2))])
		: { ok: false as const, error: "no index" };
	note("search + read the line", lineRead);
	rmSync(join(dir, "line"), { recursive: true, force: true });

	const unfinishedBytes = Math.round(FULL.unfinishedBytes * scale);
	log(`[huge] unfinished last line of ${f0(unfinishedBytes / MB)} MB`);
	t0 = performance.now();
	const unf = writeUnfinished(join(dir, "unfinished"), unfinishedBytes);
	const unfGen = performance.now() - t0;
	removeIndex(index);
	const refresh = await worker("unfinished", unf.root, ["--file", unf.file, "--grow", String(1024 * 1024)]);
	note("refresh over it", refresh);
	rmSync(dir, { recursive: true, force: true });
	removeIndex(index);
	return {
		scale,
		linear,
		line: { bytes: line.bytes, genMs: lineGen, cold: lineCold, read: lineRead },
		unfinished: { bytes: unf.bytes, genMs: unfGen, refresh },
	};
}

/** The size-independent table: one row per measurement, time and the peak RSS of the child that did it. */
export function renderHugeTable(h: HugeResults): string {
	const rows: string[][] = [];
	const judged = new Set<object>();
	const verdict = (okTime: boolean | null, rss: number) => ((okTime ?? true) && rss <= TARGET.rssMB * MB ? "ok" : "MISS");
	const timeTarget = `≤ ${TARGET.ms} ms, ≤ ${TARGET.rssMB} MB`;
	const rssTarget = `≤ ${TARGET.rssMB} MB`;
	/** A row from a child's outcome; `timeMs` null when the row has no time target. */
	const row = <T extends { ms: number; error?: string }>(
		metric: string,
		o: Outcome<T>,
		time: (r: ChildResult<T>) => string,
		timeMs: ((r: ChildResult<T>) => number) | null,
	) => {
		if (!o.ok) {
			rows.push([metric, `FAILED: ${o.error}`, "–", timeMs ? timeTarget : rssTarget, "MISS"]);
			return;
		}
		const status = o.r.error ? "MISS" : verdict(timeMs ? timeMs(o.r) <= TARGET.ms : null, o.r.maxRssBytes);
		// A second row from the same child repeats its peak RSS without judging it again.
		const again = judged.has(o.r);
		judged.add(o.r);
		rows.push([
			metric,
			`${time(o.r)}${o.r.error ? ` (${o.r.error})` : ""}`,
			f0(o.r.maxRssBytes / MB),
			timeMs ? timeTarget : again ? "" : rssTarget,
			timeMs || !again ? status : "",
		]);
	};
	const scaleNote = h.scale === 1 ? "" : ` — SCALED ×${h.scale}, not the DESIGN sizes`;
	const lin = h.linear;
	if (lin) {
		rows.push([`linear session: ${thousands(lin.entries)} entries, ${f0(lin.bytes / MB)} MB${scaleNote}`, "", "", "", ""]);
		row("  cold index (synchronous refresh)", lin.cold, (r) => `${f1(r.ms / 1000)} s`, null);
		row(
			"  append one entry + refresh",
			lin.append,
			(r) => `${ms(r.ms)} ms (no-op before: ${ms(r.noopMs ?? Number.NaN)} ms)`,
			(r) => r.ms,
		);
		row(
			"  read the middle entry",
			lin.read,
			(r) => `${ms(r.ms)} ms`,
			(r) => r.ms,
		);
		row(
			"  trace the middle entry",
			lin.read,
			(r) => `${ms(r.traceMs ?? Number.NaN)} ms`,
			(r) => r.traceMs ?? Number.POSITIVE_INFINITY,
		);
		row("  search its word (not a target)", lin.read, (r) => `${ms(r.searchMs ?? Number.NaN)} ms, ${r.searchHit ? "found" : "NOT found"}`, null);
		if (lin.branch)
			row(
				`  branch off the entry ${BRANCH_BACK} back + refresh`,
				lin.branch,
				(r) => `${ms(r.ms)} ms (CPU ${ms(r.cpuMs ?? Number.NaN)} ms)`,
				(r) => r.ms,
			);
		/** The sliced refresh's longest turn of the event loop: what pi waits at once (issue [hardening]: ≤ 100 ms). */
		const turnRow = (o: Outcome<HugeResult>) => {
			if (!o.ok || o.r.turnMs === undefined) return;
			const r = o.r;
			const turnCpu = r.turnCpuMs ?? Number.NaN;
			rows.push([
				"    longest turn of the event loop in it",
				`${ms(r.turnMs ?? Number.NaN)} ms (CPU ${ms(turnCpu)} ms; ${thousands(r.turns ?? 0)} turns)`,
				"",
				"≤ 100 ms CPU",
				turnCpu <= 100 ? "ok" : "MISS",
			]);
		};
		/**
		 * A compaction changes what nearly every entry of the path says: what it costs before a reader finds it is
		 * judged; its summary runs after that (readers see them made already) are not a target, their turns are.
		 */
		const compactionRows = (metric: string, o: Outcome<HugeResult>) => {
			row(
				`${metric}: until a read finds it`,
				o,
				(r) => `${ms(r.visibleMs ?? Number.NaN)} ms (CPU ${ms(r.visibleCpuMs ?? Number.NaN)} ms)`,
				(r) => r.visibleMs ?? Number.POSITIVE_INFINITY,
			);
			row("    with all its summary runs (not a target)", o, (r) => `${ms(r.ms)} ms (CPU ${ms(r.cpuMs ?? Number.NaN)} ms)`, null);
			turnRow(o);
		};
		if (lin.compact) {
			compactionRows("  compaction + sliced refresh", lin.compact);
			row(
				"  trace the compaction",
				lin.compact,
				(r) => `${ms(r.traceMs ?? Number.NaN)} ms (CPU ${ms(r.traceCpuMs ?? Number.NaN)} ms, ${r.traced ?? 0} edges listed)`,
				(r) => r.traceMs ?? Number.POSITIVE_INFINITY,
			);
		}
		if (lin.compactAgain) compactionRows(`  ${SECOND_AFTER} entries, a second compaction + sliced refresh`, lin.compactAgain);
	}
	const line = h.line;
	if (line) {
		rows.push([`single line: one tool result of ${f0(line.bytes / MB)} MB${scaleNote}`, "", "", "", ""]);
		row("  cold index (synchronous refresh)", line.cold, (r) => `${f1(r.ms / 1000)} s`, null);
		row(
			"  search a word of it",
			line.read,
			(r) => `${ms(r.searchMs ?? Number.NaN)} ms, ${r.searchHit ? "found" : "NOT found"}`,
			(r) => r.searchMs ?? Number.POSITIVE_INFINITY,
		);
		row(
			"  read it (first 4,000 characters)",
			line.read,
			(r) => `${ms(r.ms)} ms, ${thousands(r.readChars ?? 0)} chars returned`,
			(r) => r.ms,
		);
		row(
			"  read a window in its middle",
			line.read,
			(r) => `${ms(r.windowMs ?? Number.NaN)} ms, ${thousands(r.windowChars ?? 0)} chars at ${thousands(r.windowOffset ?? 0)}`,
			(r) => r.windowMs ?? Number.POSITIVE_INFINITY,
		);
	}
	const unfinished = h.unfinished;
	if (unfinished) {
		rows.push([`unfinished last line: ${f0(unfinished.bytes / MB)} MB, never ended${scaleNote}`, "", "", "", ""]);
		row("  refresh over it", unfinished.refresh, (r) => `${ms(r.ms)} ms`, null);
		// DESIGN §7 bounds only the memory here; the time says whether each refresh reads the whole line again.
		row("  grows 1 MB, refresh again", unfinished.refresh, (r) => `${ms(r.grownMs ?? Number.NaN)} ms`, null);
	}
	return renderGrid(["size-independent (DESIGN §7)", "time", "peak RSS MB", "target", ""], rows);
}
