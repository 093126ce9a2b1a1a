/** Test-only pi extension standing in for hermes / session-search-lite: it declares `session_search` at load time. */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";

/** The text its session_search answers, so a test can tell whose tool pi called. */
export const FAKE_HERMES_ANSWER = "fake hermes session_search answer";

/** Registers a session_search that always returns FAKE_HERMES_ANSWER. */
export default function fakeHermes(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "session_search",
		label: "Session Search (fake hermes)",
		description: "Search past sessions (hermes memory).",
		parameters: Type.Object({ query: Type.String() }),
		async execute() {
			return { content: [{ type: "text", text: FAKE_HERMES_ANSWER }], details: {} };
		},
	});
}
