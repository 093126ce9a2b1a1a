/** pi's own view of a session file, as a test oracle: its entries, its leaf, and which entries reach the model. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildSessionContext, convertToLlm, migrateSessionEntries, parseSessionEntries, type SessionEntry } from "@mariozechner/pi-coding-agent";
import { expect } from "vitest";
import { PROJECT_ROOT } from "./corpus.js";

type Llm = Record<string, unknown>;
/** pi-ai 0.73.1's transformMessages (not exported from its root): it drops errored and aborted replies. */
const { transformMessages } = (await import(
	pathToFileURL(join(PROJECT_ROOT, "node_modules", "@mariozechner", "pi-ai", "dist", "providers", "transform-messages.js")).href
)) as { transformMessages(messages: Llm[], model: Llm): Llm[] };
/** A model the messages were written by: same-model replay, images allowed, so only the drop rules act. */
const REPLAY_MODEL = { id: "m", api: "a", provider: "p", input: ["text", "image"] };

/** What pi sends the model for one context message: convertToLlm, then pi-ai's transformMessages. */
export function sentToModel(message: unknown): boolean {
	return transformMessages(convertToLlm([message as never]) as unknown as Llm[], REPLAY_MODEL).length > 0;
}

/** pi's view of a file: its entries (migrated like pi does on open), the leaf, and the entries the model is sent. */
export function piContext(file: string) {
	const entries = parseSessionEntries(readFileSync(file, "utf8")) as Array<SessionEntry | { type: "session"; version?: number }>;
	const header = entries[0] as { type: string; version?: number };
	if ((header.version ?? 1) < 3) migrateSessionEntries(entries as never);
	const fileEntries = entries.filter((e) => e.type !== "session") as SessionEntry[];
	const byId = new Map<string, SessionEntry>();
	let leafId: string | null = null;
	for (const e of fileEntries) {
		byId.set(e.id, e);
		leafId = e.id;
	}
	const ctx = buildSessionContext(fileEntries, leafId, byId);
	// Map each context message back to the entry it came from: message entries by identity, synthesized
	// summary and custom messages by their fields.
	const direct = new Set<string>();
	const excluded = new Set<string>();
	const path: SessionEntry[] = [];
	for (let cur = leafId ? byId.get(leafId) : undefined; cur; cur = cur.parentId ? byId.get(cur.parentId) : undefined) path.unshift(cur);
	for (const m of ctx.messages as unknown as Array<Record<string, unknown>>) {
		const hit = path.find((e) => {
			const x = e as unknown as Record<string, unknown>;
			if (e.type === "message") return x.message === m;
			if (e.type === "compaction") return m.role === "compactionSummary" && m.summary === x.summary;
			if (e.type === "branch_summary") return m.role === "branchSummary" && m.summary === x.summary && m.fromId === x.fromId;
			if (e.type === "custom_message") return m.role === "custom" && m.customType === x.customType && JSON.stringify(m.content) === JSON.stringify(x.content);
			return false;
		});
		expect(hit, `context message ${String(m.role)} has a source entry`).toBeDefined();
		// pi's convertToLlm drops `!!` bash executions (excludeFromContext) and pi-ai's transformMessages errored and
		// aborted replies: in the context, never sent.
		if (hit) (sentToModel(m) ? direct : excluded).add(hit.id);
	}
	return { fileEntries, direct, excluded, path };
}
