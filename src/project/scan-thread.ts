/** Runs file scans in a worker thread, so parsing and tokenizing overlap with SQLite writes on the main thread. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ScannedEntry, ScanPlan, ScanResult } from "./file-scan.js";

// Named from dist/src/<folder>/, so the CLI's bundle (dist/src/pack/) starts the same compiled worker.
const WORKER_URL = new URL("../project/scan-thread-entry.js", import.meta.url);

/**
 * A scan on its way from the worker. Its entries travel as one flat array of values in a fixed field order, and
 * their FTS texts as UTF-8 in one transferred buffer (`ends[i]`: where the i-th text ends). Cloning ~30 keyed
 * properties per entry, and the texts as two-byte strings (every text holds the gap token, a surrogate pair, so
 * V8 stores it as UTF-16), was a fifth of the pipelined build's CPU; the writer thread, the busier one, paid the
 * deserializing and then converted each text to UTF-8 again when SQLite bound it.
 */
export interface PackedScan {
	/** The result without its entries. */
	result: ScanResult;
	values: unknown[];
	bytes: Uint8Array;
	ends: Uint32Array;
}

type Entry = ScannedEntry["entry"];
type Event = ScannedEntry["ev"];
type Evidence = Event["files"][number];

// Fields in one fixed order on both sides, written out (no loops over key lists: V8 turns dynamically keyed
// objects into slow dictionaries). A field added to an entry or event must be added here, or it would not reach
// the writer: the check below fails to compile until then.
type Listed = "id" | "parentId" | "synthetic" | "type" | "lineNo" | "offset" | "length" | "lineHash" | "locatorHint" | "legacyFirstKeptEntryId";
type ListedEvent =
	| "entryId"
	| "parentId"
	| "type"
	| "role"
	| "timestamp"
	| "tsMs"
	| "toolName"
	| "toolCallId"
	| "isError"
	| "exitCode"
	| "model"
	| "provider"
	| "stopReason"
	| "customType"
	| "refId"
	| "label"
	| "sessionName"
	| "contextRole"
	| "messageProducing"
	| "ctxFlags"
	| "preview"
	| "toolCalls"
	| "files";
const everyFieldListed: [Exclude<keyof Entry, Listed> | Exclude<keyof Event, ListedEvent>] extends [never] ? true : never = true;
void everyFieldListed;

/** Worker-side scratch for encoding texts, reused across scans; each scan's bytes are copied out at their size. */
let scratch = Buffer.alloc(0);

/** A fresh scan's texts are UTF-8 bytes, but system prompt sections' (file-scan.ts); those stay strings here too. */
const asBytes = (kind: string) => kind !== "system.prompt";

/** Packs a scan for postMessage (see PackedScan); system prompt sections stay strings (the writer hashes them as text). */
export function packScan(scan: ScanResult): PackedScan {
	let bound = 0;
	let count = 0;
	for (const e of scan.entries)
		for (const f of e.fts)
			if (asBytes(f.kind)) {
				bound += typeof f.text === "string" ? f.text.length * 3 : f.text.length;
				count++;
			}
	if (scratch.length < bound) scratch = Buffer.allocUnsafeSlow(Math.max(bound, 2 * scratch.length));
	const ends = new Uint32Array(count);
	const values: unknown[] = [];
	let at = 0;
	let n = 0;
	for (const { entry, ev, fts, frags } of scan.entries) {
		values.push(
			entry.id,
			entry.parentId,
			entry.synthetic,
			entry.type,
			entry.lineNo,
			entry.offset,
			entry.length,
			entry.lineHash,
			entry.locatorHint,
			entry.legacyFirstKeptEntryId,
			ev.entryId,
			ev.parentId,
			ev.type,
			ev.role,
			ev.timestamp,
			ev.tsMs,
			ev.toolName,
			ev.toolCallId,
			ev.isError,
			ev.exitCode,
			ev.model,
			ev.provider,
			ev.stopReason,
			ev.customType,
			ev.refId,
			ev.label,
			ev.sessionName,
			ev.contextRole,
			ev.messageProducing,
			ev.ctxFlags,
			ev.preview,
			frags,
			fts.length,
			ev.toolCalls.length,
			ev.files.length,
		);
		for (const f of fts) {
			values.push(f.kind);
			if (asBytes(f.kind)) {
				if (typeof f.text === "string") at += scratch.write(f.text, at, "utf8");
				else {
					scratch.set(f.text, at);
					at += f.text.length;
				}
				ends[n++] = at;
			} else values.push(f.text);
		}
		for (const c of ev.toolCalls) values.push(c.id, c.name, c.fragmentId);
		for (const f of ev.files) values.push(f.path, f.rel, f.via);
	}
	// Not pooled: a buffer of its own, so transferring it moves only this scan's bytes.
	const bytes = Buffer.allocUnsafeSlow(at);
	scratch.copy(bytes, 0, 0, at);
	return { result: { ...scan, entries: [] }, values, bytes, ends };
}

