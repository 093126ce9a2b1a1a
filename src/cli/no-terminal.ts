/**
 * What the explorer says when it has no terminal: a command that does work instead, quoted for a shell, with the
 * full ids and the history it was asked to open (--sessions-dir, --index), so it can be pasted as it is.
 */
import type { TuiOptions } from "./history-choice.js";
import { shellLine } from "./tasks.js";

/** The line written to stderr when stdin or stdout is not a terminal. */
export function noTerminalText(options: Pick<TuiOptions, "open" | "sessionsDirs" | "indexPath">): string {
	const where = [...(options.sessionsDirs ?? []).flatMap((d) => ["--sessions-dir", d]), ...(options.indexPath ? ["--index", options.indexPath] : [])];
	const instead = options.open
		? shellLine(["pi-history", "read", options.open.sessionId, options.open.entryId, ...where])
		: `pi-history search <query>${where.length > 0 ? ` ${shellLine(where)}` : ""}`;
	return `pi-history: the explorer needs a terminal; use \`${instead}\` (add --json for scripts)\n`;
}
