/**
 * Tasks on an event that run outside the explorer (continue in pi, copy as Markdown, pager, editor, branch export):
 * the reducer only records which task, on which event and session file; App loads what the task needs and hands it
 * to the launcher, whose answer comes back as `task-done` for the status bar.
 */
import type { Message, TaskKind } from "../core/actions.js";
import { info, type State, selectedHit, topLoc } from "./state-core.js";

const STARTING: Record<TaskKind, string> = {
	resume: "starting pi…",
	"copy-md": "reading the event to copy it as Markdown…",
	pager: "reading the event for the pager…",
	editor: "reading the event for the editor…",
	export: "reading the branch from the root to this event…",
};

/** Records a task on the event in view (event view, trace panel) or on the selected hit (search screen). */
export function requestTask(s: State, kind: TaskKind): State {
	const mode = s.mode;
	const seq = (s.task?.seq ?? 0) + 1;
	if (mode === "query" || mode === "list") {
		const hit = selectedHit(s);
		if (!hit) return info(s, "no hit selected: type a query first", "warn");
		const task = { seq, kind, ref: { sessionId: hit.sessionId, entryId: hit.entryId }, file: hit.session.file, cwd: hit.session.cwd };
		return info({ ...s, task }, STARTING[kind]);
	}
	const loc = topLoc(s);
	if (!loc) return s;
	if (loc.error) return info(s, `cannot do that: ${loc.error}`, "warn");
	if (!loc.data) return info(s, "still loading the event…", "warn");
	const session = loc.data.read.session;
	return info({ ...s, task: { seq, kind, ref: loc.ref, file: session.file, cwd: session.cwd } }, STARTING[kind]);
}

/** The launcher's answer to a task: shown in the status bar (an answer to an older task too: it did happen). */
export function taskDone(s: State, text: string, tone: Message["tone"]): State {
	return info(s, text, tone);
}
