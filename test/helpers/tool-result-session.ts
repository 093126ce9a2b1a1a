/** Pi v3 session files of many tool results, for tests of bulk builds (big on disk, simple in shape). */

/** A session of `turns` tool results of about `bytes` each, each starting with `head(i)`. */
export function toolResultSession(id: string, turns: number, bytes: number, head: (i: number) => string): string {
	const lines: unknown[] = [{ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/bulk" }];
	let parent: string | null = null;
	for (let i = 0; i < turns; i++) {
		const entry = `${id}-${i}`;
		const text = `${head(i)} ${"lorem ipsum ".repeat(Math.ceil(bytes / 12))}`;
		lines.push({
			type: "message",
			id: entry,
			parentId: parent,
			timestamp: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 1000).toISOString(),
			message: { role: "toolResult", toolCallId: `c${i}`, toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: i },
		});
		parent = entry;
	}
	return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}
