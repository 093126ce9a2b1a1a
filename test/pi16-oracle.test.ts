/**
 * Pi 1.x histories read exactly as pi 1.6 sees them. Ground truth is pi 1.6's own code (oracle16.ts: getBranch,
 * buildSessionProjection and convertToLlm's excludeFromContext rule), on files its SessionManager wrote, one per row
 * of docs/design.md §10, checked entry by entry through a real index; plus a property that drives a 1.6
 * SessionManager through random operation sequences and compares every entry.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanFile } from "../src/project/file-scan.js";
import { classifyTree } from "../src/project/tree.js";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { expectEqualsFreshBuild, expectSameIndex } from "./helpers/dump.js";
import { type Pi16Manager, pi16View, sessionText, sm, type Verdict, verdicts } from "./helpers/oracle16.js";
import { type Ids, writePi16Sessions } from "./helpers/pi16-sessions.js";

const tmp = tempDir("pes-pi16-oracle-");
let service: HistoryService;
let files: Record<string, string>;
let ids: Ids;
const headerId = (file: string) => (JSON.parse(readFileSync(file, "utf8").split("\n")[0] as string) as { id: string }).id;

beforeAll(() => {
	const dir = join(tmp.dir, "sessions");
	({ files, ids } = writePi16Sessions(dir, "/work/app"));
	service = openService(dir, join(tmp.dir, "index.sqlite"));
	service.refresh();
});

afterAll(() => {
	service.close();
	tmp.cleanup();
});

describe("files written by pi 1.6's SessionManager, entry by entry against pi 1.6's own answer", () => {
	it("agrees on branchState, selectionState and contextEdit for every entry of every file", () => {
		let checked = 0;
		for (const [name, file] of Object.entries(files)) {
			const sessionId = headerId(file);
			for (const [entryId, expected] of pi16View(readFileSync(file, "utf8"), "/work/app")) {
				const c = service.read({ sessionId, entryId, maxChars: 1 }).classification;
				expect({ branchState: c.branchState, selectionState: c.selectionState, contextEdit: c.contextEdit ?? null }, `${name} ${entryId}`).toEqual(expected);
				checked++;
			}
		}
		expect(checked).toBeGreaterThan(60);
	});

	it("covers every row: omitted, replaced, folded system messages, retain-none, fromId, roots, `!!` bash", () => {
		const view = (name: string) => pi16View(readFileSync(files[name] as string, "utf8"), "/work/app");
		const edits = view("edits");
		expect(edits.get(ids.failed as string)).toMatchObject({ selectionState: "omitted", contextEdit: { state: "omitted", by: ids.omitFailed } });
		expect(edits.get(ids.u1 as string)?.contextEdit).toEqual({ state: "replaced", by: ids.editU1 });
		expect(edits.get(ids.a2 as string)).toMatchObject({ selectionState: "direct", contextEdit: null });
		expect(edits.get(ids.final as string)?.branchState).toBe("selected");
		const system = view("system");
		expect(system.get(ids.sys2 as string)?.selectionState).toBe("summarized");
		expect(system.get(ids.sys3 as string)?.selectionState).toBe("direct");
		expect(view("compactions").get(ids.usageA as string)?.selectionState).toBe("summarized");
		expect(view("branches").get(ids.abandonedA as string)?.selectionState).toBe("summarized");
		expect(view("roots").get(ids.bashHidden as string)?.selectionState).toBe("omitted");
		expect(view("roots").get(ids.bashSeen as string)?.selectionState).toBe("direct");
	});

	it("reads an empty branch summary as giving the model nothing, on the path and off it", () => {
		const text = readFileSync(files.branches as string, "utf8");
		const entry = sm.parseSessionEntries(text).find((e) => e.id === ids.emptySummary) as Parameters<typeof sm.sessionEntryToContextMessages>[0];
		expect(sm.sessionEntryToContextMessages(entry)).toEqual([]);
		const c = service.read({ sessionId: headerId(files.branches as string), entryId: ids.emptySummary as string, maxChars: 1 }).classification;
		expect(c).toMatchObject({ branchState: "alternate", selectionState: "not-applicable" });
	});

	it("finds a context edit's replacement text, and the hit names the entry it replaced", () => {
		const result = service.search({ query: "ZEBRA_REPLACEMENT_TEXT" });
		expect(result.hits).toHaveLength(1);
		expect(result.hits[0]).toMatchObject({ entryId: ids.editU1, entryType: "context_edit", kind: "context.replacement", targetId: ids.u1 });
	});

	it("traces edits both ways: in effect, superseded, on an abandoned branch", () => {
		const sessionId = headerId(files.edits as string);
		const onU1 = service.trace({ sessionId, entryId: ids.u1 as string }).edges.filter((e) => e.rel === "edits");
		const note = (by: string) => onU1.find((e) => "entryId" in e.to && e.to.entryId === by)?.note ?? "";
		expect(note(ids.editU1 as string)).toContain("in effect");
		expect(note(ids.editU1First as string)).toContain(`superseded by ${ids.editU1}`);
		const onA2 = service.trace({ sessionId, entryId: ids.a2 as string }).edges.filter((e) => e.rel === "edits");
		expect(onA2.map((e) => e.note)).toEqual([expect.stringContaining("on an abandoned branch")]);
		const out = service.trace({ sessionId, entryId: ids.omitFailed as string }).edges.find((e) => e.rel === "edits");
		expect(out).toMatchObject({ to: { entryId: ids.failed }, provenance: "recorded" });
	});

	it("says a retain-none compaction kept nothing, instead of `compacts → itself`", () => {
		const t = service.trace({ sessionId: headerId(files.compactions as string), entryId: ids.retainNone as string });
		expect(t.edges.filter((e) => e.rel === "compacts" && "entryId" in e.to && e.to.entryId === ids.retainNone)).toEqual([]);
		expect(t.notes.join("\n")).toContain("nothing before it was kept");
	});

	it("finds a parent session with a custom id by the id in the recorded file name", () => {
		const t = service.trace({ sessionId: headerId(files.child as string), entryId: pi16FirstEntry(files.child as string) });
		expect(t.edges.find((e) => e.rel === "session-parent")?.to).toEqual({ sessionId: "task.fix-login", entryId: null });
	});

	it("indexes a complete last line without `\\n`, as pi does", () => {
		const text = readFileSync(files.edits as string, "utf8");
		expect(text.endsWith("\n")).toBe(false);
		const read = service.read({ sessionId: headerId(files.edits as string), entryId: ids.final as string });
		expect(read.fragments.map((f) => f.text)).toEqual(["You are welcome."]);
	});

	it("searches system prompts only when asked for by kind, each distinct section stored once", () => {
		expect(service.search({ query: "expert coding assistant" }).hits.filter((h) => h.kind === "system.prompt")).toEqual([]);
		const hits = service.search({ query: "expert coding assistant", filters: { kinds: ["system.prompt"] } }).hits;
		expect(new Set(hits.map((h) => h.entryId))).toEqual(new Set([ids.sys1, ids.edits0].filter(Boolean)));
		expect(hits.every((h) => h.kind === "system.prompt" && h.fragmentId === "system.prompt:preamble")).toBe(true);
		expect(hits[0]?.snippet).toContain("expert coding assistant");
	});

	it("keeps an aborted reply searchable, shown as an error the model never saw (pi-ai transformMessages)", () => {
		const hit = service.search({ query: "QUOKKA_ABORTED_REPLY" }).hits[0];
		expect(hit).toMatchObject({ entryId: ids.aborted, isError: true, branchState: "selected", selectionState: "omitted" });
		const errors = service.search({ query: "QUOKKA_ABORTED_REPLY", filters: { isError: true } }).hits.map((h) => h.entryId);
		expect(errors).toEqual([ids.aborted]);
		expect(pi16View(readFileSync(files.edits as string, "utf8"), "/work/app").get(ids.aborted as string)?.selectionState).toBe("omitted");
	});

	it("finds edit results by tool name with --kind tool.result, and failed results by `error`", () => {
		const hits = service.search({ query: "edit", filters: { kinds: ["tool.result"] } }).hits;
		expect(hits.map((h) => h.entryId)).toContain(ids.result);
		const failed = service.search({ query: "bash error", filters: { kinds: ["tool.result"] } }).hits.map((h) => h.entryId);
		expect(failed).toEqual([ids.failedResult]);
		// No edit result failed: no event holds both words, and the answer says its hits are partial matches.
		expect(service.search({ query: "edit error", filters: { kinds: ["tool.result"] } }).match).toBe("partial");
	});
});

// pi 1.x reads a complete last line without `\n` (I6); pi's next append adds the `\n`, or writes straight after it.
describe("a complete last line without `\\n` that the file goes on from", () => {
	it("reads back a complete last line without `\\n` as the bytes on disk, before and after its `\\n` arrives", () => {
		const base = join(tmp.dir, "closing");
		const dir = join(base, "sessions");
		mkdirSync(dir, { recursive: true });
		const file = join(dir, "closing.jsonl");
		const head = JSON.stringify({ type: "session", version: 3, id: "closing-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work/app" });
		const last = userLine("c2", "c1", "closing words");
		writeFileSync(file, `${head}\n${userLine("c1", null, "opening words")}\n${last}`);
		const live = openService(dir, join(base, "live.sqlite"));
		const onDisk = () => {
			const { source } = live.read({ sessionId: "closing-1", entryId: "c2" });
			return readFileSync(file)
				.subarray(source.byteOffset, source.byteOffset + source.byteLength)
				.toString("utf8");
		};
		try {
			live.refresh();
			expect(onDisk()).toBe(last);
			expectEqualsFreshBuild(dir, join(base, "live.sqlite"), join(base, "fresh-1.sqlite"));
			appendFileSync(file, "\n");
			live.refresh();
			expect(onDisk()).toBe(`${last}\n`);
			expectEqualsFreshBuild(dir, join(base, "live.sqlite"), join(base, "fresh-2.sqlite"));
			// The next line is an append after the whole prefix, newline included, not a rebuild of the file.
			appendFileSync(file, `${userLine("c3", "c2", "later words")}\n`);
			const summary = live.refresh();
			expect({ appended: summary.sessionsAppended, rebuilt: summary.sessionsRebuilt }).toEqual({ appended: 1, rebuilt: 0 });
			expect(onDisk()).toBe(`${last}\n`);
			expect(live.search({ query: "later" }).hits.map((h) => h.entryId)).toEqual(["c3"]);
			expectEqualsFreshBuild(dir, join(base, "live.sqlite"), join(base, "fresh-3.sqlite"));
		} finally {
			live.close();
		}
	});

	it("drops a complete last line without `\\n` that other bytes continued, as a fresh build does", () => {
		const base = join(tmp.dir, "continued");
		const dir = join(base, "sessions");
		mkdirSync(dir, { recursive: true });
		const file = join(dir, "continued.jsonl");
		const head = JSON.stringify({ type: "session", version: 3, id: "continued-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work/app" });
		writeFileSync(file, `${head}\n${userLine("d1", null, "opening words")}\n${userLine("d2", "d1", "closing words")}`);
		const live = openService(dir, join(base, "live.sqlite"));
		try {
			live.refresh();
			expect(live.search({ query: "closing" }).hits.map((h) => h.entryId)).toEqual(["d2"]);
			// Written straight after it: the last physical line is now two objects, which neither pi nor a fresh build reads.
			appendFileSync(file, `${userLine("d3", "d2", "later words")}\n`);
			live.refresh();
			expect(live.search({ query: "closing" }).hits).toEqual([]);
			expect(live.search({ query: "later" }).hits).toEqual([]);
			expectEqualsFreshBuild(dir, join(base, "live.sqlite"), join(base, "fresh.sqlite"));
		} finally {
			live.close();
		}
	});
});

/** A v3 user message line. */
function userLine(id: string, parentId: string | null, text: string): string {
	return JSON.stringify({
		type: "message",
		id,
		parentId,
		timestamp: "2026-01-01T00:00:01.000Z",
		message: { role: "user", content: [{ type: "text", text }], timestamp: 1 },
	});
}

