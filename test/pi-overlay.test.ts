/**
 * The explorer and prompt recall as pi-tui components (components/pi), driven with pi's raw key bytes and read back
 * as the lines pi's TUI would draw: widths measured with pi-tui's own visibleWidth, no Ink. Ground truth is the
 * fixture corpus's manifest (where each needle was planted).
 */

import { join } from "node:path";
import { parseKey, truncateToWidth, visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, it } from "vitest";
import { ExplorerOverlay, NO_WORKER_NOTE, type PiTuiKit } from "../components/pi/explorer-overlay.js";
import { trimTrailingBlank } from "../components/pi/pi-paint.js";
import { PromptRecall } from "../components/pi/prompt-recall.js";
import { QueryThread } from "../src/service/query-thread.js";
import type { EventRef } from "../src/shared/types.js";
import { loadManifest, testConfig } from "./helpers/corpus.js";
import { indexedCorpus } from "./helpers/indexed-corpus.js";

const corpus = indexedCorpus("pes-pi-overlay-");
const manifest = loadManifest();
const KIT: PiTuiKit = { visibleWidth, truncateToWidth, parseKey: parseKey as PiTuiKit["parseKey"] };
// A theme like pi's: colors as SGR sequences, so the widths are measured on what pi would really draw.
const PAINT = { fg: (_c: string, t: string) => `\u001b[36m${t}\u001b[39m`, bold: (t: string) => `\u001b[1m${t}\u001b[22m` };
const abandoned = manifest.needles.find((n) => n.plantedAs === "user.text(abandoned-branch)" && n.text.startsWith("lunar"));
if (!abandoned) throw new Error("fixture needle missing");
const first = abandoned.occurrences[0] as { sessionId: string; entryId: string };
/** The workspace of the needle's sessions (the session's own cwd, as its file records it). */
const workspace = () => corpus.service.read({ sessionId: first.sessionId, entryId: first.entryId, maxChars: 1 }).session.cwd;
const KEY = { enter: "\r", esc: "\u001b", down: "\u001b[B", altQ: "\u001bq", altR: "\u001br", altO: "\u001bo", ctrlT: "\u0014", ctrlS: "\u0013" };
const SGR = /\u001b\[[0-9;]*m/g;

const plain = (lines: readonly string[]) => lines.map((l) => l.replace(SGR, ""));

/** Renders until `want` is on screen (each answer of the service asks pi for a render). */
async function until(render: () => string[], want: string | RegExp): Promise<string[]> {
	for (let i = 0; i < 400; i++) {
		const lines = render();
		const text = plain(lines).join("\n");
		if (typeof want === "string" ? text.includes(want) : want.test(text)) return lines;
		await new Promise((r) => setTimeout(r, 10));
	}
	throw new Error(`never drawn: ${String(want)}\n${plain(render()).join("\n")}`);
}

function explorer(width: number) {
	const landed: EventRef[] = [];
	const pasted: Array<[EventRef, string]> = [];
	let closed = 0;
	const overlay = new ExplorerOverlay({
		service: corpus.service,
		kit: KIT,
		paint: PAINT,
		workspace: workspace(),
		height: () => 30,
		now: () => Date.parse("2026-06-10T12:00:00Z"),
		host: {
			land: (ref) => landed.push(ref),
			paste: async (ref, what) => {
				pasted.push([ref, what]);
				return `pasted ${what}`;
			},
			close: () => closed++,
			requestRender: () => {},
		},
	});
	return { overlay, landed, pasted, closed: () => closed, render: () => overlay.render(width) };
}

/**
 * No line is wider than pi gave (pi-tui measures), none ends in a blank pi-tui would read for nothing (it pads an
 * overlay's line itself; a blank drawn inverse, the cursor, stays), and no control character other than SGR reaches
 * it (I21).
 */
function expectFits(lines: readonly string[], width: number, height: number) {
	expect(lines).toHaveLength(height);
	for (const l of lines) {
		expect(visibleWidth(l)).toBeLessThanOrEqual(width);
		const end = / ((?:\u001b\[[0-9;]*m)*)$/.exec(l);
		expect(end === null || end[1]?.includes("\u001b[27m"), JSON.stringify(l)).toBe(true);
		expect(l.replace(SGR, "")).not.toMatch(/[\u0000-\u001f\u007f]/);
	}
}

describe("a line's blank end, left for pi-tui to pad", () => {
	const S = (text: string, tone: "plain" | "dim" = "plain", inverse = false) => (inverse ? { text, tone, inverse } : { text, tone });
	it.each([
		["plain blanks after text", [S("abc  "), S("   ")], [S("abc")]],
		["a dim rule's blank tail", [S("─ x", "dim"), S("    ", "dim")], [S("─ x", "dim")]],
		["the cursor (an inverse blank) stays", [S("❯ q"), S(" ", "plain", true), S("     ")], [S("❯ q"), S(" ", "plain", true)]],
		["inner blanks stay", [S("a  b"), S("  "), S("c")], [S("a  b"), S("  "), S("c")]],
		["a blank line is empty", [S("    "), S("  ", "dim")], []],
		["nothing to cut", [S("abc")], [S("abc")]],
	])("%s", (_name, line, want) => {
		expect(trimTrailingBlank(line)).toEqual(want);
	});
});

describe("the explorer as a pi-tui component", () => {
	it("searches as you type in this workspace first, keys typed during a search kept in order, fork copies folded", async () => {
		const e = explorer(100);
		// All keys arrive before any search answers: the query must still be the whole needle, in order.
		for (const ch of abandoned.text) e.overlay.handleInput(ch);
		const lines = await until(e.render, "same entry in 2 sessions");
		const text = plain(lines).join("\n");
		expect(text).toContain(`❯ ${abandoned.text}`);
		expect(text).toContain("[workspace ");
		expect(text).toContain("⑂ alternate");
		expectFits(lines, 100, 30);
		// The preview shows the exact text, read from the session file.
		expectFits(await until(e.render, /preview user\.text:0 · char 0 of \d+/), 100, 30);
		for (const w of [40, 60, 130]) expectFits(e.overlay.render(w), w, 30);
	});

	it("↓ moves the selection's marker to the next hit's rows and off the first's, at every width", async () => {
		const e = explorer(100);
		for (const ch of "the") e.overlay.handleInput(ch);
		await until(e.render, /\b(?:[2-9]|\d{2,})\+? hits\b/);
		const marked = (lines: readonly string[]) => plain(lines).flatMap((l, i) => (l.startsWith("▌") ? [i] : []));
		const before = marked(e.render());
		expect(before.length).toBeGreaterThan(0);
		e.overlay.handleInput(KEY.down);
		e.overlay.handleInput(KEY.down);
		const after = marked(e.render());
		expect(after).toHaveLength(before.length);
		expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
		for (const w of [60, 130]) expect(marked(e.overlay.render(w))).toHaveLength(before.length);
	});

	it("Enter hands the selected event to pi; Alt+Q and Alt+R paste it; Esc on the query closes", async () => {
		const e = explorer(90);
		for (const ch of abandoned.text) e.overlay.handleInput(ch);
		await until(e.render, "same entry in 2 sessions");
		const planted = abandoned.occurrences.map((o) => `${o.sessionId} ${o.entryId}`);
		e.overlay.handleInput(KEY.altR);
		e.overlay.handleInput(KEY.altQ);
		await until(e.render, "pasted quote");
		expect(e.pasted.map(([r, w]) => [planted.includes(`${r.sessionId} ${r.entryId}`), w])).toEqual([
			[true, "ref"],
			[true, "quote"],
		]);
		e.overlay.handleInput(KEY.enter);
		expect(e.landed).toHaveLength(1);
		expect(planted).toContain(`${e.landed[0]?.sessionId} ${e.landed[0]?.entryId}`);

		const f = explorer(90);
		f.overlay.handleInput(KEY.esc);
		expect(f.closed()).toBe(1);
	});

	it("Ctrl+T shows the tree of the hit's fork family; Enter there goes to the tree's row", async () => {
		const e = explorer(100);
		for (const ch of abandoned.text) e.overlay.handleInput(ch);
		await until(e.render, "same entry in 2 sessions");
		e.overlay.handleInput(KEY.ctrlT);
		const lines = await until(e.render, /\d+ hit\(s\) for/);
		expect(plain(lines).join("\n")).toContain("⑂ tree");
		expectFits(lines, 100, 30);
		e.overlay.handleInput(KEY.enter);
		expect(e.landed).toHaveLength(1);
		const ids = new Set(abandoned.occurrences.map((o) => o.entryId));
		expect(ids.has(e.landed[0]?.entryId ?? "")).toBe(true);
	});

	it("Alt+O opens the hit's exact text (pi-history's event view); t shows its tree; Esc goes back; Enter there lands", async () => {
		for (const width of [100, 150]) {
			const e = explorer(width);
			for (const ch of abandoned.text) e.overlay.handleInput(ch);
			await until(e.render, "same entry in 2 sessions");
			e.overlay.handleInput(KEY.altO);
			// The header names the planted entry; the body is the event's exact text from its session file.
			const lines = await until(e.render, "message/user · ");
			const text = plain(await until(e.render, abandoned.text)).join("\n");
			expect(abandoned.occurrences.some((o) => text.includes(`◆ ${o.entryId}`))).toBe(true);
			expect(text).toContain("path ");
			expectFits(lines, width, 30);
			e.overlay.handleInput("t");
			await until(e.render, /⑂ tree[\s\S]*\d+ hit\(s\) for/);
			e.overlay.handleInput(KEY.esc);
			await until(e.render, "◆ ");
			e.overlay.handleInput(KEY.enter);
			expect(e.landed).toHaveLength(1);
			expect(abandoned.occurrences.map((o) => o.entryId)).toContain(e.landed[0]?.entryId);
		}
		const f = explorer(100);
		for (const ch of abandoned.text) f.overlay.handleInput(ch);
		await until(f.render, "same entry in 2 sessions");
		f.overlay.handleInput(KEY.altO);
		await until(f.render, "◆ ");
		f.overlay.handleInput(KEY.esc);
		const back = plain(await until(f.render, "same entry in 2 sessions")).join("\n");
		expect(back).not.toContain("◆ ");
		expect(f.closed()).toBe(0);
	});

	it("without the query worker it searches on pi's thread between keys, says so once, and keeps the keys in order", async () => {
		const thread = QueryThread.start(testConfig(join(corpus.dir, "corpus"), join(corpus.dir, "index.sqlite")), { forceInProcess: true });
		try {
			expect(thread.threaded).toBe(false);
			const overlay = new ExplorerOverlay({
				service: { ...thread, status: () => corpus.service.status() },
				kit: KIT,
				paint: PAINT,
				workspace: workspace(),
				threaded: thread.threaded,
				height: () => 30,
				host: { land: () => {}, paste: async () => "", close: () => {}, requestRender: () => {} },
			});
			const render = () => overlay.render(100);
			// Each key arrives in its own turn of the loop, so searches on this thread run between keys.
			for (const ch of abandoned.text) {
				overlay.handleInput(ch);
				await new Promise((r) => setImmediate(r));
			}
			const text = plain(await until(render, "same entry in 2 sessions")).join("\n");
			expect(text).toContain(`❯ ${abandoned.text}`);
			expect(text.split(NO_WORKER_NOTE.slice(0, 60)).length - 1).toBe(1);
		} finally {
			await thread.close();
		}
	});

	it("Ctrl+S widens the scope to all sessions", async () => {
		const e = explorer(100);
		await until(e.render, "[workspace ");
		e.overlay.handleInput(KEY.ctrlS);
		await until(e.render, "[all sessions");
	});
});

describe("prompt recall as a pi-tui component", () => {
	it("lists this workspace's prompts newest first with repeats folded; Enter gives the exact text", async () => {
		const chosen: string[] = [];
		const recall = new PromptRecall({
			service: corpus.service,
			kit: KIT,
			paint: PAINT,
			workspace: workspace(),
			height: () => 12,
			choose: (t) => chosen.push(t),
			close: () => {},
			requestRender: () => {},
		});
		const render = () => recall.render(80);
		await until(render, "prompt(s) in this workspace");
		const stamps = recall.rows.map((r) => r.hit.timestamp);
		expect(stamps).toEqual([...stamps].sort().reverse());
		expect(recall.rows.every((r) => r.hit.kind === "user.text" && r.hit.session.cwd.startsWith(workspace()))).toBe(true);
		// The same prompt asked again is one row (with how many times it was asked).
		const texts = recall.rows.map((r) => r.text.toLowerCase());
		expect(new Set(texts).size).toBe(texts.length);
		expect(recall.rows.some((r) => r.times > 1)).toBe(true);
		for (const ch of abandoned.text) recall.handleInput(ch);
		const lines = await until(render, "1 prompt(s)");
		expect(plain(lines).join("\n")).toContain(abandoned.text);
		expectFits(lines, 80, 12);
		recall.handleInput("\r");
		for (let i = 0; i < 200 && chosen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
		expect(chosen[0]).toContain(abandoned.text);
	});
});
