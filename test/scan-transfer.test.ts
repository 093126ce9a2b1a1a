/**
 * What the scan thread sends the writer (scan-thread.ts packScan / unpackScan) is exactly what it read: every field
 * of every entry, and every FTS text byte for byte, for each file of the fixture corpus (v1–v3, CJK, Windows paths,
 * forks) and a pi 1.x session whose system prompt sections stay text.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScanResult, scanFile } from "../src/project/file-scan.js";
import { packScan, transferList, unpackScan } from "../src/project/scan-thread.js";
import { CORPUS_DIR, tempDir } from "./helpers/corpus.js";

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
	tmp = tempDir();
});
afterAll(() => tmp.cleanup());

function sessionFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((d) => d.isFile() && d.name.endsWith(".jsonl"))
		.map((d) => join(d.parentPath, d.name));
}

/** Through postMessage's own cloning, with the buffers transferred as the worker sends them. */
function sent(scan: ScanResult): ScanResult {
	const packed = packScan(scan);
	return unpackScan(structuredClone(packed, { transfer: transferList(packed) }));
}

/** FTS texts as strings again, whichever form they travelled in. */
function asText(scan: ScanResult): ScanResult {
	for (const e of scan.entries) for (const f of e.fts) if (typeof f.text !== "string") f.text = Buffer.from(f.text).toString("utf8");
	return scan;
}

describe("scan transfer to the writer thread", () => {
	it("delivers every entry and FTS text of each fixture file unchanged", () => {
		const files = sessionFiles(CORPUS_DIR);
		expect(files.length).toBeGreaterThan(10);
		let texts = 0;
		for (const path of files) {
			const read = scanFile({ path, mode: "rebuild" });
			const expected = asText(structuredClone(read));
			texts += expected.entries.reduce((n, e) => n + e.fts.length, 0);
			expect(asText(sent(read))).toEqual(expected);
		}
		expect(texts).toBeGreaterThan(100);
	});

	it("keeps pi 1.x system prompt sections as text and the other texts as bytes", () => {
		const path = join(tmp.dir, "pi1x.jsonl");
		const lines = [
			{ type: "session", version: 3, id: "0190aaaa-0000-7000-8000-000000000001", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/home/u/p" },
			{
				type: "message",
				id: "aaaa0001",
				parentId: null,
				timestamp: "2026-01-01T00:00:01.000Z",
				message: { role: "system", content: "", sections: { preamble: "You are pi. 検索", tools: "read, bash" }, timestamp: 1 },
			},
			{
				type: "message",
				id: "aaaa0002",
				parentId: "aaaa0001",
				timestamp: "2026-01-01T00:00:02.000Z",
				message: { role: "user", content: [{ type: "text", text: "Why does handleWebhook time out? 内存泄漏 🚀" }], timestamp: 2 },
			},
		];
		writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const read = scanFile({ path, mode: "rebuild" });
		const expected = asText(structuredClone(read));
		const got = sent(read);
		const kinds = got.entries.flatMap((e) => e.fts.map((f) => [f.kind, typeof f.text === "string" ? "text" : "bytes"]));
		expect(kinds).toEqual([
			["system.prompt", "text"],
			["system.prompt", "text"],
			["user.text", "bytes"],
		]);
		expect(asText(got)).toEqual(expected);
	});
});
