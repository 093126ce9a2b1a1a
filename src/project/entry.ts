/** Projects one parsed pi entry into an event: typed metadata, searchable fragments, links and file evidence. */
import { isAbsolute, posix, win32 } from "node:path";
import { FRAGMENT_EDGE, FRAGMENT_INDEX_LIMIT } from "../shared/bounds.js";
import type { ContextRole, SemanticKind } from "../shared/types.js";
import { LongText } from "../source/json-stream.js";
import type { ParsedEntry } from "../source/parse.js";
import { type FragmentText, fieldText, joinTexts, textStart } from "./long-text.js";
import { PREVIEW_CHARS, previewText } from "./preview-text.js";
import { CTX_EXCLUDED, CTX_OMITS } from "./tree.js";

/** One searchable part of an entry, with its full source text. */
export interface Fragment {
	/** Deterministic within the event: `<kind>:<content block index>` (I2). */
	id: string;
	kind: SemanticKind;
	/** The whole text; pieces when it holds a string of a streamed line too long to keep (long-text.ts). */
	text: FragmentText;
	/** Where the text sits in the entry's JSON, e.g. `message.content.2.arguments`. */
	path: string;
}

/** A path an entry read or changed, as inferred from tool calls or summary details. */
export interface FileEvidence {
	path: string;
	rel: "read" | "changed";
	/** Where the path came from, e.g. `tool.call:2` or `details.readFiles`. */
	via: string;
}

/** The normalized event of one entry. */
export interface ProjectedEvent {
	entryId: string;
	parentId: string | null;
	type: string;
	role: string | null;
	timestamp: string;
	tsMs: number | null;
	toolName: string | null;
	toolCallId: string | null;
	isError: boolean | null;
	exitCode: number | null;
	model: string | null;
	provider: string | null;
	stopReason: string | null;
	customType: string | null;
	/** firstKeptEntryId (compaction), fromId (branch_summary) or targetId (label). */
	refId: string | null;
	/** A label entry's label; null when the entry clears the label. */
	label: string | null;
	/** A session_info entry's name ("" clears it). */
	sessionName: string | null;
	contextRole: ContextRole;
	/** pi's buildSessionContext turns this entry into a model message when it is on the context path. */
	messageProducing: boolean;
	/** CTX_EXCLUDED (a `!!` bash execution or a failed reply the model never sees) and CTX_OMITS (an edit with `replacement: null`). */
	ctxFlags: number;
	fragments: Fragment[];
	toolCalls: Array<{ id: string; name: string; fragmentId: string }>;
	files: FileEvidence[];
	preview: string;
}

export { FRAGMENT_EDGE, FRAGMENT_INDEX_LIMIT, previewText };

const MAX_ARG_DEPTH = 8;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof LongText);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** JSON text of a value, or a marker when it cannot be serialized (cycles are impossible, but depth is not). */
function safeJson(value: unknown, max = 4096): string {
	try {
		const text = JSON.stringify(value) ?? "";
		return text.length > max ? `${text.slice(0, max)}…` : text;
	} catch {
		return "[too deeply nested to show]";
	}
}

/** Flattens tool-call arguments into `key: value` lines so every string value is searchable and readable. */
export function normalizeArguments(args: unknown): string {
	const text = argumentText(args);
	return typeof text === "string" ? text : textStart(text, text.length);
}

/** normalizeArguments, keeping a long string of a streamed line as a piece. */
function argumentText(args: unknown): FragmentText {
	return joinTexts(argumentParts(args));
}

/** What argumentText joins: the argument lines and the line breaks between them. */
function argumentParts(args: unknown): Array<string | LongText> {
	const lines: Array<string | LongText> = [];
	const walk = (value: unknown, path: string, depth: number) => {
		if (depth > MAX_ARG_DEPTH) {
			lines.push(`${path}: ${safeJson(value)}`);
			return;
		}
		if (Array.isArray(value)) {
			if (value.length === 0) lines.push(`${path}: []`);
			value.forEach((v, i) => {
				walk(v, `${path}[${i}]`, depth + 1);
			});
		} else if (value instanceof LongText) {
			if (path) lines.push(`${path}: `);
			lines.push(value);
		} else if (isObj(value)) {
			const keys = Object.keys(value);
			if (keys.length === 0 && path) lines.push(`${path}: {}`);
			for (const k of keys) walk(value[k], path ? `${path}.${k}` : k, depth + 1);
		} else if (typeof value === "string") {
			lines.push(path ? `${path}: ${value}` : value);
		} else {
			lines.push(path ? `${path}: ${String(value)}` : String(value));
		}
	};
	if (typeof args === "string") {
		// Some providers store unparsed JSON argument strings.
		try {
			walk(JSON.parse(args), "", 0);
		} catch {
			lines.push(args);
		}
	} else if (args instanceof LongText) {
		// Unparsed arguments too long to keep are searched as text: their JSON cannot be read whole.
		lines.push(args);
	} else if (args !== undefined) {
		walk(args, "", 0);
	}
	const parts: Array<string | LongText> = [];
	lines.forEach((line, i) => {
		// `path: ` and its long value are one line. The next line is looked at first: endsWith flattens a line built
		// by concatenation, a copy of every long argument value.
		const joinsNext = lines[i + 1] instanceof LongText && typeof line === "string" && line.endsWith(": ");
		parts.push(line);
		if (i < lines.length - 1 && !joinsNext) parts.push("\n");
	});
	return parts;
}

