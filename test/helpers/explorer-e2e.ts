/**
 * The explorer in a real terminal: registers the hooks that write a test's history (a private copy of the fixture
 * corpus, or anything a test writes) and tear everything down (call it inside a describe block), and starts the built
 * CLI on that history under tmux.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll } from "vitest";
import { CLI } from "./build.js";
import { copyCorpus, tempDir } from "./corpus.js";
import { killServer, shellQuote, TmuxSession } from "./tmux.js";

/**
 * What the index holds on disk, for a failed wait: its files (inode, size) and, read through a fresh connection, its
 * sessions, events and freshness stamp. A screen that still shows an empty index then tells a stale connection from
 * an index that really is empty.
 */
function indexOnDisk(path: string): string {
	const lines = [`index on disk (${path}):`];
	try {
		for (const f of readdirSync(dirname(path)).filter((n) => n.startsWith(basename(path)))) {
			const st = statSync(join(dirname(path), f));
			lines.push(`  ${f}: inode ${st.ino}, ${st.size} bytes`);
		}
		const db = new Database(path, { readonly: true });
		try {
			const n = (sql: string) => (db.prepare(sql).get() as { n: unknown } | undefined)?.n;
			lines.push(
				`  sessions ${n("SELECT count(*) AS n FROM sessions")}, events ${n("SELECT count(*) AS n FROM events")}, data_version ${db.pragma("data_version", { simple: true })}`,
			);
			lines.push(`  meta: ${JSON.stringify(db.prepare("SELECT key, substr(value, 1, 80) AS value FROM meta").all())}`);
		} finally {
			db.close();
		}
	} catch (error) {
		lines.push(`  cannot read it: ${(error as Error).message}`);
	}
	return lines.join("\n");
}

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
			session.diagnose = () => indexOnDisk(join(dir, "index.sqlite"));
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
