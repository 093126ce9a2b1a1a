/** event-identity.ts `binary`: JavaScript strings ordered as SQLite's BINARY collation orders their UTF-8 bytes. */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { binary } from "../src/index/event-identity.js";

const CASES = [
	"",
	"a",
	"ab",
	"b",
	"B",
	"é",
	"\u{ffff}",
	"\u{e000}",
	"\u{d7ff}",
	"😀",
	"😀a",
	"\u{10ffff}",
	"a😀",
	"a\u{fffd}",
	"2026-01-01T00:00:00.000Z",
	"2026-01-01T00:00:00Z",
];

describe("binary order", () => {
	it("sorts as SQLite sorts the same strings", () => {
		const db = new Database(":memory:");
		db.exec("CREATE TABLE t (s TEXT)");
		const insert = db.prepare("INSERT INTO t VALUES (?)");
		for (const s of CASES) insert.run(s);
		const sqlite = db.prepare("SELECT s FROM t ORDER BY s").pluck().all() as string[];
		db.close();
		expect([...CASES].sort(binary)).toEqual(sqlite);
	});

	it.each([
		["\u{ffff}", "😀", -1],
		["😀", "\u{e000}", 1],
		["a", "ab", -1],
		["x", "x", 0],
	])("%j against %j", (a, b, sign) => {
		expect(Math.sign(binary(a, b))).toBe(sign);
	});
});
