/**
 * A fork family written by the real pi 0.73.1 CLI (offline, scripted model): a session with two branches (the second
 * made by a `/tree`-style move with a branch summary), its `/clone`, and a `--fork` of it into another folder.
 * Shared by the explorer's end-to-end tests, which need files exactly as pi writes them. pi writes it once per vitest
 * run; each test gets a copy moved to its own folder (every path pi recorded rewritten, as if pi had run there).
 */
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	renameSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { PROJECT_ROOT } from "./corpus.js";
import { startRpc } from "./pi-rpc.js";
import { PI_073, runPi } from "./pi-run.js";

const EXTENSION = join(PROJECT_ROOT, "test", "support", "fork-family-ext.ts");
const MODEL = ["--offline", "--provider", "faux", "--model", "faux-1", "--no-extensions", "-e", EXTENSION];

/** One session file of the family, with what its header says. */
export interface FamilyFile {
	path: string;
	sessionId: string;
	cwd: string;
	parentSession?: string;
	/** Every entry line of the file (header excluded), parsed. */
	entries: Array<{ id: string; parentId: string | null; type: string; [k: string]: unknown }>;
}

/** The family: where pi wrote it and each member. */
export interface ForkFamily {
	/** PI_CODING_AGENT_DIR of the runs; sessions are under `<agentDir>/sessions`. */
	agentDir: string;
	sessionsDir: string;
	mainCwd: string;
	forkCwd: string;
	/** The session the user worked in: two branches, a branch summary, a name. */
	original: FamilyFile;
	/** The `/clone` of the original (same entries, new file and id). */
	clone: FamilyFile;
	/** `--fork` of the original into forkCwd, with one more exchange. */
	fork: FamilyFile;
	/** Words planted in the texts: first branch, second branch, fork. */
	needles: { first: string; second: string; fork: string; summary: string };
}

function readFamilyFile(path: string): FamilyFile {
	const lines = readFileSync(path, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l));
	const [header, ...entries] = lines;
	return { path, sessionId: header.id, cwd: header.cwd, parentSession: header.parentSession, entries };
}

function sessionFiles(sessionsDir: string): string[] {
	const out: string[] = [];
	for (const dir of readdirSync(sessionsDir))
		for (const f of readdirSync(join(sessionsDir, dir))) if (f.endsWith(".jsonl")) out.push(join(sessionsDir, dir, f));
	return out.sort();
}

/** Drives `pi --mode rpc` through: two prompts, a name, a move back with a summary, a second branch, a clone. */
async function rpcScenario(cwd: string, env: NodeJS.ProcessEnv, needles: ForkFamily["needles"]): Promise<void> {
	const pi = startRpc(PI_073.node, PI_073.cli, [...MODEL, "--mode", "rpc"], cwd, env);
	try {
		await pi.prompt(`Why does the webhook retry loop fail with ${needles.first}?`);
		await pi.prompt("Check the backoff settings next.");
		await pi.send({ type: "set_session_name", name: "webhook retries" });
		const forks = await pi.send({ type: "get_fork_messages" });
		const first = (forks.data as { messages: Array<{ entryId: string }> }).messages[0]?.entryId;
		if (!first) throw new Error("pi listed no message to go back to");
		// An extension command answers without an agent turn; get_state after it orders the two.
		await pi.send({ type: "prompt", message: `/goto ${first}` });
		await pi.send({ type: "get_state" });
		await pi.prompt(`Try the other approach: ${needles.second} on the port.`);
		await pi.send({ type: "clone" });
		await pi.end();
	} catch (e) {
		await pi.stop();
		throw e;
	}
}

