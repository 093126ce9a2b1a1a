/**
 * Test-only pi extension for the fork-family fixture: a scripted model (pi-ai's faux provider) that answers every
 * prompt with a reply naming it, and every summary request (a request without tools) with a summary; plus the
 * `/goto <entryId>` command, which moves pi's tree position with a branch summary, as `/tree` does, and `/goto-first`,
 * which moves to the first user message and first writes pi's own answer to "what does the summary describe"
 * (collectEntriesForBranchSummary) to the file named by PES_BRANCH_ORACLE.
 */

import { writeFileSync } from "node:fs";
import { type Context, fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import { collectEntriesForBranchSummary, type ExtensionAPI } from "@mariozechner/pi-coding-agent";
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
	pi.registerCommand("goto-first", {
		description: "navigate to the first user message with a branch summary, recording what pi summarizes",
		handler: async (_args, ctx) => {
			const sm = ctx.sessionManager;
			const first = sm.getEntries().find((e) => e.type === "message" && e.message.role === "user");
			if (!first) throw new Error("no user message");
			const { entries } = collectEntriesForBranchSummary(sm as never, sm.getLeafId(), first.id);
			const out = process.env.PES_BRANCH_ORACLE;
			if (out) writeFileSync(out, JSON.stringify({ target: first.id, summarized: entries.map((e) => e.id) }));
			await ctx.navigateTree(first.id, { summarize: true });
		},
	});
}
