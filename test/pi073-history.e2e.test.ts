/**
 * The explorer inside a real pi 0.73.1 (Node 20, the devDependency), interactively in a real terminal (tmux; a
 * scripted faux model that answers "ok N"): pi 0.73.1 has the same overlay and landing API as pi 1.6, so
 * `/history`, a query and Enter move pi to the event, and the next prompt continues from it (read back from the
 * session file pi wrote). Its shortcuts get no command context, so Alt+H's Enter puts the landing command into
 * pi's editor and says so; Enter there switches pi to the other session, at the event. One pi process.
 */
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, tempDir } from "./helpers/corpus.js";
import { PI_073 } from "./helpers/pi-run.js";
import { assistant, createSession, user } from "./helpers/pi-sessions.js";
import { hasTmux, killServer, shellQuote, TmuxSession } from "./helpers/tmux.js";

type Entry = { id: string; parentId?: string | null; type: string; message?: { role?: string; content?: unknown } };

/** The user message whose text holds `marker`, and the ids of its ancestors by the file's own parent links. */
function askedWith(file: string, marker: string): { entry: Entry | undefined; up: string[] } {
	const all = readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Entry);
	const byId = new Map(all.map((e) => [e.id, e]));
	const entry = all.find((e) => e.message?.role === "user" && JSON.stringify(e.message.content).includes(marker));
	const up: string[] = [];
	for (let e = entry?.parentId ? byId.get(entry.parentId) : undefined; e; e = e.parentId ? byId.get(e.parentId) : undefined) up.push(e.id);
	return { entry, up };
}

describe.skipIf(!hasTmux)("/history inside a real pi 0.73.1 (tmux)", () => {
	const tmp = tempDir("pes-inpi073-");
	const base = realpathSync(tmp.dir);
	const agentDir = join(base, "agent");
	const cwd = join(base, "ws");
	const files = { here: "", other: "" };
	const ids = { here: {} as Record<string, string>, other: {} as Record<string, string> };
	let term: TmuxSession | null = null;

	beforeAll(async () => {
		for (const d of [join(cwd, ".git"), join(base, "home"), agentDir]) mkdirSync(d, { recursive: true });
		// Two sessions of the workspace, written by pi 0.73.1's own SessionManager; pi opens the second.
		const write = (word: string) => {
			const m = createSession(cwd, join(agentDir, "sessions", "ws"));
			const u1 = m.appendMessage(user(`Why does the ${word} build fail?`));
			const a1 = m.appendMessage(assistant(`${word}_REPLY: the cache is stale.`));
			const u2 = m.appendMessage(user("Then clear it."));
			const a2 = m.appendMessage(assistant("Cleared; the build passes."));
			return { file: m.getSessionFile() as string, ids: { u1, a1, u2, a2 } };
		};
		const other = write("WOMBAT");
		const here = write("DINGO");
		files.other = other.file;
		files.here = here.file;
		ids.other = other.ids;
		ids.here = here.ids;
		const env = [
			`PI_CODING_AGENT_DIR=${agentDir}`,
			`HOME=${join(base, "home")}`,
			"PES_E2E_SCRIPT=echo",
			`PATH=${process.env.PATH ?? ""}`,
			"TERM=xterm-256color",
		];
		const args = ["--offline", "--provider", "faux", "--model", "faux-1", "-e", PI_073.fauxModel, "-e", join(PROJECT_ROOT, "src", "extension", "index.ts")];
		const command = `env -u PI_EVENT_SEARCH_INDEX -u PI_CODING_AGENT_SESSION_DIR ${env.map(shellQuote).join(" ")} ${[PI_073.node, PI_073.cli, ...args, "--session", here.file].map(shellQuote).join(" ")}`;
		term = TmuxSession.start(command, { columns: 110, rows: 32 }, cwd);
		await term.waitFor("faux-1", 120_000);
	}, 10 * 60_000);

	afterAll(() => {
		term?.kill();
		killServer();
		tmp.cleanup();
	});

	/** Types the query into the open overlay and waits for its one hit. */
	async function query(text: string, shows: string): Promise<void> {
		const s = term as TmuxSession;
		await s.waitFor("Alt+Q paste quote", 60_000);
		s.type(text);
		await s.waitFor((screen) => screen.includes(`❯ ${text}`) && screen.includes(shows) && screen.includes("hit 1 of 1"), 60_000);
	}

	/** A prompt typed in pi's editor (or what is there already), sent, and answered (the faux model says "ok N"). */
	async function prompt(text: string): Promise<void> {
		const s = term as TmuxSession;
		const answers = (screen: string) => (screen.match(/^ ok \d+\s*$/gm) ?? []).length;
		const before = answers(s.capture());
		if (text) s.type(text);
		s.keys("Enter");
		await s.waitFor((screen) => answers(screen) > before, 60_000);
	}

	it("/history, a query and Enter move pi to the event; the next prompt continues from it", async () => {
		const s = term as TmuxSession;
		await prompt("WARMUP before searching");
		s.type("/history ");
		s.keys("Enter");
		await query("DINGO_REPLY", "DINGO_REPLY: the cache is stale");
		s.keys("Enter");
		await s.waitFor("at entry", 60_000);
		await prompt("CONTINUED_073 from the found event");
		const { entry, up } = askedWith(files.here, "CONTINUED_073");
		expect(entry).toBeDefined();
		expect(up).toContain(ids.here.a1);
		expect(up).not.toContain(ids.here.u2);
		expect(up).not.toContain(ids.here.a2);
	}, 300_000);

	it("Alt+H's Enter puts the landing command into the editor; Enter there switches pi to the other session, at the event", async () => {
		const s = term as TmuxSession;
		s.keys("M-h");
		await query("WOMBAT_REPLY", "WOMBAT_REPLY: the cache is stale");
		s.keys("Enter");
		await s.waitFor((screen) => screen.includes("press Enter to go to the event") && screen.includes("/history-goto"), 60_000);
		s.keys("Enter");
		// pi shows the other session's branch up to the event: its reply, not what came after it.
		await s.waitFor((screen) => screen.includes("WOMBAT_REPLY: the cache is stale") && !screen.includes("Cleared; the build passes"), 60_000);
		await prompt("SWITCHED_073 in the other session");
		const { entry, up } = askedWith(files.other, "SWITCHED_073");
		expect(entry).toBeDefined();
		expect(up).toContain(ids.other.a1);
		expect(up).not.toContain(ids.other.u2);
		expect(askedWith(files.here, "SWITCHED_073").entry).toBeUndefined();
	}, 300_000);
});
