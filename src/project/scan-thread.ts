/** Runs file scans in a worker thread, so parsing and tokenizing overlap with SQLite writes on the main thread. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ScanPlan, ScanResult } from "./file-scan.js";

const WORKER_URL = new URL("./scan-thread-entry.js", import.meta.url);

/** One scan worker; results come back in whatever order they finish, matched by id. */
export class ScanWorker {
	private readonly waiting = new Map<number, { resolve: (r: ScanResult) => void; reject: (e: Error) => void }>();
	private nextId = 0;
	private failure: Error | null = null;

	private constructor(private readonly worker: Worker) {
		worker.on("message", (m: { id: number; result: ScanResult }) => {
			this.waiting.get(m.id)?.resolve(m.result);
			this.waiting.delete(m.id);
		});
		const fail = (error: Error) => {
			this.failure = error;
			for (const w of this.waiting.values()) w.reject(error);
			this.waiting.clear();
		};
		worker.on("error", fail);
		worker.on("exit", (code) => {
			if (this.waiting.size > 0) fail(new Error(`scan worker exited with code ${code}`));
		});
	}

	/** A worker, or null where the compiled worker script is not available (e.g. tests running the TypeScript sources). */
	static create(): ScanWorker | null {
		const path = fileURLToPath(WORKER_URL);
		if (!existsSync(path)) return null;
		try {
			return new ScanWorker(new Worker(path));
		} catch {
			return null;
		}
	}

	/** Scans one file in the worker. */
	scan(plan: ScanPlan): Promise<ScanResult> {
		if (this.failure) return Promise.reject(this.failure);
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			this.worker.postMessage({ id, plan });
		});
	}

	/** Stops the worker. */
	async close(): Promise<void> {
		await this.worker.terminate();
	}
}