function textBlocks(content: unknown, kind: SemanticKind, path: string, out: Fragment[]): void {
	const whole = fieldText(content);
	if (whole !== null) {
		if (whole.length > 0) out.push({ id: `${kind}:0`, kind, text: whole, path });
		return;
	}
	if (!Array.isArray(content)) return;
	content.forEach((block, i) => {
		const text = isObj(block) && block.type === "text" ? fieldText(block.text) : null;
		if (text !== null && text.length > 0) out.push({ id: `${kind}:${i}`, kind, text, path: `${path}.${i}.text` });
	});
}

/** A custom message is found by its custom type too (seed 000: "visible text and custom type"), after its text. */
function customTypeFragment(customType: string | null, path: string, out: Fragment[]): void {
	if (customType) out.push({ id: "custom.message:type", kind: "custom.message", text: customType, path });
}

function resolveEvidencePath(path: string, cwd: string): string {
	if (path.startsWith("~")) return path;
	const windows = /^[A-Za-z]:[\\/]/.test(cwd) || cwd.includes("\\");
	if (windows) return win32.isAbsolute(path) ? win32.normalize(path) : win32.join(cwd, path);
	if (isAbsolute(path) || !cwd) return posix.normalize(path);
	return posix.join(cwd, path);
}

/**
 * Tools whose results quote other events (ours, and session_search of ours, hermes or session-search-lite): readable
 * but never indexed, or every search would find copies of earlier hits.
 */
export const OWN_TOOLS = new Set(["event_search", "event_read", "event_trace", "session_search"]);
const READ_TOOLS = new Set(["read"]);
const CHANGE_TOOLS = new Set(["edit", "write", "multi_edit"]);

function toolCallFiles(name: string, args: unknown, fragmentId: string, cwd: string, out: FileEvidence[]): void {
	const rel = READ_TOOLS.has(name) ? "read" : CHANGE_TOOLS.has(name) ? "changed" : null;
	if (!rel || !isObj(args)) return;
	const path = str(args.path) ?? str(args.file_path) ?? str(args.filePath);
	if (path) out.push({ path: resolveEvidencePath(path, cwd), rel, via: fragmentId });
}

/** The tools a tool result's codemode script called (pi ≥ 0.99 `nestedCalls`): the calls are in no other entry. */
export function nestedCallNames(message: unknown): string[] {
	const calls = isObj(message) && isObj(message.nestedCalls) ? message.nestedCalls.calls : undefined;
	return Array.isArray(calls) ? calls.flatMap((c) => (isObj(c) && typeof c.name === "string" ? [c.name] : [])) : [];
}

/** Paths read or changed by the calls a codemode script made, as pi's compaction file lists count them. */
function nestedCallFiles(nested: unknown, cwd: string, out: FileEvidence[]): void {
	const calls = isObj(nested) ? nested.calls : undefined;
	if (!Array.isArray(calls)) return;
	calls.forEach((c, i) => {
		if (isObj(c) && typeof c.name === "string") toolCallFiles(c.name, c.arguments, `nestedCalls.${i}`, cwd, out);
	});
}

function detailFiles(details: unknown, cwd: string, out: FileEvidence[]): void {
	if (!isObj(details)) return;
	for (const [key, rel] of [
		["readFiles", "read"],
		["modifiedFiles", "changed"],
	] as const) {
		const list = details[key];
		if (!Array.isArray(list)) continue;
		for (const p of list) if (typeof p === "string" && p) out.push({ path: resolveEvidencePath(p, cwd), rel, via: `details.${key}` });
	}
}

function contextRoleOf(type: string): ContextRole {
	switch (type) {
		case "message":
		case "custom_message":
			return "conversation";
		case "compaction":
		case "branch_summary":
			return "summary";
		case "model_change":
		case "thinking_level_change":
		case "context_edit":
			return "control";
		default:
			return "metadata";
	}
}

