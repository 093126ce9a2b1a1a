/**
 * The explorer in a real terminal: registers the hooks that write a test's history (a private copy of the fixture
 * corpus, or anything a test writes) and tear everything down (call it inside a describe block), and starts the built
 * CLI on that history under tmux.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { CLI } from "./build.js";
import { copyCorpus, tempDir } from "./corpus.js";
import { killServer, shellQuote, TmuxSession } from "./tmux.js";

/** How to start one explorer: its flags, terminal size, extra environment, a shell line run before it, the
 * terminal's working folder (default: the test's folder) and the node binary (default: `node` on PATH). */
export interface ExplorerStart {
	flags?: string;
	size?: { columns: number; rows: number };
	env?: string;
	before?: string;
	cwd?: string;
	node?: string;
}

/** The test's folder, the session folder the explorer reads, and a starter; the running session is killed after each test. */
export interface ExplorerE2e {
	readonly dir: string;
	readonly sessionsDir: string;
	start(options?: ExplorerStart): TmuxSession;
}

/**
 * Registers a describe block's tmux set-up: a temp folder (`prefix` names it) in which `prepare` writes the history
 * and returns its session folder; the explorer then runs on that folder with its index beside it.
 */
export function explorerE2e(prefix: string, prepare: (dir: string) => string | Promise<string>, prepareTimeoutMs = 600_000): ExplorerE2e {
	let dir = "";
	let sessionsDir = "";
	let done = () => {};
	let session: TmuxSession | null = null;
	// The timeout is a safety net for a history written by the real pi on a busy machine, not a measure.
	beforeAll(async () => {
		const t = tempDir(prefix);
		dir = t.dir;
		done = t.cleanup;
		sessionsDir = await prepare(dir);
	}, prepareTimeoutMs);
	afterEach(() => {
		session?.kill();
		session = null;
	});
	afterAll(() => {
		killServer();
		done();
	});
	return {
		get dir() {
			return dir;
		},
		get sessionsDir() {
			return sessionsDir;
		},
		start({ flags = "", size = { columns: 100, rows: 30 }, env = "", before = "", cwd = dir, node = "node" }: ExplorerStart = {}): TmuxSession {
			const cli = `env -u CI ${env} ${shellQuote(node)} ${shellQuote(CLI)} --sessions-dir ${shellQuote(sessionsDir)} --index ${shellQuote(join(dir, "index.sqlite"))} ${flags}`;
			session = TmuxSession.start(`${before}${cli}; echo __EXIT__=$?; sleep 30`, size, cwd);
			return session;
		},
	};
}

/** Sets up a private copy of the fixture corpus for a describe block's tmux tests (`prefix` names its temp folder). */
export function explorerOnCorpus(prefix: string): ExplorerE2e {
	return explorerE2e(prefix, (dir) => {
		const corpus = join(dir, "corpus");
		copyCorpus(corpus);
		return corpus;
	});
}
