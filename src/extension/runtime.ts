/**
 * What both extension entries (index.ts and session-search.ts) share: the index of this pi process with its
 * budgeted refreshes (before each call, in the background, at shutdown), the caller's authorization and cutoff
 * (I16, I17), the session events that keep the index fresh, and the small rendering helpers of every tool.
 */
import type { AgentToolResult, ExtensionAPI, ExtensionContext, Theme, ToolRenderResultOptions } from "@mariozechner/pi-coding-agent";
import { type Component, Text } from "@mariozechner/pi-tui";
import { HistoryService, isBusyError, workspaceRoot } from "../service/service.js";
import { resolveConfig } from "../shared/config.js";
import type { Caller, RefreshSummary } from "../shared/types.js";

/** Time budgets of index refreshes, in milliseconds. */
export const REFRESH_BUDGETS = { call: 1500, background: 200, shutdown: 300 } as const;

/** What the extensions need from pi: registering tools, listening to session events, and seeing other tools. */
export type ExtensionRegistrar = Pick<ExtensionAPI, "registerTool" | "on"> & Partial<Pick<ExtensionAPI, "getAllTools">>;

/** Replaceable collaborators, for tests; the default exports use the real ones. */
export interface ExtensionDeps {
	/** Opens the core for a caller in `cwd`; default: the shared index named by resolveConfig(). */
	openService?: (cwd: string) => HistoryService;
	/** Refresh budget of a tool call (ms). */
	callBudgetMs?: number;
	/** Refresh budget of one background chunk (ms); chunks repeat until nothing is pending. */
	backgroundBudgetMs?: number;
	/** Delay before a background refresh starts (ms), so pi finishes what it is doing first. */
	backgroundDelayMs?: number;
	/** Where background failures are reported besides the next tool result. */
	log?: (message: string) => void;
	/** Whether the main entry also offers `session_search`; default: `sessionSearchTool` in our config file. */
	sessionSearchTool?: boolean;
}

/** The parts of pi's ExtensionContext the tools read. */
export type CallerContext = Pick<ExtensionContext, "cwd" | "sessionManager">;

/** What the refresh before a call did: ran (with the summary) or did not (busy, failed), and the files left. */
export type CallRefresh = { ran: true; summary: RefreshSummary } | { ran: false; reason: string; pending: number };

/** Everything a tool call needs: the open core, who calls, and what refreshing it did. */
export interface CallState {
	service: HistoryService;
	caller: Caller;
	/** event_search's notes about the refresh (busy, failed, failed earlier in the background). */
	notes: string[];
	pending: number;
	refresh: CallRefresh;
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Throws when pi aborted the call before it started. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("aborted");
}

/** The index of this pi process: opened lazily, refreshed before each call and in the background, closed at shutdown. */
export class IndexHandle {
	private service: HistoryService | null = null;
	private timer: ReturnType<typeof setTimeout> | null = null;
	private readonly priority = new Set<string>();
	private cwd = process.cwd();
	private backgroundError: string | null = null;

	constructor(
		private readonly openService: (cwd: string) => HistoryService,
		private readonly budgets: { call: number; background: number; delay: number },
		private readonly log: (message: string) => void,
	) {}

	private open(cwd: string): HistoryService {
		this.service ??= this.openService(cwd);
		return this.service;
	}

	/** Opens the index, retrying briefly while another process creates it. */
	private async openForCall(cwd: string): Promise<HistoryService> {
		for (let attempt = 1; ; attempt++) {
			try {
				return this.open(cwd);
			} catch (error) {
				if (attempt >= 3 || !isBusyError(error)) throw error;
				await new Promise((r) => setTimeout(r, 100 * attempt));
			}
		}
	}

	/** Refreshes within the call budget (own session first) and names the caller; never fails on a busy index. */
	async forCall(ctx: CallerContext): Promise<CallState> {
		this.cwd = ctx.cwd;
		const service = await this.openForCall(ctx.cwd);
		const sm = ctx.sessionManager;
		const file = sm.getSessionFile();
		const notes: string[] = [];
		if (this.backgroundError) {
			notes.push(`background indexing failed earlier: ${this.backgroundError}`);
			this.backgroundError = null;
		}
		let pending = service.pending;
		let refresh: CallRefresh;
		try {
			const summary = service.refresh({ budgetMs: this.budgets.call, priority: file ? [file] : [] });
			pending = summary.pending;
			refresh = summary.busy ? { ran: false, reason: "the index is busy (another process is writing it)", pending } : { ran: true, summary };
			if (summary.busy) notes.push("index busy: another process (the history TUI or another pi) is writing it; answered from what is already indexed");
			if (summary.pending > 0 && !summary.busy) this.schedule(undefined, this.budgets.delay);
		} catch (error) {
			if (!isBusyError(error)) this.log(`refresh failed: ${messageOf(error)}`);
			refresh = {
				ran: false,
				reason: isBusyError(error) ? "the index is busy (another process is writing it)" : `refreshing failed (${messageOf(error)})`,
				pending,
			};
			notes.push(
				isBusyError(error)
					? "index busy: another process is writing it; answered from what is already indexed"
					: `the index could not be refreshed (${messageOf(error)}); answered from what is already indexed`,
			);
		}
		const currentSessionId = sm.getSessionId() || sm.getHeader()?.id || undefined;
		const cutoffEntryId = sm.getLeafId() ?? undefined;
		const caller: Caller = {
			root: workspaceRoot(ctx.cwd, service.config.workspaceRoot),
			...(currentSessionId ? { currentSessionId } : {}),
			...(cutoffEntryId ? { cutoffEntryId } : {}),
		};
		return { service, caller, notes, pending, refresh };
	}

