/** pi's own view of a session file, as a test oracle: its entries, its leaf, and which entries reach the model. */
import { readFileSync } from "node:fs";
import { buildSessionContext, convertToLlm, migrateSessionEntries, parseSessionEntries, type SessionEntry } from "@mariozechner/pi-coding-agent";
import { expect } from "vitest";

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
		// pi's convertToLlm drops `!!` bash executions (excludeFromContext): in the context, never sent.
		if (hit) (convertToLlm([m as never]).length > 0 ? direct : excluded).add(hit.id);
	}
	return { fileEntries, direct, excluded, path };
}
