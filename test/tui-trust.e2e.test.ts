/**
 * What a user trusts the explorer to do in a real terminal (tmux, issue 31): Enter on a hit inside a large fragment
 * opens at the match, on the first open. Ground truth is the history written here.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI } from "./helpers/build.js";
import { explorerE2e } from "./helpers/explorer-e2e.js";
import { hasTmux, shellQuote, TmuxSession } from "./helpers/tmux.js";

const BIG = "0199d000-0000-7000-8000-00000000b16a";
const RETRY = "0199d000-0000-7000-8000-00000000e7a1";
/** A 120,000-character user message with one marker past its head (line 2,000 of 4,000). */
const bigText = Array.from({ length: 4000 }, (_, i) =>
	(i === 1995 ? `line ${String(i + 1).padStart(5, "0")} MARKER_BETA here` : `line ${String(i + 1).padStart(5, "0")} filler text`).padEnd(29, "."),
).join("\n");

function entry(id: string, parentId: string | null, i: number, role: "user" | "assistant", text: string): string {
	const ts = new Date(Date.UTC(2026, 3, 1) + i * 1000).toISOString();
	return `${JSON.stringify({ type: "message", id, parentId, timestamp: ts, message: { role, content: [{ type: "text", text }], timestamp: 1 } })}\n`;
}

const fileOf = (dir: string, id: string) => join(dir, "sessions", "--trust--", `2026-04-01T00-00-00-000Z_${id}.jsonl`);

function session(dir: string, id: string, lines: string[]): void {
	const folder = join(dir, "sessions", "--trust--");
	mkdirSync(folder, { recursive: true });
	const head = `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-04-01T00:00:00.000Z", cwd: "/tmp/trust" })}\n`;
	writeFileSync(join(folder, `2026-04-01T00-00-00-000Z_${id}.jsonl`), head + lines.join(""));
}

/** The query line (second row of the screen), trimmed. */
const queryRow = (screen: string) => (screen.split("\n")[1] ?? "").trim();