function pi16FirstEntry(file: string): string {
	return (JSON.parse(readFileSync(file, "utf8").split("\n")[1] as string) as { id: string }).id;
}

/** Our classification of a session text through the real reader and classifier (no SQLite: fast enough to shrink). */
function ours(text: string, file: string): Map<string, Verdict> {
	writeFileSync(file, text);
	const scan = scanFile({ path: file, mode: "rebuild" });
	const facts = classifyTree(
		scan.entries.map((s) => ({
			id: s.entry.id,
			parentId: s.entry.parentId,
			type: s.ev.type,
			refId: s.ev.refId,
			messageProducing: s.ev.messageProducing,
			role: s.ev.role,
			ctxFlags: s.ev.ctxFlags,
		})),
		scan.leaf,
	);
	const out = new Map<string, Verdict>();
	for (const [id, st] of facts.states)
		out.set(id, { branchState: st.branchState, selectionState: st.selectionState, contextEdit: st.contextEdit ?? null } as Verdict);
	return out;
}

type Op =
	| { op: "user" | "assistant" | "failed" | "aborted" | "toolPair" | "system" | "custom" | "bash" | "usage" | "label" | "resetLeaf" }
	| { op: "omit" | "replace" | "branch" | "branchWithSummary" | "compact"; pick: number; flag?: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
	fc.constantFrom<Op>(
		{ op: "user" },
		{ op: "assistant" },
		{ op: "failed" },
		{ op: "aborted" },
		{ op: "toolPair" },
		{ op: "system" },
		{ op: "custom" },
		{ op: "bash" },
		{ op: "usage" },
		{ op: "label" },
		{ op: "resetLeaf" },
	),
	fc.record({
		op: fc.constantFrom("omit" as const, "replace" as const, "branch" as const, "branchWithSummary" as const, "compact" as const),
		pick: fc.nat(),
		flag: fc.boolean(),
	}),
);

