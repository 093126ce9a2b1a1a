/**
 * I17 by file, whatever path names it (issue 32 item 1): a caller whose file the index holds under another path (a
 * symlinked directory) is still identified; a caller whose file the index does not hold is never guessed by id —
 * every session carrying its id stays out, even when asked for by id, and the answer says so (fail closed).
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_SESSION_NOTE } from "../src/query/search.js";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { assistant, createSession, user } from "./helpers/pi-sessions.js";

const NEEDLE = "ERR_PANGOLIN_3307";
const ROOT = "/home/ann/ws";

describe("the caller's session identified by its file (I17)", () => {
	const tmp = tempDir("pes-caller-id-");
	const sessions = join(tmp.dir, "sessions");
	let service: HistoryService;
	let ownFile = "";
	let ownId = "";
	let otherId = "";
	let otherFile = "";

	beforeAll(() => {
		const own = createSession(ROOT, join(sessions, "own"));
		own.appendMessage(user(`The deploy failed with ${NEEDLE}.`));
		own.appendMessage(assistant(`Looking into ${NEEDLE}.`));
		ownFile = own.getSessionFile() as string;
		ownId = own.getSessionId();
		// An export of it elsewhere: the same session id in another file.
		mkdirSync(join(sessions, "export"), { recursive: true });
		cpSync(ownFile, join(sessions, "export", basename(ownFile)));
		const other = createSession(ROOT, join(sessions, "other"));
		other.appendMessage(user(`Yesterday's ${NEEDLE} was a DNS issue.`));
		other.appendMessage(assistant("Noted."));
		otherId = other.getSessionId();
		otherFile = other.getSessionFile() as string;
		symlinkSync(join(sessions, "own"), join(tmp.dir, "link"), "dir");
		service = openService(sessions, join(tmp.dir, "index.sqlite"));
		service.refresh();
	});
	afterAll(() => {
		service.close();
		tmp.cleanup();
	});

	const sessionsOf = (hits: Array<{ sessionId: string }>) => [...new Set(hits.map((h) => h.sessionId.replace(/~.*$/, "")))].sort();

	it("knows its own file through a symlinked directory: only its own file is left out", () => {
		const viaLink = join(tmp.dir, "link", basename(ownFile));
		const result = service.search({ query: NEEDLE, caller: { root: ROOT, currentSessionId: ownId, currentSessionFile: viaLink } });
		// The export is another file with the same id: visible. The caller's own file is not.
		const files = [...new Set(result.hits.map((h) => h.session.file))].sort();
		expect(files).toEqual([join(sessions, "export", basename(ownFile)), join(sessions, "other", basename(otherFile))].sort());
		expect(result.notes.join("\n")).not.toContain("not found in the index");
	});

	it("fails closed when its file is not in the index: every session with its id is out, and the answer says so", () => {
		const caller = { root: ROOT, currentSessionId: ownId, currentSessionFile: join(tmp.dir, "elsewhere", "unknown.jsonl") };
		const result = service.search({ query: NEEDLE, caller });
		expect(sessionsOf(result.hits)).toEqual([otherId]);
		expect(result.notes.join("\n")).toContain(`every indexed session with its id ${ownId} (2) is excluded`);
		const asked = service.search({ query: NEEDLE, filters: { sessionIds: [ownId] }, caller });
		expect(asked.hits).toEqual([]);
		expect(asked.notes.join("\n")).not.toContain(CURRENT_SESSION_NOTE);
		expect(() => service.read({ sessionId: ownId, entryId: "whatever", caller })).toThrow(/was not found in the index/);
	});

	it("counts none of its own entries from the invoking message on in the index totals", () => {
		// Ground truth from the files: every entry line of every file, less the caller's own from the cutoff on.
		const entryIds = (file: string) =>
			readFileSync(file, "utf8")
				.split("\n")
				.filter(Boolean)
				.slice(1)
				.map((l) => (JSON.parse(l) as { id: string }).id);
		const own = entryIds(ownFile);
		const cutoff = own[1] as string;
		const all = own.length * 2 + entryIds(otherFile).length;
		const caller = { root: ROOT, currentSessionId: ownId, currentSessionFile: ownFile, cutoffEntryId: cutoff };
		const result = service.search({ query: NEEDLE, caller });
		expect(result.index.events).toBe(all - (own.length - 1));
		expect(service.search({ query: NEEDLE, caller: { ...caller, cutoffEntryId: undefined } }).index.events).toBe(all);
	});
});
