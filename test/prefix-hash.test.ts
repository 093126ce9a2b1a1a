/**
 * A session file over 16 MiB is checked for having only grown by a head and a tail sample of its indexed prefix
 * (src/source/fingerprint.ts): 64 KiB each now, 1 MiB in indexes written before. An append to such a file is an
 * append with either kind of stored digest, and a change inside either sample rebuilds the session. The legacy
 * digest is computed here by hand from its documented form (`s:<bytes>:<sha1 of the first MiB>:<sha1 of the last>`).
 */
import { createHash } from "node:crypto";
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openService, tempDir } from "./helpers/corpus.js";

const SESSION = "0199e000-0000-7000-8000-0000000000b1";
const MIB = 1024 * 1024;
const ts = (i: number) => new Date(Date.UTC(2026, 7, 1) + i * 1000).toISOString();
const line = (i: number) =>
	`${JSON.stringify({ type: "message", id: `b${i}`, parentId: i === 1 ? null : `b${i - 1}`, timestamp: ts(i), message: { role: "user", content: [{ type: "text", text: `entry ${i} ${"lorem ipsum ".repeat(80)}` }], timestamp: 1 } })}\n`;

let t: ReturnType<typeof tempDir>;
let root: string;
let file: string;
let index: string;
let entries = 0;

beforeAll(() => {
	t = tempDir("pes-prefix-hash-");
	root = join(t.dir, "sessions");
	mkdirSync(join(root, "--h--"), { recursive: true });
	file = join(root, "--h--", "2026-08-01T00-00-00-000Z_h.jsonl");
	index = join(t.dir, "index.sqlite");
	const parts = [`${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: ts(0), cwd: "/tmp/h" })}\n`];
	let bytes = parts[0]?.length ?? 0;
	while (bytes < 17 * MIB) {
		const next = line(++entries);
		parts.push(next);
		bytes += next.length;
	}
	writeFileSync(file, parts.join(""));
}, 60_000);

afterAll(() => t.cleanup());

function refresh() {
	const service = openService(root, index);
	try {
		return service.refresh();
	} finally {
		service.close();
	}
}

function storedDigest(): string {
	const db = new Database(index, { readonly: true });
	try {
		return (db.prepare("SELECT prefix_hash FROM files").get() as { prefix_hash: string }).prefix_hash;
	} finally {
		db.close();
	}
}

describe("a session file over 16 MiB", () => {
	it("appends with a new digest, with a digest of the older kind, and rebuilds after a change in a sample", () => {
		refresh();
		expect(storedDigest()).toMatch(/^t:/);
		appendFileSync(file, line(++entries));
		expect(refresh()).toMatchObject({ sessionsAppended: 1, sessionsRebuilt: 0 });

		// An index written before: the same file's digest with 1 MiB samples.
		const bytes = readFileSync(file);
		const sha1 = (b: Buffer) => createHash("sha1").update(b).digest("hex");
		const legacy = `s:${bytes.length}:${sha1(bytes.subarray(0, MIB))}:${sha1(bytes.subarray(bytes.length - MIB))}`;
		const db = new Database(index);
		db.prepare("UPDATE files SET prefix_hash = ?").run(legacy);
		db.close();
		appendFileSync(file, line(++entries));
		expect(refresh()).toMatchObject({ sessionsAppended: 1, sessionsRebuilt: 0 });
		expect(storedDigest()).toMatch(/^t:/);

		// One byte changed 10 KiB before the end of the indexed part (inside the tail sample), then an append.
		const fd = openSync(file, "r+");
		const size = readFileSync(file).length;
		writeSync(fd, "X", size - 10 * 1024);
		closeSync(fd);
		appendFileSync(file, line(++entries));
		expect(refresh()).toMatchObject({ sessionsRebuilt: 1 });
	});
});
