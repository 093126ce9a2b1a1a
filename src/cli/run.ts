/**
 * pi-history's commands, run by main.cts (from the bundle when the build made one). Without arguments the explorer starts at once, with its defaults, and `search` takes a path
 * of its own (search-fast.ts): loading the flag parser (meow) costs more than a search. Anything else on the command
 * line goes to the commands, which parse it (commands.ts).
 */
const argv = process.argv.slice(2);
if (argv.length === 0) {
	try {
		const [{ startTui }, { colorWanted }] = await Promise.all([import("./tui-start.js"), import("./color.js")]);
		process.exitCode = await startTui({ demo: false, color: colorWanted(undefined), mouse: true, filters: {} });
	} catch (error) {
		const { errorText, neutralize } = await import("../present/text.js");
		process.stderr.write(`pi-history: ${neutralize(errorText(error).split("\n")[0] ?? "")}\n`);
		process.exitCode = 1;
	}
} else {
	const code = argv[0] === "search" ? await (await import("./search-fast.js")).searchFast(argv.slice(1)) : null;
	if (code === null) await import("./commands.js");
	else process.exitCode = code;
}
