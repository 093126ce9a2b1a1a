/**
 * The typed filters of the picker: what each row holds (several kinds, roles and selection states at once; one
 * branch state and error state; short free-text values for tool, file, label, cwd, session, after and before), why a
 * value is invalid, which combinations cannot match, the chips they show as, and the one mapping to the core's
 * structured filters (src/shared/filters.ts searchFilters, through src/present/typed-filters.ts, as every face does).
 */
import { isAbsoluteFolder, timeExpr as parseTimeExpr, typedSearchFilters } from "../../src/present/typed-filters.js";
import {
	BRANCH_STATES,
	type BranchState,
	SELECTION_STATES,
	SEMANTIC_KINDS,
	type SearchFilters,
	type SelectionState,
	type SemanticKind,
} from "../../src/shared/types.js";

/** The filters a person sets in the picker; text values are kept as typed (a time stays `2d`, resolved per search). */
export interface Filters {
	kinds?: SemanticKind[];
	roles?: string[];
	selection?: SelectionState[];
	branch?: BranchState;
	error?: boolean;
	/** Tool names, separated by commas or spaces. */
	tool?: string;
	file?: string;
	label?: string;
	/** An absolute folder: sessions whose cwd is it or below it. */
	cwd?: string;
	/** A session id (or its start), or part of its name. */
	session?: string;
	after?: string;
	before?: string;
}

/** Roles pi writes on message entries. */
export const ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom"] as const;

/** The text rows. */
export type TextKey = "tool" | "file" | "label" | "cwd" | "session" | "after" | "before";
/** The rows that hold several values at once. */
export type MultiKey = "kinds" | "roles" | "selection";

/** One row of the picker. */
export type FilterField =
	| { type: "multi"; key: MultiKey; label: string; values: readonly string[] }
	| { type: "choice"; key: "branch" | "error"; label: string; values: ReadonlyArray<Filters["branch"] | Filters["error"]> }
	| { type: "text"; key: TextKey; label: string; hint: string };

/** The picker's rows, in the order it draws them. */
export const FILTER_FIELDS: readonly FilterField[] = [
	{ type: "multi", key: "kinds", label: "kind", values: SEMANTIC_KINDS },
	{ type: "multi", key: "roles", label: "role", values: ROLES },
	{ type: "text", key: "tool", label: "tool", hint: "bash, edit (several: commas)" },
	{ type: "text", key: "file", label: "file", hint: "src/app.ts or app.ts (a path's end)" },
	{ type: "text", key: "label", label: "label", hint: "part of a label" },
	{ type: "text", key: "cwd", label: "cwd", hint: "/home/me/repo (that folder and below)" },
	{ type: "text", key: "session", label: "session", hint: "id, start of an id, or part of its name" },
	{ type: "text", key: "after", label: "after", hint: "2026-01-31, 2d, 3h, yesterday, last week" },
	{ type: "text", key: "before", label: "before", hint: "2026-01-31, 2d, 3h, yesterday, last week" },
	{ type: "choice", key: "error", label: "error", values: [undefined, true, false] },
	{ type: "choice", key: "branch", label: "branch", values: [undefined, ...BRANCH_STATES] },
	{ type: "multi", key: "selection", label: "selection", values: SELECTION_STATES },
];

/** How a choice row's value reads. */
export function choiceText(key: "branch" | "error", value: unknown): string {
	if (value === undefined) return "any";
	if (key === "error") return value ? "errors only" : "no errors";
	return String(value);
}

/** Why a text value cannot be used (null: it can), said in the field. */
export function textError(key: TextKey, value: string, now: number): string | null {
	const v = value.trim();
	if (v === "") return null;
	if (key === "after" || key === "before") {
		const t = parseTimeExpr(v, now);
		return t.ok ? null : t.error;
	}
	if (key === "cwd" && !isAbsoluteFolder(v)) return `not an absolute folder: ${v}`;
	if (key === "session" && v.length < 2) return "too short: give at least 2 characters of an id or name";
	return null;
}

/** Every invalid value of a draft, by row. */
export function invalidFields(f: Filters, now: number): Partial<Record<TextKey, string>> {
	const out: Partial<Record<TextKey, string>> = {};
	for (const field of FILTER_FIELDS) {
		if (field.type !== "text") continue;
		const error = textError(field.key, f[field.key] ?? "", now);
		if (error) out[field.key] = error;
	}
	return out;
}

