/**
 * An appended line that repeats an indexed entry's id with other content (issue 32 item 2): pi's id map lets the last
 * copy win where the first one stood, and the index replaces that entry in place, as an append, instead of reading
 * the whole file again (but when the session's name before a removed last session_info would be needed). Each case: the refresh reports an append, not a rebuild; pi's own context of the file decides
 * which entries reach the model; the index equals a fresh build of the same file (rows, tokens, totals, shapes).
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { openService } from "./helpers/corpus.js";
import { piContext } from "./helpers/oracle.js";
import { scratch } from "./helpers/reliability.js";

const { fresh, freshBuild } = scratch("pes-replace-");
const SESSION = "0199d000-0000-7000-8000-00000000e1e1";
const T0 = Date.parse("2026-03-01T00:00:00Z");

type Line = Record<string, unknown>;
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const user = (id: string, parentId: string | null, text: string, s: number): Line => ({
	type: "message",
	id,
	parentId,
	timestamp: at(s),
	message: { role: "user", content: [{ type: "text", text }], timestamp: T0 + s * 1000 },
});
const reply = (id: string, parentId: string, text: string, s: number, call?: { id: string; path: string }): Line => ({
	type: "message",
	id,
	parentId,
	timestamp: at(s),
	message: {
		role: "assistant",
		content: [{ type: "text", text }, ...(call ? [{ type: "toolCall", id: call.id, name: "read", arguments: { path: call.path } }] : [])],
		api: "a",
		provider: "p",
		model: "m",
		usage,
		stopReason: call ? "toolUse" : "stop",
		timestamp: T0 + s * 1000,
	},
});
const result = (id: string, parentId: string, callId: string, text: string, s: number): Line => ({
	type: "message",
	id,
	parentId,
	timestamp: at(s),
	message: { role: "toolResult", toolCallId: callId, toolName: "read", content: [{ type: "text", text }], isError: false, timestamp: T0 + s * 1000 },
});
const label = (id: string, parentId: string, targetId: string, text: string, s: number): Line => ({
	type: "label",
	id,
	parentId,
	timestamp: at(s),
	targetId,
	label: text,
});
const named = (id: string, parentId: string, name: string, s: number): Line => ({ type: "session_info", id, parentId, timestamp: at(s), name });

/**
 * A session with a branch: u1 → a1 (reads src/a.ts) → t1 → a2 → u2 → a3 (the leaf's path), u3 → a4 off a1 (the
 * abandoned branch), a label on u1, a compaction keeping from u2, a name.
 */
const BASE: Line[] = [
	{ type: "session", version: 3, id: SESSION, timestamp: at(0), cwd: "/w" },
	user("u1", null, "how does the parser cope with quince input", 1),
	reply("a1", "u1", "reading the parser first", 2, { id: "call1", path: "/w/src/a.ts" }),
	result("t1", "a1", "call1", "export function parse() {}", 3),
	user("u3", "t1", "try the damson branch instead", 4),
	reply("a4", "u3", "the damson branch fails", 5),
	reply("a2", "t1", "the parser reads quince fine", 6),
	user("u2", "a2", "now the lexer", 7),
	named("n1", "u2", "parser study", 8),
	label("l1", "n1", "u1", "start", 9),
	{ type: "compaction", id: "c1", parentId: "l1", timestamp: at(10), summary: "studied the parser", firstKeptEntryId: "u2", tokensBefore: 1000 },
	reply("a3", "c1", "the lexer is fine", 11),
];

interface Case {
	name: string;
	/** Lines appended after BASE was indexed: at least one repeats an indexed id with other content. */
	append: Line[];
	/** Text the replaced copy held (gone) and the one the replacing copy holds (found). */
	gone?: string;
	found?: string;
	/** Reads the whole file again (the session's name may change): a rebuild. */
	rebuilds?: boolean;
	/** The copy moves in the tree or the context (or in time): the session is classified whole again. */
	reclassifies?: boolean;
	/** Copies that differ from the one before them (the refresh's note); 1 when not said. */
	conflicts?: number;
}

const CASES: Case[] = [
	{
		name: "a reply on the path with other text, then a turn",
		append: [reply("a2", "t1", "the parser chokes on medlar input", 6), user("u4", "a3", "and the printer", 12)],
		gone: "quince fine",
		found: "medlar",
	},
	{
		// The last copy has the indexed content again: still the later line, as a fresh build keeps it (found by
		// `npm run chaos`), and two copies that differ from the one before them.
		name: "a reply changed, then changed back in the same append",
		append: [reply("a2", "t1", "the parser chokes on medlar input", 6), reply("a2", "t1", "the parser reads quince fine", 6), user("u4", "a3", "next", 12)],
		gone: "medlar",
		found: "quince",
		conflicts: 2,
	},
	{
		name: "a reply copied as it is, then changed in the same append",
		append: [reply("a2", "t1", "the parser reads quince fine", 6), reply("a2", "t1", "the parser chokes on medlar input", 6), user("u4", "a3", "next", 12)],
		gone: "quince fine",
		found: "medlar",
	},
	{
		name: "an abandoned prompt moved onto the leaf's path (another parent), under the leaf",
		append: [user("u3", "a3", "try the damson idea after the lexer", 12), reply("a5", "u3", "done", 13)],
		reclassifies: true,
	},
	{
		name: "a reply with another tool call and file",
		append: [reply("a1", "u1", "reading the lexer instead", 2, { id: "call9", path: "/w/src/lexer.ts" }), user("u4", "a3", "next", 12)],
		gone: "reading the parser first",
		found: "lexer instead",
	},
	{
		name: "the label retargeted, and the first entry's timestamp moved past the last",
		append: [label("l1", "n1", "a2", "turning point", 9), user("u1", null, "how does the parser cope with quince input", 30)],
		reclassifies: true,
		conflicts: 2,
	},
	{
		name: "the compaction kept from another entry",
		append: [{ type: "compaction", id: "c1", parentId: "l1", timestamp: at(10), summary: "studied the tokenizer", firstKeptEntryId: "a2", tokensBefore: 1000 }],
		gone: "studied the parser",
		found: "tokenizer",
		reclassifies: true,
	},
	{
		name: "a prompt turned into a session name before the last one",
		append: [named("u2", "a2", "lexer study", 7)],
		reclassifies: true,
	},
	{
		name: "the session's last name changed",
		append: [named("n1", "u2", "lexer study", 8), reply("a5", "a3", "named anew", 12)],
	},
	{
		name: "the session's last name turned into a prompt (the name before it is not in the index)",
		append: [user("n1", "u2", "no name after all", 8)],
		rebuilds: true,
	},
];

