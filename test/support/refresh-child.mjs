// Child process for the kill -9 and concurrency tests: refreshes an index with the built code, then exits. It reports
// each step to its parent (process.send) so the parent can kill it at a known point of the refresh, not after a timer:
// "started" once the index is open, then one { phase, filesDone } message per progress report.
// usage: node refresh-child.mjs <sessionsDir> <indexPath> [full | sliced:<slices>:<rows>]
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(fileURLToPath(new URL("../../dist/src", import.meta.url)));
const { resolveConfig } = await import(join(dist, "shared", "config.js"));
const { HistoryService } = await import(join(dist, "service", "service.js"));
const [dir, index, full] = process.argv.slice(2);
const service = HistoryService.open({ config: resolveConfig({ sessionsDirs: [dir], indexPath: index, env: {}, home: "/nonexistent" }), busyTimeoutMs: 10_000 });
process.send?.("started");
if (full?.startsWith("sliced:")) {
	// sliced:<slices>:<rows>: the extension's sliced refresh, deleting removed sessions' rows <rows> at a time, stopped
	// after <slices> slices; the child then says "stopped" and waits to be killed.
	const [, stopAfter, rows] = full.split(":").map(Number);
	let slices = 0;
	await service.refreshSliced({ batchMs: 0, removalChunk: rows, onSlice: () => slices++, shouldStop: () => slices >= stopAfter });
	process.send?.("stopped");
	setInterval(() => {}, 1000);
} else {
	await service.refreshAsync({
		full: full === "full",
		workerThresholdBytes: 0,
		onProgress: (p) => process.send?.({ phase: p.phase, filesDone: p.filesDone }),
	});
	service.close();
}
