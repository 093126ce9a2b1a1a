/**
 * Small trust items of issue 31.10 on the rendered explorer (a real service over the fixture corpus): the refresh
 * key's message ends with the refresh, and Ctrl+W / Ctrl+U from the hit list edit the query as letters do.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { IndexingState } from "../components/core/explorer-service.js";
import { App, type AppProps } from "../components/ink/App.js";
import { indexedCorpus } from "./helpers/indexed-corpus.js";
import { KEYS, press, type, waitForFrame } from "./helpers/ink.js";

const NOW = Date.parse("2026-06-10T12:00:00Z");
const corpus = indexedCorpus("pes-trust-small-");
const F5 = "\u001b[15~";
const DONE: IndexingState = { phase: "done", progress: null, summary: "index up to date", error: null, generation: 1 };

afterEach(() => cleanup());

const element = (overrides: Partial<AppProps> = {}) => (
	<App service={corpus.service} size={{ columns: 100, rows: 30 }} now={NOW} color={false} searchDelayMs={0} previewDelayMs={0} indexing={DONE} {...overrides} />
);
const queryRow = (f: string) => (f.split("\n")[1] ?? "").trim();

describe("small trust items", () => {
	it("F5's message gives way to what the refresh did once it is done", async () => {
		let asked = 0;
		const props: Partial<AppProps> = { onRefresh: () => asked++ };
		const r = render(element(props));
		await waitForFrame(r, "recent events");
		await press(r, F5);
		await waitForFrame(r, "reading new session lines…");
		expect(asked).toBe(1);
		// The launcher's refresh: indexing runs, then reports done (nothing new: the same generation).
		r.rerender(element({ ...props, indexing: { ...DONE, phase: "indexing" } }));
		await waitForFrame(r, "reading new session lines…");
		r.rerender(element({ ...props, indexing: { ...DONE, summary: "index up to date, read again" } }));
		const f = await waitForFrame(r, "index up to date, read again");
		expect(f).not.toContain("reading new session lines");
	});

	it("Ctrl+W and Ctrl+U from the hit list edit the query, and focus goes back to it", async () => {
		const r = render(element());
		await waitForFrame(r, "recent events");
		await type(r, "lunar base");
		await waitForFrame(r, (f) => queryRow(f).endsWith("lunar base") && /hit 1 of/.test(f));
		await press(r, KEYS.down);
		await waitForFrame(r, /hits · hit 1 of/);
		await press(r, "\u0017");
		await waitForFrame(r, (f) => queryRow(f) === "❯ lunar" && /query · hit 1 of/.test(f));
		await press(r, KEYS.down);
		await waitForFrame(r, /hits · hit 1 of/);
		await press(r, KEYS.ctrlU);
		await waitForFrame(r, (f) => queryRow(f).startsWith("❯ search as you type") && f.includes("recent events"));
	});
});
