/**
 * What the session browser's listing costs (one query: sizes, fork points counted from the events, lineage), on a
 * history of N sessions written by pi 1.6's SessionManager (devDependency, deep import): 30 turns each, every 10th
 * with a branch, every 25th forked into a child with createBranchedSession. Prints the median and worst time of the
 * listing through the service and through the explorer's query thread (a worker, as the TUI asks). Run:
 *   npm run build && node dist/bench/session-list.js [sessions=2500] [runs=20]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { QueryThread } from "../src/service/query-thread.js";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";

type Manager = {
	appendMessage(m: Record<string, unknown>): string;
	branch(id: string): void;
	getLeafId(): string | null;
	createBranchedSession(leafId: string): string | undefined;
};
type SessionManagerModule = { SessionManager: { create(cwd: string, dir: string): Manager } };

const sessions = Number(process.argv[2] ?? 2500);
const runs = Number(process.argv[3] ?? 20);
const smPath = resolve("node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
const { SessionManager } = (await import(pathToFileURL(smPath).href)) as SessionManagerModule;

const root = mkdtempSync(join(tmpdir(), "pes-bench-sessions-"));
const dir = join(root, "sessions");
const turn = (m: Manager, s: number, t: number) => {
	const id = m.appendMessage({ role: "user", content: `question ${s}.${t} about the retry queue`, timestamp: s });
	m.appendMessage({ role: "assistant", content: [{ type: "text", text: `answer ${s}.${t}` }], stopReason: "stop", timestamp: s });
	return id;
};
const t0 = performance.now();
for (let s = 0; s < sessions; s++) {
	const m = SessionManager.create(`/home/dev/project-${s % 40}`, dir);
	const ids: string[] = [];
	for (let t = 0; t < 30; t++) ids.push(turn(m, s, t));
	if (s % 10 === 0) {
		m.branch(ids[10] as string);
		for (let t = 30; t < 34; t++) turn(m, s, t);
	}
	if (s % 25 === 0) m.createBranchedSession(m.getLeafId() as string);
}
const written = performance.now() - t0;

const config = resolveConfig({ sessionsDirs: [dir], indexPath: join(root, "index.sqlite"), env: {} });
const service = HistoryService.open({ config });
const t1 = performance.now();
service.refresh();
const indexed = performance.now() - t1;

const stats = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return { median: s[Math.floor(s.length / 2)] as number, max: s.at(-1) as number };
};
const direct: number[] = [];
let listed = 0;
for (let i = 0; i < runs; i++) {
	const t = performance.now();
	listed = service.sessions().sessions.length;
	direct.push(performance.now() - t);
}
// The query worker is unref'd (the TUI's input loop keeps the process alive): so does this timer here.
const alive = setInterval(() => {}, 1000);
const thread = QueryThread.start(config);
const viaThread: number[] = [];
for (let i = 0; i < runs; i++) {
	const t = performance.now();
	await thread.sessions({});
	viaThread.push(performance.now() - t);
}
await thread.close();
clearInterval(alive);
const status = service.status();
service.close();
if (!process.env.PES_BENCH_KEEP) rmSync(root, { recursive: true, force: true });
else process.stdout.write(`kept ${root}\n`);

const d = stats(direct);
const q = stats(viaThread);
const lines = [
	`sessions listed ${listed} (${status.events} events; written in ${(written / 1000).toFixed(1)} s, indexed in ${(indexed / 1000).toFixed(1)} s)`,
	`listing through the service:      median ${d.median.toFixed(1)} ms, max ${d.max.toFixed(1)} ms (${runs} runs)`,
	`listing through the query thread: median ${q.median.toFixed(1)} ms, max ${q.max.toFixed(1)} ms (${runs} runs, first includes opening the worker's connection)`,
];
process.stdout.write(`${lines.join("\n")}\n`);
