/**
 * What the tasks on an event read: the event's whole text (every fragment, page by page, up to a bound), and the
 * branch from its session root to the event in branch order, each event whole. Then the task's request for the
 * launcher: the Markdown or the text, built by the present layer.
 */
import { branchMarkdown, eventMarkdown } from "../../src/present/event-markdown.js";
import { neutralize } from "../../src/present/terminal-safe.js";
import type { EventRef, FragmentWindow, ReadResult } from "../../src/shared/types.js";
import type { TaskKind } from "../core/actions.js";
import type { ExplorerService } from "../core/explorer-service.js";

/** A task asked for: what to do, on which event, and where its session lives (file and cwd, when known). */
export interface Task {
	seq: number;
	kind: TaskKind;
	ref: EventRef;
	file: string | null;
	cwd: string | null;
}

/** Characters read per request (the core's maximum). */
const WINDOW_CHARS = 1_000_000;
/** Characters of one event a task takes at most; beyond, the text is cut and says so. */
export const TASK_EVENT_CHARS = 8_000_000;
/** Characters of one event a branch export takes at most (the rest is cut, and the Markdown says which characters it has). */
export const EXPORT_EVENT_CHARS = 1_000_000;
/** Events a branch export takes at most (the root side is dropped beyond, with a note). */
export const BRANCH_MAX = 2000;
/** Ancestors one read lists (the core's neighbor maximum). */
const STEP = 50;

/** An event read whole: every fragment's text complete (or cut after `maxChars` in all, its range saying so). */
export async function loadWholeEvent(service: ExplorerService, ref: EventRef, maxChars = TASK_EVENT_CHARS): Promise<ReadResult> {
	const read = await service.read({ sessionId: ref.sessionId, entryId: ref.entryId, maxChars: Math.min(WINDOW_CHARS, maxChars), before: 0, after: 0 });
	let budget = maxChars;
	const fragments: FragmentWindow[] = [];
	for (const f of read.fragments) {
		let text = f.text;
		let end = f.range[1];
		while (end < f.totalChars && text.length < budget) {
			const next = (
				await service.read({ sessionId: ref.sessionId, entryId: ref.entryId, fragmentId: f.id, offset: end, maxChars: WINDOW_CHARS, before: 0, after: 0 })
			).fragments[0];
			if (!next || next.range[1] <= end) break;
			text += next.text;
			end = next.range[1];
		}
		if (text.length > budget) {
			// Past the budget: keep what fits, never half of a surrogate pair.
			const cut = budget > 0 && /[\ud800-\udbff]/.test(text[budget - 1] ?? "") ? budget - 1 : budget;
			text = text.slice(0, cut);
			end = f.range[0] + cut;
		}
		budget = Math.max(0, budget - text.length);
		fragments.push({ ...f, text, range: [f.range[0], end], truncated: end < f.totalChars });
	}
	return { ...read, fragments };
}

/** The refs from the session root to `ref`, root first (branch order, within the event's session file). */
export async function branchRefs(service: ExplorerService, ref: EventRef): Promise<{ refs: EventRef[]; cut: boolean }> {
	const up: EventRef[] = [];
	let at = ref;
	const seen = new Set([`${ref.sessionId} ${ref.entryId}`]);
	for (;;) {
		const read = await service.read({ sessionId: at.sessionId, entryId: at.entryId, maxChars: 1, before: STEP, after: 0 });
		const before = read.neighbors.before.filter((b) => b.sessionId === ref.sessionId && !seen.has(`${b.sessionId} ${b.entryId}`));
		for (const b of [...before].reverse()) {
			seen.add(`${b.sessionId} ${b.entryId}`);
			up.push({ sessionId: b.sessionId, entryId: b.entryId });
		}
		if (up.length >= BRANCH_MAX) return { refs: [...up.slice(0, BRANCH_MAX - 1).reverse(), ref], cut: true };
		const first = before[0];
		if (read.neighbors.before.length < STEP || !first) break;
		at = { sessionId: first.sessionId, entryId: first.entryId };
	}
	return { refs: [...up.reverse(), ref], cut: false };
}

/** What the launcher is asked to do for a task, with everything it needs already read. */
export type TaskRequest =
	| { kind: "resume"; ref: EventRef; file: string; cwd: string | null }
	| { kind: "copy-md"; ref: EventRef; markdown: string }
	| { kind: "pager"; ref: EventRef; text: string }
	| { kind: "editor"; ref: EventRef; text: string }
	| { kind: "export"; ref: EventRef; markdown: string; events: number };

/** The exact text of an event: its fragments in order, blank-line separated. */
export function exactText(read: ReadResult): string {
	return read.fragments.map((f) => f.text).join("\n\n");
}

/** Reads what a task needs and builds its request (the pager gets the text with controls made visible: it prints it). */
export async function taskRequest(service: ExplorerService, task: Task): Promise<TaskRequest> {
	const ref = task.ref;
	switch (task.kind) {
		case "resume":
			if (!task.file) throw new Error("this event's session file is not known");
			return { kind: "resume", ref, file: task.file, cwd: task.cwd };
		case "copy-md":
			return { kind: "copy-md", ref, markdown: eventMarkdown(await loadWholeEvent(service, ref)) };
		case "pager":
			return { kind: "pager", ref, text: neutralize(exactText(await loadWholeEvent(service, ref))) };
		case "editor":
			return { kind: "editor", ref, text: exactText(await loadWholeEvent(service, ref)) };
		case "export": {
			const { refs, cut } = await branchRefs(service, ref);
			const events: ReadResult[] = [];
			for (const r of refs) events.push(await loadWholeEvent(service, r, EXPORT_EVENT_CHARS));
			const notes = cut ? [`the branch has more than ${BRANCH_MAX} events: only the last ${BRANCH_MAX} are here`] : [];
			return { kind: "export", ref, markdown: branchMarkdown(events, notes), events: events.length };
		}
	}
}