describe.skipIf(!hasTmux)("what a user trusts in a real terminal (tmux)", () => {
	const explorer = explorerE2e("pes-trust-", (dir) => {
		session(dir, RETRY, [
			entry("r0000001", null, 1, "user", "add a retry to the webhook"),
			entry("r0000002", "r0000001", 2, "assistant", "the retry loop backs off"),
			entry("r0000003", "r0000002", 3, "user", "retry once more, with jitter"),
		]);
		session(dir, BIG, [entry("b0000001", null, 1, "user", bigText), entry("b0000002", "b0000001", 2, "assistant", "read it")]);
		return join(dir, "sessions");
	});
	const ready = async () => {
		const s = explorer.start({ size: { columns: 110, rows: 30 } });
		await s.waitFor((x) => x.includes("recent events") && /index up to date|indexed \d+/.test(x), 60_000);
		return s;
	};

	it("the first open of a large fragment lands at the match, not at its first line", async () => {
		const s = await ready();
		s.type("MARKER_BETA");
		// The preview found the match past the head (what the user sees before Enter).
		await s.waitFor(/char [\d,]+ of 119,999/);
		s.keys("Enter");
		const screen = await s.waitFor((x) => x.includes("back stack 1") && x.includes("MARKER_BETA here"), 10_000);
		expect(screen).not.toContain("line 00001 ");
		expect(screen).not.toMatch(/lines 1–/);
	});

	it("a burst ending in a one-letter word finds what the same keys typed apart find", async () => {
		const s = await ready();
		s.type("retryx");
		await s.waitFor((x) => queryRow(x).endsWith("retryx") && x.includes("0 hits"));
		// One read: Backspace, space and `l` reach the explorer together, like a paste or a fast typist.
		s.burst("BSpace", "Space", "l");
		await s.waitFor((x) => queryRow(x).endsWith("retry l") && x.includes("3 hits"), 10_000);
	});

	it("a query given on the command line that ends in a one-letter word finds what typing it finds", async () => {
		const s = explorer.start({ flags: "-q 'retry l'", size: { columns: 110, rows: 30 } });
		await s.waitFor((x) => queryRow(x).endsWith("retry l") && x.includes("3 hits"), 60_000);
	});

	it("the selection stays on the top hit while hits refill, until the user moves; then on the moved-to hit", async () => {
		const s = await ready();
		s.type("retry");
		await s.waitFor("hit 1 of 3");
		// A line that ranks above every other is appended while the list is open (as pi would write it).
		appendFileSync(fileOf(explorer.dir, RETRY), entry("r0000004", "r0000003", 4, "user", "retry retry retry"));
		await s.waitFor("hit 1 of 4", 15_000);
		// The first Down goes from the query line to the list, the second moves.
		s.keys("Down");
		await s.waitFor("hits · hit 1 of 4");
		s.keys("Down");
		await s.waitFor("hit 2 of 4");
		appendFileSync(fileOf(explorer.dir, RETRY), entry("r0000005", "r0000004", 5, "user", "retry retry retry retry"));
		await s.waitFor("hit 3 of 5", 15_000);
	});

	it("a word typed into an event launches nothing, writes no file and opens no overlay; the bar says letters are commands", async () => {
		// $EDITOR and $PAGER are a script that leaves a marker: any launch shows. The terminal works in an empty folder.
		const work = join(explorer.dir, "work");
		mkdirSync(work, { recursive: true });
		const marker = join(explorer.dir, "launched");
		const script = join(explorer.dir, "launch.sh");
		writeFileSync(script, `#!/bin/sh\necho launched >> ${shellQuote(marker)}\n`);
		chmodSync(script, 0o755);
		const s = explorer.start({
			size: { columns: 110, rows: 30 },
			cwd: work,
			env: `EDITOR=${shellQuote(script)} PAGER=${shellQuote(script)} VISUAL=${shellQuote(script)}`,
		});
		await s.waitFor((x) => x.includes("recent events") && /index up to date|indexed \d+/.test(x), 60_000);
		expect(s.capture()).toContain("typing: query");
		s.type("retry");
		await s.waitFor((x) => /hit 1 of \d+/.test(x));
		s.keys("Enter");
		await s.waitFor((x) => x.includes("back stack 1") && x.includes("keys: commands"), 10_000);
		// One Esc too few: the user goes on typing words meant for the query.
		// Key by key, as typed (a paste is text, never commands).
		for (const c of "kraken EDIT_ME bob open") s.type(c);
		// Help opens only if no earlier letter opened an overlay or left the event; once it shows, every key was read.
		s.keys("?");
		await s.waitFor("pi-history — keys", 10_000);
		// Then the deliberate key: the editor starts once, for it alone (a letter's launch would have come first).
		s.keys("Escape");
		await s.waitFor((x) => !x.includes("pi-history — keys") && x.includes("keys: commands"));
		s.keys("C-e");
		await s.waitFor(() => existsSync(marker), 15_000);
		expect(readFileSync(marker, "utf8")).toBe("launched\n");
		expect(readdirSync(work)).toEqual([]);
	});

	it("Esc at the top after a walk asks once before quitting", async () => {
		const s = await ready();
		s.type("retry");
		await s.waitFor((x) => /hit 1 of \d+/.test(x));
		s.keys("Enter");
		await s.waitFor("back stack 1", 10_000);
		// Back to the hits, to the query line, clear the query, then one Esc too many.
		s.keys("Escape");
		await s.waitFor((x) => /hits · hit 1 of \d+/.test(x) && !x.includes("back stack 1"));
		s.keys("Escape");
		await s.waitFor((x) => /query · hit 1 of \d+/.test(x));
		s.keys("C-u");
		await s.waitFor("recent events");
		s.keys("Escape");
		const asked = await s.waitFor("Esc again to quit");
		expect(asked).not.toContain("__EXIT__");
		s.keys("Escape");
		await s.waitFor("__EXIT__=0");
	});

	it("the query line remembers: ↑ on an empty line and Ctrl+R bring back earlier queries, after a restart too", async () => {
		const s = await ready();
		const typeKeys = (text: string) => {
			for (const c of text) s.type(c);
		};
		// Two searches, each left by opening a hit (what remembers a query), then back and the line cleared.
		for (const word of ["webhook", "jitter"]) {
			typeKeys(word);
			await s.waitFor((x) => queryRow(x).endsWith(word) && /hit 1 of \d+/.test(x));
			s.keys("Enter");
			await s.waitFor("back stack 1", 10_000);
			s.keys("Escape");
			await s.waitFor((x) => !x.includes("back stack 1"));
			s.keys("C-u");
			await s.waitFor("recent events");
		}
		s.keys("Up");
		await s.waitFor((x) => queryRow(x).endsWith("jitter") && x.includes("earlier query 1 of"));
		s.keys("Up");
		await s.waitFor((x) => queryRow(x).endsWith("webhook") && /hit 1 of \d+/.test(x));
		s.keys("C-c");
		await s.waitFor("__EXIT__=130");
		// Kept beside the index, for its user only, holding what was typed and nothing else.
		const file = join(explorer.dir, "query-history.json");
		expect(statSync(file).mode & 0o777).toBe(0o600);
		const kept: string[] = JSON.parse(readFileSync(file, "utf8"));
		expect(kept.slice(0, 2)).toEqual(["webhook", "jitter"]);
		for (const q of kept) expect(q).not.toMatch(/add a retry|backs off|filler/);
		// A new run: Ctrl+R finds the earlier query holding what is typed.
		const again = await ready();
		for (const c of "jit") again.type(c);
		await again.waitFor((x) => queryRow(x).endsWith("jit"));
		again.keys("C-r");
		await again.waitFor((x) => queryRow(x).endsWith("jitter") && /hit 1 of \d+/.test(x));
	});

	it("Ctrl+Z suspends to the shell and fg comes back to the explorer as it was", async () => {
		// An interactive shell: job control is the shell's (a `sh -c` line has none).
		const sh = TmuxSession.start("bash --norc --noprofile -i", { columns: 110, rows: 30 }, explorer.dir);
		try {
			// `env -u CI`: under CI=true Ink draws only its last frame (is-in-ci), as the other tmux tests avoid too.
			sh.type(`env -u CI node ${shellQuote(CLI)} --sessions-dir ${shellQuote(explorer.sessionsDir)} --index ${shellQuote(join(explorer.dir, "index.sqlite"))}`);
			sh.keys("Enter");
			await sh.waitFor((x) => x.includes("recent events") && /index up to date|indexed \d+/.test(x), 60_000);
			for (const c of "jitter") sh.type(c);
			await sh.waitFor((x) => queryRow(x).endsWith("jitter") && /hit 1 of \d+/.test(x));
			sh.keys("C-z");
			await sh.waitFor(/Stopped/, 10_000);
			sh.type("fg");
			sh.keys("Enter");
			const back = await sh.waitFor("back from the shell", 10_000);
			expect(queryRow(back)).toMatch(/jitter$/);
			// Keys work again, read as before: the query line takes letters.
			sh.type("s");
			await sh.waitFor((x) => queryRow(x).endsWith("jitters"));
		} finally {
			sh.kill();
		}
	}, 120_000);
});
