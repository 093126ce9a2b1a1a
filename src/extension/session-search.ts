/**
 * The `session_search` entry of our pi package, for prompts written for hermes or session-search-lite: load it with
 * `pi -e <package>/src/extension/session-search.ts`. It is not listed in package.json `pi.extensions` (pi loads
 * every listed entry of an installed package), so installing the package never declares a second session_search.
 */
import { createIndexHandle, type ExtensionDeps, type ExtensionRegistrar, extensionLog, watchSessions } from "./runtime.js";
import { offerSessionSearch } from "./session-search-tool.js";

/** Builds the session_search-only factory; tests pass their own index, budgets and log. */
export function createSessionSearchExtension(deps: ExtensionDeps = {}): (pi: ExtensionRegistrar) => void {
	return (pi) => {
		const log = extensionLog(deps);
		const index = createIndexHandle(deps, log);
		watchSessions(pi, index, log);
		offerSessionSearch(pi, index, log);
	};
}

export default createSessionSearchExtension();
