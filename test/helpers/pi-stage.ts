/**
 * Staging shared by the end-to-end tests that run a real pi (0.73.1 or 1.6) with our extension: a temp workspace,
 * sessions of two exchanges written by pi's own SessionManager, faux-model messages with their own clock, pi started
 * in tmux with a clean environment, prompts answered, and the session file read back by its parent links.
 */
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./corpus.js";
import { killServer, shellQuote, TmuxSession } from "./tmux.js";

/** A session file line, as these tests read it back. */
export type Entry = { id: string; parentId?: string | null; type: string; message?: { role?: string; content?: unknown } };

/** The entries of a session file, in file order. */
export function sessionEntries(file: string): Entry[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Entry);
}

/** The user message whose text holds `marker`, and the ids of its ancestors by the file's own parent links. */
export function askedWith(file: string, marker: string): { entry: Entry | undefined; up: string[] } {
	const all = sessionEntries(file);
	const byId = new Map(all.map((e) => [e.id, e]));
	const entry = all.find((e) => e.message?.role === "user" && JSON.stringify(e.message.content).includes(marker));
	const up: string[] = [];
	for (let e = entry?.parentId ? byId.get(entry.parentId) : undefined; e; e = e.parentId ? byId.get(e.parentId) : undefined) up.push(e.id);
	return { entry, up };
}

/** A temp workspace for pi: its agent dir, a home, and a cwd that is a git checkout (all created). */
export interface PiStage {
	tmp: ReturnType<typeof tempDir>;
	base: string;
	agentDir: string;
	home: string;
	cwd: string;
}

/** Creates a PiStage under a fresh temp dir named with `prefix`. */
export function piStage(prefix: string): PiStage {
	const tmp = tempDir(prefix);
	const base = realpathSync(tmp.dir);
	const stage = { tmp, base, agentDir: join(base, "agent"), home: join(base, "home"), cwd: join(base, "ws") };
	for (const d of [join(stage.cwd, ".git"), stage.home, stage.agentDir]) mkdirSync(d, { recursive: true });
	return stage;
}

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** A user message and a faux model's reply, each a second after the last (from 2026-11-30T10:00:00Z). */
export function fauxMessages(): { user: (text: string) => Record<string, unknown>; reply: (text: string) => Record<string, unknown> } {
	let t = Date.parse("2026-11-30T10:00:00Z");
	const tick = () => {
		t += 1000;
		return t;
	};
	return {
		user: (text) => ({ role: "user", content: text, timestamp: tick() }),
		reply: (text) => ({
			role: "assistant",
			content: [{ type: "text", text }],
			api: "faux",
			provider: "faux",
			model: "faux-1",
			usage,
			stopReason: "stop",
			timestamp: tick(),
		}),
	};
}

/** The ids of the two exchanges `exchanges` writes. */
export type ExchangeIds = Record<"u1" | "a1" | "u2" | "a2", string>;

/** Writes two exchanges about `word` (its reply says `<word>_REPLY`) through `append`, pi's appendMessage. */
export function writeExchanges(append: (role: "user" | "assistant", text: string) => string, word: string): ExchangeIds {
	const u1 = append("user", `Why does the ${word} build fail?`);
	const a1 = append("assistant", `${word}_REPLY: the cache is stale.`);
	const u2 = append("user", "Then clear it.");
	const a2 = append("assistant", "Cleared; the build passes.");
	return { u1, a1, u2, a2 };
}

/**
 * Starts pi (`node cli args`) in tmux in the stage's cwd, its environment only the stage (agent dir, home), PATH,
 * and a search script for the explorer's tasks; resolves once pi shows the faux model.
 */
export async function startPi(stage: PiStage, node: string, cli: string, args: string[], path: string): Promise<TmuxSession> {
	const env = [`PI_CODING_AGENT_DIR=${stage.agentDir}`, `HOME=${stage.home}`, "PES_E2E_SCRIPT=echo", `PATH=${path}`, "TERM=xterm-256color"];
	const command = `env -u PI_EVENT_SEARCH_INDEX -u PI_CODING_AGENT_SESSION_DIR ${env.map(shellQuote).join(" ")} ${[node, cli, ...args].map(shellQuote).join(" ")}`;
	const term = TmuxSession.start(command, { columns: 110, rows: 32 }, stage.cwd);
	await term.waitFor("faux-1", 120_000);
	return term;
}

/** A prompt typed in pi's editor (or what is there already), sent, and answered (the faux model says "ok N"). */
export async function promptPi(term: TmuxSession, text: string): Promise<void> {
	const answers = (screen: string) => (screen.match(/^ ok \d+\s*$/gm) ?? []).length;
	const before = answers(term.capture());
	if (text) term.type(text);
	term.keys("Enter");
	await term.waitFor((screen) => answers(screen) > before, 60_000);
}

/** Types `query` into the open overlay and waits until its one hit, showing `shows`, is on screen (the screen). */
export async function queryOverlay(term: TmuxSession, query: string, shows: string): Promise<string> {
	await term.waitFor("Alt+Q paste quote", 60_000);
	term.type(query);
	// The query's own hits (before them the overlay lists recent events, which may show the same text).
	return term.waitFor((screen) => screen.includes(`❯ ${query}`) && screen.includes(shows) && screen.includes("hit 1 of 1"), 60_000);
}

/** Ends pi and the tmux server, and removes the stage. */
export function endPi(term: TmuxSession | null, stage: PiStage): void {
	term?.kill();
	killServer();
	stage.tmp.cleanup();
}
