/** Worker-thread entry: reads session files for the index (file-scan) while the main thread writes SQLite. */
import { parentPort } from "node:worker_threads";
import { type ScanPlan, scanFile } from "./file-scan.js";
import { packScan, transferList } from "./scan-thread.js";

parentPort?.on("message", (message: { id: number; plan: ScanPlan }) => {
	const packed = packScan(scanFile(message.plan));
	parentPort?.postMessage({ id: message.id, packed }, transferList(packed));
});
