/**
 * The streaming JSON reader of huge lines (src/source/json-stream.ts) against JSON.parse, the whole-line path: any
 * chunking, any mix of raw and escaped characters (\uXXXX, surrogate pairs, \" \\), strings cut into head and tail
 * at any length, invalid input rejected exactly when JSON.parse rejects it, and windows of a long string read back
 * from its file.
 */
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { hugeHint, readByHint, sampledLineHash } from "../src/source/huge-line.js";
import { LongText, type StreamLimits, streamBuffer, streamJson } from "../src/source/json-stream.js";
import { readLongTextRange } from "../src/source/string-window.js";
import { tempDir } from "./helpers/corpus.js";

const tmp = tempDir("pes-json-stream-");
afterAll(() => tmp.cleanup());

const SHORT: Record<number, string> = { 34: '\\"', 92: "\\\\", 10: "\\n", 13: "\\r", 9: "\\t", 8: "\\b", 12: "\\f" };
const u = (c: number) => `\\u${c.toString(16).padStart(4, "0")}`;

/** JSON text of a string, each character raw or escaped as `choice` says (characters JSON requires escaped always are). */
function encodeString(s: string, choice: (i: number) => number): string {
	let out = '"';
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		const pick = choice(i);
		const high = c >= 0xd800 && c <= 0xdbff;
		const next = s.charCodeAt(i + 1);
		if (high && next >= 0xdc00 && next <= 0xdfff) {
			// A pair: raw (4 UTF-8 bytes) or two escapes.
			out += pick % 2 === 0 ? s.slice(i, i + 2) : u(c) + u(next);
			i++;
		} else if (c >= 0xd800 && c <= 0xdfff) out += pick % 2 === 0 ? u(c) : u(c).toUpperCase().replace("\\U", "\\u");
		else if (c < 0x20 || c === 0x22 || c === 0x5c) out += pick % 2 === 0 && SHORT[c] ? SHORT[c] : u(c);
		else if (c === 0x2f && pick % 3 === 0) out += "\\/";
		else out += pick % 4 === 0 ? u(c) : s[i];
	}
	return `${out}"`;
}

/** Strings of any UTF-16 units, weighted toward the ones that need care. */
const units = fc.array(
	fc.oneof(
		fc.integer({ min: 0x20, max: 0x7e }),
		fc.constantFrom(0x22, 0x5c, 0x0a, 0x00, 0x1f, 0x2f, 0xe9, 0x2028, 0xfeff),
		fc.integer({ min: 0, max: 0xffff }),
		fc.constant(-1), // a surrogate pair
	),
	{ maxLength: 60 },
);
const jsString = units.map((list) => list.map((c) => (c === -1 ? "😀" : String.fromCharCode(c))).join(""));
const key = fc.oneof(fc.constantFrom("a", "type", "__proto__", "1", "é"), fc.string({ maxLength: 4 }));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const { value: jsonValue } = fc.letrec<{ value: Json }>((tie) => ({
	value: fc.oneof(
		{ depthSize: "small", withCrossShrink: true },
		fc.constant(null),
		fc.boolean(),
		fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
		jsString,
		fc.array(tie("value"), { maxLength: 4 }),
		fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map((pairs) => pairs),
	) as fc.Arbitrary<Json>,
}));

/** Keys stay shorter than the smallest `longChars` below: a long key would make the line too big to stream. */
const KEY_UNITS = 10;

/**
 * JSON text of a value with random escapes and whitespace (objects come as key/value pair lists: duplicates allowed;
 * a list of pairs whose strings are long, which the array arbitrary also makes, stays an array).
 */
function encode(v: unknown, rand: () => number): string {
	const ws = () => [" ", "", "\t", "\r\n", ""][rand() % 5] as string;
	if (typeof v === "string") return encodeString(v, rand);
	if (typeof v === "number") return Object.is(v, -0) ? "-0" : JSON.stringify(v);
	if (v === null || typeof v === "boolean") return JSON.stringify(v);
	const list = v as unknown[];
	const pair = (x: unknown) => Array.isArray(x) && x.length === 2 && typeof x[0] === "string" && x[0].length < KEY_UNITS;
	if (list.every(pair) && list.length > 0 && rand() % 3 !== 0)
		return `{${ws()}${(list as Array<[string, unknown]>).map(([k, x]) => `${encodeString(k, rand)}${ws()}:${ws()}${encode(x, rand)}`).join(`,${ws()}`)}${ws()}}`;
	return `[${ws()}${list.map((x) => encode(x, rand)).join(`${ws()},`)}${ws()}]`;
}