/** Applies one operation the way pi would allow it; operations pi would refuse are skipped. */
function apply(m: Pi16Manager, o: Op, n: number): void {
	const all = m.getEntries();
	const path = m.getBranch();
	const at = <T>(list: T[], pick: number) => list[pick % list.length] as T;
	switch (o.op) {
		case "user":
			m.appendMessage({ role: "user", content: `question ${n}`, timestamp: n });
			return;
		case "assistant":
			m.appendMessage({ role: "assistant", content: [{ type: "text", text: `answer ${n}` }], stopReason: "stop", timestamp: n });
			return;
		case "failed":
			m.appendMessage({ role: "assistant", content: [], stopReason: "error", errorMessage: "overloaded", timestamp: n });
			return;
		case "aborted":
			// A reply the user interrupted mid-stream: text and a partial tool call, which pi-ai never replays.
			m.appendMessage({
				role: "assistant",
				content: [
					{ type: "text", text: `partial ${n}` },
					{ type: "toolCall", id: `x${n}`, name: "bash", arguments: {} },
				],
				stopReason: "aborted",
				errorMessage: "Request was aborted",
				timestamp: n,
			});
			return;
		case "toolPair":
			m.appendMessage({
				role: "assistant",
				content: [{ type: "toolCall", id: `c${n}`, name: "bash", arguments: { command: "ls" } }],
				stopReason: "toolUse",
				timestamp: n,
			});
			m.appendMessage({
				role: "toolResult",
				toolCallId: `c${n}`,
				toolName: "bash",
				content: [{ type: "text", text: `out ${n}` }],
				isError: false,
				timestamp: n,
			});
			return;
		case "system":
			m.appendMessage({ role: "system", content: "", sections: { preamble: `prompt ${n % 3}` }, timestamp: n });
			return;
		case "custom":
			m.appendCustomMessageEntry("note", `notice ${n}`, true);
			return;
		case "bash":
			m.appendMessage({
				role: "bashExecution",
				command: "ls",
				output: "x",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				timestamp: n,
				excludeFromContext: n % 2 === 0,
			});
			return;
		case "usage":
			m.appendUsage("cache_warm", "faux", "faux-1", { input: 1, output: 0, cacheRead: 0, cacheWrite: 1, totalTokens: 1 });
			return;
		case "label":
			if (all.length) m.appendLabelChange(at(all, n).id, n % 3 ? `l${n}` : undefined);
			return;
		case "resetLeaf":
			m.resetLeaf();
			return;
		case "omit":
		case "replace": {
			const editable = path.filter(
				(e) => e.type === "custom_message" || (e.type === "message" && ["user", "assistant", "toolResult"].includes((e.message as { role: string }).role)),
			);
			if (editable.length) m.appendContextEdit(at(editable, o.pick).id, o.op === "omit" ? null : { content: `replacement ${n}` });
			return;
		}
		case "branch":
			if (all.length) m.branch(at(all, o.pick).id);
			return;
		case "branchWithSummary": {
			// pi summarizes an abandoned branch when moving away from the leaf, never onto the leaf itself.
			const target = o.flag || all.length === 0 ? null : at(all, o.pick).id;
			if (target !== null && target === m.getLeafId()) return;
			m.branchWithSummary(target, n % 4 === 0 ? "" : `summary ${n}`);
			return;
		}
		case "compact": {
			if (!path.length) return;
			// flag: retain-none (firstKeptEntryId = the compaction's own id).
			m.appendCompaction(`compaction ${n}`, o.flag ? undefined : at(path, o.pick).id, 100);
			return;
		}
	}
}

