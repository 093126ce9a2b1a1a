/**
 * Test-only pi extension for the fork-family fixture: a scripted model (pi-ai's faux provider) that answers every
 * prompt with a reply naming it, and every summary request (a request without tools) with a summary; plus the
 * `/goto <entryId>` command, which moves pi's tree position with a branch summary, as `/tree` does.
 */

import { type Context, fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { fauxProviderConfig } from "./faux-provider-config.js";

function lastUserText(context: Context): string {
	for (let i = context.messages.length - 1; i >= 0; i--) {
		const m = context.messages[i];
		if (m?.role !== "user") continue;
		return typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join(" ");
	}
	return "";
}

function reply(context: Context) {
	if (!context.tools || context.tools.length === 0) return fauxAssistantMessage("Summary: the branch looked at FAMILY_SUMMARY_NEEDLE retries.");
	return fauxAssistantMessage(`Answer to: ${lastUserText(context).slice(0, 120)}`);
}

/** Registers the faux provider `faux` (model `faux-1`) and the `/goto` command. */
export default function forkFamilyExtension(pi: ExtensionAPI): void {
	const faux = registerFauxProvider({ api: "pes-family", provider: "faux", models: [{ id: "faux-1", reasoning: false }] });
	faux.setResponses(Array.from({ length: 64 }, () => reply));
	pi.registerProvider("faux", fauxProviderConfig("pes-family"));
	pi.registerCommand("goto", {
		description: "navigate the tree with a branch summary: /goto <entryId>",
		handler: async (args, ctx) => {
			await ctx.navigateTree(args.trim(), { summarize: true, label: "family-branch" });
		},
	});
}
