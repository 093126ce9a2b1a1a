/**
 * The Pi extension: `event_search`, `event_read` and `event_trace` over the same index as the TUI and CLI,
 * authorized by workspace (I16) and blind to the caller's own invoking message and everything after it (I17).
 * A composition root: it wires the core, pi's session state and the model-facing formatting, nothing more.
 */
import { resolve } from "node:path";
import type { AgentToolResult, ExtensionAPI, ExtensionContext, Theme, ToolRenderResultOptions } from "@mariozechner/pi-coding-agent";
import { type Component, Text } from "@mariozechner/pi-tui";
import { type Static, Type } from "typebox";
import { isBusyError } from "../index/store.js";
import { formatReadForModel, formatSearchForModel, formatTraceForModel } from "../present/model-text.js";
import { authorizationRoot } from "../query/authorize.js";
import { validateFilters } from "../query/search.js";
import { HistoryService } from "../service/service.js";
import { clamp, LIMITS, READ_LIMITS } from "../shared/bounds.js";
import { resolveConfig } from "../shared/config.js";
import { ArgumentError } from "../shared/errors.js";
import { isWindowsPath } from "../shared/paths.js";
import {
	BRANCH_STATES,
	type Caller,
	type ReadResult,
	SELECTION_STATES,
	SEMANTIC_KINDS,
	type SearchFilters,
	type SearchResult,
	type SemanticKind,
	type TraceResult,
} from "../shared/types.js";
import { boundSearchDetails, invokingEntry } from "./call-scope.js";

/** Bounds of event_read for the model: 12,000 characters of 3-byte text still fit pi's 50 KB output limit. */
export const MODEL_READ_LIMITS = {
	maxChars: { default: READ_LIMITS.maxChars.default, min: 1, max: 12_000 },
	neighbors: { default: READ_LIMITS.neighbors.default, min: 0, max: 20 },
} as const;

/** Time budgets of index refreshes, in milliseconds. */
export const REFRESH_BUDGETS = { call: 1500, background: 200, shutdown: 300 } as const;

/** What the extension needs from pi: registering tools and listening to session events. */
export type ExtensionRegistrar = Pick<ExtensionAPI, "registerTool" | "on">;

/** Replaceable collaborators, for tests; the default export uses the real ones. */
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
}

/** The parts of pi's ExtensionContext the tools read. */
type CallerContext = Pick<ExtensionContext, "cwd" | "sessionManager">;

const stringEnum = <T extends string>(values: readonly T[], description: string) => Type.Unsafe<T>({ type: "string", enum: [...values], description });

const SearchParams = Type.Object({
	query: Type.String({ description: 'Plain words (all must match) and "quoted phrases"; no operators. May be "" when a filter is given.' }),
	limit: Type.Optional(Type.Number({ description: `Maximum hits (default ${LIMITS.limit.default}, clamped to ${LIMITS.limit.min}-${LIMITS.limit.max})` })),
	snippetChars: Type.Optional(
		Type.Number({
			description: `Snippet length in characters (default ${LIMITS.snippetChars.default}, clamped to ${LIMITS.snippetChars.min}-${LIMITS.snippetChars.max})`,
		}),
	),
	sessionId: Type.Optional(Type.String({ description: "Only this session. Your current session is searched only when you pass its id here." })),
	cwd: Type.Optional(Type.String({ description: "Only sessions started in this directory or below it (relative to your cwd; never outside the workspace)" })),
	kinds: Type.Optional(Type.Array(stringEnum(SEMANTIC_KINDS, "Semantic kind of the matching text"), { description: "Only these kinds of text" })),
	types: Type.Optional(
		Type.Array(Type.String(), { description: "Entry types, e.g. message, compaction, branch_summary, custom_message, session_info, label, model_change" }),
	),
	roles: Type.Optional(Type.Array(Type.String(), { description: "Message roles, e.g. user, assistant, toolResult, bashExecution, custom" })),
	tools: Type.Optional(Type.Array(Type.String(), { description: "Tool names of calls and results, e.g. bash, read, edit, write" })),
	after: Type.Optional(Type.String({ description: "Only events at or after this ISO date or date-time (2026-01-31 or 2026-01-31T12:00:00Z)" })),
	before: Type.Optional(Type.String({ description: "Only events at or before this ISO date or date-time" })),
	isError: Type.Optional(Type.Boolean({ description: "true: only failed tool results and error replies; false: leave them out" })),
	branchState: Type.Optional(stringEnum(BRANCH_STATES, "selected: on the path pi loads; alternate: an abandoned branch (e.g. after /tree)")),
	selectionState: Type.Optional(
		stringEnum(
			SELECTION_STATES,
			"direct: in the model context as is; summarized: replaced by a compaction or branch summary; not-selected: on an alternate branch",
		),
	),
	file: Type.Optional(Type.String({ description: "Only events that read or changed this file (path or path suffix)" })),
	label: Type.Optional(Type.String({ description: "Only events whose label contains this text" })),
});

