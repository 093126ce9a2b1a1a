/** Builds session files with pi's own SessionManager (devDependency), so fixtures have exactly pi's shapes. */
import { SessionManager } from "@mariozechner/pi-coding-agent";

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
let clock = Date.parse("2026-03-01T10:00:00Z");
const tick = () => (clock += 1000);

/** A user message as pi's interactive mode writes it (content blocks). */
export function user(text: string) {
	return { role: "user" as const, content: [{ type: "text" as const, text }], timestamp: tick() };
}

/** An assistant reply with optional tool calls. */
export function assistant(text: string, calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }> = []) {
	return {
		role: "assistant" as const,
		content: [...(text ? [{ type: "text" as const, text }] : []), ...calls.map((c) => ({ type: "toolCall" as const, ...c }))],
		api: "anthropic-messages" as const,
		provider: "anthropic",
		model: "claude-sonnet-4-5",
		usage,
		stopReason: calls.length ? ("toolUse" as const) : ("stop" as const),
		timestamp: tick(),
	};
}

/** A tool result for a call. */
export function toolResult(toolCallId: string, toolName: string, text: string, isError = false) {
	return { role: "toolResult" as const, toolCallId, toolName, content: [{ type: "text" as const, text }], details: {}, isError, timestamp: tick() };
}

/** Creates a session in `sessionDir` for `cwd`; the caller appends through the returned manager. */
export function createSession(cwd: string, sessionDir: string): SessionManager {
	return SessionManager.create(cwd, sessionDir);
}

export { SessionManager };
