/**
 * Inside a large event (the corpus's >100 KB tool result): continuous scrolling across the windows of its text, and
 * `/` find with n/N over the whole text, not only the part loaded. Ground truth: the fixture file's own text.
 */
import { join } from "node:path";
import { cleanup, render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventLayout } from "../components/core/layout.js";
import { App } from "../components/ink/App.js";
import type { HistoryService } from "../src/service/service.js";
import { copyCorpus, fixtureEntry, loadManifest, openService, tempDir } from "./helpers/corpus.js";
import { frame, KEYS, press, type Rendered, type, waitForFrame } from "./helpers/ink.js";

const NOW = Date.parse("2026-06-10T12:00:00Z");
const SIZE = { columns: 80, rows: 30 };
const manifest = loadManifest();
const big = manifest.needles.find((n) => n.plantedAs === "toolResult.text(>100KB)");
const occ = big?.occurrences[0];
let service: HistoryService;
let corpus: string;
let done: () => void;
let raw: string;

beforeAll(() => {
	const t = tempDir("pes-find-scroll-");
	done = t.cleanup;
	corpus = join(t.dir, "corpus");
	copyCorpus(corpus);
	service = openService(corpus, join(t.dir, "index.sqlite"));
	service.refresh();
	if (!occ) throw new Error("fixture needle missing");
	raw = fixtureEntry<{ message: { content: Array<{ text: string }> } }>(corpus, occ.file, occ.line).message.content[0]?.text ?? "";
});
afterEach(() => cleanup());
afterAll(() => {
	service.close();
	done();
});

/** The event's text lines on screen (stacked layout at 80 columns: the body is under the two header lines). */
function bodyLines(r: Rendered): string[] {
	return (
		frame(r)
			.split("\n")
			// Below the event header's three lines (kind, state, the session file and its lineage).
			.slice(3, 3 + eventLayout(SIZE).bodyLines)
			.map((l) => l.trimEnd())
	);
}

/** Whether the lines are consecutive lines of the source text (no seam cut a line, none lost or doubled). */
function consecutiveInSource(lines: string[]): boolean {
	const src = raw.split("\n");
	for (let i = 0; i + lines.length <= src.length; i++) if (lines.every((l, j) => src[i + j] === l)) return true;
	return false;
}

async function openBig(): Promise<Rendered> {
	const r = render(<App service={service} size={SIZE} now={NOW} color={false} searchDelayMs={0} previewDelayMs={0} />);
	await waitForFrame(r, "recent events");
	await type(r, big?.text ?? "");
	await waitForFrame(r, /\d+ hits?/);
	await press(r, KEYS.enter);
	await waitForFrame(r, /f87bf394 .*back stack 1/);
	await waitForFrame(r, /lines \d+–\d+ of \d+/);
	return r;
}

/** The document's length, from the status bar ("lines 12–24 of 80"): it grows as chunks come in. */
const docLines = (r: Rendered) => Number(/lines \d+–\d+ of (\d+)/.exec(frame(r))?.[1] ?? Number.NaN);

describe("continuous scrolling", () => {
	it("opens at the match deep in the text, and reads on upward and downward across windows without n/p", async () => {
		const r = await openBig();
		// The match is past the head and before the tail: its chunk came with the event.
		await waitForFrame(r, big?.text ?? "");
		const first = docLines(r);
		// Upward: each PgUp near the gap above loads the chunk before it, and the view keeps still.
		for (let i = 0; i < 3; i++) await press(r, KEYS.pgup);
		await waitForFrame(r, () => docLines(r) > first && !bodyLines(r).some((l) => l.includes("⋯ loading")));
		const text = bodyLines(r).filter((l) => l !== "" && !l.startsWith("──"));
		expect(text.length).toBeGreaterThan(10);
		expect(consecutiveInSource(text), frame(r)).toBe(true);
		// Downward past the match to the tail: the text runs on into the tail with no seam.
		for (let i = 0; i < 30; i++) await press(r, KEYS.pgdn);
		await waitForFrame(r, () => !bodyLines(r).some((l) => l.includes("⋯ loading")));
		const after = bodyLines(r).filter((l) => l !== "" && !l.startsWith("──"));
		expect(after.length).toBeGreaterThan(3);
	});

	it("G goes to the end, and scrolling up from the tail fills the gap above it in place", async () => {
		const r = await openBig();
		await press(r, "G");
		await waitForFrame(r, "── metadata");
		for (let i = 0; i < 4; i++) await press(r, KEYS.pgup);
		await waitForFrame(r, () => !bodyLines(r).some((l) => l.includes("⋯ loading")) && !frame(r).includes("── metadata"));
		const text = bodyLines(r).filter((l) => l !== "");
		expect(consecutiveInSource(text)).toBe(true);
	});
});

describe("find in an event", () => {
	it("/ finds text outside the loaded windows, n wraps around to it again, N goes back, Esc closes the prompt", async () => {
		const r = await openBig();
		await press(r, "g");
		// A word of the source that the head (first 4,000 characters) does not hold: found anyway.
		const needle = big?.text ?? "";
		const at = raw.indexOf(needle);
		expect(at).toBeGreaterThan(4000);
		await press(r, "/");
		await waitForFrame(r, "find in this event: /");
		await type(r, needle);
		await press(r, KEYS.enter);
		await waitForFrame(r, `at char ${at.toLocaleString("en-US")}`);
		await waitForFrame(r, () => bodyLines(r).some((l) => l.includes(needle)));
		// The only match: n comes back to it, saying it wrapped.
		await press(r, "n");
		await waitForFrame(r, `at char ${at.toLocaleString("en-US")} · wrapped`);
		// A text with many matches: N from the top goes to the last one in the source.
		await press(r, "/");
		await type(r, "ECONNREFUSED");
		await press(r, KEYS.enter);
		const firstAt = raw.toLowerCase().indexOf("econnrefused");
		await waitForFrame(r, `at char ${firstAt.toLocaleString("en-US")}`);
		await press(r, "N");
		const lastAt = raw.toLowerCase().lastIndexOf("econnrefused");
		await waitForFrame(r, `at char ${lastAt.toLocaleString("en-US")} · wrapped`);
		await waitForFrame(r, () => bodyLines(r).some((l) => l.includes("ECONNREFUSED")));
		await press(r, "/");
		await waitForFrame(r, "find in this event: /");
		await press(r, KEYS.esc);
		await waitForFrame(r, (f) => !f.includes("find in this event: /"));
		expect(frame(r)).toMatch(/lines \d+–\d+ of \d+/);
	});
});
