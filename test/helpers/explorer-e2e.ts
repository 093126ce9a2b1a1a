/**
 * The explorer in a real terminal on a private copy of the fixture corpus: registers the hooks that copy the corpus
 * and tear everything down (call it inside a describe block), and starts the built CLI on that copy under tmux.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { CLI } from "./build.js";
import { copyCorpus, tempDir } from "./corpus.js";
import { killServer, shellQuote, TmuxSession } from "./tmux.js";

/** How to start one explorer: its flags, terminal size, extra environment and a shell line run before it. */
export interface ExplorerStart {
	flags?: string;
	size?: { columns: number; rows: number };
	env?: string;
	before?: string;
}

/** The corpus copy's folder and a starter; the running session is killed after each test. */
export interface ExplorerOnCorpus {
	readonly dir: string;
	start(options?: ExplorerStart): TmuxSession;
}

/** Sets up a corpus copy for a describe block's tmux tests (`prefix` names its temp folder). */
export function explorerOnCorpus(prefix: string): ExplorerOnCorpus {
	let dir = "";
	let done = () => {};
	let session: TmuxSession | null = null;
	beforeAll(() => {
		const t = tempDir(prefix);
		dir = t.dir;
		done = t.cleanup;
		copyCorpus(join(dir, "corpus"));
	});
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
		start({ flags = "", size = { columns: 100, rows: 30 }, env = "", before = "" }: ExplorerStart = {}): TmuxSession {
			const cli = `env -u CI ${env} node ${shellQuote(CLI)} --sessions-dir ${shellQuote(join(dir, "corpus"))} --index ${shellQuote(join(dir, "index.sqlite"))} ${flags}`;
			session = TmuxSession.start(`${before}${cli}; echo __EXIT__=$?; sleep 30`, size, dir);
			return session;
		},
	};
}