/** The ArrayBuffers postMessage can move instead of copying. */
export function transferList(p: PackedScan): ArrayBuffer[] {
	return [p.bytes.buffer as ArrayBuffer, p.ends.buffer as ArrayBuffer];
}

/** The writer's side of packScan: the same entries, each FTS text a view of the shared buffer. */
export function unpackScan(p: PackedScan): ScanResult {
	const { values, bytes, ends } = p;
	const entries: ScannedEntry[] = [];
	let i = 0;
	let n = 0;
	let from = 0;
	const v = () => values[i++];
	while (i < values.length) {
		const entry: Entry = {
			id: v() as string,
			parentId: v() as string | null,
			synthetic: v() as boolean,
			type: v() as string,
			lineNo: v() as number,
			offset: v() as number,
			length: v() as number,
			lineHash: v() as string,
		};
		// Optional fields stay absent when they were.
		const hint = v() as string | undefined;
		if (hint !== undefined) entry.locatorHint = hint;
		const kept = v() as string | null | undefined;
		if (kept !== undefined) entry.legacyFirstKeptEntryId = kept;
		const ev: Event = {
			entryId: v() as string,
			parentId: v() as string | null,
			type: v() as string,
			role: v() as string | null,
			timestamp: v() as string,
			tsMs: v() as number | null,
			toolName: v() as string | null,
			toolCallId: v() as string | null,
			isError: v() as boolean | null,
			exitCode: v() as number | null,
			model: v() as string | null,
			provider: v() as string | null,
			stopReason: v() as string | null,
			customType: v() as string | null,
			refId: v() as string | null,
			label: v() as string | null,
			sessionName: v() as string | null,
			contextRole: v() as Event["contextRole"],
			messageProducing: v() as boolean,
			ctxFlags: v() as number,
			preview: v() as string,
			toolCalls: [],
			files: [],
		};
		const frags = values[i++] as string;
		const nFts = values[i++] as number;
		const nCalls = values[i++] as number;
		const nFiles = values[i++] as number;
		const fts: ScannedEntry["fts"] = [];
		for (let k = 0; k < nFts; k++) {
			const kind = values[i++] as ScannedEntry["fts"][number]["kind"];
			if (kind === "system.prompt") fts.push({ kind, text: values[i++] as string });
			else {
				const to = ends[n++] as number;
				fts.push({ kind, text: bytes.subarray(from, to) });
				from = to;
			}
		}
		for (let k = 0; k < nCalls; k++) ev.toolCalls.push({ id: values[i++] as string, name: values[i++] as string, fragmentId: values[i++] as string });
		for (let k = 0; k < nFiles; k++) ev.files.push({ path: values[i++] as string, rel: values[i++] as Evidence["rel"], via: values[i++] as string });
		entries.push({ entry, ev, fts, frags });
	}
	return { ...p.result, entries };
}

/**
 * The scan thread's young generation (MB). V8's default (three 16 MB semi-spaces) let the reader's short-lived parse
 * garbage hold about 40 MB more than this, beside the writer's own heap, in a cold index of a 5 GB history (its peak
 * RSS passed 300 MB); with this it took the same time.
 */
const SCAN_YOUNG_MB = 24;

/** One scan worker; results come back in whatever order they finish, matched by id. */
export class ScanWorker {
	private readonly waiting = new Map<number, { resolve: (r: ScanResult) => void; reject: (e: Error) => void }>();
	private nextId = 0;
	private failure: Error | null = null;

	private constructor(private readonly worker: Worker) {
		worker.on("message", (m: { id: number; packed: PackedScan }) => {
			this.waiting.get(m.id)?.resolve(unpackScan(m.packed));
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
			return new ScanWorker(new Worker(path, { resourceLimits: { maxYoungGenerationSizeMb: SCAN_YOUNG_MB } }));
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
