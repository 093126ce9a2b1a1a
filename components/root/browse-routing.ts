/**
 * Routing for the session browser and the go-to-ref prompt: what their keys and loads do to the whole state.
 * The slices (browser-state, goto-state) own their data; this module owns how they meet the back stack: Enter in
 * the browser and a found ref push an event, and an event opened from the browser shows the browser again on Esc.
 */
import type { SessionListing } from "../../src/shared/types.js";
import { type BrowserAction, openBrowser, reduceBrowser, selectedSession } from "../browser/browser-state.js";
import { browserRows } from "../browser/browser-view.js";
import { overlayLines } from "../core/layout.js";
import { newLoc } from "../event/stack-state.js";
import { openGoto, reduceGoto } from "../prompts/goto-state.js";
import type { Action } from "./actions.js";
import { keyFor } from "./help.js";
import { info, push, type State, uncover } from "./state-core.js";
import { openTree } from "./tree-route.js";

const SORT_WORDS = { activity: "last activity", name: "name", size: "number of events" } as const;

function browse(s: State, a: BrowserAction): State {
	if (!s.browser) return s;
	return { ...s, browser: reduceBrowser(s.browser, a, browserRows(overlayLines(s.size))) };
}

/**
 * Where Enter in the session browser goes: the session's tree, centred on its materialized leaf (I13). The tree opens
 * over the leaf's event, so Esc steps back tree → leaf event → the browser as it was left.
 */
export function openSession(s: State, session: SessionListing): State {
	if (!session.leafId) return info(s, "this session has no entries yet", "warn");
	const loc = newLoc({ ref: { sessionId: session.id, entryId: session.leafId }, ...(s.browser ? { returnTo: s.browser } : {}) });
	return openTree(push({ ...s, browser: null }, loc, `session ${session.id} at its materialized leaf`), "event");
}

/**
 * New data in the index: the open browser lists again (keeping its selection), and an event that was not indexed
 * yet (`pi-history open` while the first refresh runs) is read again.
 */
export function retryBrowse(s: State): State {
	let next = s;
	if (s.browser) {
		const seq = s.browseSeq + 1;
		next = { ...next, browseSeq: seq, browser: { ...s.browser, seq } };
	}
	const top = next.events.stack.at(-1);
	if (top?.error) next = { ...next, events: { ...next.events, stack: [...next.events.stack.slice(0, -1), { ...top, error: null }] } };
	return next;
}

/** The browser's and the prompt's actions (and the navigation keys while one is open); null when the action is not theirs. */
export function reduceBrowse(s: State, a: Action): State | null {
	const mode = s.mode;
	if (mode === "sessions") {
		const page = browserRows(overlayLines(s.size));
		switch (a.type) {
			case "insert":
				return browse(s, { type: "insert", text: a.text });
			case "delete-back":
				return browse(s, { type: "delete-back" });
			case "kill-to-start":
				return browse(s, { type: "clear-filter" });
			case "move":
				return browse(s, { type: "move", by: a.by });
			case "page":
				return browse(s, { type: "move", by: (a.dir === 0 ? 1 : a.dir) * page });
			case "jump":
				return browse(s, { type: "jump", to: a.to });
			case "wheel":
				return browse(s, { type: "move", by: a.dir === -1 ? -1 : 1 });
			case "open": {
				const session = s.browser ? selectedSession(s.browser) : null;
				return session ? openSession(s, session) : info(s, "no session to open", "warn");
			}
			case "back":
				return uncover({ ...s, browser: null });
		}
	}
	if (mode === "goto" && s.goto) {
		if (a.type === "back") return uncover({ ...s, goto: null });
		if (a.type === "goto-submit" || a.type === "goto-edit" || a.type === "goto-clear" || a.type === "goto-key") return { ...s, goto: reduceGoto(s.goto, a) };
	}
	switch (a.type) {
		case "open-browser": {
			const seq = s.browseSeq + 1;
			const scope = s.hits.scope === "workspace" ? "workspace" : "all";
			return { ...s, overlay: null, goto: null, browseSeq: seq, browser: openBrowser(s.hits.workspace, scope, seq), mode: "sessions" };
		}
		case "browser-sort": {
			const next = browse(s, { type: "cycle-sort" });
			return next.browser ? info(next, `sessions sorted by ${SORT_WORDS[next.browser.sort]}`) : next;
		}
		case "browser-scope": {
			if (!s.browser?.workspace) return info(s, "no workspace folder: the browser lists all sessions", "warn");
			const seq = s.browseSeq + 1;
			const next = browse({ ...s, browseSeq: seq }, { type: "cycle-scope" });
			if (!next.browser) return next;
			const b = { ...next.browser, seq };
			return info({ ...next, browser: b }, b.scope === "all" ? "scope: all sessions" : `scope: sessions under ${b.workspace}`);
		}
		case "sessions-done":
		case "sessions-failed":
			return browse(s, a);
		case "open-goto":
			return { ...s, overlay: null, goto: openGoto(), mode: "goto" };
		case "goto-done": {
			if (!s.goto || s.goto.checking?.seq !== a.seq) return s;
			if (a.error !== null) return { ...s, goto: reduceGoto(s.goto, a) };
			const ref = { ...s.goto.checking.ref, ...(a.sessionId ? { sessionId: a.sessionId } : {}) };
			const loc = newLoc({
				ref: { sessionId: ref.sessionId, entryId: ref.entryId },
				...(ref.fragmentId ? { focusFragment: ref.fragmentId } : {}),
				...(s.browser ? { returnTo: s.browser } : {}),
			});
			return push({ ...s, goto: null, browser: null }, loc, `went to ${ref.sessionId} ${ref.entryId}; ${keyFor("event", "back")} goes back`);
		}
	}
	return null;
}
