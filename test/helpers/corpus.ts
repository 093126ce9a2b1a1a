/** Test helpers: the committed fixture corpus (written by pi's SessionManager via the shared generator), temp dirs, services. */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HistoryService } from "../../src/service/service.js";
import { type ResolvedConfig, resolveConfig } from "../../src/shared/config.js";

/** Root of the project checkout. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The committed fixture corpus (generate.mjs --sessions 12 --seed 3 --scale small --path-root /home/dev/.pi/agent). */
export const CORPUS_DIR = join(PROJECT_ROOT, "fixtures", "corpus");

/** One planted occurrence of a needle, as the generator's manifest describes it. */
export interface Occurrence {
	file: string;
	sessionId: string;
	entryId: string | null;
	line: number;
	entryType?: string;
	kind: string;
	jsonPath?: string;
	searchable: boolean;
	onLeafPath?: boolean;
	inLlmContext?: boolean;
	toolCallId?: string;
	toolName?: string;
	isError?: boolean;
	labelStillSet?: boolean;
}

/** A planted needle with ground truth. */
export interface Needle {
	id: string;
	text: string;
	script: string;
	plantedAs: string;
	expect: "found" | "not_found";
	occurrences: Occurrence[];
}

/** The parts of the generator manifest the tests use. */
export interface Manifest {
	files: Array<{
		file: string;
		isSession: boolean;
		sessionId: string | null;
		cwd: string | null;
		headerVersion: number | null;
		entries: number;
		leafIdOnLoad: string | null;
		quirks: string[];
		danglingParentId: string | null;
		parentSessionRel: string | null;
	}>;
	needles: Needle[];
	toolPairsSample: Array<{
		file: string;
		sessionId: string;
		toolCallId: string;
		toolName: string;
		callEntryId: string;
		resultEntryId: string;
		isError: boolean;
	}>;
	cwds: Array<{ cwd: string; gitRoot: string | null; nestedUnder: string | null }>;
}

