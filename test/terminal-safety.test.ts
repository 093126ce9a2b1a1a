/**
 * I21 on every face: a session whose user text, tool output, session name, label and cwd carry OSC 52 (clipboard),
 * OSC 0 (title), CSI 2J (clear), DCS, OSC 8 (link), C1 CSI/OSC, CR, BS and U+202E. Each face's bytes are checked:
 * CLI text (search, read, trace, status, notes), --json, the Pi tools' text, and the explorer's frame; in a real
 * terminal (tmux) the clipboard buffer and the window title stay untouched.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatReadForModel, formatSearchForModel, formatTraceForModel } from "../src/present/model-text.js";
import type { HistoryService } from "../src/service/service.js";
import { CLI } from "./helpers/build.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { assistant, SessionManager, toolResult, user } from "./helpers/pi-sessions.js";
import { hasTmux, killServer, shellQuote, TmuxSession, tmuxServer } from "./helpers/tmux.js";

const ESC = "\u001b";
const BEL = "\u0007";
/** "echo pwned", what an OSC 52 would put on the clipboard. */
const PWNED64 = Buffer.from("echo pwned").toString("base64");
const PAYLOAD = [
	`${ESC}]52;c;${PWNED64}${BEL}`,
	`${ESC}]0;PWNED-TITLE${BEL}`,
	`${ESC}[2J`,
	`${ESC}P1$rpwn${ESC}\\`,
	`${ESC}]8;;http://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`,
	"\u009b2J",
	`\u009d52;c;${PWNED64}${BEL}`,
	"over\rwrite",
	"back\b\b",
	"\u202eevil",
].join("");

