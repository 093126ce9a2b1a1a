/**
 * What the tree view costs on large sessions: the core's answer (HistoryService.tree with a query, the call the
 * explorer's query thread makes off the input loop), the layout of every row (done once per data and fold change,
 * not per key), and drawing the visible window (done per frame). Sessions written by pi's SessionManager
 * (devDependency): user/assistant turns, a rewind every 37 turns, every user message a query hit. Run from the checkout:
 *   npm run build && node dist/bench/tree.js [entries=1040,10000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { treeRows } from "../components/tree/tree-layout.js";
import { treeLines } from "../components/tree/tree-lines.js";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";

const sizes = (process.argv[2] ?? "1040,10000").split(",").map(Number);
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function write(n: number, dir: string): string {
	const sm = SessionManager.create("/work/bench", dir);
	const ids: string[] = [];
	for (let t = 0; ids.length < n; t++) {
		ids.push(sm.appendMessage({ role: "user", content: [{ type: "text", text: `turn ${t}: retry the webhook` }], timestamp: Date.now() }));
		ids.push(
			sm.appendMessage({
				role: "assistant",
				content: [{ type: "text", text: `reply ${t}` }],
				api: "anthropic-messages",
				provider: "anthropic",
				model: "m",
				usage,
				stopReason: "stop",
				timestamp: Date.now(),
			}),
		);
		if (t % 37 === 36) sm.branch(ids[ids.length - 5] as string);
	}
	return sm.getSessionId();
}

function p50(run: () => void, times = 21): { p50: number; max: number } {
	const out: number[] = [];
	for (let i = 0; i < times; i++) {
		const t = performance.now();
		run();
		out.push(performance.now() - t);
	}
	out.sort((a, b) => a - b);
	return { p50: out[Math.floor(times / 2)] as number, max: out.at(-1) as number };
}

const root = mkdtempSync(join(tmpdir(), "pes-bench-tree-"));
try {
	for (const n of sizes) {
		const dir = join(root, `s${n}`);
		const id = write(n, dir);
		const service = HistoryService.open({ config: resolveConfig({ sessionsDirs: [dir], indexPath: join(dir, "index.sqlite"), env: {}, home: tmpdir() }) });
		service.refresh();
		let tree = service.tree({ sessionId: id, query: "retry" });
		const core = p50(() => {
			tree = service.tree({ sessionId: id, query: "retry" });
		});
		let rows = treeRows(tree, { unfolded: new Set(), searching: true, keep: null });
		const layout = p50(() => {
			rows = treeRows(tree, { unfolded: new Set(), searching: true, keep: null });
		});
		const cursor = Math.floor(rows.length / 2);
		const draw = p50(() => treeLines({ rows, cursor, top: cursor - 20, height: 40, width: 120, terms: ["retry"], rootSession: id }));
		const ms = (x: { p50: number; max: number }) => `p50 ${x.p50.toFixed(2)} ms (max ${x.max.toFixed(2)})`;
		process.stdout.write(
			`${tree.entries.length} entries, ${tree.hits} hits, ${rows.length} rows: service.tree ${ms(core)} · layout ${ms(layout)} · 40-line window ${ms(draw)}\n`,
		);
		service.close();
	}
} finally {
	rmSync(root, { recursive: true, force: true });
}
