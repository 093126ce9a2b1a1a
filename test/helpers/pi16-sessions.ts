/**
 * Session files written by pi 1.6's own SessionManager (deep import, see oracle16.ts), one per case of
 * docs/design.md §10: context edits (omit, replace, repeated, on an abandoned branch), system messages folded
 * into a compaction, usage entries, retain-none and nested compactions, branch summaries with the abandoned leaf as
 * fromId (also with parentId null), several roots, `!!` bash, a custom session id and a child that names its parent
 * by a stale path. Every marker string is unique so tests can search for it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Pi16Manager, sm } from "./oracle16.js";

/** The ~5 KB default-prompt stand-in every session carries (system messages repeat it in every session). */
export const DEFAULT_PROMPT = `You are an expert coding assistant operating inside pi, a coding agent harness. ${"Use the tools to read, edit and run code; be concise. ".repeat(90)}`;

let clock = Date.parse("2026-11-21T10:00:00Z");
const ts = () => (clock += 1000);
const user = (text: string) => ({ role: "user", content: text, timestamp: ts() });
const assistant = (text: string, extra: Record<string, unknown> = {}) => ({
	role: "assistant",
	content: text ? [{ type: "text", text }] : [],
	api: "faux",
	provider: "faux",
	model: "faux-1",
	usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
	stopReason: "stop",
	thinkingLevel: "off",
	durationMs: 12,
	timestamp: ts(),
	...extra,
});
const toolCall = (name: string, id: string, args: Record<string, unknown>) =>
	assistant("", { content: [{ type: "toolCall", id, name, arguments: args }], stopReason: "toolUse" });
const toolResult = (name: string, id: string, text: string, isError = false) => ({
	role: "toolResult",
	toolCallId: id,
	toolName: name,
	content: [{ type: "text", text }],
	isError,
	timestamp: ts(),
});
const system = (sections: Record<string, string | null>, extra: Record<string, unknown> = {}) => ({
	role: "system",
	content: "",
	sections,
	timestamp: ts(),
	...extra,
});
const bash = (command: string, output: string, excludeFromContext: boolean) => ({
	role: "bashExecution",
	command,
	output,
	exitCode: 0,
	cancelled: false,
	truncated: false,
	timestamp: ts(),
	...(excludeFromContext ? { excludeFromContext: true } : {}),
});

/** Ids a test needs from the scenarios, by name. */
export type Ids = Record<string, string>;

