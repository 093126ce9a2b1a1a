/**
 * What both extension entries (index.ts and session-search.ts) share: their collaborators and budgets, the index
 * handle of the process (index-handle.ts: budgeted refreshes, the caller's authorization and cutoff, I16, I17), the
 * session events that keep it fresh, and the small result and rendering helpers of every tool.
 */
import type { AgentToolResult, ExtensionAPI, Theme, ToolRenderResultOptions } from "@mariozechner/pi-coding-agent";
import { type Component, Text } from "@mariozechner/pi-tui";
import { neutralize, neutralizeLine as safe } from "../present/terminal-safe.js";
import { HistoryService } from "../service/service.js";
import { resolveConfig } from "../shared/config.js";
import { type CallerContext, IndexHandle, messageOf } from "./index-handle.js";

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
	/** Whether the tools get pi 1.6's `deferred` exposure; default: `deferTools` in our config file. */
	deferTools?: boolean;
}

/** Throws when pi aborted the call before it started. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("aborted");
}

/** The log of an entry: the deps' own, else stderr when PI_EVENT_SEARCH_DEBUG is set. */
export function extensionLog(deps: ExtensionDeps): (message: string) => void {
	const debug = process.env.PI_EVENT_SEARCH_DEBUG;
	return deps.log ?? ((message: string) => void (debug ? process.stderr.write(`[pi-event-search] ${message}\n`) : undefined));
}

/** The index handle of an entry, with the deps' budgets or the defaults. */
export function createIndexHandle(deps: ExtensionDeps, log: (message: string) => void): IndexHandle {
	return new IndexHandle(
		deps.openService ?? ((cwd) => HistoryService.open({ config: resolveConfig({ cwd }), busyTimeoutMs: 250, addFilterIndex: false })),
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
	// pi 1.x: after retries and compaction, the better moment to index (0.x never emits it).
	(pi.on as (event: string, handler: typeof later) => void)("agent_settled", later);
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

/** A short id for pi's screen (ids come from session files: controls made visible, I21). */
export function shortId(raw: string): string {
	const id = safe(raw);
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
	if (context.isError) return component(context, theme.fg("error", safe(resultText(result).split("\n")[0] ?? "error")));
	const head = summary();
	return component(context, options.expanded ? `${head}\n${theme.fg("toolOutput", neutralize(resultText(result)))}` : head);
}