const RefParams = {
	sessionId: Type.String({ description: "sessionId of a hit or ref from event_search, event_read or event_trace" }),
	entryId: Type.String({ description: "entryId of that hit or ref" }),
};

const ReadParams = Type.Object({
	...RefParams,
	fragmentId: Type.Optional(Type.String({ description: "Only this fragment (e.g. tool.result:0); needed to continue a cut text with offset" })),
	offset: Type.Optional(Type.Number({ description: "Character offset into the fragment given by fragmentId (to continue where a text was cut)" })),
	maxChars: Type.Optional(
		Type.Number({
			description: `Characters per fragment (default ${MODEL_READ_LIMITS.maxChars.default}, clamped to ${MODEL_READ_LIMITS.maxChars.min}-${MODEL_READ_LIMITS.maxChars.max})`,
		}),
	),
	before: Type.Optional(
		Type.Number({ description: `Neighbor events listed before it (default ${MODEL_READ_LIMITS.neighbors.default}, max ${MODEL_READ_LIMITS.neighbors.max})` }),
	),
	after: Type.Optional(
		Type.Number({ description: `Neighbor events listed after it (default ${MODEL_READ_LIMITS.neighbors.default}, max ${MODEL_READ_LIMITS.neighbors.max})` }),
	),
	order: Type.Optional(stringEnum(["branch", "append"] as const, "Neighbor order: branch follows parent links (default); append is file order")),
});

const TraceParams = Type.Object(RefParams);

type SearchArgs = Static<typeof SearchParams>;
type ReadArgs = Static<typeof ReadParams>;

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("aborted");
}

function requireId(value: unknown, name: string): string {
	if (typeof value !== "string" || value.trim() === "")
		throw new ArgumentError(`${name} is required: pass it exactly as event_search or event_trace returned it`);
	return value.trim();
}

/** Maps the tool arguments to the core's filters; throws ArgumentError for what the core cannot take. */
function searchFilters(args: SearchArgs, cwd: string): SearchFilters {
	const list = (v: string[] | undefined) => (v?.length ? v : undefined);
	const filters: SearchFilters = {
		sessionIds: args.sessionId ? [args.sessionId] : undefined,
		// A relative cwd means the caller's; the root still bounds what it can reach (the core's Visibility).
		cwds: args.cwd ? [isWindowsPath(args.cwd) ? args.cwd : resolve(cwd, args.cwd)] : undefined,
		// Checked against the vocabulary by validateFilters below.
		kinds: list(args.kinds) as SemanticKind[] | undefined,
		types: list(args.types),
		roles: list(args.roles),
		tools: list(args.tools),
		after: args.after || undefined,
		before: args.before || undefined,
		isError: typeof args.isError === "boolean" ? args.isError : undefined,
		branchStates: args.branchState ? [args.branchState] : undefined,
		selectionStates: args.selectionState ? [args.selectionState] : undefined,
		files: args.file ? [args.file] : undefined,
		labels: args.label ? [args.label] : undefined,
	};
	for (const key of Object.keys(filters) as Array<keyof SearchFilters>) if (filters[key] === undefined) delete filters[key];
	validateFilters(filters);
	return filters;
}

/** Wraps single values the model sent where lists are expected (`kinds: "tool.result"`). */
function prepareSearchArgs(args: unknown): SearchArgs {
	if (!args || typeof args !== "object") return args as SearchArgs;
	const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
	for (const key of ["kinds", "types", "roles", "tools"]) if (typeof out[key] === "string") out[key] = [out[key]];
	return out as SearchArgs;
}

