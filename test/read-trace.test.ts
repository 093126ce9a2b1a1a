import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryService } from "../src/service/service.js";
import { NotFoundError, SourceChangedError } from "../src/shared/errors.js";
import type { EventBrief, TraceResult } from "../src/shared/types.js";
import { copyCorpus, fixtureEntry, loadManifest, type Manifest, needleAs, openService, readEntries, tempDir } from "./helpers/corpus.js";
import { assistant, createSession, SessionManager, toolResult, user } from "./helpers/pi-sessions.js";

let tmp: ReturnType<typeof tempDir>;
let service: HistoryService;
const ids: Record<string, string> = {};
let seedSession = "";
let summarySession = "";
let forkChild = "";
let fullFork = "";
let seedFile = "";

const ents = (list: EventBrief[]) => list.map((b) => b.entryId);
const edgeTo = (t: TraceResult, rel: string, direction?: "in") =>
	t.edges.filter((e) => e.rel === rel && (direction ? e.direction === direction : e.direction !== "in")).map((e) => ("entryId" in e.to ? e.to.entryId : null));

beforeAll(() => {
	tmp = tempDir();
	const dir = join(tmp.dir, "sessions");
	// The seed's tree: A → B → C → D, then a rewind to B and B → E → F (written by pi's SessionManager).
	const sm = createSession("/work/seed", dir);
	ids.A = sm.appendMessage(user("A: why does the webhook retry loop never stop?"));
	ids.B = sm.appendMessage(assistant("B: I will look at retry_with_backoff."));
	ids.C = sm.appendMessage(user("C: try the old branch"));
	ids.D = sm.appendMessage(assistant("D: the old branch answer"));
	sm.branch(ids.B);
	ids.E = sm.appendMessage(user("E: no, check handleWebhook instead"));
	ids.F = sm.appendMessage(assistant("F: handleWebhook ignores the max attempts"));
	// A compaction that keeps E onward, then more turns.
	ids.K = sm.appendCompaction("Summary: the retry loop ignores max attempts", ids.E, 1234, { readFiles: ["src/retry.ts"], modifiedFiles: [] });
	ids.G = sm.appendMessage(user("G: fix it"));
	ids.H = sm.appendMessage(
		assistant("H: fixed", [{ id: "call_1", name: "edit", arguments: { path: "src/retry.ts", edits: [{ oldText: "a", newText: "b" }] } }]),
	);
	ids.R = sm.appendMessage(toolResult("call_1", "edit", "Successfully replaced 1 block(s) in src/retry.ts."));
	ids.L = sm.appendLabelChange(ids.F, "root-cause");
	seedSession = sm.getSessionId();
	seedFile = sm.getSessionFile() as string;

	// A branch summary made by branchWithSummary: X1 → X2 → X3 → X4, back to X2 with a summary, then X5.
	const s2 = createSession("/work/seed", dir);
	ids.X1 = s2.appendMessage(user("X1: start"));
	ids.X2 = s2.appendMessage(assistant("X2: ok"));
	ids.X3 = s2.appendMessage(user("X3: explore a dead end"));
	ids.X4 = s2.appendMessage(assistant("X4: dead end reached"));
	ids.S = s2.branchWithSummary(ids.X2, "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\ndead end");
	ids.X5 = s2.appendMessage(user("X5: continue from here"));
	ids.X6 = s2.appendMessage(assistant("X6: continuing"));
	summarySession = s2.getSessionId();

	// /fork: a new file with the root → target path; then the child goes on.
	const forkSource = SessionManager.open(seedFile, dir);
	const childFile = forkSource.createBranchedSession(ids.F) as string;
	const child = SessionManager.open(childFile, dir);
	ids.Y1 = child.appendMessage(user("Y1: continue in the fork"));
	ids.Y2 = child.appendMessage(assistant("Y2: fork reply"));
	forkChild = child.getSessionId();

	// --fork: every entry copied into a session of another cwd, then a new turn.
	const copy = SessionManager.forkFrom(seedFile, "/work/other", dir);
	ids.Z1 = copy.appendMessage(user("Z1: after --fork"));
	ids.Z2 = copy.appendMessage(assistant("Z2: ok"));
	fullFork = copy.getSessionId();

	service = openService([dir, copyCorpus(join(tmp.dir, "corpus"))], join(tmp.dir, "index.sqlite"));
	service.refresh();
});
afterAll(() => {
	service.close();
	tmp.cleanup();
});

