/**
 * The explorer's smaller behaviours a person notices, rendered through <App/> with ink-testing-library on the real
 * service over the fixture corpus: the long query line, empty states, counts, labels, filters from the command line.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { IDLE_INDEXING } from "../components/core/explorer-service.js";
import { splitQuery } from "../components/core/filters.js";
import { lineText } from "../components/core/styled.js";
import { stringWidth } from "../components/core/text-width.js";
import { loadEvent } from "../components/event/loaders.js";
import { newLoc } from "../components/event/stack-state.js";
import { App, type AppProps } from "../components/ink/App.js";
import { EventHeader } from "../components/ink/EventView.js";
import { helpLines } from "../components/root/help.js";
import { queryWindow } from "../components/search/search-view.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { indexedCorpus } from "./helpers/indexed-corpus.js";
import { frame, KEYS, press, type Rendered, type, waitForFrame } from "./helpers/ink.js";

const NOW = Date.parse("2026-06-10T12:00:00Z");
const corpus = indexedCorpus("pes-feel-");
afterEach(() => cleanup());

function app(overrides: Partial<AppProps> = {}): Rendered {
	return render(<App service={corpus.service} size={{ columns: 60, rows: 20 }} now={NOW} color={false} searchDelayMs={0} previewDelayMs={0} {...overrides} />);
}

const queryRow = (r: Rendered) => (frame(r).split("\n")[1] ?? "").trimEnd();

describe("the long query line", () => {
	it.each<[string, number, number, number, number]>([
		// text length, cursor, room, previous start → start
		["0123456789abcdefghij", 20, 10, 0, 12],
		["0123456789abcdefghij", 15, 10, 12, 12],
		["0123456789abcdefghij", 11, 10, 12, 11],
		["0123456789abcdefghij", 0, 10, 12, 0],
		["0123456789", 10, 20, 5, 0],
	])("%s with the cursor at %i in %i columns, from %i, starts at %i", (text, cursor, room, prev, start) => {
		expect(queryWindow(text, cursor, room, prev)).toBe(start);
	});

	it("moves the cursor over still text with ←, and scrolls only at the left edge", async () => {
		const r = app();
		const long = "retry logic webhook handler timeout backoff exponential jitter";
		await type(r, long);
		const atEnd = queryRow(r);
		expect(atEnd).toContain("jitter");
		expect(stringWidth(atEnd)).toBeLessThanOrEqual(60);
		for (let i = 0; i < 10; i++) await press(r, KEYS.left);
		// The text on screen did not move: only the cursor did (the frame is the same text without its inverse cell).
		expect(queryRow(r)).toBe(atEnd);
		await press(r, KEYS.home);
		expect(queryRow(r)).toMatch(/^❯ retry logic/);
	});
});

describe("the empty list", () => {
	it("wraps the indexing text in the narrower list pane instead of cutting it", async () => {
		const t = tempDir("pes-feel-empty-");
		mkdirSync(join(t.dir, "sessions"));
		const empty = openService(join(t.dir, "sessions"), join(t.dir, "index.sqlite"));
		try {
			empty.refresh();
			const r = app({ service: empty, size: { columns: 120, rows: 24 }, indexing: { ...IDLE_INDEXING, phase: "indexing" } });
			const f = await waitForFrame(r, "Indexing your Pi history");
			// Side by side, the list is 66 columns: the sentence goes on in the next line instead of ending in "…".
			const text = f
				.split("\n")
				.map((l) => l.split("│")[0]?.trim() ?? "")
				.join(" ");
			expect(text).toContain("hits appear as soon as the first files are indexed; you can type a query now");
			expect(f).not.toMatch(/you can t…|type a qu…/);
		} finally {
			empty.close();
			t.cleanup();
		}
	});

	it("names the folder it looked in when no session is indexed", async () => {
		const t = tempDir("pes-feel-none-");
		const folder = join(t.dir, "sessions");
		mkdirSync(folder);
		const empty = openService(folder, join(t.dir, "index.sqlite"));
		try {
			empty.refresh();
			const r = app({ service: empty, size: { columns: 160, rows: 24 }, indexing: { ...IDLE_INDEXING, phase: "done", generation: 1 } });
			const f = await waitForFrame(r, "No Pi sessions are indexed.");
			expect(f.replace(/\s+/g, " ")).toContain(`Pi keeps sessions under ${folder}; none were found.`);
		} finally {
			empty.close();
			t.cleanup();
		}
	});

	it("never counts the whole index on its own thread while there are events to show, also when new data arrives", async () => {
		// The index's whole status counts every event: tens of milliseconds on a large history, on the input loop.
		let counted = 0;
		const service = new Proxy(corpus.service, {
			get(target, key, receiver) {
				if (key === "status")
					return () => {
						counted++;
						return target.status();
					};
				const v = Reflect.get(target, key, receiver);
				return typeof v === "function" ? v.bind(target) : v;
			},
		});
		const r = app({ service, indexing: { ...IDLE_INDEXING, phase: "done", generation: 1 } });
		await waitForFrame(r, "recent events");
		r.rerender(
			<App
				service={service}
				size={{ columns: 60, rows: 20 }}
				now={NOW}
				color={false}
				searchDelayMs={0}
				previewDelayMs={0}
				indexing={{ ...IDLE_INDEXING, phase: "done", generation: 2 }}
			/>,
		);
		await type(r, "webhook");
		await waitForFrame(r, /\d+ hits?/);
		expect(counted).toBe(0);
	});

	it("names the keys that widen the scope and clear the filters, and those keys do it", async () => {
		const r = app({ initialQuery: "zzzqqqnothing", initialFilters: { error: true }, size: { columns: 100, rows: 24 } });
		const f = await waitForFrame(r, "No hits for");
		expect(f).toContain("Alt+R clears them all; Ctrl+O changes");
		// The filter chips end the query line.
		expect(f.split("\n")[1]).toContain("[errors only]");
		await press(r, "\u001br");
		await waitForFrame(r, (x) => !(x.split("\n")[1] ?? "").includes("[errors only]"));
	});
});

describe("labels", () => {
	it.each<[string, string, string[]]>([
		["label:repro", "", ["repro"]],
		["retry label:before-refactor backoff", "retry backoff", ["before-refactor"]],
		["retry label:x backoff ", "retry backoff ", ["x"]],
		["handleWebhook ", "handleWebhook ", []],
		['label:"good state" deploy', "deploy", ["good state"]],
		["label:", "", []],
		["relabel:x", "relabel:x", []],
	])("%s searches %j with labels %j", (query, text, labels) => {
		expect(splitQuery(query)).toEqual({ text, labels });
	});

	it("types a label in the filter picker: its chip shows and the labelled entry is found", async () => {
		// The fixture corpus labels an entry "before-refactor" (its label lines, checked by hand).
		const r = app({ size: { columns: 100, rows: 30 } });
		await type(r, "label:before-refactor");
		await waitForFrame(r, "#before-refactor");
		for (let i = 0; i < 21; i++) await press(r, KEYS.backspace);
		await waitForFrame(r, "recent events");
		await press(r, "\u000f");
		await waitForFrame(r, "Filters");
		// Rows: kind, role, tool, file, label: Enter on a text row starts typing, Enter keeps it, Ctrl+O applies.
		for (let i = 0; i < 4; i++) await press(r, KEYS.down);
		await press(r, KEYS.enter);
		await type(r, "before-refactor");
		await press(r, KEYS.enter);
		await press(r, "\u000f");
		const f = await waitForFrame(r, (x) => (x.split("\n")[1] ?? "").includes("[label:before-refactor]") && x.includes("#before-refactor"));
		expect(f.split("\n")[1]).toContain("[label:before-refactor]");
	});
});

describe("End on the hit list", () => {
	it("lands on the last hit, loading every page up to it, not just one more page", async () => {
		const r = app({ size: { columns: 100, rows: 30 } });
		await type(r, "error");
		// More hits than the first screenful: the status counts them all (the core's count), not the loaded ones.
		await waitForFrame(r, /hit 1 of \d+\s*$/m);
		await press(r, KEYS.down);
		await press(r, KEYS.end);
		// "hit N of N" without "+": the cursor is on the last hit and no page is left (copies fold into rows).
		const f = await waitForFrame(r, /hit (\d+) of \1\s*$/m);
		const m = /hit (\d+) of (\d+)\s*$/m.exec(f);
		expect(m?.[1]).toBe(m?.[2]);
		expect(Number(m?.[1])).toBeGreaterThan(100);
	});
});

describe("help and header text", () => {
	it("writes a key that is itself a slash plainly, never as `//Tab`", () => {
		const text = helpLines(120).map(lineText).join("\n");
		expect(text).not.toMatch(/\/\/|\/\/Tab/);
		expect(text).toMatch(/^ {2}\/ {2,}find text in this event/m);
	});

	it("names the fragment's kind in the event header, not only the entry type (tool.result over message)", async () => {
		const hit = corpus.service.search({ query: "Successfully wrote", limit: 5, filters: { kinds: ["tool.result"] } }).hits[0];
		if (!hit) throw new Error("the fixture corpus has a tool result saying Successfully wrote");
		const data = await loadEvent(corpus.service, hit);
		const loc = { ...newLoc({ ref: hit, highlights: [] }), data };
		const r = render(<EventHeader loc={loc} depth={1} width={120} now={NOW} color={false} banner={null} />);
		const [first, second] = frame(r).split("\n");
		expect(first).toMatch(/tool\.result/);
		expect(second).toMatch(/^message\/toolResult/);
	});
});