describe("property: random pi 1.6 operation sequences", () => {
	it("every entry's branchState, selectionState and contextEdit equal pi 1.6's own answer", () => {
		const file = join(tmp.dir, "property.jsonl");
		fc.assert(
			fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), (ops) => {
				const m = sm.SessionManager.inMemory("/work/app");
				for (const [i, o] of ops.entries()) apply(m, o, i);
				const text = sessionText(m);
				const expected = verdicts(sm.SessionManager.inMemory("/work/app", undefined, sm.parseSessionEntries(text)));
				expect(Object.fromEntries(ours(text, file))).toEqual(Object.fromEntries(expected));
			}),
			{ numRuns: Number(process.env.PES_PI16_RUNS ?? 150) },
		);
	});

	it("an index refreshed after every operation equals pi 1.6's answer and a fresh build", () => {
		let run = 0;
		fc.assert(
			fc.property(fc.array(opArb, { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 3 }), (ops, every) => {
				const base = join(tmp.dir, `live-${run++}`);
				const root = join(base, "sessions");
				mkdirSync(join(root, "--w--"), { recursive: true });
				const file = join(root, "--w--", "2026-11-24T10-00-00-000Z_p.jsonl");
				const m = sm.SessionManager.inMemory("/work/app");
				const live = openService(root, join(base, "live.sqlite"));
				try {
					for (const [i, o] of ops.entries()) {
						apply(m, o, i);
						// pi appends: the file grows by the operation's lines, and the live index takes them as an append.
						if ((i + 1) % every === 0 && m.getEntries().length > 0) {
							writeFileSync(file, sessionText(m));
							live.refresh();
						}
					}
					if (m.getEntries().length === 0) return;
					writeFileSync(file, sessionText(m));
					live.refresh();
					const sessionId = (m.getHeader() as { id: string }).id;
					for (const [entryId, expected] of pi16View(sessionText(m), "/work/app")) {
						const c = live.read({ sessionId, entryId, maxChars: 1 }).classification;
						expect({ branchState: c.branchState, selectionState: c.selectionState, contextEdit: c.contextEdit ?? null }, entryId).toEqual(expected);
					}
				} finally {
					live.close();
				}
				const fresh = openService(root, join(base, "fresh.sqlite"));
				fresh.refresh();
				fresh.close();
				expectSameIndex(join(base, "live.sqlite"), join(base, "fresh.sqlite"), JSON.stringify(ops));
				rmSync(base, { recursive: true, force: true });
			}),
			{ numRuns: Number(process.env.PES_PI16_LIVE_RUNS ?? 40) },
		);
	}, 120_000);
});
