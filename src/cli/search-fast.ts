/**
 * The fast start path of `pi-history search`: its flags read by hand (search-args.ts) instead of by meow (whose
 * start-up, package data normalisation included, cost more than the search); a command line it does not take goes to
 * commands.ts. Also the entry of the CommonJS bundle main.cts runs `search` from (build/bundle.ts, code-cache.ts).
 */
import { resolveConfig } from "../shared/config.js";
import { parseSearchArgs } from "./search-args.js";
import { failed, filtersOf, note, orderOf, runSearch } from "./search-command.js";

/** Runs `search` from its arguments; null when they are for commands.ts to parse (nothing was done then). */
export async function searchFast(argv: readonly string[]): Promise<number | null> {
	const parsed = parseSearchArgs(argv);
	if (!parsed) return null;
	const { flags, words } = parsed;
	try {
		const filters = filtersOf(flags);
		orderOf(flags);
		const { HistoryService } = await import("../service/service.js");
		const config = resolveConfig({ sessionsDirs: flags.sessionsDir, indexPath: flags.index });
		for (const n of config.notes) note(`note: ${n}`);
		const service = HistoryService.open({ config, readonly: flags.refresh === false });
		return await runSearch(flags, words, filters, service);
	} catch (error) {
		return failed(error);
	}
}
