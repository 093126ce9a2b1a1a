/** Test helpers: the committed fixture corpus (written by pi's SessionManager via the shared generator), temp dirs, services. */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveConfig } from "../../src/config.js";
import { HistoryService } from "../../src/service.js";

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
	toolPairsSample: Array<{ file: string; sessionId: string; toolCallId: string; toolName: string; callEntryId: string; resultEntryId: string; isError: boolean }>;
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

/** A service over `sessionsDir` with its index in `indexPath` (real SQLite file). */
export function openService(sessionsDir: string | string[], indexPath: string): HistoryService {
	const sessionsDirs = Array.isArray(sessionsDir) ? sessionsDir : [sessionsDir];
	return HistoryService.open({ config: resolveConfig({ sessionsDirs, indexPath, env: {}, home: tmpdir() }) });
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