describe("branch and append neighbors (the seed's example)", () => {
	it("reads E: B before it and F after it in branch order, D before it in append order", () => {
		const branch = service.read({ sessionId: seedSession, entryId: ids.E as string, before: 1, after: 1 });
		expect(ents(branch.neighbors.before)).toEqual([ids.B]);
		expect(ents(branch.neighbors.after)).toEqual([ids.F]);
		const append = service.read({ sessionId: seedSession, entryId: ids.E as string, before: 1, after: 1, order: "append" });
		expect(ents(append.neighbors.before)).toEqual([ids.D]);
		expect(append.neighbors.note).toMatch(/interleave/);
	});

	it("reads B: continues to E along the materialized path and reports C as a fork candidate", () => {
		const r = service.read({ sessionId: seedSession, entryId: ids.B as string, before: 1, after: 2 });
		expect(ents(r.neighbors.after)).toEqual([ids.E, ids.F]);
		expect(ents(r.neighbors.forkCandidates)).toEqual([ids.C]);
	});

	it("reads C off the path: the only child D follows, and the entry is an alternate", () => {
		const r = service.read({ sessionId: seedSession, entryId: ids.C as string, after: 3 });
		expect(ents(r.neighbors.after)).toEqual([ids.D]);
		expect(r.classification).toMatchObject({ branchState: "alternate", selectionState: "not-selected" });
	});
});

describe("trace", () => {
	it("traces E: parent B, child F, sibling C (derived)", () => {
		const t = service.trace({ sessionId: seedSession, entryId: ids.E as string });
		expect(edgeTo(t, "parent")).toEqual([ids.B]);
		expect(edgeTo(t, "child")).toEqual([ids.F]);
		expect(edgeTo(t, "sibling")).toEqual([ids.C]);
		expect(t.edges.find((e) => e.rel === "sibling")?.provenance).toBe("derived");
		expect(t.edges.find((e) => e.rel === "parent")?.provenance).toBe("recorded");
	});

	it("traces B: both child branches, and the child toward the materialized leaf", () => {
		const t = service.trace({ sessionId: seedSession, entryId: ids.B as string });
		expect(edgeTo(t, "child")).toEqual([ids.C, ids.E]);
		expect(edgeTo(t, "toward-leaf")).toEqual([ids.E]);
	});

	it("traces a compaction to its first kept entry (recorded) and the entries it replaced (derived)", () => {
		const t = service.trace({ sessionId: seedSession, entryId: ids.K as string });
		const compacts = t.edges.filter((e) => e.rel === "compacts");
		expect(compacts.find((e) => e.provenance === "recorded")?.to).toEqual({ sessionId: seedSession, entryId: ids.E });
		expect(compacts.filter((e) => e.provenance === "derived").map((e) => ("entryId" in e.to ? e.to.entryId : null))).toEqual([ids.A, ids.B]);
		const a = service.read({ sessionId: seedSession, entryId: ids.A as string });
		expect(a.classification).toMatchObject({ selectionState: "summarized", summarizedBy: { entryId: ids.K, provenance: "recorded" } });
		expect(edgeTo(service.trace({ sessionId: seedSession, entryId: ids.E as string }), "compacts", "in")).toContain(ids.K);
		const files = t.edges.filter((e) => e.rel === "file-read");
		expect(files).toEqual([expect.objectContaining({ to: { file: "/work/seed/src/retry.ts" }, provenance: "inferred" })]);
	});

	it("traces a branch summary made by branchWithSummary: the branch point (recorded) and the abandoned branch (derived)", () => {
		const t = service.trace({ sessionId: summarySession, entryId: ids.S as string });
		const from = t.edges.filter((e) => e.rel === "branch-summary-from");
		expect(from.find((e) => e.provenance === "recorded")?.to).toEqual({ sessionId: summarySession, entryId: ids.X2 });
		expect(from.filter((e) => e.provenance === "derived").map((e) => ("entryId" in e.to ? e.to.entryId : null))).toEqual([ids.X3, ids.X4]);
		expect(service.read({ sessionId: summarySession, entryId: ids.X3 as string }).classification).toMatchObject({
			branchState: "alternate",
			selectionState: "summarized",
			summarizedBy: { entryId: ids.S, provenance: "derived" },
		});
	});

	it("traces labels both ways: label → target, target → its current label", () => {
		expect(edgeTo(service.trace({ sessionId: seedSession, entryId: ids.L as string }), "labels")).toEqual([ids.F]);
		const target = service.trace({ sessionId: seedSession, entryId: ids.F as string });
		expect(edgeTo(target, "labels", "in")).toEqual([ids.L]);
	});

	it("traces tool calls and results both ways, with file evidence inferred", () => {
		expect(edgeTo(service.trace({ sessionId: seedSession, entryId: ids.R as string }), "tool-result-for")).toEqual([ids.H]);
		const call = service.trace({ sessionId: seedSession, entryId: ids.H as string });
		expect(edgeTo(call, "tool-result-for", "in")).toEqual([ids.R]);
		expect(call.edges.filter((e) => e.rel === "file-changed")).toEqual([
			expect.objectContaining({ to: { file: "/work/seed/src/retry.ts" }, provenance: "inferred" }),
		]);
	});

	it("follows a /fork child to its parent session and back (derived fork point)", () => {
		// pi re-creates the label on F at the end of the copied path, so the child's own history starts there.
		const back = service.trace({ sessionId: seedSession, entryId: ids.F as string });
		const incoming = back.edges.filter((e) => e.rel === "fork-of" && e.direction === "in");
		expect(incoming).toHaveLength(1);
		const first = incoming[0]?.to as { sessionId: string; entryId: string };
		expect(first.sessionId).toBe(forkChild);
		const t = service.trace({ sessionId: forkChild, entryId: first.entryId });
		expect(t.edges.find((e) => e.rel === "session-parent")?.to).toEqual({ sessionId: seedSession, entryId: null });
		expect(t.edges.find((e) => e.rel === "fork-of")).toMatchObject({ provenance: "derived", to: { sessionId: seedSession, entryId: ids.F } });
		// Y1 continues the child's branch below the fork point.
		expect(service.read({ sessionId: forkChild, entryId: ids.Y1 as string, before: 5 }).neighbors.before.map((b) => b.entryId)).toContain(ids.F);
		const copied = service.trace({ sessionId: forkChild, entryId: ids.E as string });
		expect(copied.edges.find((e) => e.rel === "fork-of")?.to).toEqual({ sessionId: seedSession, entryId: ids.E });
	});

	it("handles the dangling parentId pi's /clone leaves when it drops a label: the entry is found in the parent session", () => {
		const manifest = loadManifest();
		const f = manifest.files.find((x) => x.danglingParentId) as Manifest["files"][number];
		const orphan = readEntries(join(tmp.dir, "corpus", f.file)).find((e) => e.parentId === f.danglingParentId)?.id as string;
		expect(orphan).toEqual(expect.any(String));
		const t = service.trace({ sessionId: f.sessionId as string, entryId: orphan });
		const parent = t.edges.find((e) => e.rel === "parent");
		expect(parent?.provenance).toBe("derived");
		expect(parent?.note).toMatch(/parent session/);
		expect(parent?.to).toMatchObject({ entryId: f.danglingParentId });
		expect((parent?.to as { sessionId: string } | undefined)?.sessionId).not.toBe(f.sessionId);
		// Pi's own loader treats the orphan as a root of its branch; so do we.
		expect(service.read({ sessionId: f.sessionId as string, entryId: orphan, before: 3 }).neighbors.before).toEqual([]);
	});

	it("follows a --fork copy (all entries, another cwd) to the parent's leaf", () => {
		const t = service.trace({ sessionId: fullFork, entryId: ids.Z1 as string });
		expect(t.edges.find((e) => e.rel === "fork-of")?.to).toEqual({ sessionId: seedSession, entryId: ids.L });
		expect(t.node.session.cwd).toBe("/work/other");
	});
});