/** Writes every scenario into `dir` (pi's own file names); returns the files and the ids of interesting entries. */
export function writePi16Sessions(dir: string, cwd: string): { files: Record<string, string>; ids: Ids } {
	const ids: Ids = {};
	const files: Record<string, string> = {};
	const make = (name: string, build: (m: Pi16Manager) => void, options?: { id?: string; parentSession?: string }) => {
		const m = sm.SessionManager.create(cwd, dir, options);
		build(m);
		files[name] = m.getSessionFile();
	};

	make("edits", (m) => {
		ids.edits0 = m.appendMessage(system({ preamble: DEFAULT_PROMPT, tools: "read, bash, edit, write" }));
		ids.u1 = m.appendMessage(user("Why does the deploy of PLATYPUS_DEPLOY fail?"));
		ids.failed = m.appendMessage(assistant("", { stopReason: "error", errorMessage: "overloaded_error: upstream busy" }));
		ids.omitFailed = m.appendContextEdit(ids.failed, null);
		ids.a2 = m.appendMessage(assistant("The deploy fails because the migration is missing."));
		ids.call = m.appendMessage(toolCall("edit", "call_edit_1", { path: "src/db.ts", oldText: "a", newText: "b" }));
		ids.result = m.appendMessage(toolResult("edit", "call_edit_1", "Successfully replaced text in src/db.ts."));
		ids.replaceResult = m.appendContextEdit(ids.result, { content: "tool output trimmed: KOALA_TRIMMED_OUTPUT" });
		ids.editU1First = m.appendContextEdit(ids.u1, { content: "first rewrite of the question" });
		ids.editU1 = m.appendContextEdit(ids.u1, { content: "rewritten question about ZEBRA_REPLACEMENT_TEXT" });
		ids.custom = m.appendCustomMessageEntry("note", "extension notice NUMBAT_NOTICE", true);
		ids.omitCustom = m.appendContextEdit(ids.custom, null);
		const mainLeaf = m.appendMessage(user("Thanks."));
		// An edit on a branch that is later abandoned: the target is unedited on the selected path.
		m.branch(ids.a2);
		m.appendMessage(user("Alternative question on a side branch."));
		ids.sideEdit = m.appendContextEdit(ids.a2, { content: "side branch rewrite WALLABY_SIDE" });
		m.branch(mainLeaf);
		ids.final = m.appendMessage(assistant("You are welcome."));
		// Interrupted mid-stream (Escape): kept in the file, never replayed to the model (pi-ai transformMessages).
		ids.aborted = m.appendMessage(assistant("Half an answer about QUOKKA_ABORTED_REPLY", { stopReason: "aborted", errorMessage: "Request was aborted" }));
		ids.afterAborted = m.appendMessage(user("Try again."));
	});

	make("system", (m) => {
		ids.sys1 = m.appendMessage(
			system({ preamble: DEFAULT_PROMPT, tools: "read, bash" }, { toolsAdded: [{ name: "read", description: "Read", parameters: {} }] }),
		);
		m.appendMessage(user("first question"));
		m.appendMessage(assistant("first answer"));
		ids.keep = m.appendMessage(user("second question"));
		ids.sys2 = m.appendMessage(system({ rules: "Always answer in English.", docs: null }, { toolsRemoved: [{ name: "bash" }] }));
		m.appendMessage(assistant("second answer"));
		ids.compactSys = m.appendCompaction("Summary of the first two questions.", ids.keep, 1000);
		ids.sys3 = m.appendMessage(system({ cwd: "/work/app" }));
		m.appendMessage(user("third question"));
		m.appendMessage(assistant("third answer"));
	});

	make("compactions", (m) => {
		m.appendMessage(user("question one"));
		ids.usageA = m.appendMessage(assistant("answer one"));
		m.appendUsage("cache_warm", "faux", "faux-1", { input: 10, output: 0, cacheRead: 0, cacheWrite: 10, totalTokens: 10 }, "warm");
		ids.retainNone = m.appendCompaction("Nothing kept: all summarized.", undefined, 500);
		ids.afterNone = m.appendMessage(user("question two"));
		m.appendMessage(assistant("answer two"));
		ids.nested = m.appendCompaction("Second compaction keeps from question two.", ids.afterNone, 600);
		m.appendMessage(user("question three"));
		m.appendMessage(assistant("answer three"));
		// A newer compaction whose kept range holds the older one.
		ids.newest = m.appendCompaction("Third compaction keeps from question two too.", ids.afterNone, 700);
		m.appendMessage(user("question four"));
	});

	make("branches", (m) => {
		m.appendMessage(user("start"));
		ids.b1 = m.appendMessage(assistant("first answer"));
		ids.abandonedQ = m.appendMessage(user("abandoned question"));
		ids.abandonedA = m.appendMessage(assistant("abandoned answer"));
		ids.summary = m.branchWithSummary(ids.b1, "The abandoned branch tried X.");
		m.appendMessage(user("new direction"));
		ids.b3 = m.appendMessage(assistant("new answer"));
		ids.emptySummary = m.branchWithSummary(ids.b1, "");
		m.appendMessage(user("after an empty summary"));
		ids.rootSummary = m.branchWithSummary(null, "Everything so far, summarized at a new root.");
		m.appendMessage(user("fresh start"));
		m.appendMessage(assistant("fresh answer"));
	});

	make("roots", (m) => {
		m.appendModelChange("faux", "faux-1");
		ids.r1 = m.appendMessage(user("first root question"));
		m.appendMessage(assistant("first root answer"));
		m.appendLabelChange(ids.r1, "checkpoint");
		m.appendCustomEntry("pi.bug-report", { id: "r1" });
		m.resetLeaf();
		ids.r2 = m.appendMessage(user("second root question"));
		m.appendMessage(bash("ls -la", "secret listing ECHIDNA_PRIVATE", true));
		ids.bashSeen = m.appendMessage(bash("git status", "clean tree", false));
		m.appendMessage(toolCall("bash", "call_bash_9", { command: "cat /root/x" }));
		ids.failedResult = m.appendMessage(toolResult("bash", "call_bash_9", "cat: /root/x: Permission denied", true));
		ids.bashHidden = m.getBranch().find((e) => (e.message as { command?: string } | undefined)?.command === "ls -la")?.id ?? "";
		m.appendMessage(assistant("second root answer"));
	});

	make(
		"custom-id",
		(m) => {
			m.appendMessage(user("custom id session"));
			m.appendMessage(assistant("custom id answer"));
		},
		{ id: "task.fix-login" },
	);
	make(
		"child",
		(m) => {
			m.appendMessage(user("child of the custom id session"));
			m.appendMessage(assistant("child answer"));
		},
		{ parentSession: join("/elsewhere", "2020-01-01T00-00-00-000Z_task.fix-login.jsonl") },
	);

	// pi 1.x counts a complete last line without `\n` (it may be the leaf).
	const unterminated = files.edits as string;
	writeFileSync(unterminated, readFileSync(unterminated, "utf8").replace(/\n$/, ""));
	return { files, ids };
}