/** Runs the real pi 0.73.1 under `root` (a fresh folder) to write the family, and describes it. */
async function runPiForFamily(root: string): Promise<ForkFamily> {
	const agentDir = join(root, "agent");
	const mainCwd = join(root, "proj");
	const forkCwd = join(root, "other-proj");
	for (const d of [agentDir, mainCwd, forkCwd]) mkdirSync(d, { recursive: true });
	const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" };
	const needles = { first: "ECONNRESETFAMILY", second: "EADDRINUSEFAMILY", fork: "FORKEDFOLLOWUP", summary: "FAMILY_SUMMARY_NEEDLE" };
	await rpcScenario(mainCwd, env, needles);
	const sessionsDir = join(agentDir, "sessions");
	const written = sessionFiles(sessionsDir).map(readFamilyFile);
	if (written.length !== 2) throw new Error(`expected the session and its clone, found ${written.length} files`);
	// The clone names the original as its parent session.
	const clone = written.find((f) => f.parentSession);
	const original = written.find((f) => !f.parentSession);
	if (!clone || !original) throw new Error("could not tell the clone from the original");
	const run = await runPi(PI_073, [...MODEL, "-p", "--fork", original.sessionId.slice(0, 8), `A forked follow-up: ${needles.fork}`], { cwd: forkCwd, env });
	if (run.code !== 0) throw new Error(`pi --fork failed (${run.code}): ${run.stderr.slice(-2000)}`);
	const fork = sessionFiles(sessionsDir)
		.filter((p) => p !== original.path && p !== clone.path)
		.map(readFamilyFile);
	const [forked] = fork;
	if (fork.length !== 1 || !forked) throw new Error(`expected one fork file, found ${fork.length}`);
	return { agentDir, sessionsDir, mainCwd, forkCwd, original, clone, fork: forked, needles };
}

/** pi's folder name for a cwd under `<agentDir>/sessions` (session-manager getDefaultSessionDir). */
const encodedCwd = (cwd: string) => cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");

/** A copy of the family written under `from`, moved to `to`: folder names and every recorded path rewritten. */
function moveFamily(written: ForkFamily, from: string, to: string): ForkFamily {
	const rewrite = (text: string) => text.split(from).join(to).split(encodedCwd(from)).join(encodedCwd(to));
	const copy = (src: string, dest: string) => {
		mkdirSync(dest, { recursive: true });
		for (const e of readdirSync(src, { withFileTypes: true })) {
			const target = join(dest, rewrite(e.name));
			if (e.isDirectory()) copy(join(src, e.name), target);
			else if (/\.jsonl?$/.test(e.name)) writeFileSync(target, rewrite(readFileSync(join(src, e.name), "utf8")));
			else cpSync(join(src, e.name), target);
		}
		// Times kept, as a move would: the explorer orders some rows by a file's time.
		for (const e of readdirSync(src)) {
			const st = statSync(join(src, e));
			utimesSync(join(dest, rewrite(e)), st.atime, st.mtime);
		}
	};
	copy(written.agentDir, rewrite(written.agentDir));
	for (const cwd of [written.mainCwd, written.forkCwd]) mkdirSync(rewrite(cwd), { recursive: true });
	return JSON.parse(rewrite(JSON.stringify(written))) as ForkFamily;
}

/** The family of this vitest run, written by the first test file that asks (the others wait for it); or undefined. */
async function runFamily(): Promise<{ root: string; family: ForkFamily } | undefined> {
	let runDir: string | undefined;
	try {
		runDir = inject("distBuild");
	} catch {
		runDir = undefined;
	}
	if (!runDir || !existsSync(runDir)) return undefined;
	const published = join(runDir, "fork-family.json");
	const lock = join(runDir, "fork-family.lock");
	for (;;) {
		if (existsSync(published)) return JSON.parse(readFileSync(published, "utf8")) as { root: string; family: ForkFamily };
		try {
			mkdirSync(lock);
		} catch {
			// Another file is writing it: wait until it is published, or the writer gave up (then write it here).
			while (existsSync(lock) && !existsSync(published)) await new Promise((resolve) => setTimeout(resolve, 100));
			continue;
		}
		try {
			const root = realpathSync(mkdtempSync(join(runDir, "fork-family-")));
			const family = await runPiForFamily(root);
			writeFileSync(`${published}.tmp`, JSON.stringify({ root, family }));
			renameSync(`${published}.tmp`, published);
			return { root, family };
		} finally {
			rmSync(lock, { recursive: true, force: true });
		}
	}
}

/** A fork family written by the real pi 0.73.1, under `root` (a fresh temp folder), and its description. */
export async function writeForkFamily(root: string): Promise<ForkFamily> {
	mkdirSync(root, { recursive: true });
	const shared = await runFamily();
	if (!shared) return runPiForFamily(root);
	return moveFamily(shared.family, shared.root, realpathSync(root));
}
