/**
 * The tools' parameters as the model sees them (TypeBox schemas with the bounds in their descriptions) and their
 * mapping to the core's requests: single values wrapped into lists, ids required, filters checked.
 */
import { type Static, Type } from "typebox";
import { LIMITS, READ_LIMITS } from "../shared/bounds.js";
import { ArgumentError } from "../shared/errors.js";
import { searchFilters } from "../shared/filters.js";
import { BRANCH_STATES, SELECTION_STATES, SEMANTIC_KINDS, type SearchFilters } from "../shared/types.js";

/** Bounds of event_read for the model: 12,000 characters of 3-byte text still fit pi's 50 KB output limit. */
export const MODEL_READ_LIMITS = {
	maxChars: { default: READ_LIMITS.maxChars.default, min: 1, max: 12_000 },
	neighbors: { default: READ_LIMITS.neighbors.default, min: 0, max: 20 },
} as const;

const stringEnum = <T extends string>(values: readonly T[], description: string) => Type.Unsafe<T>({ type: "string", enum: [...values], description });

/** event_search's parameters. */
export const SearchParams = Type.Object({
	query: Type.String({
		description:
			'Distinctive words (identifiers, error codes, file names) and "quoted phrases"; no operators. Every word first, else partial matches. May be "" when a filter is given.',
	}),
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

/** event_read's parameters. */
export const ReadParams = Type.Object({
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

/** event_trace's parameters. */
export const TraceParams = Type.Object(RefParams);

/** Arguments of event_search. */
export type SearchArgs = Static<typeof SearchParams>;
/** Arguments of event_read. */
export type ReadArgs = Static<typeof ReadParams>;

/** A required id argument, trimmed; throws ArgumentError naming where to get it. */
export function requireId(value: unknown, name: string): string {
	if (typeof value !== "string" || value.trim() === "")
		throw new ArgumentError(`${name} is required: pass it exactly as event_search or event_trace returned it`);
	return value.trim();
}

/** Maps the tool arguments to the core's filters; throws ArgumentError for what the core cannot take. */
export function toolFilters(args: SearchArgs, cwd: string): SearchFilters {
	const one = (v: string | undefined) => (v ? [v] : undefined);
	// A relative cwd means the caller's; the root still bounds what it can reach (the core's Visibility).
	return searchFilters(
		{
			sessionIds: one(args.sessionId),
			cwds: one(args.cwd),
			kinds: args.kinds,
			types: args.types,
			roles: args.roles,
			tools: args.tools,
			after: args.after,
			before: args.before,
			isError: args.isError,
			branchStates: one(args.branchState),
			selectionStates: one(args.selectionState),
			files: one(args.file),
			labels: one(args.label),
		},
		cwd,
	);
}

/** Wraps single values the model sent where lists are expected (`kinds: "tool.result"`). */
export function prepareSearchArgs(args: unknown): SearchArgs {
	if (!args || typeof args !== "object") return args as SearchArgs;
	const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
	for (const key of ["kinds", "types", "roles", "tools"]) if (typeof out[key] === "string") out[key] = [out[key]];
	return out as SearchArgs;
}
