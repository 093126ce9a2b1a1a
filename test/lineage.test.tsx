/**
 * The event header names the session file an event was read from and that file's lineage, on a fork family written
 * by the real pi 0.73.1 CLI (a session, its `/clone`, its `--fork` into another folder): ground truth is the files'
 * headers and entries. And the path line counts the whole depth of a long path, not the 50 ancestors a read returns.
 */
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { cleanup, render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { idTail } from "../components/core/session-label.js";
import { lineText } from "../components/core/styled.js";
import { loadEvent } from "../components/event/loaders.js";
import { newLoc } from "../components/event/stack-state.js";
import { pathLine } from "../components/event/trace-view.js";
import { EventHeader } from "../components/ink/EventView.js";
import type { HistoryService } from "../src/service/service.js";
import { openService, tempDir } from "./helpers/corpus.js";
import { type ForkFamily, writeForkFamily } from "./helpers/fork-family.js";
import { assistant, createSession, user } from "./helpers/pi-sessions.js";

afterEach(() => cleanup());

function headerLines(service: HistoryService, ref: { sessionId: string; entryId: string }, width = 200): Promise<string[]> {
	return loadEvent(service, ref).then((data) => {
		const loc = { ...newLoc({ ref, highlights: [] }), data };
		const r = render(<EventHeader loc={loc} depth={1} width={width} now={Date.now()} color={false} banner={null} />);
		return stripVTControlCharacters(r.lastFrame() ?? "").split("\n");
	});
}

describe("a long linear session", () => {
	let done: () => void;
	let service: HistoryService;
	let last: { sessionId: string; entryId: string };
	const ENTRIES = 120;

	beforeAll(() => {
		const t = tempDir("pes-depth-");
		done = t.cleanup;
		const sm = createSession("/home/alice/code/deep", join(t.dir, "sessions"));
		let id = "";
		for (let i = 0; i < ENTRIES; i++) id = sm.appendMessage(i % 2 === 0 ? user(`question ${i}`) : assistant(`answer ${i}`));
		last = { sessionId: sm.getSessionId(), entryId: id };
		service = openService(join(t.dir, "sessions"), join(t.dir, "index.sqlite"));
		service.refresh();
	});
	afterAll(() => {
		service.close();
		done();
	});

	it("shows the depth of the last entry (every entry above it), not 50+", async () => {
		expect(service.trace(last).depth).toBe(ENTRIES - 1);
		const data = await loadEvent(service, last);
		expect(lineText(pathLine(data))).toMatch(new RegExp(`\\(depth ${ENTRIES - 1}\\)$`));
		expect(lineText(pathLine(data))).not.toContain("+");
	});
});

describe("the header of a fork family", () => {
	let family: ForkFamily;
	let service: HistoryService;
	let done: () => void;

	beforeAll(async () => {
		const t = tempDir("pes-lineage-");
		done = t.cleanup;
		family = await writeForkFamily(t.dir);
		service = openService(family.sessionsDir, join(t.dir, "index.sqlite"));
		service.refresh();
	}, 600_000); // a safety net for real pi runs on a busy machine, not a measure

	afterAll(() => {
		service?.close();
		done();
	});

	it("says a /clone is a clone of the original at its leaf, and names the clone's file", async () => {
		// The clone continues from the last entry it copied (pi re-creates label entries with new ids after it).
		const inOriginal = new Set(family.original.entries.map((e) => e.id));
		const leaf = family.clone.entries.filter((e) => inOriginal.has(e.id)).at(-1)?.id as string;
		const lineage = service.trace({ sessionId: family.clone.sessionId, entryId: leaf }).lineage;
		expect(lineage?.parent?.id).toBe(family.original.sessionId);
		expect(lineage?.how).toBe("clone");
		expect(lineage?.at).toBe(leaf);
		const lines = await headerLines(service, { sessionId: family.clone.sessionId, entryId: leaf });
		expect(lines).toHaveLength(3);
		expect(lines[2]).toContain(family.clone.path.split("/").at(-1));
		expect(lines[2]).toContain(`clone of webhook retries #${idTail(family.original.sessionId)} at its leaf ${leaf}`);
	});

	it("says a pi --fork copied every entry of its parent", async () => {
		const first = family.fork.entries[0]?.id as string;
		const lineage = service.trace({ sessionId: family.fork.sessionId, entryId: first }).lineage;
		expect(lineage?.parent?.id).toBe(family.original.sessionId);
		expect(lineage?.how).toBe("copy");
		const lines = await headerLines(service, { sessionId: family.fork.sessionId, entryId: first });
		expect(lines[2]).toContain(family.fork.path.split("/").at(-1));
		expect(lines[2]).toContain(`copy of webhook retries #${idTail(family.original.sessionId)} (pi --fork: every entry)`);
	});

	it("says the original has no parent and two sessions were forked from it", async () => {
		const first = family.original.entries[0]?.id as string;
		const lines = await headerLines(service, { sessionId: family.original.sessionId, entryId: first });
		expect(lines[2]).toContain(family.original.path.split("/").at(-1));
		expect(lines[2]).toContain("no parent session · 2 sessions forked from it");
	});

	it("keeps the end of a long file path (the session id) in a narrow header", async () => {
		const first = family.original.entries[0]?.id as string;
		const lines = await headerLines(service, { sessionId: family.original.sessionId, entryId: first }, 100);
		expect(lines[2]).toContain(`${family.original.sessionId}.jsonl`);
	});
});
