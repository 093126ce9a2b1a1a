/**
 * Landing on an event when the explorer continues a session in pi (`c`): pi-history starts `pi --session <file>`
 * with PI_EVENT_SEARCH_LAND=<entryId> and PI_EVENT_SEARCH_LAND_FILE=<file> in the environment. At pi's start this
 * extension moves pi's tree position to that entry, as pi's own /tree does (`navigateTree`: no summary, no label,
 * nothing written to the file; the next message the user sends continues from there).
 *
 * pi 1.6 gives `navigateTree` only to command handlers, not to `session_start`; a session_start handler may send a
 * slash command, which pi dispatches to the extension's command with a command context
 * (`sendUserMessage(text, { expandPromptTemplates: true })`). pi 0.x would send that text to the model instead, so
 * landing is offered only where the context is pi 1.x's (it has `mode`); 0.x opens the session where pi leaves it.
 */
import { realpathSync } from "node:fs";
import { LAND_ENV } from "../shared/landing.js";

/** The command that lands (hidden in intent, visible in pi's command list like any extension command). */
export const LAND_COMMAND = "event-search-land";

/** What landing needs from pi: a command, the session start, and sending a slash command (pi 1.x's option). */
export interface LandingRegistrar {
	registerCommand(name: string, options: { description?: string; handler: (args: string, ctx: LandingCommandContext) => Promise<void> }): void;
	on(event: "session_start", handler: (event: { reason: string }, ctx: LandingContext) => unknown): void;
	sendUserMessage(content: string, options?: { expandPromptTemplates?: boolean }): void;
}

/** The parts of pi's extension context landing reads. */
export interface LandingContext {
	/** pi 1.x only ("tui", "rpc", "json", "print"). */
	mode?: string;
	sessionManager: { getSessionFile(): string | undefined; getEntry(id: string): unknown };
	ui?: { notify?(message: string, type?: "info" | "warning" | "error"): void };
}

/** A command handler's context: pi 1.x's navigateTree. */
export interface LandingCommandContext extends LandingContext {
	navigateTree(targetId: string, options?: { summarize?: boolean }): Promise<{ cancelled: boolean }>;
}

const same = (a: string, b: string): boolean => {
	try {
		return realpathSync(a) === realpathSync(b);
	} catch {
		return a === b;
	}
};

/** Registers the landing command and the start hook; reads (and removes) the variables once, at the first start. */
export function offerLanding(pi: LandingRegistrar, env: NodeJS.ProcessEnv = process.env): void {
	pi.registerCommand(LAND_COMMAND, {
		description: "Move to an entry of this session (used by pi-history's continue-in-pi)",
		async handler(args, ctx) {
			const id = args.trim();
			if (!id || !ctx.sessionManager.getEntry(id)) {
				ctx.ui?.notify?.(`pi-event-search: no entry ${id} in this session`, "warning");
				return;
			}
			const out = await ctx.navigateTree(id, { summarize: false });
			if (!out.cancelled) ctx.ui?.notify?.(`pi-event-search: opened at entry ${id} (from pi-history)`, "info");
		},
	});
	pi.on("session_start", (event, ctx) => {
		const entry = env[LAND_ENV.entry];
		const file = env[LAND_ENV.file];
		if (!entry) return;
		// Once: tools pi runs later, and sessions it switches to, must not land again.
		delete env[LAND_ENV.entry];
		delete env[LAND_ENV.file];
		if (event.reason !== "startup" || typeof ctx.mode !== "string") return;
		const current = ctx.sessionManager.getSessionFile();
		if (!file || !current || !same(file, current) || !ctx.sessionManager.getEntry(entry)) return;
		const land = () => pi.sendUserMessage(`/${LAND_COMMAND} ${entry}`, { expandPromptTemplates: true });
		// pi's TUI draws the session's messages right after session_start (interactive-mode init: rebindCurrentSession,
		// then renderInitialMessages, with only microtasks between); navigateTree redraws them, so landing during
		// session_start would show them twice. A timer runs after that first drawing. RPC and print modes draw nothing.
		if (ctx.mode === "tui") setTimeout(land, 0);
		else land();
	});
}
