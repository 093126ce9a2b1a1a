/**
 * The opt-in `session_search` tool (seed 003's contract) on our index, for prompts written for hermes or
 * session-search-lite. pi keeps one tool per name (the first loaded wins), and those extensions declare the same
 * name: ours is registered only once every extension has loaded and only when the name is still free, so loading
 * it next to them never takes their tool away; the reason it stayed out is logged once.
 */
import { resolve } from "node:path";
import type { ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { type Static, Type } from "typebox";
import {
	formatSessionSearch,
	type IndexingOutcome,
	indexingNotes,
	type RawSessionSearchArgs,
	type SessionSearchDetails,
	sessionSearchArgs,
	sessionSearchDetails,
} from "../present/session-search-text.js";
import { neutralizeLine as safe, safeJson } from "../present/terminal-safe.js";
import { SESSION_SEARCH_LIMITS } from "../shared/bounds.js";
import { isWindowsPath } from "../shared/paths.js";
import type { SessionSearchResult } from "../shared/types.js";
import { type CallState, type IndexHandle, messageOf } from "./index-handle.js";
import { component, type ExtensionRegistrar, renderOutcome, textResult, throwIfAborted } from "./runtime.js";

/** The tool name hermes and session-search-lite declare. */
export const SESSION_SEARCH_TOOL = "session_search";

/** Part of our description: how a session_search already registered by our other entry is told from a foreign one. */
const OURS = "(pi-event-search index)";
/** Notes about the index pass beyond the counts (unreadable dirs, files kept at their last good state). */
const MAX_INDEX_NOTES = 5;

const { limit: LIMIT, snippetChars: SNIPPET } = SESSION_SEARCH_LIMITS;

const Params = Type.Object({
	query: Type.String({ description: 'Words to find in past pi sessions (all must match); "quoted phrases" match as written' }),
	limit: Type.Optional(Type.Number({ description: `Hits returned (default ${LIMIT.default}, max ${LIMIT.max}); out-of-range values are clamped` })),
	cwd: Type.Optional(Type.String({ description: "Only sessions whose working directory is exactly this path" })),
	after: Type.Optional(Type.String({ description: "ISO date: only sessions started at or after it" })),
	before: Type.Optional(Type.String({ description: "ISO date: only sessions started at or before it" })),
	snippetChars: Type.Optional(
		Type.Number({ description: `Maximum characters of each snippet (default ${SNIPPET.default}, max ${SNIPPET.max}); out-of-range values are clamped` }),
	),
});

type Params = Static<typeof Params>;

/** Numbers sent as strings become numbers, anything else unusable is dropped: bounds are clamped, never rejected. */
function prepareArgs(args: unknown): Params {
	if (!args || typeof args !== "object") return args as Params;
	const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
	for (const key of ["limit", "snippetChars"]) {
		const v = out[key];
		if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) out[key] = Number(v);
		else if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v))) delete out[key];
	}
	for (const key of ["cwd", "after", "before"]) if (out[key] !== undefined && typeof out[key] !== "string") delete out[key];
	return out as Params;
}

/** The note lines about what the index pass did before the query. */
function indexNotes(state: CallState, createdAt: string | undefined): string[] {
	const r = state.refresh;
	const outcome: IndexingOutcome = r.ran ? { ran: true, indexed: r.summary.filesChanged, pending: r.summary.pending } : r;
	const extra = r.ran ? [...r.summary.notes, ...r.summary.errors.map((e) => `could not index ${e.file}: ${e.error}`)] : [];
	const shown = extra.slice(0, MAX_INDEX_NOTES);
	if (extra.length > shown.length) shown.push(`${extra.length - shown.length} more indexing note(s)`);
	const background = state.notes.filter((n) => n.startsWith("background indexing failed"));
	return [...indexingNotes(outcome, createdAt), ...shown, ...background];
}

