/**
 * The hand-drawn first frame (drawn before React and Ink load) is the frame <App/> draws first: same title, query
 * line, status and key hints, same size, so nothing jumps when Ink takes over. And it carries no session text raw.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";
import ansiEscapes from "ansi-escapes";
import { cleanup, render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ExplorerService, IDLE_INDEXING } from "../components/core/explorer-service.js";
import { stringWidth } from "../components/core/text-width.js";
import { App } from "../components/ink/App.js";
import { type FirstFrameInput, firstFrameText } from "../components/ink/first-frame.js";
import { earlyFrame } from "../src/cli/early-frame.js";
import { CLEAR, ENTER_ALT, LEAVE_ALT } from "../src/cli/screen.js";
import { launchWorkspace } from "../src/service/first-page.js";
import { CLI } from "./helpers/build.js";
import { type IndexedCorpus, indexedCorpus, tempDir } from "./helpers/corpus.js";

afterEach(() => cleanup());

// A service that never answers: the App's first frame is the one drawn before any search came back.
const silent: ExplorerService = {
	search: () => new Promise(() => {}),
	read: () => new Promise(() => {}),
	trace: () => new Promise(() => {}),
	forkAbove: () => new Promise(() => {}),
	status: () => {
		throw new Error("no index yet");
	},
};

function both(input: FirstFrameInput): { hand: string[]; app: string[] } {
	const hand = stripVTControlCharacters(firstFrameText(input)).replace(/\r/g, "").split("\n");
	const r = render(
		<App
			service={silent}
			size={input.size}
			color={false}
			banner={input.banner}
			initialMessage={input.notice}
			workspace={input.workspace}
			initialScope={input.scope}
			initialQuery={input.query}
			initialFilters={input.filters}
		/>,
	);
	const app = stripVTControlCharacters(r.lastFrame() ?? "").split("\n");
	return { hand, app };
}

describe("the first frame", () => {
	for (const size of [
		{ columns: 120, rows: 36 },
		{ columns: 80, rows: 24 },
	]) {
		it(`draws what <App/> draws first at ${size.columns}×${size.rows}: title, query line, status, hints`, () => {
			const input: FirstFrameInput = {
				size,
				color: false,
				banner: "DEMO history",
				notice: "demo: the bundled sample history (--demo)",
				query: "ECONNREFUSED",
				scope: "all",
				workspace: null,
				filters: { kinds: ["tool.result"], error: true },
			};
			const { hand, app } = both(input);
			expect(hand.length).toBe(app.length);
			expect(hand.length).toBe(size.rows - 1);
			for (const i of [0, 1, hand.length - 2, hand.length - 1]) expect(hand[i]?.trimEnd()).toBe(app[i]?.trimEnd());
			expect(hand[1]).toMatch(/\[kind:tool\.result\].*\[errors only\]/);
			expect(hand[1]).toContain("❯ ECONNREFUSED");
			expect(hand.join("\n")).toContain("searching…");
			for (const l of hand) expect(stringWidth(l)).toBeLessThanOrEqual(size.columns);
		});
	}

	it("never cuts a long notice: it takes the hints' line too, as <App/> draws it (issue 31.10)", () => {
		const notice = "no Pi sessions under /home/alice/.pi/agent/sessions; showing the bundled demo history instead (--demo)";
		const { hand, app } = both({ size: { columns: 80, rows: 24 }, color: false, banner: null, notice, query: "", scope: "all", workspace: null, filters: {} });
		expect(hand.slice(-2).map((l) => l.trimEnd())).toEqual([
			"no Pi sessions under /home/alice/.pi/agent/sessions; showing the bundled demo",
			"history instead (--demo)",
		]);
		expect(app.slice(-2).map((l) => l.trimEnd())).toEqual(hand.slice(-2).map((l) => l.trimEnd()));
	});

	it("shows a typed query's control characters as symbols, never raw (I21)", () => {
		const text = firstFrameText({
			size: { columns: 100, rows: 20 },
			color: true,
			banner: null,
			notice: null,
			query: "evil\u001b]52;c;AAAA\u0007",
			scope: "all",
			workspace: null,
			filters: {},
		});
		expect(text).not.toContain("\u001b]52");
		expect(text).not.toContain("\u0007");
	});
});

describe("the listed frame drawn before React loads", () => {
	let c: IndexedCorpus;
	beforeAll(() => {
		c = indexedCorpus("pes-early-", { copy: false });
	});
	afterAll(() => c.cleanup());

	// The launcher's screen for the keys typed so far, and <App/>'s first frame started from the launcher's actions.
	function early(typed: string, size: { columns: number; rows: number }): { hand: string[]; app: string[] } {
		const e = earlyFrame({ demo: false, color: false, mouse: false, filters: {} }, { config: c.config, banner: null, demo: false }, size);
		const hand = stripVTControlCharacters(e.text(typed)).replace(/\r/g, "").split("\n");
		const r = render(
			<App
				service={silent}
				size={size}
				color={false}
				indexing={{ ...IDLE_INDEXING, phase: "indexing" }}
				workspace={launchWorkspace(process.cwd(), c.config.workspaceRoot)}
				initialActions={e.actions(typed)}
			/>,
		);
		return { hand, app: stripVTControlCharacters(r.frames[0] ?? "").split("\n") };
	}

	for (const size of [
		{ columns: 120, rows: 30 },
		{ columns: 80, rows: 24 },
	]) {
		it(`lists the recent events <App/> then shows first, line for line, at ${size.columns}×${size.rows}`, () => {
			const { hand, app } = early("", size);
			expect(hand.length).toBe(size.rows - 1);
			expect(hand[0]).toMatch(/\d+\+? recent events/);
			expect(hand[2]).toContain("▌");
			expect(hand.map((l) => l.trimEnd())).toEqual(app.map((l) => l.trimEnd()));
			for (const l of hand) expect(stringWidth(l)).toBeLessThanOrEqual(size.columns);
		});
	}

	it("keys typed before React loads are echoed and handed to <App/> in order, arrows and Backspace included", () => {
		// e r r ← o → "eror" with the cursor before the last r; then Backspace deletes the o: "err".
		const typed = "err\u001b[Do";
		const { hand, app } = early(typed, { columns: 120, rows: 30 });
		expect(hand[1]).toContain("❯ eror");
		expect(hand.map((l) => l.trimEnd())).toEqual(app.map((l) => l.trimEnd()));
		const back = early(`${typed}\u007f`, { columns: 120, rows: 30 });
		expect(back.hand[1]).toMatch(/❯ err(?!o)/);
		expect(back.hand.map((l) => l.trimEnd())).toEqual(back.app.map((l) => l.trimEnd()));
	});
});

describe("what loads before the first frame", () => {
	// The launcher draws the first frame before the core loads; a static import of the service, SQLite, React or Ink
	// in its path would delay every start by their load time (DESIGN §7: the usable explorer within 6× `node -e 0`).
	const t = tempDir("pes-first-load-");
	const hook = join(t.dir, "hook.mjs");
	const register = join(t.dir, "register.mjs");
	writeFileSync(hook, "export async function load(url, context, next) { process.stderr.write('LOADED ' + url + '\\n'); return next(url, context); }\n");
	writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
	afterAll(() => t.cleanup());
	// --version parses the command line after every static import has run, then exits; with no arguments (and no
	// terminal: it says so, exit 2) it takes the launcher's path without even the flag parser.
	const loads = (entry: string, args: string[], status: number) => {
		const r = spawnSync(process.execPath, ["--import", register, entry, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
		expect(r.status, r.stderr).toBe(status);
		return r.stderr
			.split("\n")
			.filter((l) => l.startsWith("LOADED "))
			.map((l) => l.slice("LOADED ".length));
	};

	it("the compiled modules: neither SQLite nor the index and query layers nor React and Ink before it runs", () => {
		const run = join(dirname(CLI), "run.js");
		const heavy = (loaded: string[]) =>
			loaded.filter((l) => /better-sqlite3|\/src\/(index|query)\/|\/service\/service\.js|node_modules\/(ink|react)\//.test(l));
		for (const [args, status] of [
			[["--version"], 0],
			[[], 2],
		] as const) {
			const loaded = loads(run, [...args], status);
			expect(loaded.some((l) => l.includes("/cli/tui-start.js"))).toBe(true);
			expect(heavy(loaded)).toEqual([]);
			if (args.length === 0) expect(loaded.filter((l) => /node_modules\/meow\/|\/cli\/commands\.js/.test(l))).toEqual([]);
		}
	});

	it("the bundle (what pi-history starts from): no chunk holding SQLite, the index schema, React or Ink before it runs", () => {
		const pack = join(dirname(CLI), "..", "pack", "run.js");
		// What each heavy part is known by inside a chunk: the binding (its import or addon file), the schema's DDL, React's element tag, Ink's root node.
		const heavy = (loaded: string[]) =>
			loaded.filter((url) => {
				if (url.includes("better-sqlite3")) return true;
				if (!url.includes("/pack/")) return false;
				const text = readFileSync(fileURLToPath(url), "utf8");
				return /CREATE TABLE|better_sqlite3\.node|react\.transitional\.element|"ink-root"/.test(text);
			});
		for (const [args, status] of [
			[["--version"], 0],
			[[], 2],
		] as const) {
			const loaded = loads(pack, [...args], status);
			expect(loaded.some((l) => l.endsWith("/pack/run.js"))).toBe(true);
			expect(heavy(loaded)).toEqual([]);
			if (args.length === 0) expect(loaded.filter((l) => /\/pack\/commands-|node_modules\/meow\//.test(l))).toEqual([]);
		}
	});
});

describe("the screen sequences", () => {
	// Written out in screen.ts (loading ansi-escapes cost the first frame); they must stay the library's own.
	it("enter and leave the alternate screen, home the cursor, show it and erase the screen as ansi-escapes writes them", () => {
		expect(ENTER_ALT.startsWith(ansiEscapes.enterAlternativeScreen)).toBe(true);
		expect(ENTER_ALT.endsWith(ansiEscapes.cursorTo(0, 0))).toBe(true);
		expect(LEAVE_ALT.endsWith(ansiEscapes.cursorShow + ansiEscapes.exitAlternativeScreen)).toBe(true);
		expect(CLEAR).toBe(ansiEscapes.eraseScreen + ansiEscapes.cursorTo(0, 0));
	});
});
