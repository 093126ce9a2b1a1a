/**
 * Key bursts in a real terminal (tmux): keys that reach the explorer in one read act exactly like the same keys
 * typed one by one — a held Backspace empties the query, `C-u` then a letter leaves that letter, `hhh` walks three
 * parents. tmux sends all keys of one send-keys call together, like a held key or a fast typist. And live: a
 * message appended to a session file while the explorer is open shows up without a key.
 */
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadManifest, needleById } from "./helpers/corpus.js";
import { explorerOnCorpus } from "./helpers/explorer-e2e.js";
import { hasTmux, type TmuxSession } from "./helpers/tmux.js";

const manifest = loadManifest();
/** An abandoned-branch needle deep in its session (its path has more than three ancestors). */
const abandoned = needleById(manifest, "N00033");

/** The query line (second row of the screen), trimmed. */
const queryRow = (screen: string) => (screen.split("\n")[1] ?? "").trim();

describe.skipIf(!hasTmux)("key bursts in a real terminal (tmux)", () => {
	const explorer = explorerOnCorpus("pes-tui-keys-");
	const start = (flags = ""): TmuxSession => explorer.start({ flags });

	it("held Backspace empties the query; C-u then x leaves x", async () => {
		const s = start();
		await s.waitFor("recent events");
		s.type("retry logic webhook");
		await s.waitFor((x) => queryRow(x).includes("retry logic webhook"));
		s.burst(...Array.from({ length: 19 }, () => "BSpace"));
		await s.waitFor((x) => queryRow(x).includes("search as you type"));
		s.type("abc def");
		await s.waitFor((x) => queryRow(x).includes("abc def"));
		s.burst("C-u", "x");
		const screen = await s.waitFor((x) => /❯?\s*x\s*$/.test(queryRow(x)) || queryRow(x).endsWith(" x"));
		expect(queryRow(screen)).not.toContain("abc");
	});

	it("hhh sent at once walks three parents", async () => {
		const s = start();
		await s.waitFor("recent events");
		s.type(abandoned.text.slice(0, 9));
		await s.waitFor("same entry in 2 sessions");
		s.keys("Enter");
		await s.waitFor("── user.text:0 · ");
		s.burst("h", "h", "h");
		await s.waitFor("back stack 4");
	});

	it("shows a message appended to a session file while it is open, without a key", async () => {
		const s = start();
		await s.waitFor((x) => x.includes("recent events") && /index up to date|indexed \d+/.test(x));
		s.type("quokkazebra");
		await s.waitFor("0 hits");
		// Append a user message to one session, as pi would (a new entry whose parent is the file's last entry).
		const folder = join(explorer.dir, "corpus", "sessions", readdirSync(join(explorer.dir, "corpus", "sessions"))[0] as string);
		const file = join(folder, readdirSync(folder).find((f) => f.endsWith(".jsonl")) as string);
		const last = JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1) as string) as { id: string };
		const entry = {
			type: "message",
			id: "feedbeef",
			parentId: last.id,
			timestamp: new Date().toISOString(),
			message: { role: "user", content: [{ type: "text", text: "a quokkazebra appeared" }], timestamp: Date.now() },
		};
		appendFileSync(file, `${JSON.stringify(entry)}\n`);
		await s.waitFor("a quokkazebra appeared", 15_000);
	});

	it("starts with the query and filters given on the command line", async () => {
		const s = start("-q ECONNREFUSED --kind tool.result --error");
		const screen = await s.waitFor((x) => x.includes("❯ ECONNREFUSED") && x.includes("[errors only]") && /\d+ hits?/.test(x));
		expect(screen).toContain("tool.result");
		expect(screen).not.toContain("recent events");
	});
});
