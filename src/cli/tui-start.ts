/**
 * Starts the explorer fast: takes the terminal (alternate screen, raw mode), draws a placeholder frame by hand, then
 * the recent events read from the index (early-frame.ts), and only then loads React, Ink and the explorer, which
 * take several times longer than Node's own start. Keys typed meanwhile are read here, echoed on that screen, and
 * handed to the explorer as its first actions, in order.
 */
import { firstFrameText } from "../../components/ink/first-frame.js";
import { errorText, neutralize } from "../present/text.js";
import type { QueryThread } from "../service/query-thread.js";
import { resolveFolder } from "../shared/filters.js";
import type { EarlyFrame } from "./early-frame.js";
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
	const size = { columns: out.columns || 80, rows: out.rows || 24 };
	out.write(
		firstFrameText({
			size,
			color: options.color,
			banner: choice.banner,
			notice: choice.notice ?? null,
			query: options.query ?? "",
			scope: options.workspace ? "workspace" : "all",
			workspace: options.workspace ? resolveFolder(options.workspace, process.cwd()) : null,
			filters: options.filters ?? {},
		}),
	);
	// Keys typed from now on are read here, in order, and echoed on the early screen until the explorer takes them.
	let typed = "";
	let draw: (() => void) | null = null;
	// Read as Ink reads ("readable", not a flowing stream), so that after this listener goes the stream holds what
	// comes next for Ink's (a paused flowing stream could stop reading for good).
	const onReadable = () => {
		let got = false;
		for (let chunk = stdin.read() as string | null; chunk !== null; chunk = stdin.read() as string | null) {
			typed += chunk;
			got = true;
		}
		if (got) draw?.();
	};
	stdin.setEncoding("utf8");
	stdin.on("readable", onReadable);
	// Until the explorer installs its own handlers, a signal must still give the terminal back.
	const onSignal = (signal: NodeJS.Signals) => {
		out.write(LEAVE_ALT);
		stdin.setRawMode(false);
		process.exit(signal === "SIGINT" ? 130 : signal === "SIGHUP" ? 129 : 143);
	};
	const earlySignals: NodeJS.Signals[] = ["SIGTERM", "SIGHUP", "SIGINT"];
	for (const sig of earlySignals) process.on(sig, onSignal);
	const dropSignals = () => {
		for (const sig of earlySignals) process.off(sig, onSignal);
	};
	// React's production build: the development build checks and logs every render, doubling a frame's cost. Set
	// through a variable: the bundle already has `process.env.NODE_ENV` replaced (build/bundle.ts); the modules do not.
	const env = process.env;
	env.NODE_ENV ??= "production";
	let queries: QueryThread | undefined;
	try {
		// The query worker starts first: it opens the index and warms up on the other core while React and Ink load,
		// so the first keys typed are answered like later ones.
		const { QueryThread } = await import("../service/query-thread.js");
		queries = QueryThread.start(choice.config);
		// The recent events, read and drawn before React and Ink load (they take several times longer than this).
		let early: EarlyFrame | null = null;
		try {
			early = (await import("./early-frame.js")).earlyFrame(options, choice, size);
		} catch {
			// The explorer reads and reports it again.
		}
		let shown = "";
		draw = () => {
			let text = "";
			try {
				text = early?.text(typed) ?? "";
			} catch {
				// The screen stays as it was; the explorer gets the keys all the same.
			}
			if (text && text !== shown) out.write(text);
			shown = text || shown;
		};
		draw();
		const { runTui } = await withoutFetch(() => import("./explorer.js"));
		stdin.off("readable", onReadable);
		// These handlers go only once the explorer's own are on: with none for a moment, a signal already caught but
		// not yet dispatched was dropped with them (the process went on running).
		const code = await runTui(options, {
			choice,
			queries,
			onSignalsTaken: dropSignals,
			...(early ? { initialActions: early.actions(typed), listed: shown !== "" } : {}),
		});
		dropSignals();
		return code;
	} catch (error) {
		dropSignals();
		void queries?.close();
		// Loading the explorer failed before it owned the screen: give the terminal back and say why.
		out.write(LEAVE_ALT);
		stdin.setRawMode(false);
		process.stderr.write(`pi-history: ${neutralize(errorText(error))}\n`);
		return 1;
	}
}

/**
 * `load()` with the global `fetch` hidden. Ink's layout engine (yoga-layout, WebAssembly) fetches its own bytes from
 * a data: URL when `fetch` exists, and Node's first `fetch` loads undici, a large module. Without `fetch` the engine
 * decodes those bytes itself, and the explorer's first frame comes that much sooner.
 */
async function withoutFetch<T>(load: () => Promise<T>): Promise<T> {
	const fetch = Object.getOwnPropertyDescriptor(globalThis, "fetch");
	if (!fetch?.configurable) return load();
	Object.defineProperty(globalThis, "fetch", { value: undefined, configurable: true, writable: true });
	try {
		return await load();
	} finally {
		Object.defineProperty(globalThis, "fetch", fetch);
	}
}