function timestampMs(raw: Obj, message: Obj | null): number | null {
	const ts = str(raw.timestamp);
	if (ts) {
		const ms = Date.parse(ts);
		if (Number.isFinite(ms)) return ms;
	}
	const msgTs = message ? num(message.timestamp) : null;
	return msgTs;
}

function describe(ev: ProjectedEvent, raw: Obj): string {
	// Sections repeat in every session: name them instead of copying the prompt's start into every session's row.
	if (ev.role === "system" && ev.fragments.length)
		return previewText(`system prompt: ${ev.fragments.map((f) => f.id.slice("system.prompt:".length)).join(", ")}`);
	const first = ev.fragments[0];
	if (first) return previewText(textStart(first.text, PREVIEW_CHARS * 4));
	switch (ev.type) {
		case "model_change":
			return previewText(`model → ${str(raw.provider) ?? "?"}/${str(raw.modelId) ?? str(raw.model) ?? "?"}`);
		case "thinking_level_change":
			return `thinking level → ${str(raw.thinkingLevel) ?? "?"}`;
		case "label":
			return ev.label === null ? `label cleared on ${ev.refId ?? "?"}` : previewText(`label "${ev.label}" on ${ev.refId ?? "?"}`);
		case "session_info":
			return ev.sessionName ? previewText(`session name: ${ev.sessionName}`) : "session name cleared";
		case "custom":
			return previewText(`extension state ${ev.customType ?? ""}`.trim());
		case "context_edit":
			return previewText(ev.ctxFlags & CTX_OMITS ? `omits ${ev.refId ?? "?"} from the model context` : `replaces ${ev.refId ?? "?"} in the model context`);
		case "usage":
			return previewText(`usage ${str(raw.kind) ?? ""} ${str(raw.provider) ?? "?"}/${str(raw.model) ?? "?"}`);
		case "message":
			if (ev.role === "system") return "(system prompt without sections)";
			if (ev.role === "assistant") return ev.stopReason ? `(assistant reply without text, ${ev.stopReason})` : "(assistant reply without text)";
			return `(${ev.role ?? "message"} without text)`;
		default:
			return `(${ev.type})`;
	}
}