/** The value as a streamed read must give it: strings over `longChars` by their ends and length. */
function expected(v: unknown, limits: StreamLimits): unknown {
	if (typeof v === "string")
		return v.length > limits.longChars ? { head: v.slice(0, limits.keepChars), tail: v.slice(-limits.keepChars), length: v.length, whole: v } : v;
	if (Array.isArray(v)) return v.map((x) => expected(x, limits));
	if (v !== null && typeof v === "object") {
		const out: Record<string, unknown> = {};
		for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: expected(x, limits), enumerable: true, writable: true, configurable: true });
		return out;
	}
	return v;
}

/** A streamed value with its LongTexts opened: ends, length, and the string its bytes hold. */
function opened(v: unknown, bytes: Buffer): unknown {
	if (v instanceof LongText)
		return { head: v.head, tail: v.tail, length: v.length, whole: JSON.parse(bytes.subarray(v.byteStart - 1, v.byteEnd + 1).toString("utf8")) };
	if (Array.isArray(v)) return v.map((x) => opened(x, bytes));
	if (v !== null && typeof v === "object") {
		const out: Record<string, unknown> = {};
		for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: opened(x, bytes), enumerable: true, writable: true, configurable: true });
		return out;
	}
	return v;
}

const seeded = (seed: number) => {
	let s = seed >>> 0 || 1;
	return () => {
		s ^= s << 13;
		s ^= s >>> 17;
		s ^= s << 5;
		return (s >>> 0) % 1000;
	};
};