const jsonl = (lines: Line[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

/** The session file of `lines` in a folder of its own, indexed: the file, its sessions folder, the index, the service. */
async function indexed(lines: Line[]) {
	const file = fresh(`sessions/--w--/2026-03-01T00-00-00-000Z_${SESSION}.jsonl`);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, jsonl(lines));
	const sessions = dirname(dirname(file));
	const index = join(dirname(sessions), "index.sqlite");
	const service = openService(sessions, index);
	try {
		await service.refreshAsync();
	} catch (error) {
		service.close();
		throw error;
	}
	return { file, sessions, index, service };
}

describe("a later copy of an indexed entry's id replaces it in place", () => {
	for (const c of CASES) {
		it(`${c.name}: ${c.rebuilds ? "read again whole" : c.reclassifies ? "an append classified whole" : "an append"}, pi's context, equal to a fresh build`, async () => {
			const { file, sessions, index, service } = await indexed(BASE);
			try {
				appendFileSync(file, jsonl(c.append));
				const summary = await service.refreshAsync();
				expect(summary).toMatchObject(c.rebuilds ? { sessionsRebuilt: 1 } : { sessionsAppended: 1, sessionsRebuilt: 0 });
				// A copy in the same place (its text, its tool call edited) leaves every state as it is: no whole pass.
				if (!c.rebuilds) expect(summary.sessionsReclassified ?? 0).toBe(c.reclassifies ? 1 : 0);
				expect(summary.notes.join(" ")).toContain(`${c.conflicts ?? 1} duplicate id(s) with different content (last kept`);
				if (c.gone) expect(service.search({ query: `"${c.gone}"` }).hits).toEqual([]);
				if (c.found) expect(service.search({ query: c.found }).hits.length).toBeGreaterThan(0);
				// pi's context of the file: an entry reaches the model directly exactly when pi sends it.
				const pi = piContext(file);
				const ids = new Set(pi.fileEntries.filter((e) => e.type === "message").map((e) => e.id));
				expect(pi.direct.size).toBeGreaterThan(0);
				for (const id of ids) {
					const direct = service.read({ sessionId: SESSION, entryId: id }).classification.selectionState === "direct";
					expect(`${id} ${direct}`).toBe(`${id} ${pi.direct.has(id)}`);
				}
			} finally {
				service.close();
			}
			freshBuild(sessions, index);
		});
	}

	it("copies of ids across the slices of a big file: each slice an append, the last equal to a fresh build", async () => {
		const lines: Line[] = [BASE[0] as Line];
		for (let i = 0; i < 300; i++)
			lines.push(i % 2 ? reply(`e${i}`, `e${i - 1}`, `reply ${i} pear`, i + 1) : user(`e${i}`, i ? `e${i - 1}` : null, `prompt ${i} plum`, i + 1));
		const { file, sessions, index, service } = await indexed(lines);
		try {
			// More turns with copies among them: an early prompt re-parented higher up (what it passed over is left off the
			// path), a late reply changed twice.
			const more: Line[] = [];
			for (let i = 300; i < 420; i++) {
				more.push(i % 2 ? reply(`e${i}`, `e${i - 1}`, `reply ${i} pear`, i + 1) : user(`e${i}`, `e${i - 1}`, `prompt ${i} plum`, i + 1));
				if (i === 330) more.push(user("e10", "e3", "prompt 10 moved, fig", 11));
				if (i === 360 || i === 400) more.push(reply("e299", "e298", `reply 299 rewritten at ${i}, kiwi`, 300));
			}
			appendFileSync(file, jsonl(more));
			let slices = 0;
			const summary = await service.refreshSliced({ sliceBytes: 1024 * 1024, sliceEntries: 25, batchMs: 0, onSlice: () => slices++ });
			expect(slices).toBeGreaterThanOrEqual(4);
			expect(summary).toMatchObject({ sessionsAppended: 1, sessionsRebuilt: 0, pending: 0 });
			expect(service.search({ query: "kiwi" }).hits.map((h) => h.entryId)).toEqual(["e299"]);
			expect(service.search({ query: '"rewritten at 360"' }).hits).toEqual([]);
			const pi = piContext(file);
			expect(pi.direct.has("e5")).toBe(false);
			for (const id of ["e3", "e5", "e10", "e250", "e299", "e419"])
				expect(`${id} ${service.read({ sessionId: SESSION, entryId: id }).classification.selectionState === "direct"}`).toBe(`${id} ${pi.direct.has(id)}`);
		} finally {
			service.close();
		}
		freshBuild(sessions, index);
	});
});