/** The index of this pi process: opened lazily, refreshed before each call and in the background, closed at shutdown. */
class IndexHandle {
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
	async forCall(ctx: CallerContext, toolCallId?: string): Promise<{ service: HistoryService; caller: Caller; notes: string[]; pending: number }> {
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
		try {
			const summary = service.refresh({ budgetMs: this.budgets.call, priority: file ? [file] : [] });
			pending = summary.pending;
			if (summary.busy) notes.push("index busy: another process (the history TUI or another pi) is writing it; answered from what is already indexed");
			if (summary.pending > 0 && !summary.busy) this.schedule(undefined, this.budgets.delay);
		} catch (error) {
			if (!isBusyError(error)) this.log(`refresh failed: ${messageOf(error)}`);
			notes.push(
				isBusyError(error)
					? "index busy: another process is writing it; answered from what is already indexed"
					: `the index could not be refreshed (${messageOf(error)}); answered from what is already indexed`,
			);
		}
		const currentSessionId = sm.getSessionId() || sm.getHeader()?.id || undefined;
		const cutoffEntryId = invokingEntry(sm, toolCallId) ?? sm.getLeafId() ?? undefined;
		const caller: Caller = {
			root: authorizationRoot(ctx.cwd, service.config.workspaceRoot),
			...(currentSessionId ? { currentSessionId } : {}),
			...(file ? { currentSessionFile: file } : {}),
			...(cutoffEntryId ? { cutoffEntryId } : {}),
		};
		return { service, caller, notes, pending };
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

function textResult<T>(text: string, details: T): AgentToolResult<T> {
	return { content: [{ type: "text", text }], details };
}

function component(context: { lastComponent: Component | undefined }, text: string): Component {
	if (context.lastComponent instanceof Text) {
		context.lastComponent.setText(text);
		return context.lastComponent;
	}
	return new Text(text, 0, 0);
}

function shortId(id: string): string {
	return id.length > 13 ? `${id.slice(0, 8)}…` : id;
}

function resultText(result: AgentToolResult<unknown>): string {
	const first = result.content.find((c) => c.type === "text");
	return first && first.type === "text" ? first.text : "";
}

/** The error line, or the full model text when expanded, under a short summary. */
function renderOutcome(
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

function isSearchResult(d: unknown): d is SearchResult {
	return !!d && typeof d === "object" && Array.isArray((d as SearchResult).hits);
}

function isReadResult(d: unknown): d is ReadResult {
	return !!d && typeof d === "object" && Array.isArray((d as ReadResult).fragments);
}

function isTraceResult(d: unknown): d is TraceResult {
	return !!d && typeof d === "object" && Array.isArray((d as TraceResult).edges);
}

function rethrowForModel(error: unknown, pending: number): never {
	// Missing and unauthorized events fail identically (I16): the same hint for both.
	if (error instanceof Error && error.name === "NotFoundError") {
		const wait = pending > 0 ? `; ${pending} session file(s) are still being indexed, so a just-written event may appear shortly` : "";
		throw new Error(`${error.message}: use sessionId and entryId exactly as event_search or event_trace returned them${wait}`);
	}
	throw error;
}

const GUIDELINES = [
	'Use event_search to find what happened in earlier pi sessions of this workspace (errors, decisions, commands, files touched): plain words or "quoted phrases", plus filters such as kinds, tools, isError, after/before, cwd.',
	"event_search returns refs (sessionId, entryId, fragmentId) and snippets with matches marked «like this»; snippets are excerpts. Before relying on a hit, call event_read with its sessionId and entryId (and fragmentId) to get the exact text from the session file.",
	"Use event_trace with a hit's sessionId and entryId to follow its parent, children, sibling branches, tool call/result pair, compaction and fork links; pass the refs it returns to event_read.",
	"Your current session is excluded from event_search unless you pass its sessionId; cite history by sessionId and entryId and never present a snippet as the whole content.",
];

/** Builds the extension factory; tests pass their own index, budgets and log. */
export function createExtension(deps: ExtensionDeps = {}): (pi: ExtensionRegistrar) => void {
	return (pi) => {
		const debug = process.env.PI_EVENT_SEARCH_DEBUG;
		const log = deps.log ?? ((message: string) => void (debug ? process.stderr.write(`[pi-event-search] ${message}\n`) : undefined));
		const index = new IndexHandle(
			deps.openService ?? ((cwd) => HistoryService.open({ config: resolveConfig({ cwd }), busyTimeoutMs: 250 })),
			{
				call: deps.callBudgetMs ?? REFRESH_BUDGETS.call,
				background: deps.backgroundBudgetMs ?? REFRESH_BUDGETS.background,
				delay: deps.backgroundDelayMs ?? 50,
			},
			log,
		);

		pi.registerTool({
			name: "event_search",
			label: "Event Search",
			description:
				"Search the persisted history of pi sessions in this workspace: user and assistant messages, tool calls and results, bash runs, compaction and branch summaries. " +
				'Query: plain words (all must match) and "quoted phrases". Returns event hits with refs (sessionId, entryId, fragmentId) for event_read and event_trace, kind, time, session name and cwd, branch state, and a snippet with matches marked «like this». ' +
				"Only sessions whose cwd lies inside this workspace are visible; your current session is excluded unless you pass its sessionId. An empty result says which filter or exclusion emptied it.",
			promptSnippet: "Search past pi sessions of this workspace (messages, tool calls/results, bash, summaries); returns refs for event_read/event_trace",
			promptGuidelines: GUIDELINES,
			parameters: SearchParams,
			prepareArguments: prepareSearchArgs,
			async execute(toolCallId, params, signal, _onUpdate, ctx) {
				throwIfAborted(signal);
				if (typeof params.query !== "string") throw new ArgumentError('query must be a string (use "" to list events by filters only)');
				const filters = searchFilters(params, ctx.cwd);
				if (params.query.trim() === "" && Object.keys(filters).length === 0) {
					throw new ArgumentError("query is empty and no filter is set: give words to search for, or at least one filter (kinds, tools, after, sessionId, …)");
				}
				const { service, caller, notes } = await index.forCall(ctx, toolCallId);
				const result = service.search({
					query: params.query,
					filters,
					limit: clamp(params.limit, LIMITS.limit),
					snippetChars: clamp(params.snippetChars, LIMITS.snippetChars),
					caller,
				});
				result.notes.push(...notes);
				const text = formatSearchForModel(result, {
					query: params.query,
					root: caller.root,
					...(caller.currentSessionId ? { currentSessionId: caller.currentSessionId } : {}),
					includesCurrent: caller.currentSessionId !== undefined && params.sessionId === caller.currentSessionId,
				});
				return textResult(text.text, boundSearchDetails(result));
			},
			renderCall(args, theme, context) {
				const filters = Object.entries(args)
					.filter(([k, v]) => k !== "query" && v !== undefined)
					.map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`);
				return component(
					context,
					`${theme.fg("toolTitle", theme.bold("event_search "))}${theme.fg("accent", JSON.stringify(args.query ?? ""))}${filters.length ? theme.fg("muted", ` ${filters.join(" ")}`) : ""}`,
				);
			},
			renderResult(result, options, theme, context) {
				return renderOutcome(result, options, theme, context, () => {
					const d = result.details;
					if (!isSearchResult(d)) return theme.fg("muted", "no result");
					const n = d.hits.length;
					const top = d.hits.slice(0, 3).map((h) => `${h.kind ?? h.entryType} ${shortId(h.sessionId)}/${h.entryId}`);
					const pending = d.index.pending > 0 ? theme.fg("warning", ` · ${d.index.pending} pending`) : "";
					return `${theme.fg(n ? "success" : "muted", `${n} hit${n === 1 ? "" : "s"}`)}${top.length ? theme.fg("dim", ` · ${top.join(" · ")}`) : ""}${pending}`;
				});
			},
		});

		pi.registerTool({
			name: "event_read",
			label: "Event Read",
			description:
				"Read one event of pi session history exactly from its session file, by the sessionId and entryId that event_search or event_trace returned. " +
				"Returns the exact text of its fragments (windows of maxChars; continue a cut fragment with fragmentId and offset), what was left out (thinking, images, details), and neighbor events in branch or append order.",
			promptSnippet: "Read the exact text of a past pi event by sessionId + entryId (from event_search or event_trace)",
			promptGuidelines: GUIDELINES,
			parameters: ReadParams,
			async execute(toolCallId, params: ReadArgs, signal, _onUpdate, ctx) {
				throwIfAborted(signal);
				const sessionId = requireId(params.sessionId, "sessionId");
				const entryId = requireId(params.entryId, "entryId");
				if (params.order !== undefined && params.order !== "branch" && params.order !== "append")
					throw new ArgumentError(`order must be "branch" or "append", not "${String(params.order)}"`);
				if (params.offset && !params.fragmentId) throw new ArgumentError("offset applies to one fragment: pass fragmentId too (e.g. tool.result:0)");
				const { service, caller, notes, pending } = await index.forCall(ctx, toolCallId);
				let result: ReadResult;
				try {
					result = service.read({
						sessionId,
						entryId,
						...(params.fragmentId ? { fragmentId: params.fragmentId } : {}),
						offset: Math.max(0, Math.trunc(Number.isFinite(params.offset) ? (params.offset as number) : 0)),
						maxChars: clamp(params.maxChars, MODEL_READ_LIMITS.maxChars),
						before: clamp(params.before, MODEL_READ_LIMITS.neighbors),
						after: clamp(params.after, MODEL_READ_LIMITS.neighbors),
						order: params.order ?? "branch",
						caller,
					});
				} catch (error) {
					rethrowForModel(error, pending);
				}
				result.notes.push(...notes);
				return textResult(formatReadForModel(result).text, result);
			},
			renderCall(args, theme, context) {
				const extra = [args.fragmentId, args.offset ? `@${args.offset}` : undefined].filter(Boolean).join(" ");
				return component(
					context,
					`${theme.fg("toolTitle", theme.bold("event_read "))}${theme.fg("accent", `${shortId(args.sessionId ?? "?")}/${args.entryId ?? "?"}`)}${extra ? theme.fg("muted", ` ${extra}`) : ""}`,
				);
			},
			renderResult(result, options, theme, context) {
				return renderOutcome(result, options, theme, context, () => {
					const d = result.details;
					if (!isReadResult(d)) return theme.fg("muted", "no result");
					const chars = d.fragments.reduce((n, f) => n + f.text.length, 0);
					const cut = d.fragments.some((f) => f.truncated) ? theme.fg("warning", " · cut") : "";
					return `${theme.fg("success", String(d.event.type))} ${theme.fg("dim", `${shortId(d.session.id)}/${d.event.entryId}`)} · ${d.fragments.length} fragment(s), ${chars} chars${d.omitted.length ? ` · ${d.omitted.length} omitted` : ""}${cut}`;
				});
			},
		});

		pi.registerTool({
			name: "event_trace",
			label: "Event Trace",
			description:
				"Show the typed relationships of one pi history event: parent, children, siblings, the way toward the materialized leaf, tool call and result, compaction and branch-summary links, labels, session parent and fork lineage, files read or changed. " +
				"Each edge has a provenance (recorded, derived, inferred) and a ref to pass to event_read.",
			promptSnippet: "Trace a past pi event's relations (parent/children/branches, tool call↔result, compaction, forks) by sessionId + entryId",
			promptGuidelines: GUIDELINES,
			parameters: TraceParams,
			async execute(toolCallId, params, signal, _onUpdate, ctx) {
				throwIfAborted(signal);
				const sessionId = requireId(params.sessionId, "sessionId");
				const entryId = requireId(params.entryId, "entryId");
				const { service, caller, notes, pending } = await index.forCall(ctx, toolCallId);
				let result: TraceResult;
				try {
					result = service.trace({ sessionId, entryId, caller });
				} catch (error) {
					rethrowForModel(error, pending);
				}
				result.notes.push(...notes);
				return textResult(formatTraceForModel(result).text, result);
			},
			renderCall(args, theme, context) {
				return component(
					context,
					`${theme.fg("toolTitle", theme.bold("event_trace "))}${theme.fg("accent", `${shortId(args.sessionId ?? "?")}/${args.entryId ?? "?"}`)}`,
				);
			},
			renderResult(result, options, theme, context) {
				return renderOutcome(result, options, theme, context, () => {
					const d = result.details;
					if (!isTraceResult(d)) return theme.fg("muted", "no result");
					const rels = new Map<string, number>();
					for (const e of d.edges) rels.set(e.rel, (rels.get(e.rel) ?? 0) + 1);
					const list = [...rels].map(([rel, n]) => (n > 1 ? `${rel}×${n}` : rel)).join(", ");
					return `${theme.fg("success", `${d.edges.length} edge(s)`)}${list ? theme.fg("dim", ` · ${list}`) : ""}`;
				});
			},
		});

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
	};
}

export default createExtension();