describe("streaming JSON reader", () => {
	it("gives JSON.parse's value for any chunking, escapes and long-string cut", () => {
		fc.assert(
			fc.property(
				jsonValue,
				fc.nat(),
				fc.integer({ min: 1, max: 17 }),
				fc.integer({ min: KEY_UNITS, max: 40 }),
				fc.integer({ min: 1, max: 5 }),
				(value, seed, chunk, longChars, keep) => {
					const text = encode(value, seeded(seed));
					const bytes = Buffer.from(text, "utf8");
					const limits: StreamLimits = { longChars, keepChars: Math.min(keep, longChars), budget: 1 << 30, chunkBytes: chunk };
					const whole = JSON.parse(text) as unknown;
					const r = streamBuffer(bytes, limits);
					// Keys are never long here (KEY_UNITS); a long key would make the line too big.
					expect(r.ok).toBe(true);
					if (r.ok) expect(opened(r.value, bytes)).toEqual(expected(whole, limits));
				},
			),
			{ numRuns: 400 },
		);
	});

	it("rejects exactly what JSON.parse rejects, bytes of any value included (invalid UTF-8 too)", () => {
		fc.assert(
			fc.property(
				jsonValue,
				fc.nat(),
				fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }),
				fc.integer({ min: 1, max: 9 }),
				(value, seed, edits, chunk) => {
					const bytes = Buffer.from(encode(value, seeded(seed)), "utf8");
					for (const [at, b] of edits) if (bytes.length > 0) bytes[at % bytes.length] = b;
					let whole: { ok: boolean; value?: unknown };
					try {
						whole = { ok: true, value: JSON.parse(bytes.toString("utf8")) };
					} catch {
						whole = { ok: false };
					}
					const r = streamBuffer(bytes, { longChars: 1 << 20, keepChars: 8, budget: 1 << 30, chunkBytes: chunk });
					expect(r.ok).toBe(whole.ok);
					if (r.ok && whole.ok) expect(r.value).toEqual(whole.value);
				},
			),
			{ numRuns: 400 },
		);
	});

	it("reads any window of a long string back from its file", () => {
		fc.assert(
			fc.property(jsString, jsString, fc.nat(), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 7 }), (a, b, seed, from, len, chunk) => {
				const s = `${a}${'x😀\\"é'.repeat(5)}${b}`;
				const text = `{"k":1,"t":${encodeString(s, seeded(seed))}}`;
				const file = join(tmp.dir, "long.json");
				writeFileSync(file, `  ${text}`);
				// Resume points every few bytes: windows start from the one before them.
				const limits: StreamLimits = { longChars: 10, keepChars: 3, budget: 1 << 30, chunkBytes: chunk, markBytes: 1 + (seed % 9) };
				const r = streamBuffer(Buffer.from(text), limits, 2);
				expect(r.ok).toBe(true);
				const long = (r as { value: { t: LongText } }).value.t;
				expect(long).toBeInstanceOf(LongText);
				expect(long.marks.length).toBeGreaterThan(0);
				const start = from % (s.length + 1);
				const end = Math.min(s.length + 3, start + (len % 40));
				expect(readLongTextRange(file, long, start, end, chunk)).toBe(s.slice(start, end));
			}),
			{ numRuns: 300 },
		);
	});

	it("reads a line again by its hint (ends of long strings only) into the value a full read gives", () => {
		fc.assert(
			fc.property(
				fc.array(jsString, { minLength: 1, maxLength: 4 }),
				fc.nat(),
				fc.integer({ min: 1, max: 7 }),
				fc.integer({ min: 1, max: 6 }),
				(texts, seed, chunk, keep) => {
					const rand = seeded(seed);
					// Long strings full of escapes and multi-byte characters, so the tail's start lands anywhere in them.
					const long = texts.map((t) => `${t}\\"😀é\n\u0001`.repeat(4) + t);
					const text = `{"a":[${long.map((t, i) => `{"k":${i},"t":${encodeString(t, rand)}}`).join(",")}],"z":"end"}`;
					const file = join(tmp.dir, "hint.json");
					writeFileSync(file, `#${text}`);
					const limits: StreamLimits = { longChars: 12, keepChars: keep, budget: 1 << 30, chunkBytes: chunk };
					const fd = openSync(file, "r");
					try {
						const length = Buffer.byteLength(text);
						const full = streamJson(fd, 1, length, limits);
						expect(full.ok).toBe(true);
						if (!full.ok) return;
						const hint = hugeHint(sampledLineHash(fd, 1, length) as string, full.longs, 1);
						const again = readByHint(fd, 1, length, hint, limits);
						expect(opened(again, Buffer.from(`#${text}`))).toEqual(opened(full.value, Buffer.from(`#${text}`)));
						expect(opened(again, Buffer.from(`#${text}`))).toEqual(expected(JSON.parse(text), limits));
					} finally {
						closeSync(fd);
					}
				},
			),
			{ numRuns: 300 },
		);
	});

	it("says blank for whitespace only (pi skips such a line) and invalid for an unfinished value", () => {
		const limits: StreamLimits = { longChars: 10, keepChars: 3, budget: 1 << 20, chunkBytes: 2 };
		expect(streamBuffer(Buffer.from(" \t\r  "), limits)).toEqual({ ok: false, reason: "blank" });
		expect(streamBuffer(Buffer.from('  {"a":'), limits)).toEqual({ ok: false, reason: "invalid-json" });
		expect(streamBuffer(Buffer.from(' "abc'), limits)).toEqual({ ok: false, reason: "invalid-json" });
	});

	it("counts a line whose kept fields exceed the budget as too big, and a long key too", () => {
		const many = Buffer.from(JSON.stringify({ list: Array.from({ length: 200 }, (_, i) => `item ${i}`) }));
		expect(streamBuffer(many, { longChars: 100, keepChars: 10, budget: 500, chunkBytes: 64 })).toEqual({ ok: false, reason: "too-big" });
		expect(streamBuffer(many, { longChars: 100, keepChars: 10, budget: 1 << 20, chunkBytes: 64 }).ok).toBe(true);
		const longKey = Buffer.from(JSON.stringify({ ["k".repeat(200)]: 1 }));
		expect(streamBuffer(longKey, { longChars: 100, keepChars: 10, budget: 1 << 20, chunkBytes: 64 })).toEqual({ ok: false, reason: "too-big" });
	});
});
