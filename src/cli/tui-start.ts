/**
 * Starts the explorer fast: takes the terminal (alternate screen, raw mode, so keys typed now wait for the explorer
 * instead of echoing), draws the first frame by hand, and only then loads React, Ink and the explorer, which takes
 * longer than a first frame may (DESIGN §7: ≤ 200 ms after start). Keys typed meanwhile stay in the terminal's input
 * queue and reach the explorer in order once it listens.
 */
import { firstFrameText } from "../../components/ink/first-frame.js";
import { errorText, neutralize } from "../present/text.js";
import type { QueryThread } from "../service/query-thread.js";
import { resolveFolder } from "../shared/filters.js";
import { chooseHistory, type TuiOptions } from "./history-choice.js";
import { ENTER_ALT, LEAVE_ALT } from "./screen.js";

/** Runs the explorer; the exit code as runTui gives it (2 without a terminal). */
export async function startTui(options: TuiOptions): Promise<number> {
	const stdin = process.stdin;
	const out = process.stdout;
	if (!stdin.isTTY || !out.isTTY) {
		// Loaded only here: the start with a terminal does not pay for it.
		const { noTerminalText } = await import("./no-terminal.js");
		process.stderr.write(noTerminalText(options));
		return 2;
	}
	const choice = chooseHistory(options);
	stdin.setRawMode(true);
	out.write(ENTER_ALT);
	out.write(
		firstFrameText({
			size: { columns: out.columns || 80, rows: out.rows || 24 },
			color: options.color,
			banner: choice.banner,
			notice: choice.notice ?? null,
			query: options.query ?? "",
			scope: options.workspace ? "workspace" : "all",
			workspace: options.workspace ? resolveFolder(options.workspace, process.cwd()) : null,
			filters: options.filters ?? {},
		}),
	);
	// React's production build: the development build checks and logs every render, doubling a frame's cost.
	process.env.NODE_ENV ??= "production";
	let queries: QueryThread | undefined;
	try {
		// The query worker starts first: it opens the index and warms up on the other core while React and Ink load,
		// so the first keys typed are answered like later ones.
		const { QueryThread } = await import("../service/query-thread.js");
		queries = QueryThread.start(choice.config);
		const { runTui } = await import("./explorer.js");
		return await runTui(options, { choice, queries });
	} catch (error) {
		void queries?.close();
		// Loading the explorer failed before it owned the screen: give the terminal back and say why.
		out.write(LEAVE_ALT);
		stdin.setRawMode(false);
		process.stderr.write(`pi-history: ${neutralize(errorText(error))}\n`);
		return 1;
	}
}
