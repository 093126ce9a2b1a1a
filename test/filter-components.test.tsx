/**
 * The typed filter picker, chips, sort and group, rendered with ink-testing-library over a real service on a temp
 * copy of the fixture corpus: the picker's text rows are ink-text-input, typed into key by key.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../components/ink/App.js";
import { indexedCorpus } from "./helpers/indexed-corpus.js";
import { frame, KEYS, press, type Rendered, type, waitForFrame } from "./helpers/ink.js";

const NOW = Date.parse("2026-06-10T12:00:00Z");
const CTRL_O = "\u000f";
const F4 = "\u001b[14~";
const F6 = "\u001b[17~";
const corpus = indexedCorpus("pes-filter-components-");
afterEach(() => cleanup());

function app(): Rendered {
	return render(<App service={corpus.service} size={{ columns: 120, rows: 32 }} now={NOW} color={false} searchDelayMs={0} previewDelayMs={0} />);
}

/** Opens the picker and goes to a row (0 kind … 7 after, 8 before, 9 error). */
async function toRow(r: Rendered, row: number) {
	await press(r, CTRL_O);
	await waitForFrame(r, "Filters");
	for (let i = 0; i < row; i++) await press(r, KEYS.down);
}

/** The query line (second line of the frame). */
const queryLine = (r: Rendered) => frame(r).split("\n")[1] ?? "";

describe("typed filter picker", () => {
	it("types a label and a relative date into their rows, applies them as chips, and removes the chips one by one", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await toRow(r, 4);
		await press(r, KEYS.enter);
		await type(r, "release");
		await waitForFrame(r, "release");
		await press(r, KEYS.enter);
		for (let i = 0; i < 3; i++) await press(r, KEYS.down);
		await press(r, KEYS.enter);
		await type(r, "2d");
		await press(r, KEYS.enter);
		await waitForFrame(r, (f) => /after\s+2d/.test(f));
		await press(r, CTRL_O);
		await waitForFrame(r, (f) => !f.includes("Filters  every filter"));
		expect(queryLine(r)).toContain("[label:release] [after:2d]");
		await press(r, KEYS.backspace);
		await waitForFrame(r, () => !queryLine(r).includes("[after:2d]"));
		expect(queryLine(r)).toContain("[label:release]");
		expect(frame(r)).toContain("removed after:2d");
		await press(r, KEYS.backspace);
		await waitForFrame(r, () => !queryLine(r).includes("[label:"));
	});

	it("says why a value is invalid in its field, and refuses to apply it", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await toRow(r, 8);
		await press(r, KEYS.enter);
		await type(r, "someday");
		// While typing, the reason shows under the rows; kept, it shows in the row.
		await waitForFrame(r, "✗ not a date: someday");
		await press(r, KEYS.enter);
		await waitForFrame(r, (f) => /before\s+someday\s+✗ not a date: someday/.test(f));
		await press(r, CTRL_O);
		await waitForFrame(r, "before: not a date: someday");
		expect(frame(r)).toContain("Filters");
	});

	it("says when a combination cannot match: after later than before, a kind without the role", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await toRow(r, 7);
		await press(r, KEYS.enter);
		await type(r, "2026-05-01");
		await press(r, KEYS.enter);
		await press(r, KEYS.down);
		await press(r, KEYS.enter);
		await type(r, "2026-04-01");
		await press(r, KEYS.enter);
		await waitForFrame(r, "⚠ cannot match: after (2026-05-01) is later than before (2026-04-01)");
		// Home is not bound: walk back up to the kind row, choose user.text, then role assistant.
		for (let i = 0; i < 8; i++) await press(r, KEYS.up);
		await press(r, " ");
		await press(r, KEYS.down);
		await press(r, KEYS.right);
		await press(r, " ");
		await waitForFrame(r, "⚠ cannot match: no kind among user.text has role assistant");
		await press(r, CTRL_O);
		await waitForFrame(r, /cannot match: after \(2026-05-01\)/);
	});
});

describe("sort and group", () => {
	it("F4 sorts newest first (a chip says so) and back; F6 shows one row per session with its count", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await type(r, "error");
		await waitForFrame(r, /\d+\+? hits/);
		await press(r, F4);
		await waitForFrame(r, "[newest first]");
		await press(r, F4);
		await waitForFrame(r, (f) => !f.includes("[newest first]"));
		await press(r, F6);
		await waitForFrame(r, (f) => f.includes("[by session]") && /best of \d+ hits in this session/.test(f));
		await press(r, F6);
		await waitForFrame(r, (f) => !f.includes("[by session]") && !f.includes("hits in this session"));
	});
});
