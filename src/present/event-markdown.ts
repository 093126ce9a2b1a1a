/**
 * Events as Markdown, for the explorer's copy (`m`) and branch export (`E`). Session text stays data: it goes into
 * fenced code blocks whose fence is longer than any backtick run in the text (so no line of it can close the block),
 * one-line values into inline code spans built the same way, and control characters become visible symbols (I21:
 * the Markdown may be printed to a terminal later, by `cat` or a pager).
 */
import type { ReadResult } from "../shared/types.js";
import { neutralize, neutralizeLine } from "./terminal-safe.js";
import { stateMarks } from "./text.js";

/** The longest run of backticks in `s` (0 when it has none). */
function longestBacktickRun(s: string): number {
	let best = 0;
	for (const m of s.matchAll(/`+/g)) best = Math.max(best, m[0].length);
	return best;
}

/** A one-line value as an inline code span no backtick in it can end early (CommonMark: a longer delimiter, padded). */
export function inlineCode(value: string): string {
	const s = neutralizeLine(value);
	if (s === "") return "` `";
	const tick = "`".repeat(longestBacktickRun(s) + 1);
	const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
	return `${tick}${pad}${s}${pad}${tick}`;
}

/** Text as a fenced code block: the fence is longer than any backtick run in the text, so no line of it closes the block. */
export function fence(text: string, info = "text"): string {
	const s = neutralize(text);
	const tick = "`".repeat(Math.max(3, longestBacktickRun(s) + 1));
	return `${tick}${info}\n${s}${s.endsWith("\n") || s === "" ? "" : "\n"}${tick}`;
}

/** What the event is: its entry type, with the message role when it has one ("message/user", "compaction"). */
export function eventKind(read: ReadResult): string {
	const role = (read.event.message as { role?: unknown } | undefined)?.role;
	return typeof role === "string" ? `${read.event.type}/${role}` : read.event.type;
}

/** The heading line of an event: its kind and time, with a prefix such as "3/12 · " for a branch. */
function heading(read: ReadResult, prefix: string): string {
	const ts = typeof read.event.timestamp === "string" ? ` · ${read.event.timestamp}` : "";
	return `## ${prefix}${neutralizeLine(eventKind(read))}${neutralizeLine(ts)}`;
}

/** The metadata list of an event: ref, session, branch and selection state, source line. */
function metadata(read: ReadResult): string[] {
	const c = read.classification;
	const session = read.session.name ? `${inlineCode(read.session.name)} in ${inlineCode(read.session.cwd)}` : inlineCode(read.session.cwd);
	const marks = stateMarks({ branchState: c.branchState, selectionState: c.selectionState, ...(c.contextEdit ? { contextEdit: c.contextEdit } : {}) });
	const lines = [
		`- ref: ${inlineCode(`${read.session.id} ${read.event.entryId}`)}`,
		`- session: ${session}`,
		`- state: ${c.branchState} branch · ${c.selectionState}${marks.length > 0 ? ` (${marks.map(neutralizeLine).join("; ")})` : ""}`,
		`- source: ${inlineCode(`${read.source.file}:${read.source.line}`)}`,
	];
	for (const o of read.omitted)
		lines.push(`- not shown: ${inlineCode(o.path)} (${neutralizeLine(o.reason)}${o.mimeType ? `, ${neutralizeLine(o.mimeType)}` : ""})`);
	return lines;
}

/** The fragments of an event as fenced blocks, each labelled when there are several, with what was cut when it was. */
function body(read: ReadResult): string[] {
	const out: string[] = [];
	const several = read.fragments.length > 1;
	for (const f of read.fragments) {
		out.push("");
		if (several) out.push(`${inlineCode(f.kind)} (fragment ${inlineCode(f.id)})`, "");
		out.push(fence(f.text));
		if (f.range[0] > 0 || f.range[1] < f.totalChars) out.push("", `*(characters ${f.range[0]}–${f.range[1]} of ${f.totalChars})*`);
	}
	if (read.fragments.length === 0) out.push("", "*(no text)*");
	return out;
}

/** One event as Markdown: a heading, its metadata, its text in fenced blocks. */
export function eventMarkdown(read: ReadResult, prefix = ""): string {
	return [heading(read, prefix), "", ...metadata(read), ...body(read)].join("\n").concat("\n");
}

/** A branch from its root to an event (events in branch order, root first) as one Markdown document. */
export function branchMarkdown(events: ReadResult[], notes: string[] = []): string {
	const last = events.at(-1);
	if (!last) return "# Empty branch\n";
	const session = last.session.name ? `${neutralizeLine(last.session.name)} (${inlineCode(last.session.id)})` : inlineCode(last.session.id);
	const head = [
		`# Branch of ${session}: root → ${inlineCode(last.event.entryId)}`,
		"",
		`${events.length} event${events.length === 1 ? "" : "s"} in branch order, from the root to the event. Session file: ${inlineCode(last.session.file)}.`,
	];
	for (const n of notes) head.push("", `> ${neutralizeLine(n)}`);
	const parts = events.map((e, i) => eventMarkdown(e, `${i + 1}/${events.length} · `));
	return `${head.join("\n")}\n\n${parts.join("\n")}`;
}
