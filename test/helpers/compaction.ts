/** A linear session written straight as pi v3 JSONL (docs/design.md §10) and what readers are told about it. */
import type { HistoryService } from "../../src/service/service.js";

/** The entry id of step `i`. */
export const stepId = (i: number) => `c${i.toString(16).padStart(7, "0")}`;
const ts = (i: number) => new Date(Date.UTC(2026, 5, 1) + i * 1000).toISOString();

/** The session header line. */
export function header(session: string): string {
	return `${JSON.stringify({ type: "session", version: 3, id: session, timestamp: ts(0), cwd: "/tmp/w" })}\n`;
}

/** Message `i` under entry `parent` (0: a root), with the word `runs`. */
export function message(i: number, parent: number | string): string {
	const text = `runs test entry ${i} ${"dolor sit ".repeat(4)}`;
	const parentId = parent === 0 ? null : typeof parent === "string" ? parent : stepId(parent);
	return `${JSON.stringify({ type: "message", id: typeof parent === "string" ? `${parent}-${i}` : stepId(i), parentId, timestamp: ts(i), message: { role: i % 2 ? "user" : "assistant", content: [{ type: "text", text }], timestamp: 1 } })}\n`;
}

/** pi's /compact as entry `i` under `parent`, keeping the path from `firstKept` on. */
export function compaction(i: number, parent: number, firstKept: number): string {
	return `${JSON.stringify({ type: "compaction", id: stepId(i), parentId: stepId(parent), timestamp: ts(i), summary: `up to ${firstKept}`, firstKeptEntryId: stepId(firstKept), tokensBefore: 1000 })}\n`;
}

/**
 * What readers are told about a session: every entry's selection state (the tree view), the state and summary of
 * sampled entries (reads), how many entries a selection-state filter finds, and what a compaction summarizes (its
 * trace), asked of `service` (closed here).
 */
export function answers(service: HistoryService, session: string, sample: string[], compactionId: string): unknown {
	try {
		const tree = service.tree({ sessionId: session });
		const reads = sample.map((entryId) => {
			const { classification: c } = service.read({ sessionId: session, entryId });
			return [entryId, c.selectionState, c.summarizedBy ?? null, c.contextEdit ?? null];
		});
		const counts = (["summarized", "direct", "omitted", "not-selected"] as const).map((state) =>
			service.count({ query: "runs", filters: { selectionStates: [state] } }),
		);
		const compacts = service
			.trace({ sessionId: session, entryId: compactionId })
			.edges.filter((e) => e.rel === "compacts")
			.map((e) => [e.to, e.note ?? null]);
		return { tree: tree.entries.map((e) => [e.entryId, e.selectionState, e.contextEdit ?? null]), reads, counts, compacts };
	} finally {
		service.close();
	}
}
