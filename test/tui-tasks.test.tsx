/**
 * What the tasks on an event hand to the launcher, over a real index of the fixture corpus: the editor gets the
 * exact text of a 132,000-character tool result (the event view shows only its head and tail), the Markdown copy
 * holds that text in one code block, the branch export is the file's own root → event path, and in the rendered
 * explorer `c` hands over the event's session file and cwd, and the launcher's answer is the status line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, render } from "ink-testing-library";
import { marked } from "marked";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HEAD_CHARS } from "../components/event/event-data.js";
import { App, type TaskOutcome } from "../components/ink/App.js";
import { loadWholeEvent, type TaskRequest, taskRequest } from "../components/prompts/task-loads.js";
import type { Task } from "../components/root/state-core.js";
import type { HistoryService } from "../src/service/service.js";
import { copyCorpus, loadManifest, needleById, openService, tempDir } from "./helpers/corpus.js";
import { press, type, waitForFrame } from "./helpers/ink.js";

const manifest = loadManifest();
let service: HistoryService;
let dir = "";
let done: () => void;

/** The large tool result (by the session file itself): the file, its session id, the entry and its exact text. */
const BIG = {
	file: "sessions/--home-alice-code-payments-api--/2026-01-21T22-52-44-211Z_019be2c2-9f33-7094-a319-1274f826a4f8.jsonl",
	sessionId: "019be2c2-9f33-7094-a319-1274f826a4f8",
	entryId: "f87bf394",
};

type Line = { type: string; id?: string; parentId?: string | null; message?: { content?: Array<{ type: string; text?: string }> } };
const lines = (file: string): Line[] =>
	readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Line);

beforeAll(() => {
	const t = tempDir("pes-tasks-");
	dir = t.dir;
	done = t.cleanup;
	copyCorpus(join(dir, "corpus"));
	service = openService(join(dir, "corpus"), join(dir, "index.sqlite"));
	service.refresh();
});
afterEach(() => cleanup());
afterAll(() => {
	service.close();
	done();
});

const task = (kind: Task["kind"], ref: { sessionId: string; entryId: string }): Task => ({ seq: 1, kind, ref, file: null, cwd: null });

describe("task requests over a real index", () => {
	const exact = () => {
		const entry = lines(join(dir, "corpus", BIG.file)).find((l) => l.id === BIG.entryId);
		return entry?.message?.content?.[0]?.text as string;
	};

	it("the editor gets the whole exact text of a large tool result, not the head and tail the view shows", async () => {
		const text = exact();
		expect(text.length).toBeGreaterThan(30 * HEAD_CHARS);
		const r = (await taskRequest(service, task("editor", BIG))) as Extract<TaskRequest, { kind: "editor" }>;
		expect(r.text).toBe(text);
	});

	it("past a character budget the text is cut where the budget ends, and the range says so", async () => {
		const read = await loadWholeEvent(service, BIG, 50_000);
		const f = read.fragments[0];
		expect(f?.text).toBe(exact().slice(0, 50_000));
		expect([f?.range, f?.totalChars, f?.truncated]).toEqual([[0, 50_000], exact().length, true]);
	});

	it("the Markdown copy holds that text as one code block a Markdown parser gives back whole", async () => {
		const r = (await taskRequest(service, task("copy-md", BIG))) as Extract<TaskRequest, { kind: "copy-md" }>;
		const code = marked.lexer(r.markdown).filter((t) => t.type === "code") as Array<{ text: string }>;
		expect(code).toHaveLength(1);
		expect(code[0]?.text).toBe(exact().replace(/\n$/, ""));
		expect(r.markdown).toContain(`- ref: \`${BIG.sessionId} ${BIG.entryId}\``);
	});

	it("the branch export follows the file's own parent links from the root to the event, in that order", async () => {
		const entries = lines(join(dir, "corpus", BIG.file)).filter((l) => l.type !== "session");
		const byId = new Map(entries.map((e) => [e.id, e]));
		const path: string[] = [];
		for (let e = byId.get(BIG.entryId); e; e = e.parentId ? byId.get(e.parentId) : undefined) path.unshift(e.id as string);
		const r = (await taskRequest(service, task("export", BIG))) as Extract<TaskRequest, { kind: "export" }>;
		const refs = [...r.markdown.matchAll(/^- ref: `\S+ (\S+)`$/gm)].map((m) => m[1] as string);
		expect(refs.at(-1)).toBe(BIG.entryId);
		expect(refs[0]).toBe(path[0]);
		// Every message entry of the path is exported (entries the index does not keep as events may be left out).
		const messages = path.filter((id) => byId.get(id)?.type === "message");
		expect(messages.every((id) => refs.includes(id))).toBe(true);
		expect(refs.map((id) => path.indexOf(id))).toEqual([...refs.map((id) => path.indexOf(id))].sort((a, b) => a - b));
		expect(r.events).toBe(refs.length);
		expect(r.markdown).toContain(exact().slice(-200));
	});
});

describe("tasks in the rendered explorer", () => {
	it("F7 hands over the event's session file and cwd; the launcher's answer is the status line", async () => {
		const needle = needleById(manifest, "N00054");
		const at = needle.occurrences[0] as { file: string; sessionId: string; entryId: string };
		const asked: TaskRequest[] = [];
		const onTask = (r: TaskRequest): TaskOutcome => {
			asked.push(r);
			return { text: "back from pi (exit 0): a test answer", tone: "info" };
		};
		const r = render(<App service={service} size={{ columns: 100, rows: 30 }} color={false} searchDelayMs={0} previewDelayMs={0} onTask={onTask} />);
		await type(r, needle.text);
		await waitForFrame(r, "hit 1 of 1");
		await press(r, "\r");
		await waitForFrame(r, "● here");
		await press(r, "\u001b[18~");
		await waitForFrame(r, "back from pi (exit 0): a test answer");
		expect(asked).toEqual([
			{
				kind: "resume",
				ref: { sessionId: at.sessionId, entryId: at.entryId },
				file: join(dir, "corpus", at.file),
				cwd: manifest.files.find((f) => f.file === at.file)?.cwd ?? null,
			},
		]);
	});

	it("without a launcher, a task says it is not available", async () => {
		const needle = needleById(manifest, "N00054");
		const r = render(<App service={service} size={{ columns: 100, rows: 30 }} color={false} searchDelayMs={0} previewDelayMs={0} />);
		await type(r, needle.text);
		await waitForFrame(r, "hit 1 of 1");
		await press(r, "\r");
		await waitForFrame(r, "● here");
		await press(r, "m");
		await waitForFrame(r, "not available here: no launcher for tasks");
	});
});
