/**
 * An index deleted under a running process (issue 32 item 5): a long-running process (an explorer, pi) keeps its
 * connection; the index files are deleted and another process builds a new, healthy index at the same default path.
 * The first process's next search must use the new index — never move it aside as "corrupt", never answer 0 hits.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, DIST } from "./helpers/build.js";
import { CORPUS_DIR, PROJECT_ROOT } from "./helpers/corpus.js";
import { scratch } from "./helpers/reliability.js";

const { fresh } = scratch("pes-replaced-");
const QUERY = "the";

/** A process that opens the default index, searches, and searches again (with a refresh first, as the CLI does) on cue. */
const HOLDER = `
const { HistoryService } = await import(${JSON.stringify(join(DIST, "service", "service.js"))});
const { resolveConfig } = await import(${JSON.stringify(join(DIST, "shared", "config.js"))});
const agentDir = process.argv[1];
const config = resolveConfig({ env: { PI_CODING_AGENT_DIR: agentDir }, home: agentDir });
const service = HistoryService.open({ config });
const hits = () => service.search({ query: ${JSON.stringify(QUERY)}, limit: 50 });
service.refresh();
process.stdout.write(JSON.stringify({ before: hits().hits.length }) + "\\n");
process.stdin.once("data", () => {
	const refreshed = service.refresh();
	const after = hits();
	process.stdout.write(JSON.stringify({ after: after.hits.length, notes: [...service.notes, ...refreshed.notes, ...after.notes] }) + "\\n");
	service.close();
	process.exit(0);
});
`;

describe("an index replaced under a running process (issue 32 item 5)", () => {
	it("the running process answers from the new index and leaves it in place", async () => {
		const agentDir = fresh("agent");
		cpSync(join(CORPUS_DIR, "sessions"), join(agentDir, "sessions"), { recursive: true });
		const holder = spawn(process.execPath, ["--input-type=module", "-e", HOLDER, agentDir], { cwd: PROJECT_ROOT, stdio: ["pipe", "pipe", "inherit"] });
		const lines: string[] = [];
		let buffer = "";
		const waiters: Array<() => void> = [];
		holder.stdout.on("data", (chunk: Buffer) => {
			buffer += chunk.toString("utf8");
			for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
				lines.push(buffer.slice(0, i));
				buffer = buffer.slice(i + 1);
				waiters.shift()?.();
			}
		});
		const nextLine = () =>
			new Promise<string>((resolve) => (lines.length ? resolve(lines.shift() as string) : waiters.push(() => resolve(lines.shift() as string))));
		try {
			const { before } = JSON.parse(await nextLine()) as { before: number };
			expect(before).toBeGreaterThan(0);
			const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, HOME: agentDir };
			const indexPath = JSON.parse(spawnSync(process.execPath, [CLI, "status", "--json"], { env, encoding: "utf8" }).stdout).index as string;
			// Deleted under it (the shared-memory file left, as a cleanup of "the index files" may), then a new index built
			// by another process at the same path: both processes now share that file's view of two different WALs.
			for (const suffix of ["", "-wal"]) rmSync(indexPath + suffix, { force: true });
			const built = spawnSync(process.execPath, [CLI, "index"], { env, encoding: "utf8" });
			expect(built.status, built.stderr).toBe(0);
			holder.stdin.write("go\n");
			const { after, notes } = JSON.parse(await nextLine()) as { after: number; notes: string[] };
			expect(notes.join("\n")).not.toMatch(/corrupt|damaged/);
			expect(after).toBe(before);
			// The new index is where it was built, and answers as before.
			expect(readdirSync(dirname(indexPath)).filter((f) => f.includes(".corrupt-"))).toEqual([]);
			const search = spawnSync(process.execPath, [CLI, "search", QUERY, "--no-refresh", "--json", "--limit", "50"], { env, encoding: "utf8" });
			expect(search.status, search.stderr).toBe(0);
			expect(JSON.parse(search.stdout).hits.length).toBe(before);
		} finally {
			holder.stdin.end();
			if (holder.exitCode === null) holder.kill();
		}
	});
});
