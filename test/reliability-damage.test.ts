/**
 * A damaged index of ours is recovered, whatever the damage (issue 32 item 5): a truncated index at the default
 * location is moved aside and rebuilt (the damage shows while opening it, before SQLite reads a page), and then
 * answers like the index before the damage.
 */
import { cpSync, readdirSync, statSync, truncateSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { HistoryService } from "../src/service/service.js";
import { resolveConfig } from "../src/shared/config.js";
import { CORPUS_DIR } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const QUERY = "the";
const s = scratch("pes-damage-");

/** An agent dir holding the fixture sessions, and the service config pi-history would use there (default index). */
function agent(name: string) {
	const agentDir = s.fresh(name);
	cpSync(join(CORPUS_DIR, "sessions"), join(agentDir, "sessions"), { recursive: true });
	const config = resolveConfig({ env: { PI_CODING_AGENT_DIR: agentDir }, home: dirname(agentDir) });
	return { agentDir, config };
}

const refs = (service: HistoryService) =>
	service
		.search({ query: QUERY, limit: 50 })
		.hits.map((h) => `${h.sessionId}/${h.entryId}/${h.fragmentId}`)
		.sort();

describe("damaged indexes are recovered (issue 32 item 5)", () => {
	it("a truncated index at the default location is moved aside and rebuilt, and answers like a fresh build", () => {
		const { config } = agent("truncated");
		expect(config.indexIsDefault).toBe(true);
		const first = HistoryService.open({ config });
		first.refresh();
		const expected = refs(first);
		first.close();
		expect(expected.length).toBeGreaterThan(0);
		truncateSync(config.indexPath, Math.floor(statSync(config.indexPath).size / 2));
		const again = HistoryService.open({ config });
		try {
			expect(again.notes.join("\n")).toMatch(/the index was damaged .*moved it to .*corrupt/);
			again.refresh();
			expect(refs(again)).toEqual(expected);
		} finally {
			again.close();
		}
		expect(readdirSync(dirname(config.indexPath)).filter((f) => f.includes(".corrupt-"))).toHaveLength(1);
	});
});
