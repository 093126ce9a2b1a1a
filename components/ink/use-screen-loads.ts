/**
 * The loads of the screens over the search and the event: the top tree view's window of rows, the session browser's listing,
 * and the check of a ref before the go-to prompt lands on it (a short session id is resolved to the one it names).
 */
import type { Dispatch } from "react";
import { resolveSessionId } from "../../src/present/ref-parse.js";
import { errorText } from "../../src/present/text.js";
import type { ExplorerService } from "../core/explorer-service.js";
import { treeLoad } from "../root/explorer-loads.js";
import type { Action, State } from "../root/state.js";
import { useServiceLoad } from "./use-service-load.js";

/** Runs the tree, browser and go-to loads for `state`. */
export function useScreenLoads(service: ExplorerService, state: State, dispatch: Dispatch<Action>): void {
	// The window of the top tree view it does not hold yet (first read, a change, or rows scrolled into view).
	const tree = treeLoad(service, state);
	useServiceLoad(tree.key, tree.load, tree.fail, dispatch);

	// The session browser's listing (one query on the query thread), and the check of a ref before the prompt lands on it.
	const browser = state.browser;
	const bSeq = browser?.seq ?? 0;
	useServiceLoad(
		browser ? String(bSeq) : null,
		async (): Promise<Action> => {
			if (!service.sessions) return { type: "sessions-failed", seq: bSeq, error: "the session list is not available here" };
			const workspace = browser?.scope === "workspace" ? browser.workspace : null;
			return { type: "sessions-done", seq: bSeq, result: await service.sessions({ workspace }) };
		},
		(error) => ({ type: "sessions-failed", seq: bSeq, error }),
		dispatch,
	);
	const checking = state.goto?.checking ?? null;
	useServiceLoad(
		checking ? String(checking.seq) : null,
		async (): Promise<Action> => {
			const seq = checking?.seq ?? 0;
			if (!checking) return { type: "goto-done", seq, error: null };
			const { sessionId, entryId } = checking.ref;
			try {
				await service.read({ sessionId, entryId, maxChars: 1 });
				return { type: "goto-done", seq, error: null };
			} catch (error) {
				// A short session id (the #tail the explorer shows, or a prefix): find the one session it names.
				const listing = service.sessions ? await service.sessions({}) : null;
				const found = listing ? resolveSessionId(sessionId, listing.sessions) : null;
				if (!found || "error" in found || found.id === sessionId)
					return { type: "goto-done", seq, error: found && "error" in found ? found.error : errorText(error) };
				await service.read({ sessionId: found.id, entryId, maxChars: 1 });
				return { type: "goto-done", seq, error: null, sessionId: found.id };
			}
		},
		(error) => ({ type: "goto-done", seq: checking?.seq ?? 0, error }),
		dispatch,
	);
}