describe("exact reads", () => {
	it("pages through a tool result: windows concatenate to the source text byte for byte", () => {
		const manifest: Manifest = loadManifest();
		let checked = 0;
		const corpusDir = join(tmp.dir, "corpus");
		for (const pair of manifest.toolPairsSample) {
			const t = service.trace({ sessionId: pair.sessionId, entryId: pair.resultEntryId });
			expect(edgeTo(t, "tool-result-for"), pair.toolCallId).toEqual([pair.callEntryId]);
			const call = service.trace({ sessionId: pair.sessionId, entryId: pair.callEntryId });
			expect(edgeTo(call, "tool-result-for", "in")).toContain(pair.resultEntryId);

			const source = fixtureEntry<{ message: { content: Array<{ type: string; text?: string }> } }>(corpusDir, pair.file, pair.resultEntryId).message;
			const first = service.read({ sessionId: pair.sessionId, entryId: pair.resultEntryId, maxChars: 1000 });
			expect((first.event.message as { toolName: string }).toolName).toBe(pair.toolName);
			expect((first.event.message as { isError: boolean }).isError).toBe(pair.isError);
			source.content.forEach((block, i) => {
				if (block.type !== "text") return;
				let text = "";
				let offset = 0;
				for (;;) {
					const r = service.read({ sessionId: pair.sessionId, entryId: pair.resultEntryId, fragmentId: `tool.result:${i}`, offset, maxChars: 7000 });
					const w = r.fragments[0] as (typeof r.fragments)[number];
					expect(w.range[0]).toBe(offset);
					text += w.text;
					offset = w.range[1];
					if (offset >= w.totalChars) break;
				}
				expect(text).toBe(block.text);
			});
			checked++;
		}
		expect(checked).toBe(manifest.toolPairsSample.length);
	});

	it("names what it leaves out: images with type and size, thinking, signatures, details", () => {
		const manifest = loadManifest();
		const needle = needleAs(manifest, "assistant.thinking");
		const thinking = needle.occurrences[0] as Manifest["needles"][number]["occurrences"][number];
		const r = service.read({ sessionId: thinking.sessionId, entryId: thinking.entryId as string });
		expect(r.omitted.map((o) => o.reason).join(" ")).toMatch(/thinking/);
		expect(JSON.stringify(r)).not.toContain(needle.text);
		expect(r.source).toMatchObject({ line: thinking.line });
		// Ground truth for images: the first user message in the fixture files that carries image blocks.
		type Block = { type: string; data?: string; mimeType?: string };
		type Entry = { id?: string; type: string; message?: { role: string; content: unknown } };
		const withImage = manifest.files
			.filter((f) => f.isSession && f.headerVersion === 3)
			.flatMap((f) => readEntries(join(tmp.dir, "corpus", f.file), { skipInvalid: true }).map((e) => ({ f, e: e as Entry })))
			.find(
				({ e }) =>
					e.type === "message" &&
					e.message?.role === "user" &&
					Array.isArray(e.message.content) &&
					(e.message.content as Block[]).some((b) => b.type === "image"),
			);
		if (!withImage) throw new Error("the corpus has no user message with an image");
		const blocks = withImage.e.message?.content as Block[];
		const images = blocks.flatMap((b, i) =>
			b.type === "image"
				? [{ path: `message.content.${i}`, reason: "image", mimeType: b.mimeType, bytes: Buffer.from(b.data as string, "base64").length }]
				: [],
		);
		expect(images.every((x) => x.bytes > 0 && /^image\//.test(x.mimeType as string))).toBe(true);
		const read = service.read({ sessionId: withImage.f.sessionId as string, entryId: withImage.e.id as string });
		expect(read.omitted.filter((o) => o.reason === "image")).toEqual(images);
		expect(JSON.stringify(read)).not.toContain((blocks.find((b) => b.type === "image") as Block).data);
	});

	it("reads v1 entries by their synthetic ids, in a linear chain", () => {
		const manifest = loadManifest();
		const v1 = manifest.files.find((f) => f.headerVersion === 1) as Manifest["files"][number];
		const r = service.read({ sessionId: v1.sessionId as string, entryId: "L2", after: 1 });
		expect(r.event).toMatchObject({ syntheticId: true, parentId: null, type: "message" });
		expect(r.source.line).toBe(2);
		expect(r.neighbors.after[0]?.entryId).toMatch(/^L\d+$/);
	});

	it("answers a missing event and an unauthorized one the same way", () => {
		expect(() => service.read({ sessionId: seedSession, entryId: "nope" })).toThrow(NotFoundError);
		const caller = { root: "/somewhere/else" };
		let a = "";
		let b = "";
		try {
			service.read({ sessionId: seedSession, entryId: ids.A as string, caller });
		} catch (e) {
			a = (e as Error).message.replace(seedSession, "S").replace(ids.A as string, "E");
		}
		try {
			service.read({ sessionId: "no-such-session", entryId: "zzzzzzzz", caller });
		} catch (e) {
			b = (e as Error).message.replace("no-such-session", "S").replace("zzzzzzzz", "E");
		}
		expect(a).toBe(b);
		expect(a).not.toBe("");
	});

	it("after pi rewrote a file in place, finds the entry again or says the source changed; never another entry's bytes", () => {
		const before = readFileSync(seedFile, "utf8");
		// Same entries, shifted: the header grows (as pi's migration does).
		const lines = before.split("\n");
		lines[0] = JSON.stringify({ ...JSON.parse(lines[0] as string), note: "rewritten" });
		writeFileSync(seedFile, lines.join("\n"));
		const r = service.read({ sessionId: seedSession, entryId: ids.G as string });
		expect(r.fragments[0]?.text).toBe("G: fix it");
		expect(r.notes.join(" ")).toMatch(/rewritten/);
		// The entry is gone from the file: a clear error, not some other line.
		writeFileSync(
			seedFile,
			before
				.split("\n")
				.filter((l) => !l.includes(`"id":"${ids.G}"`))
				.join("\n"),
		);
		expect(() => service.read({ sessionId: seedSession, entryId: ids.G as string })).toThrow(SourceChangedError);
		service.refresh();
		expect(() => service.read({ sessionId: seedSession, entryId: ids.G as string })).toThrow(NotFoundError);
		writeFileSync(seedFile, before);
		service.refresh();
	});
});