/** Characters a terminal acts on (tab and newline are fine). */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
/** Same, after our own SGR styling (ESC [ digits m) is taken out. */
const unsafeOutsideSgr = (s: string) => UNSAFE.test(s.replace(/\u001b\[[0-9;]*m/g, ""));

let tmp: ReturnType<typeof tempDir>;
let sessions = "";
let index = "";
let sessionId = "";
let userEntry = "";
let resultEntry = "";
let service: HistoryService;

beforeAll(() => {
	tmp = tempDir("pes-i21-");
	sessions = join(tmp.dir, "sessions");
	mkdirSync(sessions);
	index = join(tmp.dir, "index.sqlite");
	const m = SessionManager.create(`/ws/kestrel-cwd${PAYLOAD}`, sessions);
	userEntry = m.appendMessage(user(`kestrel-user ${PAYLOAD} end`));
	m.appendMessage(assistant("", [{ id: "call1", name: "bash", arguments: { command: "cat notes.txt" } }]));
	resultEntry = m.appendMessage(toolResult("call1", "bash", `kestrel-tool ${PAYLOAD} end`));
	m.appendLabelChange(userEntry, `kestrel-label${PAYLOAD}`);
	m.appendSessionInfo(`kestrel-name${PAYLOAD}`);
	sessionId = m.getSessionId();
	service = openService(sessions, index);
	service.refresh();
});

afterAll(() => {
	service.close();
	tmp.cleanup();
});

function cli(...args: string[]) {
	return spawnSync(process.execPath, [CLI, ...args, "--sessions-dir", sessions, "--index", index], { encoding: "utf8" });
}

describe("I21: session text never reaches a terminal raw", () => {
	it("plants the payload for real: the index holds it byte for byte", () => {
		const read = service.read({ sessionId, entryId: userEntry });
		expect(read.fragments[0]?.text).toBe(`kestrel-user ${PAYLOAD} end`);
		expect(read.session.cwd).toBe(`/ws/kestrel-cwd${PAYLOAD}`);
	});

	it("CLI text: search, read, trace and status write no control, C1 or bidi character, and still show the text", () => {
		const outputs = [
			cli("search", "kestrel-user"),
			cli("search", "kestrel-tool"),
			cli("read", sessionId, userEntry),
			cli("read", sessionId, resultEntry),
			cli("trace", sessionId, userEntry),
			cli("status"),
		];
		for (const r of outputs) {
			expect(r.status, r.stderr).toBe(0);
			expect(UNSAFE.test(r.stdout), JSON.stringify(r.stdout)).toBe(false);
			expect(UNSAFE.test(r.stderr), JSON.stringify(r.stderr)).toBe(false);
		}
		const search = outputs[0]?.stdout ?? "";
		// Visible, inert: ESC shown as ␛, so the sequence is text a person can see.
		expect(search).toContain("kestrel-name");
		expect(search).toContain("␛]52;c;");
		expect(outputs[2]?.stdout).toContain("␛]0;PWNED-TITLE␇");
		expect(outputs[2]?.stdout).toContain("over␍write");
	});

	it("CLI notes and errors: a hostile session id in an error message is neutralized", () => {
		const r = cli("read", `nope${ESC}]0;PWNED-TITLE${BEL}`, "x");
		expect(r.status).toBe(1);
		expect(UNSAFE.test(r.stderr), JSON.stringify(r.stderr)).toBe(false);
	});

	it("--json escapes C1 and bidi characters (and still round-trips every string exactly)", () => {
		for (const r of [cli("search", "kestrel-user", "--json"), cli("read", sessionId, userEntry, "--json"), cli("trace", sessionId, userEntry, "--json")]) {
			expect(r.status, r.stderr).toBe(0);
			expect(UNSAFE.test(r.stdout), JSON.stringify(r.stdout.match(UNSAFE))).toBe(false);
			expect(r.stdout).toContain("\\u009b");
			expect(r.stdout).toContain("\\u202e");
		}
		const read = JSON.parse(cli("read", sessionId, userEntry, "--json").stdout);
		expect(read.fragments[0].text).toBe(`kestrel-user ${PAYLOAD} end`);
		const hit = JSON.parse(cli("search", "kestrel-user", "--json").stdout).hits[0];
		expect(hit.session.name).toBe(`kestrel-name${PAYLOAD}`);
		expect(hit.session.cwd).toBe(`/ws/kestrel-cwd${PAYLOAD}`);
	});

	it("the Pi tools' text carries no control, C1 or bidi character", () => {
		const view = { query: "kestrel", root: "/", includesCurrent: false };
		const texts = [
			formatSearchForModel(service.search({ query: "kestrel-user" }), view).text,
			formatSearchForModel(service.search({ query: "kestrel-tool" }), view).text,
			formatReadForModel(service.read({ sessionId, entryId: userEntry })).text,
			formatReadForModel(service.read({ sessionId, entryId: resultEntry })).text,
			formatTraceForModel(service.trace({ sessionId, entryId: userEntry })).text,
		];
		for (const t of texts) expect(UNSAFE.test(t), JSON.stringify(t.match(UNSAFE))).toBe(false);
		expect(texts[0]).toContain("kestrel-label");
		expect(texts[2]).toContain("␛]52;c;");
	});
});

describe.skipIf(!hasTmux)("I21 in a real terminal (tmux): clipboard and title untouched", () => {
	beforeAll(() => {
		// Let applications set tmux's clipboard with OSC 52, as a user's terminal would: the attack must be possible.
		tmuxServer(["set-option", "-s", "set-clipboard", "on"]);
	});
	afterAll(() => killServer());

	const buffer = () => {
		try {
			return tmuxServer(["show-buffer"]);
		} catch {
			return "";
		}
	};

	it("control: printing the payload raw does set the clipboard and the title (so the checks below can fail)", async () => {
		const s = TmuxSession.start(`printf '%s' ${shellQuote(PAYLOAD)}; sleep 30`, { columns: 100, rows: 20 });
		try {
			await s.waitFor("evil");
			expect(buffer()).toBe("echo pwned");
			expect(s.title()).toBe("PWNED-TITLE");
		} finally {
			s.kill();
			tmuxServer(["delete-buffer"]);
		}
	});

	it("search, read and the explorer leave the clipboard and the title alone", async () => {
		const before = buffer();
		const base = `--sessions-dir ${shellQuote(sessions)} --index ${shellQuote(index)}`;
		const run = `node ${shellQuote(CLI)} search kestrel-user ${base}; node ${shellQuote(CLI)} read ${sessionId} ${userEntry} ${base}; echo __DONE__; sleep 30`;
		const s = TmuxSession.start(run, { columns: 120, rows: 40 });
		try {
			await s.waitFor("__DONE__", 20_000);
			expect(buffer()).toBe(before);
			expect(s.title()).not.toContain("PWNED");
		} finally {
			s.kill();
		}
		// The explorer: session names, labels and cwds drawn on every redraw.
		const tui = TmuxSession.start(`env -u CI node ${shellQuote(CLI)} ${base}; sleep 30`, { columns: 120, rows: 30 });
		try {
			await tui.waitFor(/search|Search/, 20_000);
			// The hits for the name's word (not the recent events shown before the search answers, which carry it too).
			tui.type("kestrel");
			const screen = await tui.waitFor((x) => x.includes("kestrel-name") && !x.includes("recent events") && /\d+ hits?\b/.test(x), 20_000);
			expect(screen).toContain("␛");
			expect(unsafeOutsideSgr(tui.capture(true))).toBe(false);
			// Then the user entry alone, opened.
			tui.type("-user");
			await tui.waitFor((x) => /\b1 hit\b/.test(x), 20_000);
			tui.keys("Enter");
			await tui.waitFor((x) => x.includes("── user.text:0") && x.includes("kestrel-user"), 20_000);
			expect(unsafeOutsideSgr(tui.capture(true))).toBe(false);
			// The tree view draws previews, labels, the session name and cwd of every row.
			tui.keys("t");
			await tui.waitFor((x) => x.includes("⑂ tree") && x.includes("kestrel-label"), 20_000);
			expect(unsafeOutsideSgr(tui.capture(true))).toBe(false);
			expect(buffer()).toBe(before);
			expect(tui.title()).not.toContain("PWNED");
		} finally {
			tui.kill();
		}
	});
});
