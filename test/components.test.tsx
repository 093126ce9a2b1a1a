/**
 * The explorer rendered with ink-testing-library: props in (a real HistoryService over a temp copy of the fixture
 * corpus, a size, a fixed clock), frames out. One key per write, with a yield after each.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { eventLayout } from "../components/core/layout.js";
import { stringWidth } from "../components/core/text-width.js";
import { toneAnsi } from "../components/core/theme.js";
import { App, type AppProps } from "../components/ink/App.js";
import { EventBody } from "../components/ink/EventView.js";
import { HitList } from "../components/ink/HitList.js";
import { initialState, reduce, topLoc } from "../components/root/state.js";
import { loadManifest } from "./helpers/corpus.js";
import { indexedCorpus } from "./helpers/indexed-corpus.js";
import { frame, KEYS, makeEventData, makeHits, press, type Rendered, type, waitForFrame } from "./helpers/ink.js";

const NOW = Date.parse("2026-06-10T12:00:00Z");
const manifest = loadManifest();
const corpus = indexedCorpus("pes-components-");

afterEach(() => {
	cleanup();
});

function app(overrides: Partial<AppProps> = {}): Rendered {
	return render(
		<App
			service={corpus.service}
			size={{ columns: 100, rows: 30 }}
			now={NOW}
			color={false}
			searchDelayMs={0}
			previewDelayMs={0}
			workspace="/home/alice/code/payments-api"
			{...overrides}
		/>,
	);
}

/** Every line fits the width and the frame stays below the terminal's height. */
function expectFits(f: string, columns: number, rows: number) {
	const lines = f.split("\n");
	expect(lines.length).toBeLessThanOrEqual(rows - 1);
	for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(columns);
}

const abandoned = manifest.needles.find((n) => n.plantedAs === "user.text(abandoned-branch)" && n.text.startsWith("lunar"));
if (!abandoned) throw new Error("fixture needle missing");

describe("search screen", () => {
	it("starts with recent events, the index state and the keys of the query line", async () => {
		const r = app();
		const f = await waitForFrame(r, "recent events");
		expect(f).toMatch(/30 sessions · \d+ events/);
		// Hints that do not fit are left out whole; help stays, last (issue 31.6).
		expect(f).toMatch(/↓\/Tab hits · Enter open · Esc clear\/quit · Ctrl\+X errors · .*F1\/Ctrl\+G help\s*$/m);
		expectFits(f, 100, 30);
	});

	it("searches as you type (the last word is a prefix) and previews the exact text", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await type(r, abandoned.text.slice(0, 9));
		// The two occurrences are one entry copied into a forked session: one row says so.
		const f = await waitForFrame(r, "same entry in 2 sessions");
		expect(f).toContain(abandoned.text);
		expect(f).toContain("⑂ alternate");
		await waitForFrame(r, /preview user\.text:0 · char 0 of \d+/);
	});

	it("types q and ? in the query line and in the list; Ctrl+U clears it; Esc on the empty query quits", async () => {
		const exits: number[] = [];
		const r = app({ onExit: (c) => exits.push(c) });
		await waitForFrame(r, "recent events");
		await type(r, "q?");
		await waitForFrame(r, "❯ q?");
		await press(r, KEYS.ctrlU);
		await waitForFrame(r, "recent events");
		expect(exits).toEqual([]);
		await press(r, KEYS.tab);
		await press(r, "q");
		await waitForFrame(r, "❯ q");
		expect(exits).toEqual([]);
		await press(r, KEYS.ctrlU);
		await press(r, KEYS.esc);
		expect(exits).toEqual([0]);
	});

	it("moves the selection and scrolls the list window", async () => {
		const r = app({ size: { columns: 80, rows: 24 } });
		await waitForFrame(r, "recent events");
		await press(r, KEYS.down);
		for (let i = 0; i < 7; i++) await press(r, KEYS.down);
		const f = await waitForFrame(r, /hit 8 of \d+/);
		expectFits(f, 80, 24);
	});

	it("cycles the scope and shows it as a chip", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await press(r, KEYS.tab);
		await press(r, "\u0013");
		await waitForFrame(r, "[workspace …/code/payments-api]");
		await press(r, "\u0013");
		await waitForFrame(r, /\[session [^\]]+\]/);
		await press(r, "\u0013");
		await waitForFrame(r, "[all sessions]");
	});

	it("sets filters in the picker and shows them as chips", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await press(r, KEYS.tab);
		await press(r, "\u000f");
		await waitForFrame(r, "Filters");
		for (let i = 0; i < 9; i++) await press(r, KEYS.down);
		await press(r, KEYS.right);
		await waitForFrame(r, "errors only");
		await press(r, KEYS.enter);
		await waitForFrame(r, (x) => x.includes("[errors only]") && x.includes("✗ error"));
		await press(r, "\u001br");
		await waitForFrame(r, (x) => !x.includes("[errors only]"));
	});

	it("shows the help overlay, generated from the keymap", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await press(r, KEYS.tab);
		await press(r, KEYS.f1);
		await waitForFrame(r, "Query line (typing searches as you type)");
		for (let i = 0; i < 40; i++) await press(r, KEYS.down);
		await waitForFrame(r, "Event view and tree walk");
		await press(r, KEYS.esc);
		await waitForFrame(r, "recent events");
	});

	it("explains an empty result and what to do next", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await type(r, "zzqqxx");
		const f = await waitForFrame(r, "No hits for “zzqqxx”.");
		expect(f).toContain("Try other or shorter words");
	});
});

