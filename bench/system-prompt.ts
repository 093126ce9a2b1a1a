/**
 * What pi 1.x system prompts cost the index (DESIGN §5: each distinct section text stored once). Four corpora of
 * the same conversations, written by pi 1.6's SessionManager (devDependency, deep import): without system messages;
 * with one-word sections; every session carrying the same ~5 KB default prompt (what real pi histories look like);
 * every session carrying its own variant of it (what per-session storage would cost). Run from the checkout:
 *   npm run build && node dist/bench/system-prompt.js [sessions=300]
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";

type Manager = { appendMessage(m: Record<string, unknown>): string };
type SessionManagerModule = { SessionManager: { create(cwd: string, dir: string): Manager } };

const sessions = Number(process.argv[2] ?? 300);
const smPath = resolve("node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
const { SessionManager } = (await import(pathToFileURL(smPath).href)) as SessionManagerModule;

const WORDS = "deploy migration cache index retry timeout parser token branch summary compaction worker queue lock schema".split(" ");
const sentence = (seed: number, n: number) => Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]).join(" ");
// pi's own default sections (buildSystemPromptSections), grown to the ~5 KB of a real default prompt with pi's own
// README prose, so the vocabulary is as varied as the real thing.
const core = resolve("node_modules/@earendil-works/pi-coding-agent");
const { buildSystemPromptSections } = (await import(pathToFileURL(join(core, "dist/core/system-prompt.js")).href)) as {
	buildSystemPromptSections(input: Record<string, unknown>): Record<string, unknown>;
};
const base = buildSystemPromptSections({
	cwd: "/home/dev/project",
	selectedTools: ["read", "bash", "edit", "write"],
	toolSnippets: { read: "Read file contents", bash: "Execute bash commands", edit: "Make surgical edits", write: "Create or overwrite files" },
});
const PROMPT: Record<string, string> = Object.fromEntries(
	Object.entries(base).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].length > 0),
);
const readme = readFileSync(join(core, "README.md"), "utf8");
PROMPT.docs = `${PROMPT.docs ?? ""}\n${readme.slice(0, Math.max(0, 5200 - Object.values(PROMPT).join("").length))}`;

type Variant = "none" | "stub" | "shared" | "unique";

function corpus(dir: string, prompt: Variant): void {
	for (let s = 0; s < sessions; s++) {
		const m = SessionManager.create("/home/dev/project", dir);
		if (prompt !== "none") {
			const text = (k: string, v: string) => (prompt === "stub" ? k : prompt === "unique" ? `${v} variant${s}x${k}` : v);
			const sections = Object.fromEntries(Object.entries(PROMPT).map(([k, v]) => [k, text(k, v)]));
			m.appendMessage({ role: "system", content: "", sections, timestamp: s });
		}
		for (let t = 0; t < 10; t++) {
			m.appendMessage({ role: "user", content: `question ${s}.${t}: ${sentence(s + t, 25)}`, timestamp: s });
			m.appendMessage({
				role: "assistant",
				content: [{ type: "text", text: `answer ${s}.${t}: ${sentence(s * t + 3, 60)}` }],
				stopReason: "stop",
				timestamp: s,
			});
		}
	}
}

function indexBytes(prompt: Variant): number {
	const dir = mkdtempSync(join(tmpdir(), `pes-sysprompt-${prompt}-`));
	try {
		corpus(join(dir, "sessions"), prompt);
		const indexPath = join(dir, "index.sqlite");
		const service = HistoryService.open({ config: resolveConfig({ sessionsDirs: [join(dir, "sessions")], indexPath, env: {}, home: dir }) });
		service.refresh();
		service.close();
		// Compact the file so the number is the data, not free pages.
		const db = new Database(indexPath);
		db.exec("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;");
		db.close();
		return statSync(indexPath).size;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const none = indexBytes("none");
const stub = indexBytes("stub");
const shared = indexBytes("shared");
const unique = indexBytes("unique");
// The prompt's text: same system messages with one-word sections (stub) as the baseline, so the events rows every
// entry has anyway (I2) are not counted; per-session storage = every session's prompt distinct (unique).
const promptShared = shared - stub;
const promptPerSession = unique - stub;
console.log(
	JSON.stringify(
		{
			sessions,
			promptBytes: Buffer.byteLength(Object.values(PROMPT).join("")),
			indexBytes: { none, stub, shared, unique },
			promptGrowth: {
				shared: promptShared,
				perSession: promptPerSession,
				sharedPercentOfPerSession: Math.round((promptShared / promptPerSession) * 10000) / 100,
			},
			systemMessageGrowth: { shared: shared - none, perSessionBytes: Math.round((shared - none) / sessions) },
		},
		null,
		2,
	),
);
