/**
 * The Pi extension: `event_search`, `event_read` and `event_trace` over the same index as the TUI and CLI,
 * authorized by workspace (I16) and blind to the caller's own invoking message and everything after it (I17).
 * A composition root: it wires the core, pi's session state and the model-facing formatting, nothing more.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { formatReadForModel, formatSearchForModel, formatTraceForModel } from "../present/model-text.js";
import { neutralizeLine as safe, safeJson } from "../present/terminal-safe.js";
import { clamp, LIMITS } from "../shared/bounds.js";
import { resolveConfig } from "../shared/config.js";
import { ArgumentError } from "../shared/errors.js";
import type { ReadResult, SearchResult, TraceResult } from "../shared/types.js";
import { boundReadDetails, boundSearchDetails, boundTraceDetails } from "./call-scope.js";
import { offerInPi } from "./in-pi.js";
import { type LandingRegistrar, offerLanding } from "./land.js";
import {
	component,
	createIndexHandle,
	type ExtensionDeps,
	type ExtensionRegistrar,
	extensionLog,
	renderOutcome,
	shortId,
	textResult,
	throwIfAborted,
	watchSessions,
} from "./runtime.js";
import { offerSessionSearch } from "./session-search-tool.js";
import { MODEL_READ_LIMITS, prepareSearchArgs, type ReadArgs, ReadParams, requireId, SearchParams, TraceParams, toolFilters } from "./tool-params.js";

export { type ExtensionDeps, type ExtensionRegistrar, REFRESH_BUDGETS } from "./runtime.js";

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
	'Use event_search to find what happened in earlier pi sessions of this workspace (errors, decisions, commands, files touched). Query the few distinctive words, not a sentence: an identifier, error code, file name or "quoted phrase". Say "error", "yesterday" or "bash" with filters (isError, after/before, tools, kinds), not as words.',
	"event_search returns refs (sessionId, entryId, fragmentId) and snippets with matches marked «like this»; snippets are excerpts. Before relying on a hit, call event_read with its sessionId and entryId (and fragmentId) to get the exact text from the session file.",
	"Use event_trace with a hit's sessionId and entryId to follow its parent, children, sibling branches, tool call/result pair, compaction and fork links; pass the refs it returns to event_read.",
	"Your current session is excluded from event_search unless you pass its sessionId; cite history by sessionId and entryId and never present a snippet as the whole content.",
];

/** A registrar that gives every tool pi 1.6's `deferred` exposure (found through tool_search, not in every prompt). */
function deferring(pi: ExtensionRegistrar): ExtensionRegistrar {
	return new Proxy(pi, {
		get(target, key, receiver) {
			if (key === "registerTool")
				return (tool: object) => target.registerTool({ ...tool, exposure: "deferred" } as unknown as Parameters<ExtensionRegistrar["registerTool"]>[0]);
			const value = Reflect.get(target, key, receiver);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

/** Builds the extension factory; tests pass their own index, budgets and log. */
export function createExtension(deps: ExtensionDeps = {}): (pi: ExtensionRegistrar) => void {
	return (host) => {
		// Off by default: pi 1.6 registers tool_search inactive, so in a default setup a deferred tool is unreachable.
		const pi = (deps.deferTools ?? resolveConfig({ cwd: process.cwd() }).deferTools) ? deferring(host) : host;
		const log = extensionLog(deps);
		const index = createIndexHandle(deps, log);

		pi.registerTool({
			name: "event_search",
			label: "Event Search",
			description:
				"Search the persisted history of pi sessions in this workspace: user and assistant messages, tool calls and results, bash runs, compaction and branch summaries. " +
				'Query: distinctive words and "quoted phrases"; events holding every word come first (fix also finds fixed, fixing), else the best partial matches, marked as such, with the words that matched nothing named. Returns event hits with refs (sessionId, entryId, fragmentId) for event_read and event_trace, kind, time, session name and cwd, branch state, and a snippet with matches marked «like this». ' +
				"Only sessions whose cwd lies inside this workspace are visible; your current session is excluded unless you pass its sessionId. An empty result says which filter or exclusion emptied it.",
			promptSnippet: "Search past pi sessions of this workspace (messages, tool calls/results, bash, summaries); returns refs for event_read/event_trace",
			promptGuidelines: GUIDELINES,
			parameters: SearchParams,
			prepareArguments: prepareSearchArgs,
			async execute(toolCallId, params, signal, _onUpdate, ctx) {
				throwIfAborted(signal);
				if (typeof params.query !== "string") throw new ArgumentError('query must be a string (use "" to list events by filters only)');
				const filters = toolFilters(params, ctx.cwd);
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
				// The id that reaches the caller's own session: as the index names it (a same-id twin's differs from pi's).
				const own = result.currentSessionId ?? caller.currentSessionId;
				const text = formatSearchForModel(result, {
					query: params.query,
					root: caller.root,
					...(own ? { currentSessionId: own } : {}),
					includesCurrent: own !== undefined && params.sessionId === own,
				});
				return textResult(text.text, boundSearchDetails(result));
			},
			renderCall(args, theme, context) {
				const filters = Object.entries(args)
					.filter(([k, v]) => k !== "query" && v !== undefined)
					.map(([k, v]) => safe(`${k}=${Array.isArray(v) ? v.join(",") : String(v)}`));
				return component(
					context,
					`${theme.fg("toolTitle", theme.bold("event_search "))}${theme.fg("accent", safeJson(args.query ?? ""))}${filters.length ? theme.fg("muted", ` ${filters.join(" ")}`) : ""}`,
				);
			},
			renderResult(result, options, theme, context) {
				return renderOutcome(result, options, theme, context, () => {
					const d = result.details;
					if (!isSearchResult(d)) return theme.fg("muted", "no result");
					const n = d.hits.length;
					const top = d.hits.slice(0, 3).map((h) => safe(`${h.kind ?? h.entryType} ${shortId(h.sessionId)}/${h.entryId}`));
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
				const bounded = boundReadDetails(result);
				return textResult(formatReadForModel(bounded).text, bounded);
			},
			renderCall(args, theme, context) {
				const extra = safe([args.fragmentId, args.offset ? `@${args.offset}` : undefined].filter(Boolean).join(" "));
				return component(
					context,
					`${theme.fg("toolTitle", theme.bold("event_read "))}${theme.fg("accent", `${shortId(args.sessionId ?? "?")}/${safe(args.entryId ?? "?")}`)}${extra ? theme.fg("muted", ` ${extra}`) : ""}`,
				);
			},
			renderResult(result, options, theme, context) {
				return renderOutcome(result, options, theme, context, () => {
					const d = result.details;
					if (!isReadResult(d)) return theme.fg("muted", "no result");
					const chars = d.fragments.reduce((n, f) => n + f.text.length, 0);
					const cut = d.fragments.some((f) => f.truncated) ? theme.fg("warning", " · cut") : "";
					return `${theme.fg("success", safe(String(d.event.type)))} ${theme.fg("dim", `${shortId(d.session.id)}/${safe(d.event.entryId)}`)} · ${d.fragments.length} fragment(s), ${chars} chars${d.omitted.length ? ` · ${d.omitted.length} omitted` : ""}${cut}`;
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
				const bounded = boundTraceDetails(result);
				return textResult(formatTraceForModel(bounded).text, bounded);
			},
			renderCall(args, theme, context) {
				return component(
					context,
					`${theme.fg("toolTitle", theme.bold("event_trace "))}${theme.fg("accent", `${shortId(args.sessionId ?? "?")}/${safe(args.entryId ?? "?")}`)}`,
				);
			},
			renderResult(result, options, theme, context) {
				return renderOutcome(result, options, theme, context, () => {
					const d = result.details;
					if (!isTraceResult(d)) return theme.fg("muted", "no result");
					const rels = new Map<string, number>();
					for (const e of d.edges) rels.set(e.rel, (rels.get(e.rel) ?? 0) + 1);
					const list = safe([...rels].map(([rel, n]) => (n > 1 ? `${rel}×${n}` : rel)).join(", "));
					return `${theme.fg("success", `${d.edges.length} edge(s)`)}${list ? theme.fg("dim", ` · ${list}`) : ""}`;
				});
			},
		});

		watchSessions(pi, index, log);
		// Continue in pi from pi-history: land on the event it names (pi 1.x; see land.ts). Test registrars may lack these.
		const full = pi as Partial<LandingRegistrar>;
		if (typeof full.registerCommand === "function" && typeof full.sendUserMessage === "function") offerLanding(pi as unknown as LandingRegistrar);
		// The explorer over pi's screen (/history, prompt recall): only where pi can register commands and shortcuts.
		const api = pi as Partial<ExtensionAPI>;
		if (typeof api.registerCommand === "function" && typeof api.registerShortcut === "function") offerInPi(pi as ExtensionAPI, index);
		// Off by default: hermes and session-search-lite declare the same name, and pi keeps only one tool per name.
		if (deps.sessionSearchTool ?? resolveConfig({ cwd: process.cwd() }).sessionSearchTool) offerSessionSearch(pi, index, log);
	};
}

export default createExtension();