describe("event view and tree walk", () => {
	it("opens the exact event, walks to the parent, picks a branch at the fork, and comes back to the same hit", async () => {
		const r = app();
		await waitForFrame(r, "recent events");
		await type(r, abandoned.text);
		await waitForFrame(r, "same entry in 2 sessions");
		await press(r, KEYS.tab);
		// → shows the copy in the forked session as its own row.
		await press(r, KEYS.right);
		await waitForFrame(r, "2 hits");
		await press(r, KEYS.down);
		await waitForFrame(r, "hit 2 of 2");
		await press(r, KEYS.enter);
		let f = await waitForFrame(r, "── user.text:0 · ");
		expect(f).toContain(abandoned.text);
		expect(f).toMatch(/path ⌂ \w+ › … \d+ › \w+ › \w+ › ● here/);
		await press(r, "h");
		f = await waitForFrame(r, /◆ \w+ {2}summary\.compaction/);
		expect(f).toContain("2 branches continue here (f to choose)");
		await press(r, "l");
		f = await waitForFrame(r, "fork: 2 branches continue from here");
		expect(f).toContain(abandoned.text);
		await press(r, "2");
		await waitForFrame(r, /◆ \w+ {2}summary\.branch/);
		await press(r, KEYS.esc);
		await press(r, KEYS.esc);
		await waitForFrame(r, /◆ \w+ {2}user\.text/);
		await press(r, KEYS.esc);
		f = await waitForFrame(r, "hit 2 of 2");
		expect(f).toContain("hits · hit 2 of 2");
	});

	it("walks through the trace panel with Tab, ↓ and Enter, and copies the ref", async () => {
		const copies: string[] = [];
		const r = app({
			onCopy: (t) => {
				copies.push(t);
				return { text: `copied ref ${t} with test-clipboard`, copied: true };
			},
		});
		await waitForFrame(r, "recent events");
		await type(r, abandoned.text);
		await waitForFrame(r, "same entry in 2 sessions");
		await press(r, KEYS.enter);
		await waitForFrame(r, "── user.text:0 · ");
		await press(r, KEYS.tab);
		await waitForFrame(r, "[Tab: back to text]");
		await press(r, KEYS.down); // root → parent
		await press(r, KEYS.enter);
		await waitForFrame(r, /◆ \w+ {2}summary\.compaction/);
		await press(r, "y");
		expect(copies).toHaveLength(1);
		await waitForFrame(r, `copied ref ${copies[0]}`);
	});

	it("renders the event body within its pane at every size", () => {
		let s = reduce(initialState({ size: { columns: 80, rows: 24 } }), {
			type: "search-done",
			seq: 1,
			more: 0,
			result: { hits: makeHits(1), notes: [], index: { sessions: 1, events: 1, freshAt: null, pending: 0 } },
		});
		s = reduce(s, { type: "open" });
		s = reduce(s, { type: "event-done", key: "s1/e0", data: makeEventData("e0", { text: "銀色のカワウソ ".repeat(40) }), error: null });
		const loc = topLoc(s);
		if (!loc) throw new Error("no event");
		for (const size of [
			{ columns: 80, rows: 24 },
			{ columns: 100, rows: 30 },
			{ columns: 41, rows: 12 },
		]) {
			const r = render(<EventBody loc={loc} layout={eventLayout(size)} wrap={true} color={false} />);
			expectFits(frame(r), size.columns, size.rows);
			r.unmount();
		}
	});
});