/** The session_search tool over this entry's index handle. */
function sessionSearchTool(index: IndexHandle): ToolDefinition<typeof Params, SessionSearchDetails> {
	let createdReported = false;
	return {
		name: SESSION_SEARCH_TOOL,
		label: "Session Search",
		description:
			`Search message text of past pi sessions ${OURS}, ranked by BM25. ` +
			"Returns one line per hit: session id, working directory, timestamp, message role and raw bm25 score (negative, lower is better), then a snippet. " +
			"Only sessions of this workspace are searched; the current session is left out.",
		promptSnippet: "Search past pi sessions of this workspace by text (session id, cwd, time, role and snippet per hit)",
		parameters: Params,
		prepareArguments: prepareArgs,
		async execute(toolCallId, params, signal, _onUpdate, ctx) {
			throwIfAborted(signal);
			const args = sessionSearchArgs(params as RawSessionSearchArgs);
			// A relative cwd can never equal a recorded one: read it as the caller's, like the other tools do.
			if (args.cwd && !isWindowsPath(args.cwd)) args.cwd = resolve(ctx.cwd, args.cwd);
			let state: CallState;
			try {
				state = await index.forCall(ctx, toolCallId);
			} catch (error) {
				// isError is for an index that cannot be used at all; everything else is a note (seed 003).
				throw new Error(`session index not openable: ${messageOf(error)}`);
			}
			const createdAt = state.service.created && !createdReported ? state.service.indexPath : undefined;
			createdReported = true;
			let result: SessionSearchResult;
			try {
				result = state.service.sessionSearch({
					query: args.query,
					limit: args.limit,
					snippetChars: args.snippetChars,
					...(args.cwd ? { cwd: args.cwd } : {}),
					...(args.after ? { after: args.after } : {}),
					...(args.before ? { before: args.before } : {}),
					caller: state.caller,
				});
			} catch (error) {
				throw new Error(`session index not queryable: ${messageOf(error)}`);
			}
			const text = formatSessionSearch({ query: args.query, limit: args.limit, notes: [...indexNotes(state, createdAt), ...result.notes], hits: result.hits });
			return textResult(text, sessionSearchDetails(result.hits));
		},
		renderCall(args, theme, context) {
			const extra = (["limit", "cwd", "after", "before", "snippetChars"] as const)
				.filter((k) => args[k] !== undefined)
				.map((k) => safe(`${k}=${String(args[k])}`))
				.join(" ");
			return component(
				context,
				`${theme.fg("toolTitle", theme.bold("session_search "))}${theme.fg("accent", safeJson(args.query ?? ""))}${extra ? theme.fg("muted", ` ${extra}`) : ""}`,
			);
		},
		renderResult(result, options, theme, context) {
			return renderOutcome(result, options, theme, context, () => {
				const d = result.details as Partial<SessionSearchDetails> | undefined;
				const n = typeof d?.count === "number" ? d.count : 0;
				return theme.fg(n ? "success" : "muted", `${n} hit(s)`);
			});
		},
	};
}

const WARNED = Symbol.for("pi-event-search.session_search.warned");

/** Says once per process why our session_search stayed out: on pi's UI when there is one, else on stderr. */
function warnOnce(ctx: Pick<ExtensionContext, "hasUI" | "ui">, message: string): void {
	const flags = globalThis as Record<symbol, unknown>;
	if (flags[WARNED]) return;
	flags[WARNED] = true;
	if (ctx.hasUI) ctx.ui.notify(message, "warning");
	else process.stderr.write(`[pi-event-search] ${message}\n`);
}

/** Registers session_search when the session starts, unless another extension already declares the name. */
export function offerSessionSearch(pi: ExtensionRegistrar, index: IndexHandle, log: (message: string) => void): void {
	let decided = false;
	// At load time pi cannot list tools and later extensions have not loaded yet; at session_start both hold.
	pi.on("session_start", (_event, ctx) => {
		if (decided) return;
		decided = true;
		let taken: { name: string; description: string } | undefined;
		try {
			taken = pi.getAllTools?.().find((t) => t.name === SESSION_SEARCH_TOOL);
		} catch (error) {
			// Unable to tell whether the name is free: stay out rather than shadow someone else's tool.
			log(`session_search not registered: cannot list pi's tools (${messageOf(error)})`);
			return;
		}
		if (taken?.description.includes(OURS)) {
			log("session_search is already registered by our other extension entry");
			return;
		}
		if (taken) {
			const where = (taken as { sourceInfo?: { path?: string } }).sourceInfo?.path ?? "another extension";
			warnOnce(
				ctx,
				`session_search is already provided by ${where} (hermes or session-search-lite?); pi-event-search did not register its own. Unload that extension to use ours.`,
			);
			return;
		}
		pi.registerTool(sessionSearchTool(index));
	});
}
