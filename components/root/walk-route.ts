/**
 * Walking the session tree from the event on top of the back stack: the step the trace rows give (trace-rows.ts), then
 * its target opened on the stack, as a fork choice, or as a session scope.
 */
import { idTail } from "../core/session-label.js";
import { newLoc, type WalkTo } from "../event/stack-state.js";
import { type WalkOutcome, type WalkTarget, walkAppend, walkChild, walkForks, walkParent, walkSibling } from "../event/trace-rows.js";
import { initialTree } from "../tree/tree-state.js";
import { keyFor } from "./help.js";
import { hits, info, overlay, push, type State, saveView, stack, topLoc, uncover } from "./state-core.js";

/** Opens a walk's target: an event on the back stack, or a whole session as the search scope. */
export function goTarget(s: State, target: WalkTarget, note?: string): State {
	if (target.kind === "session") {
		const session = { id: target.sessionId, label: `#${idTail(target.sessionId)}` };
		const next = hits({ ...saveView(s), query: { text: "", cursor: 0 } }, { type: "set-scope", scope: "session", session });
		return info(
			uncover({ ...stack(next, { type: "clear" }), tree: initialTree(), overlay: null, focus: "list" }),
			`showing session ${target.sessionId}; ${keyFor("list", "cycle-scope")} changes the scope`,
		);
	}
	return push(s, newLoc({ ref: target.ref, highlights: topLoc(s)?.highlights ?? [] }), note);
}

function applyWalk(s: State, outcome: WalkOutcome): State {
	if ("go" in outcome) return goTarget(s, outcome.go, outcome.note);
	if ("choose" in outcome) return overlay(s, { type: "open-fork", title: outcome.title, candidates: outcome.choose });
	return info(s, outcome.message, "warn");
}

/** One step through the tree from the event on top (parent, child, sibling, forks, file order, up to a fork). */
export function walk(s: State, to: WalkTo): State {
	const loc = topLoc(s);
	if (!loc) return s;
	if (loc.error) return info(s, `cannot walk: ${loc.error}`, "warn");
	// Keys typed ahead of a load (`hhh` in one burst) are kept and walked when the event arrives, like slow typing.
	if (!loc.data) return stack(s, { type: "queue", to });
	const d = loc.data;
	switch (to) {
		case "parent":
			return applyWalk(s, walkParent(d));
		case "child":
			return applyWalk(s, walkChild(d));
		case "forks":
			return applyWalk(s, walkForks(d));
		case "next-sibling":
			return applyWalk(s, walkSibling(d, 1));
		case "prev-sibling":
			return applyWalk(s, walkSibling(d, -1));
		case "append-next":
			return applyWalk(s, walkAppend(d, 1));
		case "append-prev":
			return applyWalk(s, walkAppend(d, -1));
		case "fork-up":
			return info(stack(s, { type: "seek" }), "looking for the nearest fork above…");
	}
}