describe("partial matches (issue 28)", () => {
	it("shows a dimmed line above the hits naming the word that matched nothing", async () => {
		const r = app({ size: { columns: 100, rows: 24 } });
		await waitForFrame(r, "recent events");
		await type(r, "lunar pangolin zebrafish");
		await waitForFrame(r, "partial match: no event holds every word; none holds `zebrafish`");
		expect(frame(r)).toContain("lunar-pangolin-00033");
		expectFits(frame(r), 100, 24);
	});
});

describe("terminal craft", () => {
	it("keeps every frame within the size when the terminal is resized", async () => {
		const r = app({ size: { columns: 100, rows: 30 } });
		await waitForFrame(r, "recent events");
		await type(r, "银色水獭");
		await waitForFrame(r, /\d+ hits/);
		expectFits(frame(r), 100, 30);
		for (const size of [
			{ columns: 80, rows: 24 },
			{ columns: 60, rows: 15 },
			{ columns: 41, rows: 11 },
		]) {
			r.rerender(<App service={corpus.service} size={size} now={NOW} color={false} searchDelayMs={0} previewDelayMs={0} />);
			await press(r, ""); // let the resize render settle
			expectFits(frame(r), size.columns, size.rows);
		}
		r.rerender(<App service={corpus.service} size={{ columns: 30, rows: 8 }} now={NOW} color={false} />);
		await waitForFrame(r, "make the terminal larger");
	});

	it("names Ctrl+C as the way out when the terminal is too small, since q may be text there", async () => {
		const exits: number[] = [];
		const r = app({ size: { columns: 80, rows: 8 }, onExit: (c) => exits.push(c) });
		const f = await waitForFrame(r, "make the terminal larger");
		expect(f).toContain("Ctrl+C quits");
		await press(r, "q");
		expect(exits).toEqual([]);
		await press(r, KEYS.ctrlC);
		expect(exits).toEqual([130]);
	});

	it("sets no color under NO_COLOR, and the selection stays visible without it", () => {
		// ink-testing-library's stdout is not a TTY, so chalk draws no escapes here at all: the colors themselves
		// are checked on the theme, and in the real terminal by the tmux test.
		const tones = ["plain", "dim", "bold", "match", "error", "warn", "accent", "ok", "key", "title", "banner"] as const;
		// Foreground color codes in a tone's SGR escape (30–37, 90–97); 31 is red.
		const colors = (t: (typeof tones)[number], color: boolean) =>
			toneAnsi(t, color, false)
				.replace(/^\u001b\[|m$/g, "")
				.split(";")
				.filter((c) => /^[39]\d$/.test(c));
		for (const t of tones) expect(colors(t, false)).toEqual([]);
		expect(colors("error", true)).toEqual(["31"]);
		const mono = render(<HitList hits={makeHits(3)} selected={1} top={0} width={60} height={6} hitLines={2} now={NOW} color={false} empty={[]} />);
		expect(
			frame(mono)
				.split("\n")
				.filter((l) => l.startsWith("▌")),
		).toHaveLength(2);
	});
});
