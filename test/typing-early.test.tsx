/**
 * Typing a query (issue 29): a key's search is asked as the key is read, before the explorer draws its echo, so the
 * query thread searches while this thread draws; and however the answers come back, the screen ends with the hits
 * of the query as typed, never those of a prefix it replaced. The service is the real one, seen through a recorder
 * that notes what the screen showed when each search was asked and can hold answers back (a busy query thread).
 * Ground truth: the session file written here (which lines say what).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ExplorerService } from "../components/core/explorer-service.js";
import { App } from "../components/ink/App.js";
import type { HistoryService } from "../src/service/service.js";
import type { SearchRequest, SearchResult } from "../src/shared/types.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { frame, type Rendered, type, waitForFrame } from "./helpers/ink.js";

const T0 = Date.parse("2026-03-01T10:00:00Z");
const SESSION = "0199eeee-0000-7000-8000-000000000005";
/** Lines in the session: even ones say "zebra N", odd ones "zeal N"; every third also says "quokka". */
const LINES = 60;
const QUERY = "zebra quokka";
/** The lines QUERY finds: zebra and quokka both, so every sixth. */
const FOUND = Array.from({ length: LINES }, (_, i) => i).filter((i) => i % 6 === 0);

let service: HistoryService;
let done: () => void;

beforeAll(() => {
	const t = tempDir("pes-typing-");
	done = t.cleanup;
	const dir = join(t.dir, "sessions", "--home-u-zoo--");
	mkdirSync(dir, { recursive: true });
	const lines = [JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: new Date(T0).toISOString(), cwd: "/home/u/zoo" })];
	let parent: string | null = null;
	for (let i = 0; i < LINES; i++) {
		const id = `ee${i.toString(16).padStart(6, "0")}`;
		const ts = T0 + (i + 1) * 1000;
		const content = `${i % 2 === 0 ? "zebra" : "zeal"} ${i}${i % 3 === 0 ? " quokka" : ""}`;
		lines.push(
			JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(ts).toISOString(), message: { role: "user", content, timestamp: ts } }),
		);
		parent = id;
	}
	writeFileSync(join(dir, `2026-03-01T10-00-00-000Z_${SESSION}.jsonl`), `${lines.join("\n")}\n`);
	service = openService(join(t.dir, "sessions"), join(t.dir, "index.sqlite"));
	service.refresh();
});
afterEach(() => cleanup());
afterAll(() => {
	service.close();
	done();
});

/** One search asked: its request, the query line on screen when it was asked, and how to let its answer go. */
interface Asked {
	request: SearchRequest;
	shownQuery: string;
	release: () => void;
}

/** The query line's text on screen (the line with the prompt ❯). */
function queryLine(f: string): string {
	return (f.split("\n").find((l) => l.includes("❯")) ?? "").replace(/^.*❯\s*/, "").trimEnd();
}

/** The real service recording each search; while `hold` is set, answers wait until released. */
function recorder(screen: () => Rendered | null): { service: ExplorerService; asked: Asked[]; state: { hold: boolean } } {
	const asked: Asked[] = [];
	const state = { hold: false };
	const proxy: ExplorerService = {
		search: (request) =>
			new Promise<SearchResult>((resolve) => {
				const r = screen();
				const entry: Asked = {
					request,
					shownQuery: r ? queryLine(frame(r)) : "",
					release: () => {
						entry.release = () => {};
						resolve(service.search(request));
					},
				};
				asked.push(entry);
				if (!state.hold) entry.release();
			}),
		read: (r) => service.read(r),
		trace: (r) => service.trace(r),
		forkAbove: (r) => service.forkAbove(r),
		status: () => service.status(),
		count: (r) => service.count(r),
	};
	return { service: proxy, asked, state };
}

/** The line numbers of the hit rows on screen (each row's snippet says "zebra N" or "zeal N"). */
function shown(f: string): number[] {
	return [...new Set([...f.matchAll(/\b(?:zebra|zeal) (\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

function app(s: ExplorerService): Rendered {
	return render(<App service={s} size={{ columns: 100, rows: 30 }} now={T0 + 86_400_000} color={false} searchDelayMs={0} previewDelayMs={0} />);
}

describe("typing a query", () => {
	it("asks each key's search before the key's echo is drawn", async () => {
		let r: Rendered | null = null;
		const rec = recorder(() => r);
		r = app(rec.service);
		await waitForFrame(r, "recent events");
		await type(r, QUERY);
		await waitForFrame(r, (f) => queryLine(f) === QUERY && shown(f).length > 0 && shown(f).every((n) => FOUND.includes(n)));
		// Every search that typing asked went out while the screen still showed the query without its key.
		const typed = rec.asked.filter((a) => a.request.query.length > 0 && (a.request.offset ?? 0) === 0);
		expect(typed.map((a) => a.request.query)).toContain(QUERY);
		for (const a of typed)
			expect({ query: a.request.query, onScreen: a.shownQuery }).toEqual({ query: a.request.query, onScreen: a.request.query.slice(0, -1) });
	});

	it("ends on the hits of the query as typed when older searches answer last", async () => {
		let r: Rendered | null = null;
		const rec = recorder(() => r);
		r = app(rec.service);
		await waitForFrame(r, "recent events");
		rec.state.hold = true;
		await type(r, QUERY);
		await waitForFrame(r, (f) => queryLine(f) === QUERY);
		// The newest answer first, then each older one: a busy thread that finishes a replaced search late.
		rec.state.hold = false;
		for (const a of [...rec.asked].reverse()) a.release();
		const f = await waitForFrame(r, (x) => shown(x).length > 0 && !/search/i.test(x.split("\n")[0] ?? "") && x.includes(`${FOUND.length} hit`));
		expect(shown(f).every((n) => FOUND.includes(n))).toBe(true);
		// Still so once every answer is in and drawn.
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(shown(frame(r)).every((n) => FOUND.includes(n))).toBe(true);
		expect(queryLine(frame(r))).toBe(QUERY);
	});
});