/** Reads a corpus manifest. */
export function loadManifest(dir = CORPUS_DIR): Manifest {
	return JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
}

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix = "pes-test-"): { dir: string; cleanup: () => void } {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies the fixture corpus into `target` (tests that change files must work on a copy). */
export function copyCorpus(target: string, from = CORPUS_DIR): string {
	cpSync(from, target, { recursive: true });
	return target;
}

/** The configuration of a service over `sessionsDir` with its index in `indexPath` (no user env, no user home). */
export function testConfig(sessionsDir: string | string[], indexPath: string): ResolvedConfig {
	const sessionsDirs = Array.isArray(sessionsDir) ? sessionsDir : [sessionsDir];
	return resolveConfig({ sessionsDirs, indexPath, env: {}, home: tmpdir() });
}

/** A service over `sessionsDir` with its index in `indexPath` (real SQLite file). */
export function openService(sessionsDir: string | string[], indexPath: string): HistoryService {
	return HistoryService.open({ config: testConfig(sessionsDir, indexPath) });
}

/**
 * A service over one linear session written by hand under `root` (v3, cwd /tmp/`name`): a user message per text, entry
 * `id(i)` a second after the one before, indexed.
 */
export function linearSessionService(root: string, name: string, sessionId: string, texts: readonly string[], id: (i: number) => string): HistoryService {
	const dir = join(root, "sessions", `--tmp-${name}--`);
	mkdirSync(dir, { recursive: true });
	const ts = (i: number) => new Date(Date.UTC(2026, 6, 1) + i * 1000).toISOString();
	const lines = [`${JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: ts(0), cwd: `/tmp/${name}` })}\n`];
	texts.forEach((text, i) => {
		const message = { role: "user", content: [{ type: "text", text }], timestamp: 1 };
		lines.push(`${JSON.stringify({ type: "message", id: id(i), parentId: i === 0 ? null : id(i - 1), timestamp: ts(i + 1), message })}\n`);
	});
	writeFileSync(join(dir, `2026-07-01T00-00-00-000Z_${name}.jsonl`), lines.join(""));
	const service = openService(join(root, "sessions"), join(root, "index.sqlite"));
	service.refresh();
	return service;
}

/** The fixture corpus in a temp dir with a service over it; `cleanup` closes the service and removes the dir. */
export interface IndexedCorpus {
	/** The temp dir holding the corpus copy and the index. */
	dir: string;
	/** The sessions dir the service indexes: the copy, or the committed corpus itself with `copy: false`. */
	corpus: string;
	indexPath: string;
	config: ResolvedConfig;
	manifest: Manifest;
	service: HistoryService;
	cleanup: () => void;
}

/**
 * Copies the fixture corpus into a fresh temp dir (unless `copy` is false: read-only tests may index the committed
 * corpus in place), opens a service with its index next to it and, unless `refresh` is false, indexes it.
 */
export function indexedCorpus(prefix = "pes-test-", options: { copy?: boolean; refresh?: boolean } = {}): IndexedCorpus {
	const tmp = tempDir(prefix);
	const corpus = options.copy === false ? CORPUS_DIR : copyCorpus(join(tmp.dir, "corpus"));
	const indexPath = join(tmp.dir, "index.sqlite");
	const config = testConfig(corpus, indexPath);
	const service = HistoryService.open({ config });
	if (options.refresh !== false) service.refresh();
	const cleanup = () => {
		service.close();
		tmp.cleanup();
	};
	return { dir: tmp.dir, corpus, indexPath, config, manifest: loadManifest(corpus), service, cleanup };
}

/** The manifest's needle `id`; throws when the fixture has no such needle. */
export function needleById(manifest: Manifest, id: string): Needle {
	const n = manifest.needles.find((x) => x.id === id);
	if (!n) throw new Error(`the corpus manifest has no needle ${id}`);
	return n;
}

/** The `index`-th needle planted as `plantedAs` (manifest order); throws when there are not that many. */
export function needleAs(manifest: Manifest, plantedAs: string, index = 0): Needle {
	const n = manifest.needles.filter((x) => x.plantedAs === plantedAs)[index];
	if (!n) throw new Error(`the corpus manifest has no needle #${index} planted as ${plantedAs}`);
	return n;
}

/** A JSONL line as pi wrote it, parsed. */
export type RawEntry = Record<string, unknown>;

/**
 * Every line of a JSONL file, parsed, in file order (blank lines left out). Lines that are not JSON objects throw,
 * unless `skipInvalid` (real files may hold torn or damaged lines; pi's loader skips those too).
 */
export function readEntries(path: string, options: { skipInvalid?: boolean } = {}): RawEntry[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((l) => l.trim())
		.flatMap((l) => {
			let v: unknown;
			try {
				v = JSON.parse(l);
			} catch (error) {
				if (options.skipInvalid) return [];
				throw error;
			}
			if (v && typeof v === "object" && !Array.isArray(v)) return [v as RawEntry];
			if (options.skipInvalid) return [];
			throw new Error(`${path}: a line is not a JSON object: ${l.slice(0, 80)}`);
		});
}

/**
 * One entry of `file` (relative to `dir`) straight from the file: by 1-based line number, or by entry id.
 * Throws when the line is missing or no entry has the id.
 */
export function fixtureEntry<T = RawEntry>(dir: string, file: string, at: number | string): T {
	const path = join(dir, file);
	if (typeof at === "number") {
		const line = readFileSync(path, "utf8").split("\n")[at - 1];
		if (!line?.trim()) throw new Error(`${path} has no line ${at}`);
		return JSON.parse(line) as T;
	}
	const entry = readEntries(path, { skipInvalid: true }).find((e) => e.id === at);
	if (!entry) throw new Error(`${path} has no entry ${at}`);
	return entry as T;
}

/** The generator's occurrence kinds → our semantic kinds (label text is a filter, not a fragment). */
export const KIND_OF: Record<string, string> = {
	"user.text": "user.text",
	"assistant.text": "assistant.text",
	"assistant.errorMessage": "assistant.error",
	"assistant.toolCall.arguments": "tool.call",
	"toolResult.text": "tool.result",
	"bashExecution.command": "bash.command",
	"bashExecution.output": "bash.output",
	"custom_message.content": "custom.message",
	"customMessage.content": "custom.message",
	"compaction.summary": "summary.compaction",
	"branch_summary.summary": "summary.branch",
	"session_info.name": "session.name",
};
