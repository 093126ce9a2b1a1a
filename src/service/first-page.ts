/**
 * One search on a read-only connection that is closed right after: the explorer's launcher lists the recent events
 * with it before React and Ink are loaded. It loads the query code and SQLite only, not the refresh machinery the
 * whole service brings.
 */
import { openStore } from "../index/store.js";
import { authorizationRoot } from "../query/authorize.js";
import { search } from "../query/search.js";
import type { ResolvedConfig } from "../shared/config.js";
import type { SearchRequest, SearchResult } from "../shared/types.js";

/** The answer to `request` from the index as it is, or null when there is no readable index yet (or it failed). */
export function searchOnce(config: ResolvedConfig, request: SearchRequest): SearchResult | null {
	let store: ReturnType<typeof openStore> | undefined;
	try {
		store = openStore(config.indexPath, { readonly: true, busyTimeoutMs: 250, ownedLocation: config.indexIsDefault });
		const result = search(store, request);
		result.notes.unshift(...store.notes);
		return result;
	} catch {
		return null;
	} finally {
		store?.close();
	}
}

/** The folder the explorer's "this workspace" scope names for a caller in `cwd` (as HistoryService's workspaceRoot). */
export function launchWorkspace(cwd: string, configuredRoot?: string): string {
	return authorizationRoot(cwd, configuredRoot);
}
