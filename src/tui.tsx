/** Starts the interactive explorer; without a terminal it points to `pi-history search` instead. */
import { resolveConfig } from "./config.js";
import { formatStatus } from "./present.js";
import { HistoryService } from "./service.js";

/** Options of the interactive explorer. */
export interface TuiOptions {
	demo: boolean;
	sessionsDirs?: string[];
	indexPath?: string;
	workspace?: string;
	color: boolean;
}

/** Runs the TUI; returns the exit code. */
export async function runTui(options: TuiOptions): Promise<number> {
	if (!process.stdin.isTTY || !process.stdout.isTTY) {
		process.stderr.write("pi-history: the explorer needs a terminal; use `pi-history search <query>` (add --json for scripts)\n");
		return 2;
	}
	const service = HistoryService.open({ config: resolveConfig({ sessionsDirs: options.sessionsDirs, indexPath: options.indexPath }) });
	try {
		service.refresh();
		process.stdout.write(`${formatStatus(service.status())}\n`);
		return 0;
	} finally {
		service.close();
	}
}
