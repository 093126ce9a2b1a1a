#!/usr/bin/env node
/**
 * pi-history's entry. Without arguments the explorer starts at once, with its defaults: its first frame is due
 * 200 ms after start (DESIGN §7) and loading the flag parser (meow) alone costs ~50 ms of that. Anything on the
 * command line goes to the commands, which parse it (commands.ts).
 */
import { errorText, neutralize } from "../present/text.js";

if (process.argv.length <= 2) {
	try {
		const { startTui } = await import("./tui-start.js");
		process.exitCode = await startTui({ demo: false, color: !process.env.NO_COLOR, mouse: true, filters: {} });
	} catch (error) {
		process.stderr.write(`pi-history: ${neutralize(errorText(error).split("\n")[0] ?? "")}\n`);
		process.exitCode = 1;
	}
} else {
	await import("./commands.js");
}
