/**
 * The hit list's pages across a change of query: a new search asks for its own pages only, each starting where its
 * answered hits end. Before, a page asked for under the old query (the list had been scrolled, or its rows did not
 * fill the screen) was asked again for every new query with the old offset: the new list skipped hits, and in the
 * query thread (latest search wins) that page request replaced the new query's first page, so the old hits stayed
 * on screen under the new query. The service here is the real one, seen through a recorder that can hold answers
 * back, as the query thread does while it is busy. Ground truth: the session file written here (which lines say what).
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
import { KEYS, press, type, waitForFrame } from "./helpers/ink.js";

const T0 = Date.parse("2026-03-01T10:00:00Z");
const SESSION = "0199dddd-0000-7000-8000-000000000004";
/** Lines in the session: every one says "wombat", every third also "numbat". */
const LINES = 240;
const NUMBATS = LINES / 3;

let service: HistoryService;
let done: () => void;

beforeAll(() => {
	const t = tempDir("pes-pages-");
	done = t.cleanup;
	const dir = join(t.dir, "sessions", "--home-u-zoo--");
	mkdirSync(dir, { recursive: true });
	const lines = [JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: new Date(T0).toISOString(), cwd: "/home/u/zoo" })];
	let parent: string | null = null;
	for (let i = 0; i < LINES; i++) {
		const id = `dd${i.toString(16).padStart(6, "0")}`;
		const ts = T0 + (i + 1) * 1000;
		const content = i % 3 === 0 ? `wombat ${i} and numbat` : `wombat ${i}`;
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

/** One search the explorer asked for, and its answer once released. */
interface Asked {
	request: SearchRequest;
	answered: SearchResult | null;
	release: () => void;
}

/** The real service, recording each search; while `hold` is set, answers wait until released (a busy query thread). */
function recorder(): { service: ExplorerService; asked: Asked[]; hold: boolean; releaseAll: () => void } {
	const asked: Asked[] = [];
	const state = { hold: false };
	const proxy: ExplorerService = {
		search: (request) =>
			new Promise<SearchResult>((resolve) => {
				const entry: Asked = {
					request,
					answered: null,
					release: () => {
						entry.release = () => {};
						entry.answered = service.search(request);
						resolve(entry.answered);
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
	return {
		service: proxy,
		asked,
		get hold() {
			return state.hold;
		},
		set hold(on: boolean) {
			state.hold = on;
		},
		releaseAll: () => {
			for (const a of asked) a.release();
		},
	};
}

/** The numbers of the hit rows on screen (each row's snippet line says "wombat N"). */
function shown(f: string): number[] {
	return [...f.matchAll(/wombat (\d+)/g)].map((m) => Number(m[1]));
}

const app = (s: ExplorerService) =>
	render(<App service={s} size={{ columns: 100, rows: 30 }} now={T0 + 86_400_000} color={false} searchDelayMs={0} previewDelayMs={0} />);
const title = (f: string) => f.split("\n")[0] ?? "";

describe("the hit list's pages after a new query", () => {
	it("asks for each page of a query from where its own answered hits end", async () => {
		const rec = recorder();
		const r = app(rec.service);
		await type(r, "wombat");
		await waitForFrame(r, (x) => title(x).includes("240 hits"));
		// End follows the list to its last hit: every page of "wombat" is loaded (the old offset is 240).
		await press(r, KEYS.tab);
		await press(r, KEYS.end);
		await waitForFrame(r, (x) => x.includes(`hit ${LINES} of ${LINES}`));
		// Esc: from the list to the query line, then the query cleared.
		await press(r, KEYS.esc);
		await press(r, KEYS.esc);
		await type(r, "numbat");
		await waitForFrame(r, (x) => title(x).includes(`${NUMBATS} hits`));
		await press(r, KEYS.tab);
		await press(r, KEYS.end);
		const f = await waitForFrame(r, (x) => x.includes(`hit ${NUMBATS} of ${NUMBATS}`));
		// Every query's pages follow one another: each asks from the number of hits answered before it.
		const byQuery = new Map<string, Asked[]>();
		for (const a of rec.asked) byQuery.set(a.request.query, [...(byQuery.get(a.request.query) ?? []), a]);
		for (const [query, list] of byQuery) {
			let answered = 0;
			for (const a of list) {
				if ((a.request.offset ?? 0) === 0) answered = 0;
				expect({ query, offset: a.request.offset ?? 0 }).toEqual({ query, offset: answered });
				answered += a.answered?.hits.length ?? 0;
			}
		}
		// The last row is the oldest numbat line (the list ends on the session's first line, 0).
		expect(shown(f).at(-1)).toBe(0);
	});

	it("asks for no page of a new query before its first page is answered, while the old query's page is on its way", async () => {
		const rec = recorder();
		const r = app(rec.service);
		await type(r, "wombat");
		await waitForFrame(r, (x) => title(x).includes("240 hits"));
		// The answers wait from now on: End asks for the next page of "wombat", which is still on its way when
		// "numbat" is typed.
		rec.hold = true;
		await press(r, KEYS.tab);
		await press(r, KEYS.end);
		await waitForFrame(r, () => rec.asked.some((a) => a.request.query === "wombat" && (a.request.offset ?? 0) > 0 && a.answered === null));
		// Esc: from the list to the query line, then the query cleared.
		await press(r, KEYS.esc);
		await press(r, KEYS.esc);
		await type(r, "numbat");
		await waitForFrame(r, () => rec.asked.some((a) => a.request.query === "numbat" && a.answered === null));
		// Until its first page is answered, the new search asks for nothing else: no page of it at an offset.
		const early = rec.asked.filter((a) => a.request.query !== "wombat" && (a.request.offset ?? 0) > 0);
		expect(early.map((a) => ({ query: a.request.query, offset: a.request.offset }))).toEqual([]);
		rec.hold = false;
		rec.releaseAll();
		const f = await waitForFrame(r, (x) => title(x).includes(`${NUMBATS} hits`) && shown(x).length > 0);
		// Every row is a numbat line (every third line of the session).
		expect(shown(f).every((n) => n % 3 === 0)).toBe(true);
	});
});
