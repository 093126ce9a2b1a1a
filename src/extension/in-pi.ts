/**
 * The explorer inside pi (issue 27): `/history [query]` and a shortcut open pi-history's explorer over pi's own
 * screen as a pi-tui overlay (components/pi: the same reducer, loads and views, drawn by pi's TUI in pi's theme);
 * Enter moves pi to the event as `/tree` does (`navigateTree`; another session: `switchSession`, then the same move);
 * Alt+Q and Alt+R paste a quote or the ref into pi's editor; `/history-prompts` recalls this workspace's past
 * prompts into the editor. Searches run on a query thread with its own read-only connection, never on pi's writer.
 * Nothing here writes a session file: pi writes what it writes on any /tree move (I22).
 */
import { realpathSync } from "node:fs";
import type { ExtensionAPI, ExtensionCommandContext, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { ExplorerService } from "../../components/core/explorer-service.js";
import type { PiTuiKit } from "../../components/pi/explorer-overlay.js";
import { neutralizeLine } from "../present/terminal-safe.js";
import { QueryThread } from "../service/query-thread.js";
import { workspaceRoot } from "../service/service.js";
import { resolveConfig } from "../shared/config.js";
import type { EventRef } from "../shared/types.js";
import type { IndexHandle } from "./index-handle.js";

/** The command the shortcut sends to land (pi 1.x dispatches a sent slash command to its extension command). */
export const GOTO_COMMAND = "history-goto";
/** Characters of an event a pasted quote carries at most. */
export const QUOTE_CHARS = 1200;

/** The overlay's screens and pi-tui's width functions, loaded on first use: pi starts without compiling them. */
async function screens() {
	const [{ ExplorerOverlay }, { PromptRecall }, tui] = await Promise.all([
		import("../../components/pi/explorer-overlay.js"),
		import("../../components/pi/prompt-recall.js"),
		import("@mariozechner/pi-tui"),
	]);
	const kit: PiTuiKit = { visibleWidth: tui.visibleWidth, truncateToWidth: tui.truncateToWidth, parseKey: tui.parseKey as PiTuiKit["parseKey"] };
	return { ExplorerOverlay, PromptRecall, kit };
}

type Ctx = ExtensionContext & { mode?: string };
type CommandCtx = ExtensionCommandContext & { mode?: string };

/** The query thread as the explorer's service (the in-pi screens never ask for the index's whole status). */
export function explorerService(t: QueryThread): ExplorerService {
	return {
		search: (r) => t.search(r),
		count: (r) => t.count(r),
		read: (r) => t.read(r),
		trace: (r) => t.trace(r),
		tree: (r) => t.tree(r),
		sessions: (r) => t.sessions(r),
		forkAbove: (r) => t.forkAbove(r),
		status: () => {
			throw new Error("the index status is not read inside pi");
		},
	};
}

const same = (a: string, b: string | undefined): boolean => {
	if (!b) return false;
	try {
		return realpathSync(a) === realpathSync(b);
	} catch {
		return a === b;
	}
};

/** What is missing for the overlay in this pi, or null when everything is there. */
function missingUi(ctx: Ctx): string | null {
	if (ctx.mode && ctx.mode !== "tui")
		return `pi-event-search: the history explorer needs pi's interactive TUI (this pi runs in ${ctx.mode} mode); use the event_search tool or pi-history instead`;
	if (!ctx.hasUI)
		return "pi-event-search: the history explorer needs pi's interactive TUI (no UI in print mode); use the event_search tool or pi-history instead";
	if (typeof ctx.ui?.custom !== "function") return "pi-event-search: this pi has no ctx.ui.custom, so the explorer cannot open here";
	return null;
}

/** Says something where the user sees it: pi's notification, else (print mode) stderr. */
function tell(ctx: Ctx, text: string, type: "info" | "warning" | "error" = "info"): void {
	if (ctx.hasUI) ctx.ui.notify(text, type);
	else process.stderr.write(`${text}\n`);
}

/** A bounded quote of an event's exact text, with its ref, for pi's editor (controls made visible, I21). */
export function quoteOf(text: string, ref: EventRef, limit = QUOTE_CHARS): string {
	const cut = text.length > limit;
	const body = (cut ? `${text.slice(0, limit)}…` : text)
		.split("\n")
		.map((l) => `> ${neutralizeLine(l)}`)
		.join("\n");
	return `${body}\n(pi-event-search ref: ${ref.sessionId} ${ref.entryId}${cut ? `; ${text.length} chars, cut — event_read has the rest` : ""})\n`;
}

/** Registers `/history`, `/history-prompts`, the landing command and the shortcuts. */
export function offerInPi(pi: ExtensionAPI, index: IndexHandle): void {
	let thread: QueryThread | null = null;
	let service: ExplorerService | null = null;
	const config = () => resolveConfig({ cwd: process.cwd() });
	const queries = (): { service: ExplorerService; threaded: boolean } => {
		thread ??= QueryThread.start(config());
		service ??= explorerService(thread);
		return { service, threaded: thread.threaded };
	};
	pi.on("session_shutdown", () => {
		const t = thread;
		thread = null;
		service = null;
		void t?.close();
	});

	/** Moves pi to the event: in this session `navigateTree`, in another `switchSession` then the same move. */
	const land = async (ctx: CommandCtx, ref: EventRef, file: string): Promise<void> => {
		if (typeof ctx.navigateTree !== "function" || typeof ctx.switchSession !== "function") {
			tell(ctx, "pi-event-search: this pi offers no navigateTree/switchSession to commands, so it cannot go to the event", "warning");
			return;
		}
		if (!ctx.isIdle()) {
			tell(ctx, "pi-event-search: pi is busy (a turn or compaction runs); going to the event once it is idle — press Esc to stop the turn", "warning");
			await ctx.waitForIdle();
		}
		if (same(file, ctx.sessionManager.getSessionFile())) {
			const out = await ctx.navigateTree(ref.entryId, { summarize: false });
			tell(
				ctx,
				out.cancelled ? "pi-event-search: pi did not move (cancelled)" : `pi-event-search: at entry ${neutralizeLine(ref.entryId)}`,
				out.cancelled ? "warning" : "info",
			);
			return;
		}
		const out = await ctx.switchSession(file, {
			withSession: async (c) => {
				const moved = await c.navigateTree(ref.entryId, { summarize: false });
				c.ui.notify(
					moved.cancelled
						? "pi-event-search: switched session; pi did not move (cancelled)"
						: `pi-event-search: at entry ${neutralizeLine(ref.entryId)} of that session`,
					"info",
				);
			},
		});
		if (out.cancelled) tell(ctx, "pi-event-search: pi did not switch session (cancelled)", "warning");
	};

	const openExplorer = async (query: string, ctx: Ctx, landHere: ((ref: EventRef, file: string) => Promise<void>) | null): Promise<void> => {
		const missing = missingUi(ctx);
		if (missing) return tell(ctx, missing, "warning");
		// The caller's own session first: a refresh within the tools' budget (sliced, pi stays responsive).
		try {
			await index.forCall(ctx);
		} catch (error) {
			tell(ctx, `pi-event-search: indexing failed (${error instanceof Error ? error.message : String(error)}); searching what is indexed`, "warning");
		}
		const { service, threaded } = queries();
		const workspace = workspaceRoot(ctx.cwd, config().workspaceRoot);
		const { ExplorerOverlay, kit: KIT } = await screens();
		const target = await ctx.ui.custom<EventRef | null>(
			(tui, theme, _keybindings, done) =>
				new ExplorerOverlay({
					service,
					kit: KIT,
					paint: theme,
					workspace,
					...(query.trim() ? { query: query.trim() } : {}),
					threaded,
					height: () => Math.max(10, Math.floor(tui.terminal.rows * 0.9)),
					host: {
						land: (ref) => done(ref),
						close: () => done(null),
						requestRender: () => tui.requestRender(),
						paste: async (ref, what) => {
							if (what === "ref") {
								ctx.ui.pasteToEditor(`${ref.sessionId} ${ref.entryId}`);
								return "pasted the ref into pi's editor (Esc closes)";
							}
							const read = await service.read({ ...ref, maxChars: QUOTE_CHARS + 1 });
							ctx.ui.pasteToEditor(quoteOf(read.fragments.map((f) => f.text).join("\n"), ref));
							return "pasted a quote of the event into pi's editor (Esc closes)";
						},
					},
				}),
			{ overlay: true, overlayOptions: { width: "100%", maxHeight: "90%", anchor: "top-center" } },
		);
		if (!target) return;
		let file: string;
		try {
			file = (await service.read({ ...target, maxChars: 1 })).session.file;
		} catch (error) {
			return tell(ctx, `pi-event-search: cannot find that event's session file (${error instanceof Error ? error.message : String(error)})`, "error");
		}
		if (landHere) return landHere(target, file);
		// A shortcut's context cannot move pi; pi 1.x hands a sent slash command to the command, which can.
		const goto = `/${GOTO_COMMAND} ${target.entryId} ${file}`;
		if (!ctx.mode) {
			// pi 0.73 sends an extension's message past its commands: the command goes into the editor for Enter.
			ctx.ui.setEditorText(goto);
			return tell(ctx, "pi-event-search: this pi cannot move from a shortcut (no command context); press Enter to go to the event", "info");
		}
		pi.sendUserMessage(goto, { expandPromptTemplates: true } as never);
	};

	const openPrompts = async (ctx: Ctx): Promise<void> => {
		const missing = missingUi(ctx);
		if (missing) return tell(ctx, missing, "warning");
		try {
			await index.forCall(ctx);
		} catch {
			// searching what is indexed
		}
		const { service } = queries();
		const workspace = workspaceRoot(ctx.cwd, config().workspaceRoot);
		const { PromptRecall, kit: KIT } = await screens();
		const text = await ctx.ui.custom<string | null>(
			(tui, theme, _keybindings, done) =>
				new PromptRecall({
					service,
					kit: KIT,
					paint: theme,
					workspace,
					height: () => Math.max(8, Math.floor(tui.terminal.rows * 0.6)),
					choose: (t) => done(t),
					close: () => done(null),
					requestRender: () => tui.requestRender(),
				}),
			{ overlay: true, overlayOptions: { width: "100%", maxHeight: "60%", anchor: "bottom-center" } },
		);
		if (text !== null) ctx.ui.setEditorText(text);
	};

	pi.registerCommand("history", {
		description: "Search pi's history (this workspace first) over the screen; Enter goes to the event, Alt+Q/Alt+R paste it",
		handler: (args, ctx) => openExplorer(args, ctx, (ref, file) => land(ctx, ref, file)),
	});
	pi.registerCommand("history-prompts", {
		description: "Recall a past prompt of this workspace into the editor",
		handler: (_args, ctx) => openPrompts(ctx),
	});
	pi.registerCommand(GOTO_COMMAND, {
		description: "Go to an entry of a session file (used by the /history shortcut)",
		handler: async (args, ctx) => {
			const m = /^(\S+)\s+(.+)$/.exec(args.trim());
			if (!m) return tell(ctx, `pi-event-search: /${GOTO_COMMAND} <entryId> <session file>`, "warning");
			const entryId = m[1] as string;
			await land(ctx, { sessionId: "", entryId }, m[2] as string);
		},
	});
	const keys = config().piShortcuts;
	if (keys.history)
		pi.registerShortcut(keys.history as never, { description: "Search pi's history (pi-event-search)", handler: (ctx) => openExplorer("", ctx, null) });
	if (keys.prompts) pi.registerShortcut(keys.prompts as never, { description: "Recall a past prompt (pi-event-search)", handler: (ctx) => openPrompts(ctx) });
}