	/** Schedules a background refresh (the given session file first) without delaying pi. */
	schedule(ctx?: CallerContext, delay = this.budgets.delay): void {
		if (ctx) {
			this.cwd = ctx.cwd;
			const file = ctx.sessionManager.getSessionFile();
			if (file) this.priority.add(file);
		}
		if (this.timer) return;
		this.timer = setTimeout(() => this.runBackground(), delay);
		// Never keep pi alive for indexing: whatever is left is picked up by the next refresh.
		this.timer.unref?.();
	}

	// better-sqlite3 is synchronous: short budgeted chunks with pauses keep pi's event loop responsive.
	private runBackground(): void {
		this.timer = null;
		try {
			const summary = this.open(this.cwd).refresh({ budgetMs: this.budgets.background, priority: [...this.priority] });
			if (!summary.busy) this.priority.clear();
			if (summary.pending > 0 && !summary.busy) this.schedule(undefined, 25);
		} catch (error) {
			if (isBusyError(error)) return;
			this.backgroundError = messageOf(error);
			this.log(`background refresh failed: ${this.backgroundError}`);
		}
	}

	/** Stops background work, indexes the ending session once more if the process lives on, and closes the index. */
	shutdown(ctx: CallerContext, budgetMs: number): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		const service = this.service;
		this.service = null;
		if (!service) return;
		const file = ctx.sessionManager.getSessionFile();
		const last = setImmediate(() => {
			try {
				service.refresh({ budgetMs, priority: file ? [file] : [] });
			} catch (error) {
				if (!isBusyError(error)) this.log(`final refresh failed: ${messageOf(error)}`);
			} finally {
				service.close();
			}
		});
		last.unref?.();
	}
}

/** The log of an entry: the deps' own, else stderr when PI_EVENT_SEARCH_DEBUG is set. */
export function extensionLog(deps: ExtensionDeps): (message: string) => void {
	const debug = process.env.PI_EVENT_SEARCH_DEBUG;
	return deps.log ?? ((message: string) => void (debug ? process.stderr.write(`[pi-event-search] ${message}\n`) : undefined));
}

/** The index handle of an entry, with the deps' budgets or the defaults. */
export function createIndexHandle(deps: ExtensionDeps, log: (message: string) => void): IndexHandle {
	return new IndexHandle(
		deps.openService ?? ((cwd) => HistoryService.open({ config: resolveConfig({ cwd }), busyTimeoutMs: 250 })),
		{
			call: deps.callBudgetMs ?? REFRESH_BUDGETS.call,
			background: deps.backgroundBudgetMs ?? REFRESH_BUDGETS.background,
			delay: deps.backgroundDelayMs ?? 50,
		},
		log,
	);
}

/** Keeps the index fresh on pi's session events and closes it at shutdown (DESIGN: re-index after each prompt). */
export function watchSessions(pi: ExtensionRegistrar, index: IndexHandle, log: (message: string) => void): void {
	const later = (_event: unknown, ctx: CallerContext) => {
		try {
			index.schedule(ctx);
		} catch (error) {
			log(`scheduling a refresh failed: ${messageOf(error)}`);
		}
	};
	pi.on("session_start", later);
	pi.on("agent_end", later);
	pi.on("session_compact", later);
	pi.on("session_tree", later);
	pi.on("session_shutdown", (_event, ctx) => {
		try {
			index.shutdown(ctx, REFRESH_BUDGETS.shutdown);
		} catch (error) {
			log(`closing the index failed: ${messageOf(error)}`);
		}
	});
}

/** A tool result with one text part. */
export function textResult<T>(text: string, details: T): AgentToolResult<T> {
	return { content: [{ type: "text", text }], details };
}

/** The renderer's Text component, reused when pi hands back the last one. */
export function component(context: { lastComponent: Component | undefined }, text: string): Component {
	if (context.lastComponent instanceof Text) {
		context.lastComponent.setText(text);
		return context.lastComponent;
	}
	return new Text(text, 0, 0);
}

/** A session id short enough for a one-line summary. */
export function shortId(id: string): string {
	return id.length > 13 ? `${id.slice(0, 8)}…` : id;
}

function resultText(result: AgentToolResult<unknown>): string {
	const first = result.content.find((c) => c.type === "text");
	return first && first.type === "text" ? first.text : "";
}

/** The error line, or the full model text when expanded, under a short summary. */
export function renderOutcome(
	result: AgentToolResult<unknown>,
	options: ToolRenderResultOptions,
	theme: Theme,
	context: { lastComponent: Component | undefined; isError: boolean },
	summary: () => string,
): Component {
	if (options.isPartial) return component(context, theme.fg("warning", "…"));
	if (context.isError) return component(context, theme.fg("error", resultText(result).split("\n")[0] ?? "error"));
	const head = summary();
	return component(context, options.expanded ? `${head}\n${theme.fg("toolOutput", resultText(result))}` : head);
}
