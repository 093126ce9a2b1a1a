/**
 * Deferred tools (pi ≥ 1.6 `exposure: "deferred"`): off by default, because pi 1.6 registers `tool_search` inactive
 * and a deferred tool is then unreachable for the model; `"deferTools": true` in our config file registers all three
 * tools deferred, keeping their schemas out of every prompt.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExtension } from "../src/extension/index.js";
import type { ExtensionRegistrar } from "../src/extension/runtime.js";
import { tempDir } from "./helpers/corpus.js";

function exposures(env: string): Map<string, unknown> {
	const seen = new Map<string, unknown>();
	const saved = process.env.PI_CODING_AGENT_DIR;
	process.env.PI_CODING_AGENT_DIR = env;
	try {
		const registrar = { registerTool: (tool: { name: string; exposure?: unknown }) => void seen.set(tool.name, tool.exposure), on: () => undefined };
		createExtension({ sessionSearchTool: false })(registrar as unknown as ExtensionRegistrar);
	} finally {
		if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
		else process.env.PI_CODING_AGENT_DIR = saved;
	}
	return seen;
}

describe("deferred tools", () => {
	const tmp = tempDir("pes-defer-");
	afterAll(() => tmp.cleanup());

	it("are direct by default and deferred with deferTools in the config file", () => {
		const plain = join(tmp.dir, "plain");
		const deferred = join(tmp.dir, "deferred");
		mkdirSync(join(deferred, "pi-event-search"), { recursive: true });
		writeFileSync(join(deferred, "pi-event-search", "config.json"), JSON.stringify({ deferTools: true }));
		expect([...exposures(plain)]).toEqual([
			["event_search", undefined],
			["event_read", undefined],
			["event_trace", undefined],
		]);
		expect([...exposures(deferred)]).toEqual([
			["event_search", "deferred"],
			["event_read", "deferred"],
			["event_trace", "deferred"],
		]);
	});
});
