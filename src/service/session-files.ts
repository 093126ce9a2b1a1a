/**
 * Whether the session roots hold any session file, without the index: the launcher asks it before the explorer's
 * first frame, so it must not load SQLite or the query stack (DESIGN §7: first frame ≤ 200 ms).
 */
import type { ResolvedConfig } from "../shared/config.js";
import { hasSessionFile } from "../source/discover.js";

/** True when the roots hold at least one session file (the launcher falls back to the demo history otherwise). */
export function hasSessionFiles(config: ResolvedConfig): boolean {
	return hasSessionFile(config.roots);
}