/** Projects one entry; `cwd` resolves relative paths of file evidence. */
export function projectEntry(entry: ParsedEntry, cwd = ""): ProjectedEvent {
	const raw = entry.raw;
	const message = entry.type === "message" && isObj(raw.message) ? raw.message : null;
	const role = message ? (str(message.role) ?? "unknown") : null;
	const fragments: Fragment[] = [];
	const toolCalls: ProjectedEvent["toolCalls"] = [];
	const files: FileEvidence[] = [];
	const ev: ProjectedEvent = {
		entryId: entry.id,
		parentId: entry.parentId,
		type: entry.type,
		role,
		timestamp: str(raw.timestamp) ?? "",
		tsMs: timestampMs(raw, message),
		toolName: null,
		toolCallId: null,
		isError: null,
		exitCode: null,
		model: null,
		provider: null,
		stopReason: null,
		customType: str(raw.customType),
		refId: null,
		label: null,
		sessionName: null,
		contextRole: contextRoleOf(entry.type),
		messageProducing: false,
		ctxFlags: 0,
		fragments,
		toolCalls,
		files,
		preview: "",
	};

	switch (entry.type) {
		case "message": {
			ev.messageProducing = message !== null;
			if (!message) break;
			if (role === "user") {
				textBlocks(message.content, "user.text", "message.content", fragments);
			} else if (role === "assistant") {
				ev.model = str(message.model);
				ev.provider = str(message.provider);
				ev.stopReason = str(message.stopReason);
				const content = Array.isArray(message.content) ? message.content : [];
				content.forEach((block, i) => {
					if (!isObj(block)) return;
					const text = block.type === "text" ? fieldText(block.text) : null;
					if (text !== null && text.length > 0) {
						fragments.push({ id: `assistant.text:${i}`, kind: "assistant.text", text, path: `message.content.${i}.text` });
					} else if (block.type === "toolCall") {
						const name = str(block.name) ?? "";
						const id = `tool.call:${i}`;
						// The name and the argument lines in one join: the lines joined first were copied again with the name.
						const args = argumentParts(block.arguments);
						const text = args.some((a) => a.length > 0) ? joinTexts([name, "\n", ...args]) : name;
						fragments.push({ id, kind: "tool.call", text, path: `message.content.${i}.arguments` });
						if (typeof block.id === "string") toolCalls.push({ id: block.id, name, fragmentId: id });
						toolCallFiles(name, block.arguments, id, cwd, files);
					}
				});
				const whole = fieldText(message.content);
				if (whole !== null && whole.length > 0) fragments.push({ id: "assistant.text:0", kind: "assistant.text", text: whole, path: "message.content" });
				const errorMessage = fieldText(message.errorMessage);
				if (errorMessage !== null && errorMessage.length > 0)
					fragments.push({ id: "assistant.error:0", kind: "assistant.error", text: errorMessage, path: "message.errorMessage" });
				// pi-ai's transformMessages never replays an errored or aborted reply: on the path, the model never saw it.
				const failed = ev.stopReason === "error" || ev.stopReason === "aborted";
				if (failed) ev.ctxFlags |= CTX_EXCLUDED;
				ev.isError = failed || errorMessage !== null;
			} else if (role === "toolResult") {
				ev.toolName = str(message.toolName);
				ev.toolCallId = str(message.toolCallId);
				ev.isError = message.isError === true;
				textBlocks(message.content, "tool.result", "message.content", fragments);
				nestedCallFiles(message.nestedCalls, cwd, files);
			} else if (role === "bashExecution") {
				const command = fieldText(message.command);
				const output = fieldText(message.output);
				if (command !== null && command.length > 0) fragments.push({ id: "bash.command:0", kind: "bash.command", text: command, path: "message.command" });
				if (output !== null && output.length > 0) fragments.push({ id: "bash.output:0", kind: "bash.output", text: output, path: "message.output" });
				ev.exitCode = num(message.exitCode);
				ev.isError = ev.exitCode !== null && ev.exitCode !== 0;
				// `!!`: pi keeps it in the session but its convertToLlm never sends it to the model.
				if (message.excludeFromContext === true) ev.ctxFlags |= CTX_EXCLUDED;
			} else if (role === "system") {
				// pi 1.x system messages: named sections (the default prompt is ~5 KB and repeats in every session).
				if (isObj(message.sections))
					for (const [name, value] of Object.entries(message.sections)) {
						const text = fieldText(value);
						if (text !== null && text.length > 0)
							fragments.push({ id: `system.prompt:${name}`, kind: "system.prompt", text, path: `message.sections.${name}` });
					}
				const content = fieldText(message.content);
				if (content !== null && content.length > 0)
					fragments.push({ id: "system.prompt:content", kind: "system.prompt", text: content, path: "message.content" });
			} else if (role === "custom" || role === "hookMessage") {
				ev.customType = str(message.customType);
				textBlocks(message.content, "custom.message", "message.content", fragments);
				customTypeFragment(ev.customType, "message.customType", fragments);
			}
			break;
		}
		case "custom_message":
			ev.messageProducing = true;
			textBlocks(raw.content, "custom.message", "content", fragments);
			customTypeFragment(ev.customType, "customType", fragments);
			break;
		case "compaction": {
			const summary = fieldText(raw.summary);
			if (summary !== null && summary.length > 0) fragments.push({ id: "summary.compaction:0", kind: "summary.compaction", text: summary, path: "summary" });
			ev.refId = str(raw.firstKeptEntryId) ?? entry.legacyFirstKeptEntryId ?? null;
			detailFiles(raw.details, cwd, files);
			break;
		}
		case "branch_summary": {
			const summary = fieldText(raw.summary);
			if (summary !== null && summary.length > 0) fragments.push({ id: "summary.branch:0", kind: "summary.branch", text: summary, path: "summary" });
			ev.messageProducing = summary !== null && summary.length > 0;
			ev.refId = str(raw.fromId);
			detailFiles(raw.details, cwd, files);
			break;
		}
		case "context_edit": {
			ev.refId = str(raw.targetId);
			const replacement = raw.replacement;
			if (replacement === null) ev.ctxFlags |= CTX_OMITS;
			else if (isObj(replacement)) textBlocks(replacement.content, "context.replacement", "replacement.content", fragments);
			break;
		}
		case "usage":
			ev.provider = str(raw.provider);
			ev.model = str(raw.model);
			break;
		case "label":
			ev.refId = str(raw.targetId);
			ev.label = str(raw.label) || null;
			break;
		case "session_info": {
			const name = str(raw.name);
			ev.sessionName = name ?? "";
			if (name) fragments.push({ id: "session.name:0", kind: "session.name", text: name, path: "name" });
			break;
		}
		case "model_change":
			ev.provider = str(raw.provider);
			ev.model = str(raw.modelId) ?? str(raw.model);
			break;
		default:
			break;
	}
	ev.preview = describe(ev, raw);
	return ev;
}

export { describeEntry } from "./describe.js";
export { boundFragment } from "./long-text.js";