/** The role an event with a fragment of this kind has (null: not a message entry); kinds not listed never conflict. */
const KIND_ROLE: Partial<Record<SemanticKind, string | null>> = {
	"user.text": "user",
	"assistant.text": "assistant",
	"assistant.error": "assistant",
	"tool.call": "assistant",
	"tool.result": "toolResult",
	"bash.command": "bashExecution",
	"bash.output": "bashExecution",
	"custom.message": "custom",
	"summary.compaction": null,
	"summary.branch": null,
	"session.name": null,
};

/** Why a combination of valid values cannot match anything (empty: it can). */
export function conflicts(f: Filters, now: number): string[] {
	const out: string[] = [];
	const after = f.after?.trim() ? parseTimeExpr(f.after, now) : null;
	const before = f.before?.trim() ? parseTimeExpr(f.before, now) : null;
	if (after?.ok && before?.ok && after.ms > before.ms)
		out.push(`after (${f.after?.trim()}) is later than before (${f.before?.trim()}): no event is in between`);
	if (f.kinds?.length && f.roles?.length) {
		const roles = f.roles;
		const known = f.kinds.filter((k) => k in KIND_ROLE);
		if (known.length === f.kinds.length && !known.some((k) => roles.includes(KIND_ROLE[k] as string)))
			out.push(`no kind among ${f.kinds.join(", ")} has role ${roles.join(" or ")}`);
	}
	return out;
}

/** Tool names of the tool field. */
export function toolNames(text: string | undefined): string[] {
	return (text ?? "").split(/[\s,]+/).filter((t) => t !== "");
}

/** One chip of the query line: its row and what it says. */
export interface Chip {
	key: keyof Filters;
	text: string;
}

/** The active filters as chips, in picker order (invalid text values are not applied, so they have no chip). */
export function filterChips(f: Filters, now: number = Date.now()): Chip[] {
	const out: Chip[] = [];
	for (const field of FILTER_FIELDS) {
		if (field.type === "multi") {
			const v = f[field.key];
			if (v?.length) out.push({ key: field.key, text: `${field.label}:${v.join(",")}` });
		} else if (field.type === "choice") {
			const v = f[field.key];
			if (v !== undefined) out.push({ key: field.key, text: field.key === "error" ? choiceText("error", v) : `${field.label}:${String(v)}` });
		} else {
			const v = f[field.key]?.trim();
			if (v && !textError(field.key, v, now)) out.push({ key: field.key, text: `${field.label}:${v}` });
		}
	}
	return out;
}

/** The filters without one row. */
export function withoutFilter(f: Filters, key: keyof Filters): Filters {
	const { [key]: _gone, ...rest } = f;
	return rest;
}

/** Drops empty values, so "no filters" is `{}` and a chip shows only for a set value. */
export function cleanFilters(f: Filters): Filters {
	const out: Filters = {};
	for (const [k, v] of Object.entries(f) as Array<[keyof Filters, unknown]>) {
		if (v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === "string" && v.trim() === "")) continue;
		(out as Record<string, unknown>)[k] = v;
	}
	return out;
}

/** The scope's folder and session, which the cwd and session rows narrow further. */
export interface ScopeFilters {
	cwd: string | null;
	sessionId: string | null;
}

/**
 * The core's filters for the picker's values and the scope, through the same mapping as the CLI and the tools
 * (relative times resolved against `now`). Invalid values are left out (the picker never applies them); a cwd row
 * and a workspace scope that do not nest leave a folder no session can be in, so nothing matches, as it should.
 */
export function toSearchFilters(f: Filters, scope: ScopeFilters, now: number): SearchFilters {
	const bad = invalidFields(f, now);
	const ok = (key: TextKey) => (bad[key] ? undefined : f[key]?.trim() || undefined);
	const cwd = ok("cwd");
	let folder: string | undefined = scope.cwd ?? cwd;
	if (scope.cwd && cwd) {
		const inside = (a: string, b: string) => a === b || a.startsWith(b.endsWith("/") ? b : `${b}/`);
		folder = inside(cwd, scope.cwd) ? cwd : inside(scope.cwd, cwd) ? scope.cwd : `${scope.cwd}/\u0000no-such-folder`;
	}
	return typedSearchFilters(
		{
			...(scope.sessionId ? { sessionIds: [scope.sessionId] } : {}),
			...(folder ? { cwds: [folder] } : {}),
			kinds: f.kinds,
			roles: f.roles,
			tools: toolNames(ok("tool")),
			files: ok("file") ? [ok("file") as string] : undefined,
			labels: ok("label") ? [ok("label") as string] : undefined,
			sessions: ok("session") ? [ok("session") as string] : undefined,
			after: ok("after"),
			before: ok("before"),
			isError: f.error,
			branchStates: f.branch ? [f.branch] : undefined,
			selectionStates: f.selection,
		},
		now,
	);
}
