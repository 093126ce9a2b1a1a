/** Worker-thread entry: reads session files for the index (file-scan) while the main thread writes SQLite. */
import { parentPort } from "node:worker_threads";
import { type ScanPlan, scanFile } from "./file-scan.js";

parentPort?.on("message", (message: { id: number; plan: ScanPlan }) => {
	parentPort?.postMessage({ id: message.id, result: scanFile(message.plan) });
});
